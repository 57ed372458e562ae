/**
 * At home with an Obsidian vault, in web mode over Chromium: Obsidian's own help vault (a copy, with
 * a picture, a `.obsidian/` folder and two notes of ours added) read in the reading pane as Obsidian
 * shows it (properties, callouts, embeds, pictures, links within the note, block ids, tags into the
 * tag filter), with "Open in Obsidian"; a restricted note never embedded into a view that may not see
 * it. Screenshots land in test-results/screenshots/obsidian-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { generateMarkdownCorpus } from '../../src/cli/bench/corpus.ts';
import { screenshot, webSuite } from './harness.ts';

const { open, temp } = webSuite();
/** What "Open in Obsidian" asked the OS to open: SYNAPSIS_OPENER records it. */
const tools = temp.make('e2e-opener-');
const openerLog = path.join(tools, 'opened.json');
fs.writeFileSync(path.join(tools, 'opener.mjs'), `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(openerLog)}, JSON.stringify(process.argv.slice(2)));\n`);
const OPENER_ENV = { SYNAPSIS_OPENER: `${process.execPath} ${path.join(tools, 'opener.mjs')}` };

const HELP_VAULT = process.env.SYNAPSIS_OBSIDIAN_HELP ?? path.resolve(import.meta.dirname, '..', '..', '..', 'corpora', 'obsidian-help', 'en');
const haveVault = fs.existsSync(path.join(HELP_VAULT, 'Home.md'));
if (!haveVault) console.warn(`[e2e] Obsidian help vault not found at ${HELP_VAULT}: set SYNAPSIS_OBSIDIAN_HELP`);

/** A small picture (a PNG with a gradient), for `![[Engelbart.jpg]]`: the help vault ships without its pictures. */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) rows.push(40 + Math.round((180 * x) / width), 90 + Math.round((120 * y) / height), 200);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(Buffer.from(rows))), chunk('IEND', Buffer.alloc(0))]);
}

const OURS = {
  '.obsidian/app.json': '{}\n',
  'Attachments/Engelbart.jpg': png(160, 110),
  'Reading check.md': [
    '---',
    'tags: [check, reading/pane]',
    'status: draft',
    '---',
    '# Reading check',
    '',
    'Jump to [[#Second part]] or to [[#^the-fact]]; filed under #pane-check, not #1984.',
    '',
    '> [!warning]+ Careful with `inline code`',
    '> The body of an open callout.',
    '',
    '![[Payroll 2026]]',
    '',
    ...Array.from({ length: 40 }, (_, i) => `Filler line ${i + 1} keeps the second part below the fold.\n`),
    '## Second part',
    '',
    'A fact worth linking to. ^the-fact',
    '',
  ].join('\n'),
  'Private/Payroll 2026.md': '---\nsensitivity: restricted\n---\n# Payroll 2026\n\nThe salary bands of the Bluefin team.\n',
};

/** Opens a note in the pane from a search for its words. */
async function openNote(page: Page, words: string, notePath: string) {
  await page.keyboard.press('Control+/');
  await page.locator('#search-input').fill(words);
  await page.locator('[data-testid=result]', { hasText: notePath }).first().click();
  const pane = page.getByTestId('source-preview');
  await expect.poll(() => pane.locator('.preview__path').textContent()).toBe(notePath);
  await pane.getByTestId('rendered-note').locator('h1, h2, p').first().waitFor();
  return pane;
}

describe.skipIf(!haveVault)("Obsidian's help vault in web mode", () => {
  it('the reading pane shows properties, callouts, embeds and pictures as Obsidian does, and opens the note in Obsidian', async () => {
    const app = await open({ indexFirst: true, vault: HELP_VAULT, files: OURS, env: OPENER_ENV });
    const { page } = app;
    const pane = await openNote(page, 'embed a note in another note', 'Linking notes and files/Embed files.md');
    const note = pane.getByTestId('rendered-note');
    // Front matter as a properties table, not raw YAML.
    const props = note.locator('table.md-properties');
    await props.waitFor();
    expect(await props.locator('th').allTextContents()).toEqual(['aliases', 'cssclasses', 'description', 'permalink']);
    expect(await note.locator('pre.md-frontmatter').count()).toBe(0);
    // A foldable callout, closed ("-"), opens on click.
    const callout = note.locator('details.callout[data-callout=tip]');
    expect(await callout.locator('summary').textContent()).toContain('Drag and drop embed');
    expect(await callout.getAttribute('open')).toBeNull();
    await callout.locator('summary').click();
    await expect.poll(() => callout.getAttribute('open')).not.toBeNull();
    // ![[Internal links#^b15695]]: the block, inline, without its ^id.
    const block = note.locator('section.md-embed[data-embed="Internal links#^b15695"]').first();
    await block.waitFor();
    expect(await block.locator('.md-embed__body').textContent()).toContain('By linking notes, you can create a network of knowledge.');
    expect(await block.textContent()).not.toContain('^b15695');
    // ![[Engelbart.jpg]]: the picture inside the vault, shown (found by name, as Obsidian does).
    const picture = note.locator('img.md-picture').first();
    await picture.waitFor();
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(160);
    // ![[Engelbart.jpg#outline|100]] sets the width.
    expect(await note.locator('img.md-picture[width="100"]').count()).toBeGreaterThan(0);
    // Inline code without its backticks.
    const prose = (await note.locator('p').allTextContents()).join('\n');
    expect(prose).not.toContain('`');
    expect(await note.locator('p code').first().textContent()).toBe('!');
    await callout.scrollIntoViewIfNeeded();
    await screenshot(page, 'obsidian-01-embed-files-callout-properties');
    await picture.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'obsidian-02-embedded-block-and-picture');

    // The vault holds .obsidian/: the note opens in Obsidian, by its vault and its path in the vault.
    expect(await pane.getByRole('button', { name: 'Open in editor' }).count()).toBe(1);
    await pane.getByTestId('open-in-obsidian').click();
    await expect.poll(() => fs.existsSync(openerLog)).toBe(true);
    const [url] = JSON.parse(fs.readFileSync(openerLog, 'utf8')) as string[];
    expect(url).toBe(`obsidian://open?vault=${encodeURIComponent(path.basename(app.vault))}&file=${encodeURIComponent('Linking notes and files/Embed files')}`);
    // At 800x600 the pane's header keeps both buttons on screen.
    await page.setViewportSize({ width: 800, height: 600 });
    await expect.poll(() => pane.locator('.preview__header').evaluate((h) => h.scrollWidth <= h.clientWidth + 1)).toBe(true);
    for (const name of ['Open in Obsidian', 'Open in editor']) {
      const box = await pane.getByRole('button', { name, exact: true }).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 800, name).toBe(true);
    }
    await screenshot(page, 'obsidian-12-pane-800x600');
    await page.setViewportSize({ width: 1280, height: 800 });
    // Search results offer it too.
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('result-obsidian').count()).toBeGreaterThan(0);
  });

  it('links within the note, block ids, tags into the tag filter; a restricted note is never embedded unless allowed', async () => {
    const { page } = await open({ indexFirst: true, vault: HELP_VAULT, files: OURS });
    const pane = await openNote(page, 'Reading check filler', 'Reading check.md');
    const note = pane.getByTestId('rendered-note');
    // The restricted note answers like a missing one: its name as written, none of its text.
    await note.locator('.md-embed--missing', { hasText: '![[Payroll 2026]]' }).waitFor();
    expect(await pane.textContent()).not.toContain('salary bands');
    // An open callout ("+"), its title's inline code as code.
    const callout = note.locator('details.callout[data-callout=warning]');
    expect(await callout.getAttribute('open')).not.toBeNull();
    expect(await callout.locator('summary code').textContent()).toBe('inline code');
    // Tags: a number is no tag.
    expect(await note.locator('a.md-tag').allTextContents()).toEqual(['#check', '#reading/pane', '#pane-check']);
    await page.locator('.preview__main').evaluate((el) => (el.scrollTop = 0));
    await screenshot(page, 'obsidian-03-reading-check');
    // [[#Second part]] scrolls to the heading; [[#^the-fact]] to the block, its id hidden.
    await note.locator('a.wikilink--here', { hasText: 'Second part' }).click();
    const heading = note.locator('h2', { hasText: 'Second part' });
    await expect.poll(async () => {
      const box = await heading.boundingBox();
      const main = await page.locator('.preview__main').boundingBox();
      return !!box && !!main && box.y >= main.y - 1 && box.y < main.y + main.height;
    }).toBe(true);
    const fact = note.locator('[id="^the-fact"]');
    expect(await fact.textContent()).toBe('A fact worth linking to.');
    await screenshot(page, 'obsidian-04-heading-link');
    // A tag opens the search filtered by it.
    await note.locator('a.md-tag', { hasText: '#pane-check' }).click();
    await expect.poll(() => page.locator('#tag-filter').inputValue()).toBe('pane-check, ');
    expect(await pane.count()).toBe(0);
    // Without words, the notes tagged so are listed.
    await page.locator('#search-input').fill('');
    await expect.poll(() => page.locator('.result__loc').allTextContents()).toEqual([expect.stringMatching(/^Reading check\.md:/)]);
    expect(await page.getByTestId('search-meta').textContent()).toMatch(/· tags$/);
    await page.locator('#search-input').fill('fact');
    await expect.poll(() => page.locator('.result__loc').allTextContents()).toEqual([expect.stringMatching(/^Reading check\.md:/)]);
    await screenshot(page, 'obsidian-05-tag-filter');

    // With restricted notes shown, the embed shows the note's text.
    await page.keyboard.press('Alt+5');
    await page.getByLabel('Show them until the window closes').check();
    const shown = await openNote(page, 'Reading check filler', 'Reading check.md');
    await shown.locator('section.md-embed[data-embed="Payroll 2026"]').waitFor();
    expect(await shown.locator('section.md-embed[data-embed="Payroll 2026"]').textContent()).toContain('salary bands');
  });

  it('search never ranks a bare heading first; tags, type filters and related notes follow the vault', async () => {
    const app = await open({ indexFirst: true, vault: HELP_VAULT, files: OURS });
    const { page } = app;
    await page.keyboard.press('Control+/');
    // "## Group cards" stands straight above "### Group selected cards": part of its passage, not one of its own.
    for (const words of ['canvas group cards', 'resolve sync conflict', 'canvas']) {
      await page.locator('#search-input').fill(words);
      await expect.poll(() => page.getByTestId('search-meta').textContent()).toMatch(/passage|No passage/);
      const first = page.getByTestId('result').first();
      const loc = (await first.locator('.result__loc').textContent()) ?? '';
      const [, from, to] = /:(\d+)–(\d+)$/.exec(loc) ?? [];
      const snippet = ((await first.locator('.snippet').textContent()) ?? '').replace(/[«»]/g, '');
      // More than a heading line: lines below it, and words beyond the heading's.
      expect(Number(to) - Number(from), `${words}: ${loc} ${snippet}`).toBeGreaterThan(0);
      expect(snippet.replace(/^#+ [^#]*?(?=#|$)/, '').trim().length, `${words}: ${snippet}`).toBeGreaterThan(20);
    }
    await page.locator('#search-input').fill('canvas group cards');
    await page.getByTestId('result').first().waitFor();
    await screenshot(page, 'obsidian-06-search-no-bare-heading');

    // The vault holds notes only: no type filter to choose from. The tag field's example is the notes' own top tags.
    expect(await page.getByTestId('type-filter').count()).toBe(0);
    const engine = await app.host.engine();
    const top = (await engine.call('search/tags', { prefix: '', limit: 2 })).tags.map((t) => t.tag);
    expect(top.length).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#tag-filter').getAttribute('placeholder')).toBe(top.join(', '));
    // No number and nothing from code is a tag (#1984 in prose, #ff0000 in a CSS block inside a callout); the note's list of forms is.
    const all = (await engine.call('search/tags', { prefix: '', limit: 200 })).tags.map((t) => t.tag);
    expect(all.filter((t) => /^\d+$/.test(t) || t === 'ff0000')).toEqual([]);
    expect(all).toEqual(expect.arrayContaining(['camelCase', 'y1984', 'pane-check']));
    await page.locator('#tag-filter').pressSequentially('19', { delay: 30 });
    await page.getByTestId('no-tag').waitFor();
    await page.locator('#tag-filter').fill('');

    // Related notes say something: no reason lists a name most notes hold.
    await page.locator('#search-input').fill('canvas group cards');
    await page.locator('[data-testid=result]', { hasText: 'Plugins/Canvas.md' }).first().click();
    const pane = page.getByTestId('source-preview');
    await pane.getByTestId('related-note').first().waitFor();
    const why = await pane.getByTestId('related-why').allTextContents();
    expect(why.length).toBeGreaterThan(0);
    expect(why.filter((w) => /shares: .*\bObsidian\b/.test(w))).toEqual([]);
    await screenshot(page, 'obsidian-07-related-notes');
  });

  it('the graph opens on the whole vault: notes and their most connected names, clustered, the central ones named', async () => {
    const { page } = await open({ indexFirst: true, vault: HELP_VAULT, files: OURS });
    await page.keyboard.press('Alt+4');
    const global = page.getByTestId('global-graph');
    await global.waitFor();
    // 173 help notes and ours (the restricted one not among them).
    await expect.poll(() => page.getByTestId('global-caption').textContent()).toMatch(/All notes · 174 notes · \d+ names and tags that join them · \d+ clusters/);
    const canvas = global.locator('canvas');
    expect(await canvas.getAttribute('aria-label')).toMatch(/^Graph of all notes: \d+ nodes in \d+ clusters; the most central: /);
    // Level of detail: a few names at a distance, more once zoomed in, never every node's.
    const labels = async () => Number(await canvas.getAttribute('data-labels'));
    await expect.poll(labels).toBeGreaterThan(4);
    const far = await labels();
    expect(far).toBeLessThanOrEqual(14);
    await screenshot(page, 'obsidian-08-global-graph');
    for (let i = 0; i < 4; i++) await global.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(labels).toBeGreaterThan(far);
    await screenshot(page, 'obsidian-09-global-graph-zoomed');
    // The most central are listed for the keyboard too; a note among them opens in the reading pane.
    const central = await global.getByTestId('global-central').allTextContents();
    expect(central.length).toBe(20);
    expect(central).not.toContain('Payroll 2026');
    expect(central).not.toContain('draft');
    await global.getByTestId('global-central').filter({ hasText: /^Settings$/ }).first().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('source-preview').locator('.preview__path').textContent()).toBe('User interface/Settings.md');
  });

  it('the graph of 5,000 notes stays readable: the most central named, the rest drawn, names growing with the zoom', { timeout: 900_000 }, async () => {
    const vault = temp.make('e2e-5000-');
    generateMarkdownCorpus(vault, 5000, 7, 2);
    const { page } = await open({ indexFirst: true, vault });
    await page.keyboard.press('Alt+4');
    const global = page.getByTestId('global-graph');
    await global.waitFor({ timeout: 300_000 });
    expect(await page.getByTestId('global-caption').textContent()).toMatch(/All notes · 5,000 notes · \d+ names and tags that join them · \d+ clusters/);
    const canvas = global.locator('canvas');
    const labels = async () => Number(await canvas.getAttribute('data-labels'));
    await expect.poll(labels).toBeGreaterThan(4);
    const far = await labels();
    expect(far).toBeLessThanOrEqual(14);
    await screenshot(page, 'obsidian-10-global-graph-5000');
    for (let i = 0; i < 5; i++) await global.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(labels).toBeGreaterThan(far);
    await screenshot(page, 'obsidian-11-global-graph-5000-zoomed');
  });
});
