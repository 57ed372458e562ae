/**
 * The reading pane over web mode: a note opened from a citation, a search result and the graph,
 * rendered as markdown with the cited lines highlighted and in view, its wikilinks opening in the
 * pane with Back, related notes with why, restricted notes never shown; and the search tag filter's
 * suggestions (every visible tag, keyboard navigable). Screenshots land in
 * test-results/screenshots/reader-*.png, at 1280x800 and 800x600, light and dark.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, webSuite } from './harness.ts';

const { open } = webSuite();

const RESTRICTED = 'hr/Compensation review 2026.md';
const REASON = /^. ?(links here|linked from this note|shares: .+|similar passage: .+)$/;

/** Whether the element is inside the pane's scrolled area as shown (not scrolled out of sight). */
async function inView(page: Page, element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const main = await page.locator('.preview__main').boundingBox();
  if (!box || !main) return false;
  return box.y >= main.y - 1 && box.y + Math.min(box.height, 40) <= main.y + main.height + 1;
}

async function relatedPaths(pane: Locator): Promise<string[]> {
  await pane.getByTestId('related-note').first().waitFor();
  return pane.locator('.related__path').allTextContents();
}

describe('the reading pane in web mode', () => {
  it('a citation opens the note rendered, cited lines highlighted and in view; a wikilink opens in the pane, Back returns, a related note opens', async () => {
    const { page } = await open({ indexFirst: true });
    await page.keyboard.press('Control+k');
    await page.locator('#ask-input').fill('Why did we postpone QUIC?');
    await page.keyboard.press('Enter');
    await page.getByTestId('answer').waitFor({ timeout: 30_000 });
    await page.getByTestId('answer').locator('.answer__text button.cite-chip').first().click();

    const pane = page.getByTestId('source-preview');
    const note = pane.getByTestId('rendered-note');
    const cited = note.locator('[data-cited]').first();
    await cited.waitFor();
    // Rendered, not raw: a heading element, no markdown heading marks or front-matter fences in the text.
    expect(await note.locator('h1').count()).toBe(1);
    expect(await note.locator('h1').textContent()).not.toMatch(/^#/);
    await expect.poll(() => inView(page, cited)).toBe(true);
    const citedPath = (await pane.locator('.preview__path').textContent()) ?? '';
    expect(citedPath).toMatch(/\.md$/);

    // Related notes, each with why; the restricted note is not among them.
    const related = await relatedPaths(pane);
    expect(related.length).toBeGreaterThan(0);
    expect(related).not.toContain(RESTRICTED);
    for (const why of await pane.getByTestId('related-why').allTextContents()) expect(why).toMatch(REASON);
    await screenshot(page, 'reader-01-citation-1280-light');

    // The same lines as numbered lines, still highlighted.
    await pane.getByRole('button', { name: 'Lines', exact: true }).click();
    await pane.locator('.code__line--cited').first().waitFor();
    await pane.getByRole('button', { name: 'Note', exact: true }).click();
    await cited.waitFor();

    // A wikilink opens its note in the pane; Back returns to the cited lines.
    const link = note.locator('a.wikilink').first();
    const target = (await link.getAttribute('data-note')) ?? 'missing';
    await link.click();
    await expect.poll(() => pane.locator('.preview__path').textContent()).toBe(target);
    await note.locator('h1, p').first().waitFor();
    expect(await pane.locator('.muted.small').first().textContent()).toContain('whole note');
    await screenshot(page, 'reader-02-wikilink');
    await pane.getByTestId('preview-back').click();
    await expect.poll(() => pane.locator('.preview__path').textContent()).toBe(citedPath);
    await cited.waitFor();
    expect(await pane.getByTestId('preview-back').count()).toBe(0);

    // A related note opens in the pane, at the lines that make it related when there are such lines.
    const firstRelated = pane.getByTestId('related-note').first();
    const relatedPath = (await firstRelated.locator('.related__path').textContent()) ?? 'missing';
    await firstRelated.click();
    await expect.poll(() => pane.locator('.preview__path').textContent()).toBe(relatedPath);
    await pane.getByTestId('preview-back').waitFor();
    await screenshot(page, 'reader-03-related-note');
    await page.keyboard.press('Escape');
    await expect.poll(() => pane.count()).toBe(0);
  });

  it('a search result and a graph note open in the pane; a restricted note never shows in related notes; code shows as lines', async () => {
    const { page } = await open({ indexFirst: true });
    await page.keyboard.press('Control+/');
    await page.locator('#search-input').fill('relay port');
    await page.getByTestId('result').first().click();
    const pane = page.getByTestId('source-preview');
    await pane.getByTestId('rendered-note').locator('[data-cited]').first().waitFor();
    // The note's table is a table, its code spans code.
    expect(await pane.locator('.note-body table').count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');

    // Code is shown as numbered lines, without a rendered view.
    await page.locator('#search-input').fill('AURORA_RELAY_PORT config.go');
    await page.locator('.result__loc', { hasText: 'code/config.go' }).first().click();
    await pane.locator('.code__line--cited').first().waitFor();
    expect(await pane.getByTestId('rendered-note').count()).toBe(0);
    expect(await pane.getByRole('button', { name: 'Note', exact: true }).count()).toBe(0);
    await screenshot(page, 'reader-04-code-lines');
    await page.keyboard.press('Escape');

    // From the graph: a person the restricted note names; its related notes leave that note out.
    await page.keyboard.press('Alt+4');
    await page.getByLabel('Entity').fill('Sofia Lindqvist');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('button', { name: 'Read this note' }).click();
    await expect.poll(() => pane.locator('.preview__path').textContent()).toBe('people/Sofia Lindqvist.md');
    expect(await relatedPaths(pane)).not.toContain(RESTRICTED);
    expect(await pane.textContent()).not.toMatch(/Compensation review/);
    await page.keyboard.press('Escape');

    // Shown for the session, the restricted note reads in the pane, marked, with the notes it links to.
    await page.keyboard.press('Alt+5');
    await page.getByLabel('Show them until the window closes').check();
    await page.keyboard.press('Control+/');
    await page.locator('#search-input').fill('Bluefin retention');
    await page.getByTestId('result').filter({ hasText: 'Compensation review' }).first().click();
    await pane.getByTestId('rendered-note').locator('[data-cited]').first().waitFor();
    expect(await pane.locator('.preview__header .badge--restricted').textContent()).toBe('restricted note');
    const sofia = pane.getByTestId('related-note').filter({ hasText: 'people/Sofia Lindqvist.md' });
    await sofia.waitFor();
    expect(await sofia.getByTestId('related-why').allTextContents()).toContain('→ linked from this note');
    await screenshot(page, 'reader-07-restricted-shown');
  });

  it('the tag filter suggests every visible tag as you type, keyboard navigable, a restricted note\'s tags hidden', async () => {
    const { page } = await open({ indexFirst: true });
    await page.keyboard.press('Control+/');
    await page.locator('#search-input').fill('relay');
    await page.getByTestId('result').first().waitFor();
    const paths = () => page.locator('.result__loc').allTextContents();
    const tags = page.locator('#tag-filter');
    const suggestions = page.getByRole('list', { name: 'Tag suggestions' });
    // A tag one note carries, in no result and not among the graph's most connected.
    await tags.pressSequentially('obs', { delay: 30 });
    await suggestions.getByRole('button', { name: '#observability' }).waitFor();
    // Only the restricted note is tagged confidential: not suggested.
    await tags.fill('');
    await tags.pressSequentially('conf', { delay: 30 });
    await page.getByTestId('no-tag').waitFor();
    expect(await page.getByTestId('no-tag').textContent()).toContain('No note is tagged #conf');
    expect(await suggestions.count()).toBe(0);
    // The arrow keys move through the suggestions, Enter picks one and the results follow it.
    await tags.fill('');
    await tags.pressSequentially('how', { delay: 30 });
    await suggestions.getByRole('button', { name: '#howto' }).waitFor();
    // A half-typed tag does not filter the results away.
    await page.waitForTimeout(600);
    expect((await paths()).some((p) => !p.startsWith('howto/'))).toBe(true);
    expect(await suggestions.locator('.tag-suggestions__count').first().textContent()).toMatch(/^\d+$/);
    await tags.press('ArrowDown');
    await expect.poll(() => tags.getAttribute('aria-activedescendant')).toBe('tag-suggestion-0');
    expect(await page.locator('#tag-suggestion-0').getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'reader-05-tag-suggestions');
    await tags.press('Enter');
    await expect.poll(() => tags.inputValue()).toBe('howto, ');
    await expect.poll(async () => (await paths()).every((p) => p.startsWith('howto/')), { timeout: 10_000 }).toBe(true);
    expect((await paths()).length).toBeGreaterThan(0);
    // A whole tag typed applies without picking it.
    await tags.fill('');
    await tags.pressSequentially('decision', { delay: 30 });
    await expect.poll(async () => (await paths()).every((p) => p.startsWith('decisions/')), { timeout: 10_000 }).toBe(true);
    expect((await paths()).length).toBeGreaterThan(0);
  });

  it('reads at 1280x800 and 800x600, in light and dark', async () => {
    const { page } = await open({ indexFirst: true });
    for (const [width, height] of [
      [1280, 800],
      [800, 600],
    ] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme: scheme });
        await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
        await page.keyboard.press('Control+/');
        await page.locator('#search-input').fill('relay port');
        await page.getByTestId('result').first().click();
        const pane = page.getByTestId('source-preview');
        const cited = pane.locator('[data-cited]').first();
        await cited.waitFor();
        await expect.poll(() => inView(page, cited)).toBe(true);
        await pane.getByTestId('related-note').first().waitFor();
        // The pane and its rail fit the window; the rail sits beside the note when wide, under it when narrow.
        const paneBox = (await pane.boundingBox())!;
        const rail = (await pane.getByTestId('related-notes').boundingBox())!;
        const main = (await page.locator('.preview__main').boundingBox())!;
        expect(paneBox.x + paneBox.width).toBeLessThanOrEqual(width + 1);
        expect(rail.x + rail.width).toBeLessThanOrEqual(width + 1);
        expect(rail.y + 20).toBeLessThanOrEqual(height);
        if (width >= 1000) expect(rail.x).toBeGreaterThanOrEqual(main.x + main.width - 1);
        else expect(rail.y).toBeGreaterThanOrEqual(main.y + main.height - 1);
        await screenshot(page, `reader-06-${width}x${height}-${scheme}`);
        await page.keyboard.press('Escape');
        await expect.poll(() => pane.count()).toBe(0);
      }
    }
  });
});
