import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import { chunkLines } from '../../src/engine/ingest/chunk.ts';
import { parseDocument } from '../../src/engine/ingest/parsers/index.ts';
import { buildFtsQuery } from '../../src/engine/search/fts-query.ts';
import { contract, METHODS, type Method } from '../../src/shared/contract.ts';
import { isSynapsisError } from '../../src/shared/errors.ts';
import { TempDirs } from '../helpers/tmp.ts';

/**
 * Random and adversarial input for the chunker, the markdown and front-matter parser, the query
 * parser, the RPC boundary (engine.call with the contract's schemas) and a whole indexing run. The
 * rule everywhere: a result or a SynapsisError, never a crash or a raw library error, and the store
 * is intact afterwards. SYNAPSIS_FUZZ_RUNS raises the number of cases (default 200 per property).
 */
const RUNS = Number(process.env.SYNAPSIS_FUZZ_RUNS ?? 200);
const temp = new TempDirs();
afterAll(() => temp.cleanup());

const TEN_MB = 10 * 1024 * 1024;
const FTS_SYNTAX = ['NEAR(a b, 2)', 'a AND', 'OR b', 'NOT', '"unterminated', '""', 'title:secret', '{title body}: x', '^start', 'pre*', '*', '-foo', '(', ')', '((a', 'a:b:c', "'", '\\', '%', '_', 'NEAR/3', '+', '"a" "b"', 'a OR OR b', '\u0000', '\uFFFF', '\uD800', '#tag', '@who', '[[link]]'];
const ADVERSARIAL_TEXT = ['שלום עולם', 'مرحبا بالعالم', '\u202Eevil\u202C', '👩‍👩‍👧‍👦🏳️‍🌈', 'Z̷̢̛a̶l̵g̷o̶', '\uFEFF', '\r\n', '\r', '\t', '\u2028', '\u0085', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', 'ё Ё е', 'İıŞş'];

/** Markdown that stresses the parser: deep nesting, fences, front matter, headings, long lines. */
const markdownArb = fc.oneof(
  fc.nat(3000).map((n) => '>'.repeat(n) + ' deep quote'),
  fc.nat(2000).map((n) => Array.from({ length: n }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n')),
  fc.nat(500).map((n) => '```\n'.repeat(n) + 'code'),
  fc.nat(200).map((n) => `${'#'.repeat(n)} heading\n`.repeat(50)),
  fc.constantFrom(
    '---\n---\n',
    '---\n',
    '---\ntitle: [unclosed\n---\nbody',
    '---\na: &a [1,2,3]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n---\n# YAML aliases\n',
    '---\ntags: !!binary aGVsbG8=\nsensitivity: [restricted, public]\n---\nx',
    '---\n__proto__: {polluted: true}\nconstructor: {prototype: {polluted: true}}\n---\n# proto\n',
    '---\ntitle: 12\ntags: {a: 1}\naliases: 7\npeople: null\n---\n# odd types\n',
  ),
  fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.constantFrom(...ADVERSARIAL_TEXT, ...FTS_SYNTAX)), { maxLength: 40 }).map((parts) => parts.join('\n')),
);
const bytesArb = fc.oneof(
  markdownArb.map((s) => new TextEncoder().encode(s)),
  fc.uint8Array({ maxLength: 4000 }),
  fc.tuple(markdownArb, fc.uint8Array({ minLength: 1, maxLength: 50 })).map(([s, junk]) => Buffer.concat([Buffer.from(s), Buffer.from(junk), Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0x00])])),
);

describe('markdown, front matter and chunker under random and adversarial input', () => {
  it('parse and chunk return well-formed chunks or a SynapsisError, for any bytes', async () => {
    await fc.assert(
      fc.asyncProperty(bytesArb, fc.constantFrom('markdown' as const, 'text' as const, 'code' as const), async (bytes, type) => {
        let parsed;
        try {
          parsed = await parseDocument({ relPath: 'fuzz/note.md', bytes, type, language: type === 'code' ? 'typescript' : null });
        } catch (error) {
          expect(isSynapsisError(error)).toBe(true);
          return;
        }
        expect(parsed.lines.every((l) => typeof l === 'string' && !l.includes('\n'))).toBe(true);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        const { chunks } = chunkLines(parsed, { size: 300, overlap: 60, maxChunks: 5000 });
        for (const c of chunks) {
          expect(c.startLine).toBeGreaterThanOrEqual(1);
          expect(c.endLine).toBeLessThanOrEqual(parsed.lines.length);
          expect(c.startLine).toBeLessThanOrEqual(c.endLine);
          expect(c.text.length).toBeLessThanOrEqual(300);
          parsed.sectionAt(c.startLine - 1);
        }
      }),
      { numRuns: RUNS, seed: 7 },
    );
  });

  it('a 10 MB single-line file is cut into bounded chunks in bounded time', async () => {
    const line = 'word '.repeat(TEN_MB / 5);
    const started = performance.now();
    const parsed = await parseDocument({ relPath: 'big.md', bytes: Buffer.from(line), type: 'markdown', language: null });
    const { chunks, truncated } = chunkLines(parsed, { size: 1200, overlap: 200, maxChunks: 2000 });
    expect(chunks).toHaveLength(2000);
    expect(truncated).toBe(true);
    expect(chunks.every((c) => c.startLine === 1 && c.endLine === 1 && c.text.length <= 1200)).toBe(true);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('the query parser', () => {
  const queryArb = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.array(fc.oneof(fc.constantFrom(...FTS_SYNTAX, ...ADVERSARIAL_TEXT), fc.string({ maxLength: 12 })), { maxLength: 12 }).map((p) => p.join(' ')),
  );

  it('never throws and quotes every term, so FTS5 syntax in a query is plain text', () => {
    fc.assert(
      fc.property(queryArb, (q) => {
        const built = buildFtsQuery(q);
        if (built.match === null) return;
        // Every clause is a quoted string, a quoted prefix or a phrase: nothing bare reaches MATCH.
        for (const clause of built.clauses) expect(clause.expr).toMatch(/^(\{[a-z ]+\}\s*:\s*)?\(?("([^"]|"")*"\*?(\s+|\s*\+\s*)?)+\)?$/);
      }),
      { numRuns: RUNS * 5, seed: 3 },
    );
  });
});

describe('the engine under bad input', () => {
  let engine: Engine;
  let dataDir: string;
  let vault: string;
  const baseline = { documents: 0, chunks: 0 };

  beforeAll(async () => {
    vault = temp.make('syn-badinput-vault-', {
      'ok.md': '# Relay\n\nThe relay server uses WebSockets on TLS 1.3.\n',
      'rtl.md': `# ${ADVERSARIAL_TEXT.join(' ')}\n\n${ADVERSARIAL_TEXT.join('\n')}\n`,
      'nul.md': Buffer.from('# NUL\n\nbefore\u0000after\n'),
      'invalid-utf8.md': Buffer.concat([Buffer.from('# Invalid\n\n'), Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc, 0xed, 0xa0, 0x80]), Buffer.from(' tail words\n')]),
      'nested.md': `${'>'.repeat(5000)} quoted\n${Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i % 200)}- level ${i}`).join('\n')}\n`,
      'fences.md': '```\n'.repeat(1001),
      'yaml-bomb.md': '---\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n---\n# Bomb\n\nstill indexed\n',
      'proto.md': '---\n__proto__: {polluted: true}\ntags: [a]\n---\n# Proto\n',
      'huge-line.md': `# Long\n\n${'x'.repeat(300_000)} needleword ${'y'.repeat(300_000)}\n`,
      'single-line-10mb.txt': 'alpha beta gamma delta '.repeat(Math.floor(TEN_MB / 23)),
      'newlines.txt': '\n'.repeat(1_000_000),
      'empty.md': '',
      'crlf.md': '# CRLF\r\n\r\nwindows\r\nline endings\r\n',
      'fts-syntax.md': `# FTS\n\n${FTS_SYNTAX.join(' ')}\n`,
      'name with spaces & ünïcödé ‮dm.exe.md': '# Odd name\n\nfound by name\n',
      'new\nline.md': '# Newline in the name\n\nstill a file\n',
      // Lines that made regexes backtrack without end (fixed: trimEnd, parseHeading, an atomic URL match).
      'backtracking.md': `# pathological ${' '.repeat(200_000)}heading\n\n${' '.repeat(1_000_000)}spaced word\n\nlinkrun ${'http://'.repeat(5000)} !\n`,
    });
    dataDir = temp.make('syn-badinput-data-');
    engine = createEngine({ dataDir, env: {} });
  });
  afterAll(async () => {
    await engine.dispose();
  });

  it('indexes a folder of adversarial files without crashing, listing each file it could not take', async () => {
    const started = performance.now();
    const report = await engine.index([vault]);
    const seconds = (performance.now() - started) / 1000;
    expect(report.files_seen).toBe(17);
    expect(report.indexed + report.skipped + report.failed).toBe(17);
    expect(report.indexed).toBeGreaterThanOrEqual(14);
    for (const issue of report.issues) expect(issue.reason).toBeTruthy();
    const health = await engine.health();
    baseline.documents = health.documents.total;
    baseline.chunks = health.chunks;
    expect(seconds).toBeLessThan(40);
    for (const [query, file] of [['WebSockets', 'ok.md'], ['needleword', 'huge-line.md'], ['windows', 'crlf.md'], ['tail words', 'invalid-utf8.md'], ['found by name', 'name with spaces & ünïcödé ‮dm.exe.md'], ['still indexed', 'yaml-bomb.md'], ['delta gamma', 'single-line-10mb.txt']] as const) {
      const hits = await engine.retrieve(query, {}, 3);
      expect(hits.chunks.map((c) => c.path)).toContain(file);
      expect(engine.source(hits.chunks.find((c) => c.path === file)!.locator).text.length).toBeGreaterThan(0);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers over lines that used to backtrack for minutes, in bounded time', async () => {
    const started = performance.now();
    const hits = await engine.retrieve('linkrun spaced word pathological heading', { include_globs: ['backtracking.md'] }, 5);
    expect(hits.chunks.length).toBeGreaterThan(0);
    const envelope = await engine.answer('What is the linkrun spaced word?', { context: { include_globs: ['backtracking.md'] } });
    expect(envelope.snippets.length).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('answers random and FTS5-syntax queries with results or a clear error, never a raw SQLite error', async () => {
    const queryArb = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.array(fc.oneof(fc.constantFrom(...FTS_SYNTAX, ...ADVERSARIAL_TEXT), fc.string({ maxLength: 10 })), { minLength: 1, maxLength: 10 }).map((p) => p.join(' ')),
      fc.nat(100_000).map((n) => 'a'.repeat(n)),
    );
    await fc.assert(
      fc.asyncProperty(queryArb, fc.constantFrom('bm25', 'hybrid') as fc.Arbitrary<'bm25' | 'hybrid'>, async (query, mode) => {
        try {
          const r = await engine.retrieve(query, { mode, explain: true }, 5);
          expect(r.chunks.length).toBeLessThanOrEqual(5);
        } catch (error) {
          expect(isSynapsisError(error), String(error)).toBe(true);
          expect(['E_SYN_BAD_REQUEST', 'E_SYN_RETRIEVE_DENIED']).toContain((error as { code: string }).code);
        }
      }),
      { numRuns: RUNS, seed: 5 },
    );
  });

  it('validates every RPC request: random payloads and method names get E_SYN_BAD_REQUEST or a valid response', async () => {
    // Requests that would change the workspace are only sent when the contract refuses them: a
    // random valid index/addRoot could name "/" and index the whole disk.
    const MUTATING = new Set<string>(['index/run', 'index/addRoot', 'index/removeRoot', 'graph/extract', 'index/pause', 'index/resume', 'index/watch', 'models/add', 'models/remove']);
    const nasty = fc.oneof(
      fc.anything({ maxDepth: 4, withNullPrototype: true, withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true }),
      fc.constantFrom(null, undefined, NaN, Infinity, -1, 1e308, '', '\u0000', [], {}, { k: -1 }, { k: 1e9 }, { query: '' }, { query: 'x'.repeat(100_000) }, { locator: '../../etc/passwd' }, { entity: '' }, { hops: 99 }, JSON.parse('{"__proto__": {"polluted": true}}') as unknown),
      fc.record({ query: fc.string({ unit: 'binary' }), k: fc.oneof(fc.integer(), fc.double()), mode: fc.string(), context: fc.anything({ maxDepth: 2 }) }, { requiredKeys: [] }),
      fc.record({ locator: fc.string({ unit: 'binary' }), entity: fc.string(), from: fc.string(), to: fc.string(), hops: fc.integer(), limit: fc.integer(), paths: fc.array(fc.string()), max_nodes: fc.integer(), allow_sensitivity: fc.array(fc.string()) }, { requiredKeys: [] }),
    );
    const methodArb = fc.oneof(fc.constantFrom(...METHODS), fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'index/../run', 'SEARCH/QUERY', ''), fc.string());
    let valid = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(methodArb, nasty, async (method, payload) => {
        const known = (METHODS as string[]).includes(method);
        if (known && MUTATING.has(method) && contract[method as Method].request.safeParse(payload ?? {}).success) return;
        try {
          const response = await engine.call(method as Method, payload as never);
          valid++;
          expect(known).toBe(true);
          expect(contract[method as Method].response.safeParse(response).success).toBe(true);
        } catch (error) {
          refused++;
          expect(isSynapsisError(error), `${method}: ${String(error)}`).toBe(true);
          if (!known) expect((error as { code: string }).code).toBe('E_SYN_BAD_REQUEST');
        }
      }),
      { numRuns: RUNS * 3, seed: 13 },
    );
    expect(valid).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('leaves the store intact: SQLite and FTS5 integrity checks pass and nothing was added or lost', async () => {
    const health = await engine.health();
    expect(health.documents.total).toBe(baseline.documents);
    expect(health.chunks).toBe(baseline.chunks);
    expect(health.roots.map((r) => r.path)).toEqual([fs.realpathSync(vault)]);
    const db = new BetterSqlite3(path.join(dataDir, 'synapsis.db'));
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.prepare("INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)").run();
    } finally {
      db.close();
    }
    expect((await engine.retrieve('WebSockets TLS', {}, 1)).chunks[0]!.path).toBe('ok.md');
  });
});
