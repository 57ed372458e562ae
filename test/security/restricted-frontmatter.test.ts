import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import type { IndexReport } from '../../src/shared/contract.ts';
import { TempDirs } from '../helpers/tmp.ts';

/**
 * Sensitivity fails closed: a note that names a sensitivity stays hidden when its front matter is
 * malformed, spelled in another case, given as a list, nested in a mapping or a YAML merge, sits in a
 * plain-text or HTML file, or is not recognised as front matter at all (a blank line or a no-break
 * space before `---`, TOML's `+++`). Each note
 * carries its own canary word; none may be found without allowing the sensitivity, each must be
 * found with it (so the canaries are really indexed), and each case is reported with its line.
 */
const CASES: Record<string, { text: string; line: number | null }> = {
  'flow.md': { text: '---\nsensitivity: restricted\ntags: [a, b\n---\n# Pay\n\nwombatcanary salary table\n', line: 3 },
  'people.md': { text: '---\nsensitivity: restricted\npeople: [Maya\n---\n# Pay\n\nnarwhalcanary salary table\n', line: 3 },
  'dupe.md': { text: '---\nsensitivity: public\nsensitivity: restricted\n---\n# Pay\n\nokapicanary salary table\n', line: 3 },
  'list.md': { text: '---\nsensitivity: [restricted]\n---\n# Pay\n\naxolotlcanary salary table\n', line: null },
  'mixed-list.md': { text: '---\nsensitivity: [public, restricted]\n---\n# Pay\n\nquokkacanary salary table\n', line: null },
  'case.md': { text: '---\nSensitivity: Restricted\n---\n# Pay\n\ntapircanary salary table\n', line: null },
  'note.txt': { text: '---\nsensitivity: restricted\n---\nPay\n\nlemurcanary salary table\n', line: null },
  'unclosed.md': { text: '---\nsensitivity: restricted\n# Pay\n\npangolincanary salary table\n', line: 1 },
  'alias-bomb.md': {
    text: `---\nsensitivity: restricted\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n---\n# Pay\n\ncapybaracanary salary table\n`,
    line: null,
  },
  'number.md': { text: '---\nsensitivity: 3\n---\n# Pay\n\nmanateecanary salary table\n', line: null },
  // Shapes front matter is not recognised in, or that hide the key one level down.
  'page.html': { text: '---\nsensitivity: restricted\n---\n<html><body><h1>Pay</h1><p>ibexcanary salary table</p></body></html>\n', line: null },
  'page.htm': { text: '---\nsensitivity: restricted\n---\n<html><body><h1>Pay</h1><p>dingocanary salary table</p></body></html>\n', line: null },
  'blank-first.md': { text: '\n---\nsensitivity: restricted\n---\n# Pay\n\nyakcanary salary table\n', line: 3 },
  'toml.md': { text: '+++\nsensitivity = "restricted"\n+++\n# Pay\n\ngeckocanary salary table\n', line: 2 },
  'nested.md': { text: '---\nmeta: {sensitivity: restricted}\n---\n# Pay\n\nmarmotcanary salary table\n', line: null },
  'merge.md': { text: '---\nbase: &base\n  sensitivity: restricted\n<<: *base\ntitle: Pay\n---\n# Pay\n\nokapiicanary salary table\n', line: null },
  'merge-inline.md': { text: '---\n<<: {sensitivity: restricted}\ntitle: Pay\n---\n# Pay\n\nlynxcanary salary table\n', line: null },
  'nbsp.md': { text: '\u00a0---\nsensitivity: restricted\n---\n# Pay\n\nbisoncanary salary table\n', line: 2 },
  'list-of-maps.md': { text: '---\n- sensitivity: restricted\n---\n# Pay\n\nhyenacanary salary table\n', line: null },
};
const canaryOf = (text: string) => /(\w+canary)/.exec(text)![1]!;

const temp = new TempDirs();
let vault: string;
let engine: Engine;
let report: IndexReport;
afterAll(async () => {
  await engine?.dispose();
  temp.cleanup();
});

beforeAll(async () => {
  vault = temp.make('syn-fm-vault-', {
    ...Object.fromEntries(Object.entries(CASES).map(([name, c]) => [name, c.text])),
    'public.md': '---\nsensitivity: public\ntitle: Open\n---\n# Open\n\nbeavercanary salary table\n',
    'broken-public.md': '---\ntitle: [unclosed\n---\n# Open\n\nfoxcanary salary table\n',
    // A Sensitivity line below the top of a note without front matter is prose, not a header.
    'prose-public.md': `# Recall\n\n${'Recall is the share of relevant notes found.\n'.repeat(24)}Sensitivity: the share of positives found (wolfcanary).\n`,
    'plain-public.html': '<html><head><title>Open</title></head><body><p>sensitivity: restricted is how notes are hidden, says the seal page (sealcanary).</p></body></html>\n',
  });
  engine = createEngine({ dataDir: temp.make('syn-fm-data-'), env: {}, config: { graphLlm: false } });
  report = await engine.index([vault]);
});

describe('a note that names a sensitivity is never public because its front matter is odd', () => {
  for (const [name, c] of Object.entries(CASES)) {
    it(`${name}: hidden unless allowed, and served only when allowed`, async () => {
      const word = canaryOf(c.text);
      const hidden = await engine.retrieve(word, {}, 5);
      expect(hidden.chunks.map((r) => r.locator)).toEqual([]);
      const allowed = await engine.retrieve(word, { allow_sensitivity: ['restricted', '3'] }, 5);
      expect(allowed.chunks.map((r) => r.locator.split('#')[0])).toEqual([name]);
      expect(() => engine.source(`${name}#L1-L3`, {})).toThrow(expect.objectContaining({ code: expect.stringMatching(/E_SYN_(RETRIEVE_DENIED|NOT_FOUND)/) }));
      // The served lines: the front matter's, or for HTML the page's text (markup and front matter gone).
      expect(engine.source(`${name}#L1-L3`, { allow_sensitivity: ['restricted', '3'] }).text).toMatch(/\.html?$/.test(name) ? word : /sensitivity/i);
    });
  }

  it('still serves public notes, including one whose broken front matter names no sensitivity', async () => {
    expect((await engine.retrieve('beavercanary', {}, 5)).chunks).toHaveLength(1);
    expect((await engine.retrieve('foxcanary', {}, 5)).chunks).toHaveLength(1);
    expect((await engine.retrieve('wolfcanary', {}, 5)).chunks).toHaveLength(1);
    expect((await engine.retrieve('sealcanary', {}, 5)).chunks).toHaveLength(1);
  });

  it('reports each unreadable front matter in the index run and in health, with the file and line', async () => {
    // Health names a restricted note only to a caller allowed to see it (test/security/restricted-health.test.ts).
    const health = await engine.health({ allow_sensitivity: ['restricted', '3'] });
    for (const [name, c] of Object.entries(CASES)) {
      if (c.line === null) continue;
      const expected = { path: path.join(vault, name), status: 'warning', reason: expect.stringContaining(`line ${c.line}`) };
      expect(report.issues).toContainEqual(expected);
      expect(health.issues).toContainEqual(expected);
      expect(health.issues.find((i) => i.path === path.join(vault, name))?.reason).toMatch(/treated as restricted/);
    }
    expect(health.issues).toContainEqual({ path: path.join(vault, 'broken-public.md'), status: 'warning', reason: expect.stringContaining('front matter ignored (line 2)') });
    expect(health.issues.find((i) => i.path.endsWith('broken-public.md'))?.reason).not.toMatch(/restricted/);
  });
});
