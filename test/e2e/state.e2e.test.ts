/**
 * State the app keeps right (issue: "At home with an Obsidian vault, and an app that keeps its
 * state"): evidence per turn, a question saved when asked, counts from the one progress model,
 * onboarding and model leftovers, and layout at 800x600. Web mode in Chromium; screenshots in
 * test-results/screenshots/state-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SHARED_DIR } from '../helpers/tmp.ts';
import { screenshot, webSuite } from './harness.ts';

const { open, temp } = webSuite();
const SMOLLM = path.join(SHARED_DIR, 'models', 'SmolLM2-135M-Instruct.Q4_1.gguf');
const STORIES = path.join(SHARED_DIR, 'models', 'stories260K.gguf');

async function ask(page: Page, question: string) {
  await page.locator('#ask-input').fill(question);
  await page.locator('#ask-input').press('Enter');
  await expect.poll(() => page.getByTestId('answer').getByTestId('answer-question').textContent(), { timeout: 60_000 }).toBe(question);
}

const closest = (page: Page) => page.getByTestId('abstention').locator('.closest blockquote').allTextContents();

describe('state the app keeps right', () => {
  it('each refused turn shows its own evidence after another conversation was asked', async () => {
    const { page } = await open({ indexFirst: true });
    const first = "What is Aurora's per-seat price for customers?";
    const second = 'How do I configure single sign-on for the dashboard?';
    await ask(page, first);
    await page.getByTestId('abstention').waitFor();
    const firstQuotes = await closest(page);
    const firstSearched = await page.getByTestId('abstention').locator('q').textContent();
    await page.keyboard.press('Alt+n');
    await ask(page, second);
    await page.getByTestId('abstention').waitFor();
    const secondQuotes = await closest(page);
    expect(secondQuotes).not.toEqual(firstQuotes);
    // The older conversation, opened from the list: its own question, what it searched, its own quotes.
    await page.getByTestId('thread-item').filter({ hasText: 'per-seat' }).click();
    await expect.poll(() => page.getByTestId('answer').getByTestId('answer-question').textContent()).toBe(first);
    expect(await page.getByTestId('abstention').locator('q').textContent()).toBe(firstSearched);
    expect(await closest(page)).toEqual(firstQuotes);
    await screenshot(page, 'state-07-own-evidence');
    // And back to the newer one.
    await page.getByTestId('thread-item').filter({ hasText: 'single sign-on' }).click();
    await expect.poll(() => page.getByTestId('answer').getByTestId('answer-question').textContent()).toBe(second);
    expect(await closest(page)).toEqual(secondQuotes);
  });

  it('onboarding: a folder import clears a failed download, messages leave Start free, and choosing a folder adds it', async () => {
    // A mirror nothing listens on: the download fails as it would with no network.
    const app = await open({ env: { SYNAPSIS_MODEL_MIRROR: 'http://127.0.0.1:9/' } });
    const { page } = app;
    await page.getByTestId('onboarding').waitFor();
    // Each chat model of the catalog says how fast it would write on this machine.
    const chatLines = page.getByTestId('catalog-line').filter({ hasText: 'written answers' });
    await chatLines.first().waitFor();
    for (const line of await chatLines.all()) expect(await line.getByTestId('speed-note').textContent()).toMatch(/for this machine: about [\d.]+ tokens\/s, an answer in about \d+ (s|min)/);
    await page.getByTestId('download-recommended').click();
    await page.getByTestId('download-error').waitFor({ timeout: 30_000 });
    await page.getByTestId('download-resume').waitFor();
    await screenshot(page, 'state-11-download-failed');
    const stick = temp.make('state-stick-');
    fs.copyFileSync(STORIES, path.join(stick, 'stories260K.gguf'));
    await page.getByLabel('Models folder').fill(stick);
    await page.getByTestId('import-folder').click();
    await page.getByTestId('models-present').getByRole('listitem').filter({ hasText: 'answers written in sentences' }).waitFor({ timeout: 60_000 });
    // The import's message (shown 4 s) does not cover Start.
    const start = page.getByRole('button', { name: 'Start', exact: true });
    await page.locator('.toast').first().waitFor();
    const covered = await page.evaluate(() => {
      const button = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Start')!;
      button.scrollIntoView();
      const a = button.getBoundingClientRect();
      const toasts = [...document.querySelectorAll('.toast')].map((t) => t.getBoundingClientRect());
      return { toasts: toasts.length, covered: toasts.some((b) => a.x < b.right && b.x < a.right && a.y < b.bottom && b.y < a.bottom) };
    });
    expect(covered.toasts).toBeGreaterThan(0);
    expect(covered.covered).toBe(false);
    await screenshot(page, 'state-11-imported-clean');
    expect(await page.getByTestId('download-error').count()).toBe(0);
    expect(await page.getByTestId('download-resume').count()).toBe(0);

    // Web mode's folder list: "Choose this folder" adds the folder.
    await page.getByLabel('Folder path').fill(app.vault);
    await page.getByRole('button', { name: 'Browse…', exact: true }).first().click();
    await page.getByTestId('folder-browser').getByRole('button', { name: 'Choose this folder' }).click();
    await page.locator('.roots--compact li').filter({ hasText: app.vault }).waitFor();
    expect(await page.getByLabel('Folder path').inputValue()).toBe('');
    await screenshot(page, 'state-11-folder-chosen');
    await start.click();
    await page.locator('nav[aria-label=Main]').waitFor();
  });

  it('models: one file imports and is used without a restart button, named for people; a removed one is not "in use"', async () => {
    const { page } = await open({ indexFirst: true });
    await page.keyboard.press('Alt+5');
    await page.getByLabel('Model file').fill(SMOLLM);
    await page.getByLabel('Model role').selectOption('chat');
    await page.getByRole('button', { name: 'Import model' }).click();
    const row = page.locator('table.models tr').filter({ hasText: 'SmolLM2-135M-Instruct (Q4_1)' });
    await row.waitFor({ timeout: 60_000 });
    // The engine restarted with it by itself.
    await row.getByText('in use').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Restart engine' }).count()).toBe(0);
    expect(await page.locator('main').textContent()).not.toContain('Smollm2 135M 8k');
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'state-12-model-named');
    await row.getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.locator('table.models tr').count()).toBe(0);
    await page.waitForTimeout(500);
    // (The engine's own stand-in chat model of these specs stays listed as set in the configuration.)
    expect(await page.locator('main').textContent()).not.toContain('SmolLM2-135M-Instruct (Q4_1)');
    expect(await page.getByRole('button', { name: 'Restart engine' }).count()).toBe(0);
    await screenshot(page, 'state-12-model-removed');
  });

  it('layout and text: graph header at 800x600, long questions, the status dot, F2, the collapsed restricted mark, the graph button', async () => {
    const { page } = await open({ indexFirst: true });
    await page.setViewportSize({ width: 800, height: 600 });
    // A 2,800-character question: cut on its card and in Recent questions, whole on demand.
    const long = `Why did we postpone QUIC ${'and what else was said about the relay transport in the meetings '.repeat(42)}`.trim();
    expect(long.length).toBeGreaterThan(2700);
    await page.locator('#ask-input').fill(long);
    await page.locator('#ask-input').press('Enter');
    const heading = page.getByTestId('answer').getByTestId('answer-question');
    await heading.waitFor({ timeout: 60_000 });
    expect(((await heading.textContent()) ?? '').length).toBeLessThan(400);
    expect((await heading.boundingBox())!.height).toBeLessThan(200);
    await screenshot(page, 'state-13-long-question');
    await heading.getByTestId('long-text-toggle').click();
    expect(await heading.textContent()).toContain(long);
    await heading.getByTestId('long-text-toggle').click();
    // Citations cite the lines of their sentence, not a whole section.
    for (const loc of await page.getByTestId('answer').locator('.source-link__loc').allTextContents()) {
      const [, from, to] = /:(\d+)–(\d+)$/.exec(loc) ?? [];
      expect(Number(to) - Number(from), loc).toBeLessThan(8);
    }
    // F2 on the conversation: its words, not a title cut with "…".
    await page.getByTestId('thread-item').first().focus();
    await page.keyboard.press('F2');
    const rename = await page.getByTestId('thread-rename').inputValue();
    expect(rename.endsWith('…')).toBe(false);
    expect(rename.startsWith('Why did we postpone QUIC and what else')).toBe(true);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Alt+n');
    const recent = page.getByTestId('recent-question').first();
    await recent.waitFor();
    expect(((await recent.textContent()) ?? '').length).toBeLessThanOrEqual(121);
    await screenshot(page, 'state-13-recent-questions');

    // The status dot stays round beside a long status.
    await page.locator('.index-badge__text').evaluate((el) => (el.textContent = 'Embedding 4,304 of 7,774 passages for meaning search · about 3 minutes left'));
    const dot = (await page.locator('.index-badge .dot').boundingBox())!;
    expect([Math.round(dot.width), Math.round(dot.height)]).toEqual([8, 8]);

    // The graph's header fits 800x600 with the sidebar open.
    await page.keyboard.press('Alt+4');
    await page.getByLabel('Entity').fill('decisions/2026-04-02 Transport protocol.md');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.getByRole('button', { name: 'Read this note' }).waitFor({ timeout: 30_000 });
    for (const name of ['Show', 'Read this note', '← Back']) {
      const box = (await page.getByRole('button', { name, exact: true }).boundingBox())!;
      expect(box.x + box.width, name).toBeLessThanOrEqual(800);
    }
    expect(await page.locator('main').evaluate((m) => m.scrollWidth - m.clientWidth)).toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
    await screenshot(page, 'state-13-graph-800x600');

    // Search cards: the graph is a button, not a blue word like a tag.
    await page.keyboard.press('Control+/');
    await page.locator('#search-input').fill('relay port');
    const graphButton = page.getByTestId('result').first().locator('..').getByTestId('result-graph');
    await graphButton.waitFor({ timeout: 30_000 });
    expect(await graphButton.textContent()).toContain('In graph');
    expect(await graphButton.getAttribute('class')).toContain('btn');
    await screenshot(page, 'state-13-search-graph-button');

    // Restricted notes shown, sidebar collapsed: a marked icon that says what it is.
    await page.keyboard.press('Alt+5');
    await page.getByLabel('Show them until the window closes').check();
    await page.getByRole('button', { name: 'Collapse the sidebar' }).click();
    const mark = page.getByTestId('restricted-mode');
    expect(await mark.getAttribute('aria-label')).toBe('Restricted notes shown: hide them');
    expect(await mark.getAttribute('title')).toContain('Restricted notes shown');
    expect(await mark.textContent()).not.toContain('Hide');
    await screenshot(page, 'state-13-collapsed-restricted');
    await mark.click();
    await expect.poll(() => page.getByTestId('restricted-mode').count()).toBe(0);
  });

  it('counts follow the index within a second: Library, Settings and the graph after two notes arrive', async () => {
    const app = await open({ indexFirst: true });
    const { page } = app;
    const engine = await app.host.engine();
    const before = (await engine.call('health/get', {})).documents.indexed;
    // The folder was indexed before the app opened: watch it, as the app does after adding a folder.
    await engine.call('index/watch', { enabled: true });
    await page.keyboard.press('Alt+4');
    const notes = page.getByText(/^\d+ notes · /);
    await notes.waitFor({ timeout: 30_000 });
    const notesBefore = Number(/^(\d+) notes/.exec((await notes.textContent()) ?? '')?.[1]);
    await page.keyboard.press('Alt+3');
    const header = page.locator('.view--library .view__header p');
    await expect.poll(() => header.textContent()).toContain(`${before} documents`);
    // Two notes arrive in the watched folder.
    fs.writeFileSync(path.join(app.vault, 'inbox', 'Arrived one.md'), '# Arrived one\n\nThe courier Petra Lind brought the Zephyr relay keys.\n');
    fs.writeFileSync(path.join(app.vault, 'inbox', 'Arrived two.md'), '# Arrived two\n\nPetra Lind signed the Zephyr handover with [[Arrived one]].\n');
    // The moment the engine counts them, and the moment the Library shows it.
    let engineAt = 0;
    let shownAt = 0;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !shownAt) {
      if (!engineAt && (await engine.call('health/get', {})).documents.indexed === before + 2) engineAt = Date.now();
      if (((await header.textContent()) ?? '').includes(`${before + 2} documents`)) shownAt = Date.now();
      await page.waitForTimeout(100);
    }
    expect(shownAt, 'the Library shows the two new documents').toBeGreaterThan(0);
    // Within a second of the engine (with room for a busy machine's polling).
    expect(shownAt - (engineAt || shownAt)).toBeLessThan(2500);
    expect(await page.getByTestId('last-report').count() === 0 || !(await page.getByTestId('last-report').textContent())!.includes('0 indexed')).toBe(true);
    await screenshot(page, 'state-10-library-counts');
    await page.keyboard.press('Alt+5');
    await expect.poll(() => page.getByTestId('health').textContent(), { timeout: 5_000 }).toContain(`${before + 2} documents`);
    await page.keyboard.press('Alt+4');
    await expect.poll(async () => Number(/^(\d+) notes/.exec((await notes.textContent()) ?? '')?.[1]), { timeout: 10_000 }).toBe(notesBefore + 2);
    await screenshot(page, 'state-10-graph-counts');
  });

  it('a question is saved when asked: reloaded mid-answer, it shows as interrupted with its quote, and resumes', async () => {
    // A chat model that writes a word every 400 ms: the answer is still being written at the reload.
    const { page } = await open({ indexFirst: true, chatDelayMs: 400 });
    const question = 'Why did we postpone QUIC?';
    await page.locator('#ask-input').fill(question);
    await page.locator('#ask-input').press('Enter');
    const streaming = page.getByTestId('answer-streaming');
    await streaming.getByTestId('answer-quote').waitFor({ timeout: 60_000 });
    const quote = ((await streaming.getByTestId('answer-quote').textContent()) ?? '').trim();
    expect(quote.length).toBeGreaterThan(20);
    await streaming.getByTestId('answer-writing').waitFor({ timeout: 30_000 });
    await page.reload();
    await page.locator('nav[aria-label=Main]').waitFor();
    // The conversation is there, its question interrupted with the reader's quote.
    const item = page.getByTestId('thread-item').filter({ hasText: question });
    await item.waitFor({ timeout: 10_000 });
    await item.click();
    const turn = page.getByTestId('thread-turn');
    await turn.getByTestId('turn-interrupted').waitFor();
    expect(await turn.locator('.answer__question').textContent()).toBe(question);
    expect(((await turn.getByTestId('turn-interrupted-quote').textContent()) ?? '').replace(/\s+/g, ' ')).toBe(quote.replace(/\s+/g, ' '));
    await screenshot(page, 'state-08-interrupted');
    // Resume: answered in the same conversation, one question in it.
    await turn.getByTestId('turn-resume').click();
    await expect.poll(() => page.getByTestId('answer').getByTestId('answer-question').textContent(), { timeout: 60_000 }).toBe(question);
    expect(await page.getByTestId('turn-interrupted').count()).toBe(0);
    await expect.poll(() => page.getByTestId('thread-item').allTextContents()).toEqual([expect.stringContaining('1 question')]);
    await screenshot(page, 'state-08-resumed');
  });

  it('while a chat model writes: its unchecked words are not shown, and + New starts another conversation', async () => {
    const { page } = await open({ indexFirst: true, chatDelayMs: 400 });
    const first = 'Why did we postpone QUIC?';
    await page.locator('#ask-input').fill(first);
    await page.locator('#ask-input').press('Enter');
    const streaming = page.getByTestId('answer-streaming');
    await streaming.getByTestId('answer-writing').waitFor({ timeout: 60_000 });
    await expect.poll(async () => Number(/(\d+) words?/.exec((await streaming.getByTestId('answer-writing').textContent()) ?? '')?.[1] ?? 0), { timeout: 20_000 }).toBeGreaterThan(2);
    // The quote is what shows, with what the model is doing; not its draft.
    expect(await streaming.getByTestId('answer-quote').count()).toBe(1);
    expect(await streaming.textContent()).toContain('Writing a fuller answer…');
    expect(await streaming.getByTestId('answer-draft').count()).toBe(0);
    await screenshot(page, 'state-09-writing');
    // The app stays usable: + New is enabled, and another question is answered meanwhile.
    const newButton = page.getByTestId('new-thread');
    expect(await newButton.isEnabled()).toBe(true);
    await newButton.click();
    expect(await page.getByTestId('answer-streaming').count()).toBe(0);
    await page.keyboard.press('Control+/');
    await page.locator('#search-input').fill('relay port');
    await page.getByTestId('result').first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Control+k');
    // The first answer finishes in its own conversation.
    const firstItem = page.getByTestId('thread-item').filter({ hasText: first });
    await firstItem.waitFor({ timeout: 10_000 });
    await expect.poll(async () => {
      await firstItem.click();
      return page.getByTestId('answer').getByTestId('verdict').count();
    }, { timeout: 60_000, interval: 2000 }).toBe(1);
    expect(await page.getByTestId('answer').getByTestId('answer-question').textContent()).toBe(first);
    await screenshot(page, 'state-09-finished-in-its-conversation');
  });
});
