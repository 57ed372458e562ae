import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HashedEmbedder } from '../../src/cli/bench/hashed-embedder.ts';
import { screenshot, webSuite } from './harness.ts';

/** After each spec, every request its pages made went to the server that served them (webSuite checks). */
const { browser: chromiumBrowser, open } = webSuite();

/**
 * The shipped profile's weights with an Answered bar for readings without sentence vectors (the
 * shipped one has none there, docs/answers.md): 0.7, between the sample vault's sure quotes (the
 * outage's length 0.77, Maya's city 0.78) and its unsure one (Tomás's city 0.58); the abstention
 * threshold no higher than it.
 */
function profileWithLexicalBar(): string {
  const shipped = JSON.parse(fs.readFileSync(new URL('../../src/engine/answer/reader/answer-profile.json', import.meta.url), 'utf8')) as { abstain_below: number };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-profile-')), 'profile.json');
  fs.writeFileSync(file, JSON.stringify({ ...shipped, answered_at: 0.7, abstain_below: Math.min(shipped.abstain_below, 0.7) }));
  return file;
}

describe('web mode in Chromium', () => {
  it('first run: onboarding adds a folder, shows the hardware, continues lexical-only, and indexing completes with progress', async () => {
    const app = await open();
    try {
      const { page } = app;
      await page.getByTestId('onboarding').waitFor();
      await screenshot(page, '01-onboarding');
      await page.getByLabel('Folder path').fill(app.vault);
      await page.getByRole('button', { name: 'Add folder' }).click();
      await page.getByText(`✓ ${fs.realpathSync(app.vault)}`).waitFor();
      await page.getByTestId('hardware').getByText(/^(CPU only|GPU: .+)$/).waitFor();
      expect(await page.getByTestId('models-present').textContent()).toMatch(/search by words works at once/);
      await screenshot(page, '02-onboarding-folder-added');
      await page.getByRole('button', { name: 'Start with search by words' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Library/ }).click();
      await page.getByTestId('root-progress').and(page.locator('[data-stage=done]')).waitFor({ timeout: 60_000 });
      // 53 files, one of them restricted: the Library counts the 52 the user sees.
      await page.getByText(/^52 documents · \d+ passages/).waitFor({ timeout: 30_000 });
      await page.getByTestId('last-report').getByText(/Last run: \d+ indexed, \d+ unchanged/).waitFor();
      await expect.poll(() => page.getByTestId('index-badge').textContent()).toMatch(/Watching for changes|Up to date/);
      await screenshot(page, '03-library');
      // A bad folder gets a clear error naming it, and nothing already indexed is lost.
      await page.getByLabel('Folder path').fill('/no/such/folder');
      await page.getByRole('button', { name: 'Add folder' }).click();
      await page.getByRole('alert').getByText('No such folder: /no/such/folder').waitFor();
      expect(await page.getByTestId('root').count()).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('ask: the answer streams, citation chips open the cited lines highlighted, and "open in editor" opens the file at its line', async () => {
    const readerProfile = profileWithLexicalBar();
    const app = await open({ indexFirst: true, chatDelayMs: 40, readerProfile });
    try {
      const { page } = app;
      await page.keyboard.press('Control+k');
      // The quote states the outage's length and the scorer is sure of it (at or above the Answered bar): Answered.
      await page.locator('#ask-input').fill('How long did the March relay outage last?');
      await page.keyboard.press('Enter');
      const streaming = page.getByTestId('answer-streaming');
      await streaming.waitFor();
      // The model's words stream as a count, never as text before they are checked.
      await streaming.getByTestId('answer-writing').waitFor({ timeout: 20_000 });
      expect(await streaming.getByTestId('answer-draft').count()).toBe(0);
      await page.getByTestId('answer').waitFor({ timeout: 30_000 });
      await expect.poll(() => page.getByTestId('verdict').textContent()).toBe('Answered');
      await screenshot(page, '04-answer');
      const chip = page.getByTestId('answer').locator('.answer__text button.cite-chip').first();
      await chip.click();
      const preview = page.getByTestId('source-preview');
      // A note opens rendered with the cited lines marked; its numbered lines hold the exact text.
      await preview.locator('[data-cited]').first().waitFor();
      await preview.getByRole('button', { name: 'Lines', exact: true }).click();
      await preview.locator('.code__line--cited').first().waitFor();
      const cited = (await preview.locator('.code__line--cited .code__text').allTextContents()).join('\n');
      const answerText = (await page.getByTestId('answer').locator('.answer__text').textContent()) ?? '';
      // The chip's lines hold the sentence the answer quoted.
      // The first quoted sentence: the text before its chip's number.
      const quoted = answerText.split(/(?<=[.!?])\s*\d+/)[0]!.trim().slice(0, 40);
      expect(cited.replace(/\s+/g, ' ')).toContain(quoted.replace(/\s+/g, ' '));
      await screenshot(page, '05-citation-preview');
      await preview.getByRole('button', { name: 'Open in editor' }).click();
      await expect.poll(() => fs.existsSync(app.editorLog), { timeout: 10_000 }).toBe(true);
      const args = JSON.parse(fs.readFileSync(app.editorLog, 'utf8')) as string[];
      expect(args[0]).toBe('--goto');
      expect(args[1]).toMatch(new RegExp(`^${fs.realpathSync(app.vault).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/.+:\\d+$`));
      await page.keyboard.press('Escape');
      await expect.poll(() => preview.count()).toBe(0);
    } finally {
      await app.close();
      fs.rmSync(path.dirname(readerProfile), { recursive: true, force: true });
    }
  });

  it('an unanswerable question abstains and shows what was searched', async () => {
    const app = await open({ indexFirst: true });
    try {
      const { page } = app;
      await page.locator('#ask-input').fill('What is the capital of Mongolia?');
      await page.keyboard.press('Enter');
      await page.getByTestId('abstention').waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('abstention').textContent()).toMatch(/What was searched/);
      // The question as the person wrote it, not the analyzer's stems ("capit mongolia").
      expect(await page.getByTestId('abstention').textContent()).toContain('searched for What is the capital of Mongolia?');
      expect(await page.getByTestId('verdict').textContent()).toBe('Not in your notes');
      // What changes the meaning is read with the answer, not folded under "What was limited".
      expect(await page.getByTestId('meaning-limits').textContent()).toMatch(/never mention: .*Mongolia/);
      await screenshot(page, '06-abstention');
    } finally {
      await app.close();
    }
  });

  it('a partly answered question shows its closest passages open, the asked words marked', async () => {
    const app = await open({ indexFirst: true });
    try {
      const { page } = app;
      await page.locator('#ask-input').fill('Where is Tomás based?');
      await page.keyboard.press('Enter');
      const closest = page.getByTestId('closest-passages');
      await closest.waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('verdict').textContent()).toBe('Partly answered');
      expect(await closest.locator('h3').textContent()).toBe('The 3 closest passages: the notes may say it here');
      // Three open, each opening its lines; the question's words marked in them.
      expect(await closest.locator(':scope > ol > li').count()).toBe(3);
      const marks = (await closest.locator(':scope > ol mark').allTextContents()).map((m) => m.toLowerCase());
      expect(marks).toContain('tomás');
      await screenshot(page, '06b-closest-passages');
      await closest.locator(':scope > ol > li button').first().click();
      await page.getByTestId('source-preview').waitFor();
    } finally {
      await app.close();
    }
  });

  it('without a chat model: a sure quote is Answered alone; an unsure one reads as the answer, the closest sentences listed apart under it', async () => {
    const readerProfile = profileWithLexicalBar();
    const app = await open({ indexFirst: true, noChat: true, readerProfile });
    try {
      const { page } = app;
      // At or above the Answered bar: the quote alone, no closest sentences.
      await page.locator('#ask-input').fill('Where is Maya Chen based?');
      await page.keyboard.press('Enter');
      await page.getByTestId('answer').waitFor({ timeout: 30_000 });
      await expect.poll(() => page.getByTestId('verdict').textContent()).toBe('Answered');
      expect(await page.getByTestId('answer').locator('.answer__text').textContent()).toMatch(/^Maya Chen — location: Rotterdam\.\s*1$/);
      expect(await page.getByTestId('answer-closest').count()).toBe(0);
      // Below it: Partly answered, the sentences closest to the question listed under the quote.
      await page.locator('#ask-input').fill('Where is Tomás based?');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('verdict').last().textContent(), { timeout: 30_000 }).toBe('Partly answered');
      const answer = page.getByTestId('answer').last();
      expect(await answer.locator('.answer__text').textContent()).toMatch(/^Tomás Herrera — location: Valencia \(remote\)\./);
      const closest = answer.getByTestId('answer-closest');
      expect(await closest.locator('p').textContent()).toBe('Other sentences of your notes close to the question:');
      const lines = await closest.locator('li').allTextContents();
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatch(/Tomás/);
      await screenshot(page, '04b-answer-without-chat-model');
    } finally {
      await app.close();
      fs.rmSync(path.dirname(readerProfile), { recursive: true, force: true });
    }
  });

  it('search: results as you type with highlighted matches, narrowed by type filter', async () => {
    const app = await open({ indexFirst: true });
    try {
      const { page } = app;
      await page.keyboard.press('Control+/');
      await page.locator('#search-input').pressSequentially('relay port', { delay: 30 });
      await page.getByTestId('result').first().waitFor();
      expect(await page.getByTestId('result').first().locator('mark').count()).toBeGreaterThan(0);
      const allPaths = await page.locator('.result__loc').allTextContents();
      expect(allPaths.some((p) => p.endsWith('.md') || p.includes('.md:'))).toBe(true);
      await page.getByRole('button', { name: 'code', exact: true }).click();
      await expect.poll(async () => (await page.locator('.result__loc').allTextContents()).every((p) => /code\//.test(p))).toBe(true);
      expect(await page.getByTestId('result').count()).toBeGreaterThan(0);
      await screenshot(page, '07-search-filtered');
      // Keyboard: ↓ moves to the second result, Enter opens its lines.
      await page.locator('#search-input').press('ArrowDown');
      await page.locator('#search-input').press('ArrowDown');
      const second = (await page.locator('.result--active .result__loc').textContent()) ?? '';
      expect(second).toBe((await page.locator('.result__loc').nth(1).textContent()) ?? 'missing');
      await page.locator('#search-input').press('Enter');
      const preview = page.getByTestId('source-preview');
      await preview.waitFor();
      expect(second.startsWith((await preview.locator('.preview__path').textContent()) ?? 'missing')).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('graph: the neighbourhood of a person, and an edge shows the lines that state it', async () => {
    const app = await open({ indexFirst: true });
    try {
      const { page } = app;
      await page.keyboard.press('Alt+4');
      await page.getByLabel('Entity').fill('Maya Chen');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.getByTestId('graph-node').first().waitFor();
      expect(await page.getByTestId('graph-node').count()).toBeGreaterThan(5);
      await page.getByRole('button', { name: 'Zoom in' }).click();
      expect(await page.locator('[data-testid=graph-svg] > g').getAttribute('transform')).toContain('scale(1.25)');
      await page.getByRole('button', { name: 'Reset the view' }).click();
      await page.getByTestId('graph-edge').first().dispatchEvent('click');
      const evidence = page.getByTestId('edge-evidence');
      await evidence.waitFor();
      const locator = (await evidence.locator('button.link').first().textContent()) ?? '';
      expect(locator).toMatch(/#L\d+-L\d+$/);
      await screenshot(page, '08-graph');
      await evidence.locator('button.link').first().click();
      await page.getByTestId('source-preview').locator('[data-cited]').first().waitFor();
    } finally {
      await app.close();
    }
  });

  it('the restricted note is never shown in search, answers or the graph unless the user allows it for the session', async () => {
    const app = await open({ indexFirst: true });
    try {
      const { page } = app;
      await page.keyboard.press('Control+/');
      await page.locator('#search-input').fill('Bluefin retention plan');
      await page.getByTestId('search-meta').waitFor();
      expect(await page.locator('.result__loc').allTextContents()).not.toContainEqual(expect.stringContaining('Compensation review'));
      await page.keyboard.press('Control+k');
      await page.locator('#ask-input').fill('What is the code word for the retention plan?');
      await page.keyboard.press('Enter');
      await page.locator('[data-testid=answer], [data-testid=abstention]').first().waitFor({ timeout: 30_000 });
      expect(await page.locator('main').textContent()).not.toContain('Bluefin');
      await page.keyboard.press('Alt+4');
      await page.getByLabel('Entity').fill('Sofia Lindqvist');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.locator('[data-testid=graph-svg], .notice').first().waitFor();
      expect(await page.locator('main').textContent()).not.toContain('Compensation review');
      await page.keyboard.press('Alt+5');
      await page.getByLabel('Show them until the window closes').check();
      await page.keyboard.press('Control+/');
      await page.locator('#search-input').fill('Bluefin retention');
      await expect.poll(async () => (await page.locator('.result__loc').allTextContents()).join(' '), { timeout: 10_000 }).toContain('Compensation review');
    } finally {
      await app.close();
    }
  });

  it('settings and health: degradations, the machine, themes', async () => {
    const app = await open({ indexFirst: true });
    try {
      const { page } = app;
      await page.keyboard.press('Alt+5');
      await page.getByTestId('health').getByText('no embedding model is installed').waitFor();
      await page.getByTestId('system').getByText(/threads/).waitFor({ timeout: 30_000 });
      // The retrieval profile in use, and the languages detected in the folders (the sample vault has Russian notes).
      expect(await page.getByTestId('settings-profile').textContent()).toMatch(/profile default/);
      const languages = (await page.getByTestId('settings-languages').textContent()) ?? '';
      expect(languages).toMatch(/\ben \d+/);
      expect(languages).toMatch(/\bru \d+/);
      await page.getByRole('radio', { name: 'light' }).click();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
      await screenshot(page, '09-settings-light');
      await page.getByRole('radio', { name: 'dark' }).click();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      await screenshot(page, '10-settings-dark');
      await page.keyboard.press('Control+k');
      await screenshot(page, '11-ask-dark');
    } finally {
      await app.close();
    }
  });

  it('settings with an embedding model: its sentence vectors, counted', async () => {
    const app = await open({ indexFirst: true, embedder: new HashedEmbedder(64) });
    try {
      const { page } = app;
      await page.keyboard.press('Alt+5');
      await expect.poll(async () => (await page.getByTestId('settings-sentences').textContent()) ?? '', { timeout: 10_000 }).toMatch(/^hashed-bow-64 [\d,.]+k?$/);
      expect(await page.getByTestId('health').textContent()).not.toMatch(/no embedding model/);
      await page.getByTestId('settings-sentences').scrollIntoViewIfNeeded();
      await screenshot(page, '12-settings-sentence-vectors');
    } finally {
      await app.close();
    }
  });

  it('a page without the token cannot reach the engine and says how to open the app', async () => {
    const app = await open();
    try {
      const page = await chromiumBrowser().newPage();
      await page.goto(app.server.url);
      await page.getByText('Open the address that `synapsis web` printed').waitFor();
      const refused = await page.evaluate(
        (port) =>
          new Promise<string>((resolve) => {
            const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`, ['synapsis', 'synapsis-token.deadbeefdeadbeefdeadbeef']);
            ws.onopen = () => resolve('open');
            ws.onerror = () => resolve('refused');
          }),
        app.server.port,
      );
      expect(refused).toBe('refused');
      await page.close();
    } finally {
      await app.close();
    }
  });
});
