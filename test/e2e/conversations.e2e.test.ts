/**
 * Conversations in the Ask view over web mode: a question, a follow-up that keeps the context
 * ("Searched as: …"), the thread kept across a reload of the page, copy as markdown and export of
 * the thread as a markdown file with its citations. Screenshots in
 * test-results/screenshots/threads-*.png (1280x800 light and dark, 800x600).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { screenshot, webSuite } from './harness.ts';

const { open } = webSuite();

const FIRST = 'Why did we postpone QUIC?';
const FOLLOW_UP = 'and who decided it?';
const DECISION = 'decisions/2026-04-02 Transport protocol.md';

describe('conversations', () => {
  it('asks, follows up with the context kept, keeps the thread across a reload, copies and exports it with citations', async () => {
    const { page } = await open({ indexFirst: true });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const ask = async (question: string) => {
      await page.locator('#ask-input').fill(question);
      await page.locator('#ask-input').press('Enter');
      await expect.poll(() => page.getByTestId('answer').getByTestId('answer-question').textContent(), { timeout: 60_000 }).toBe(question);
    };

    await ask(FIRST);
    // The question started a conversation, named after it.
    await expect.poll(() => page.getByTestId('thread-item').allTextContents()).toEqual([expect.stringContaining(FIRST)]);
    expect(await page.getByTestId('answer').getByTestId('searched-as').count()).toBe(0);

    await ask(FOLLOW_UP);
    const searched = (await page.getByTestId('answer').getByTestId('searched-as').textContent()) ?? '';
    expect(searched).toMatch(/^Searched as: “?and who decided it .*QUIC/);
    expect(await page.getByTestId('answer').getByTestId('citation').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining(DECISION)]));
    // The first turn stays above, with its citations clickable.
    const earlier = page.getByTestId('thread-turn');
    expect(await earlier.count()).toBe(1);
    expect(await earlier.locator('.answer__question').textContent()).toBe(FIRST);
    await earlier.getByTestId('turn-citation').first().click();
    await page.getByTestId('source-preview').locator('[data-cited]').first().waitFor();
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('thread-item').first().textContent()).toContain('2 questions');
    await screenshot(page, 'threads-01-follow-up');

    // Copy as markdown: the answer with its sources.
    await page.getByTestId('copy-markdown').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain(`## ${FOLLOW_UP}`);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain('Searched as:');
    expect(copied).toContain(`\`${DECISION}:`);
    expect(copied).not.toContain(`## ${FIRST}`);

    // A reload of the page: the thread is still there, and opens with both turns.
    await page.reload();
    await page.locator('nav[aria-label=Main]').waitFor();
    await page.getByTestId('thread-item').first().waitFor();
    expect(await page.getByTestId('answer').count()).toBe(0);
    await page.getByTestId('thread-item').first().click();
    await expect.poll(() => page.getByTestId('answer').getByTestId('answer-question').textContent()).toBe(FOLLOW_UP);
    expect(await page.getByTestId('thread-turn').locator('.answer__question').allTextContents()).toEqual([FIRST]);
    expect(await page.getByTestId('answer').getByTestId('searched-as').textContent()).toBe(searched);

    // Export: a markdown file with every question, what it was searched as and the citations.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('thread-export').click()]);
    expect(download.suggestedFilename()).toBe('Why-did-we-postpone-QUIC.md');
    const markdown = fs.readFileSync((await download.path())!, 'utf8');
    expect(markdown.startsWith(`# ${FIRST}\n`)).toBe(true);
    expect(markdown).toContain(`## ${FIRST}`);
    expect(markdown).toContain(`## ${FOLLOW_UP}`);
    expect(markdown).toMatch(/_Searched as: and who decided it .*QUIC.*_/);
    expect(markdown).toMatch(new RegExp(`- \\[\\d+\\] .*\`${DECISION.replace(/[.]/g, '\\.')}:\\d+`));

    // A follow-up after New starts its own conversation, searched as asked.
    await page.keyboard.press('Alt+n');
    expect(await page.getByTestId('thread-turn').count()).toBe(0);
    await ask('Who is the general counsel of Lumen Labs?');
    expect(await page.getByTestId('thread-item').count()).toBe(2);
    expect(await page.getByTestId('answer').getByTestId('searched-as').count()).toBe(0);

    // Rename (F2 on the list) and delete.
    await page.getByTestId('thread-item').first().focus();
    await page.keyboard.press('F2');
    await page.getByTestId('thread-rename').fill('Legal');
    await page.getByTestId('thread-rename').press('Enter');
    await expect.poll(() => page.getByTestId('thread-item').first().textContent()).toContain('Legal');
    await page.getByTestId('thread-delete').click();
    await page.getByTestId('thread-delete-confirm').click();
    await expect.poll(() => page.getByTestId('thread-item').count()).toBe(1);

    // The QUIC thread in dark, and at 800x600.
    await page.getByTestId('thread-item').first().click();
    await page.getByTestId('thread-turn').first().waitFor();
    await page.evaluate(() => localStorage.setItem('synapsis.theme', '"dark"'));
    await page.reload();
    await page.getByTestId('thread-item').first().click();
    await page.getByTestId('thread-turn').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await screenshot(page, 'threads-02-dark');
    await page.setViewportSize({ width: 800, height: 600 });
    await screenshot(page, 'threads-03-800x600-dark');
    await page.evaluate(() => localStorage.setItem('synapsis.theme', '"light"'));
    await page.reload();
    await page.getByTestId('thread-item').first().click();
    await page.getByTestId('thread-turn').first().waitFor();
    await screenshot(page, 'threads-04-800x600-light');
    // Nothing overflows sideways at 800x600.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
  });

  it('holds back an answer from restricted notes once they are hidden: in the thread, after a reload and in the export', async () => {
    const { page } = await open({ indexFirst: true });
    await page.keyboard.press('Alt+5');
    await page.getByLabel('Show them until the window closes').check();
    await page.keyboard.press('Control+k');
    await page.locator('#ask-input').fill('What is the code word for the retention plan?');
    await page.locator('#ask-input').press('Enter');
    await page.getByTestId('answer-restricted').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('answer').textContent()).toContain('Bluefin');
    await page.locator('#ask-input').fill(FIRST);
    await page.locator('#ask-input').press('Enter');
    await expect.poll(() => page.getByTestId('answer').getByTestId('answer-question').textContent(), { timeout: 60_000 }).toBe(FIRST);
    expect(await page.getByTestId('thread-turn').first().textContent()).toContain('Bluefin');

    await page.getByRole('button', { name: 'Hide' }).click();
    await page.getByTestId('turn-hidden').waitFor();
    expect(await page.locator('main').textContent()).not.toContain('Bluefin');
    expect(await page.getByTestId('thread-turn').locator('.answer__question').allTextContents()).toEqual(['What is the code word for the retention plan?', FIRST]);
    await screenshot(page, 'threads-05-restricted-held-back');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('thread-export').click()]);
    const markdown = fs.readFileSync((await download.path())!, 'utf8');
    expect(markdown).not.toContain('Bluefin');
    expect(markdown).toContain('uses restricted notes and is not shown');
    expect(markdown).toContain(`## ${FIRST}`);

    await page.reload();
    await page.getByTestId('thread-item').first().click();
    await page.getByTestId('turn-hidden').waitFor();
    expect(await page.locator('main').textContent()).not.toContain('Bluefin');
  });
});
