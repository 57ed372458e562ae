import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.ts';
import { cli } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/tmp.ts';

/**
 * Hostile file names and contents at the CLI: escape sequences (OSC retitles the terminal, CSI
 * clears it), C1 controls, bidi overrides and newlines in names are shown, never obeyed; what
 * search prints, source opens; UTF-16 files are read; and every entry caps a question at the
 * same 10,000 characters.
 */
const temp = new TempDirs();
afterAll(() => temp.cleanup());

/** Characters a terminal obeys rather than prints (tab and newline are the output's own). */
const OBEYED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

const ESC_NAME = 'esc\x1b]0;pwned\x07.md';
const NEWLINE_NAME = 'new\nline.md';
const BIDI_NAME = 'photo\u202egpj.md';
const BACKSLASH_NAME = 'back\\slash.md';

describe('CLI output of hostile names and contents', () => {
  let dataDir: string;
  const run = (...args: string[]) => cli([...args, '--data-dir', dataDir]);

  beforeAll(async () => {
    const vault = temp.make('syn-term-vault-', {
      [ESC_NAME]: '# Escape\n\nzebra retitles \x1b]0;pwned\x07 the window, clears \x1b[2J the screen, \x9b31m C1 and \b erases\n',
      [NEWLINE_NAME]: '# Newline\n\nzebra newline name\n',
      [BIDI_NAME]: '# Bidi\n\nzebra bidi \u202e txt.exe \u2066 isolate\n',
      [BACKSLASH_NAME]: 'zebra backslash one\nzebra backslash two\n',
      'hub.md': '# Hub\n\nzebra hub links [[Escape]] and [[Bidi]]\n',
      'bin\x1b[2J.txt': Buffer.from([0x00, 0x01, 0x02, 0x1b, 0x5b, 0x32, 0x4a, 0x00]),
      'utf16-le.txt': Buffer.from('\ufeffzebra in UTF-16LE\r\nsecond line of the wombat\r\n', 'utf16le'),
      'utf16-be.md': Buffer.from('\ufeff# Big endian\r\n\r\nzebra wombat big endian\r\n', 'utf16le').swap16(),
    });
    dataDir = temp.make('syn-term-data-');
    const index = await cli(['index', vault, '--data-dir', dataDir, '--quiet']);
    expect(index.code).toBe(0);
    expect(index.out).not.toMatch(OBEYED);
    expect(index.out).toMatch(/skipped: \S*bin\u241b\[2J\.txt — binary content\n/);
  });

  it('search, source, documents, health, graph and ask print no control character raw, and no name breaks a line', async () => {
    const outputs = [
      await run('search', 'zebra', '--k', '10'),
      await run('search', 'zebra', '--context', '2000'),
      await run('source', `${ESC_NAME}#L3`),
      await run('documents'),
      await run('health'),
      await run('graph'),
      await run('graph', 'Hub'),
      await run('ask', 'What does zebra clear?', '--no-critic'),
    ];
    for (const o of outputs) {
      expect(o.code, o.err).toBe(0);
      expect(o.out).not.toMatch(OBEYED);
      expect(o.err).not.toMatch(OBEYED);
      expect(o.out.split('\n').filter((l) => l.startsWith('line.md'))).toEqual([]);
    }
    const [search, , source, documents, health] = outputs;
    expect(search!.out).toContain('esc\u241b]0;pwned\u2407.md#L1-L3');
    expect(search!.out).toContain('new\u240aline.md#L1-L3');
    expect(search!.out).toContain('photo<U+202E>gpj.md#L1-L3');
    expect(source!.out).toContain('zebra retitles \u241b]0;pwned\u2407 the window, clears \u241b[2J the screen, <U+009B>31m C1 and \u2408 erases');
    expect(documents!.out.split('\n')).toContain('new\u240aline.md  (markdown)');
    expect(health!.out).toContain('bin\u241b[2J.txt');
  });

  it('--json keeps the names exactly, escaped as JSON, with nothing a terminal obeys left raw', async () => {
    const search = await run('search', 'zebra', '--k', '10', '--json');
    expect(search.out).not.toMatch(OBEYED);
    const paths = (JSON.parse(search.out) as { chunks: { path: string }[] }).chunks.map((c) => c.path);
    expect(paths).toEqual(expect.arrayContaining([ESC_NAME, NEWLINE_NAME, BIDI_NAME, BACKSLASH_NAME]));
    const documents = await run('documents', '--json');
    expect(documents.out).not.toMatch(OBEYED);
    expect((JSON.parse(documents.out) as { path: string }[]).map((d) => d.path)).toContain(BIDI_NAME);
  });

  it('source opens every locator exactly as search printed it, a backslash in a name included', async () => {
    const search = await run('search', 'zebra', '--k', '10');
    const printed = [...search.out.matchAll(/^\d+\. (.+?) {2}\(score/gm)].map((m) => m[1]!);
    expect(printed).toEqual(expect.arrayContaining(['back\\slash.md#L1-L2', 'new\u240aline.md#L1-L3', 'photo<U+202E>gpj.md#L1-L3', 'esc\u241b]0;pwned\u2407.md#L1-L3']));
    for (const locator of printed) {
      const source = await run('source', locator);
      expect(source.code, `${locator}: ${source.err}`).toBe(0);
      expect(source.out).toMatch(/zebra/);
    }
    const backslash = await run('source', 'back\\slash.md#L1-L2');
    expect(backslash.out).toMatch(/back\\slash\.md {2}lines 1-2\n1 {2}zebra backslash one\n2 {2}zebra backslash two\n/);
    const traversal = await run('source', '..\\..\\etc\\passwd#L1');
    expect(traversal.code).toBe(2);
    expect(traversal.err).toMatch(/E_SYN_BAD_REQUEST.*"\.\."/);
  });

  it('indexes UTF-16 files with a byte order mark and prints their lines by number', async () => {
    const health = await run('health', '--json');
    const report = JSON.parse(health.out) as { documents: { indexed: number; skipped: number }; issues: { path: string }[] };
    expect(report.documents).toMatchObject({ indexed: 7, skipped: 1 });
    expect(report.issues.map((i) => i.path)).toEqual([expect.stringMatching(/\/bin\x1b\[2J\.txt$/)]);
    const search = await run('search', 'wombat', '--k', '5');
    expect(search.out).toMatch(/utf16-le\.txt#L1-L2/);
    expect(search.out).toMatch(/utf16-be\.md#L1-L3/);
    expect((await run('source', 'utf16-le.txt#L2')).out).toContain('2  second line of the wombat');
    expect((await run('source', 'utf16-be.md#L3')).out).toContain('3  zebra wombat big endian');
  });
});

describe('the question length cap', () => {
  const TOO_LONG = /E_SYN_BAD_REQUEST.*question is longer than 10,000 characters/;

  it('ask refuses a 100,000-character question with exit 2, as search refuses such a query', async () => {
    const dataDir = temp.make('syn-term-cap-');
    expect((await cli(['index', temp.make('syn-term-cap-vault-', { 'a.md': '# A\n\nwhy not\n' }), '--data-dir', dataDir, '--quiet'])).code).toBe(0);
    const ask = await cli(['ask', 'why '.repeat(25_000), '--data-dir', dataDir]);
    expect(ask.code).toBe(2);
    expect(ask.err).toMatch(TOO_LONG);
    const search = await cli(['search', 'why '.repeat(25_000), '--data-dir', dataDir]);
    expect(search.code).toBe(2);
    expect(search.err).toMatch(/E_SYN_BAD_REQUEST.*query is longer than 10,000 characters/);
  });

  it('the library call and the answer/ask request refuse 10,001 characters with the same error', async () => {
    const engine = createEngine({ dataDir: temp.make('syn-term-cap-'), env: {} });
    try {
      const question = 'x'.repeat(10_001);
      await expect(engine.answer(question)).rejects.toThrow(/question is longer than 10,000 characters/);
      await expect(engine.answer(question)).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST' });
      await expect(engine.call('answer/ask', { query: question })).rejects.toThrow(/question is longer than 10,000 characters/);
    } finally {
      await engine.dispose();
    }
  });
});
