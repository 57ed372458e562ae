import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { benchReal, formatReal, pooledRow, readQueryFile, warmStore, whileIndexingRows } from './real.ts';
import type { ColdStart } from './search.ts';

describe('readQueryFile', () => {
  it('reads one query a line, a JSON array of strings, or an eval question set', () => {
    const temp = new TempDirs();
    try {
      const dir = temp.make();
      const write = (name: string, text: string) => {
        const file = path.join(dir, name);
        fs.writeFileSync(file, text);
        return file;
      };
      expect(readQueryFile(write('q.txt', '# Russian\nКак Тесла финансировал свою работу?\n\n  who leads Sync  \n'))).toEqual(['Как Тесла финансировал свою работу?', 'who leads Sync']);
      expect(readQueryFile(write('q.json', '["a b", "c"]'))).toEqual(['a b', 'c']);
      expect(readQueryFile(write('set.json', JSON.stringify([{ id: 'x1', question: 'what is QUIC?', kind: 'single' }])))).toEqual(['what is QUIC?']);
      expect(() => readQueryFile(write('bad.json', '[{"id": 1}]'))).toThrowError(/array of strings or of objects with a "question"/);
      expect(() => readQueryFile(write('broken.json', '["a",'))).toThrowError(/not valid JSON/);
      expect(() => readQueryFile(write('empty.txt', '\n# nothing\n'))).toThrowError(/holds no query/);
      expect(() => readQueryFile(path.join(dir, 'missing.txt'))).toThrowError(/no such file/);
    } finally {
      temp.cleanup();
    }
  });
});

describe('benchReal', () => {
  it('indexes a folder in its own process and answers the queries with the graph and without, in the shape it prints', () => {
    const temp = new TempDirs();
    try {
      const corpus = temp.make();
      for (let i = 0; i < 6; i++) {
        fs.writeFileSync(path.join(corpus, `Note ${i}.md`), `# Note ${i}\n\nMaya Chen wrote about the relay and [[Note ${(i + 1) % 6}]].\n\nThe relay runs on Falcon ${i}.\n`);
      }
      expect(() => benchReal({ corpus: path.join(corpus, 'nope'), queries: ['x'] })).toThrowError(/no such folder/);
      const work = temp.make();
      expect(() => benchReal({ corpus, queries: ['x'], rounds: 0 })).toThrowError(/--rounds must be a whole number from 1 to 20, not 0/);
      const r = benchReal({ corpus, queries: ['who is Maya Chen?', 'relay', 'Falcon'], workDir: work, rounds: 2 });
      expect(r.index).toMatchObject({ files: 6, indexed: 6, failed: 0 });
      expect(r.index.chunks).toBeGreaterThanOrEqual(6);
      expect(r.index.peak_rss_mb).toBeGreaterThan(0);
      expect(r.rows.map((x) => x.graph)).toEqual(['yes', 'no']);
      expect(r.rounds).toBe(2);
      expect(r.round_ratios).toHaveLength(2);
      // The graph list's own time: with the graph only, and within the whole query's.
      expect(r.rows[0]!.graph_p95_ms!).toBeGreaterThanOrEqual(r.rows[0]!.graph_p50_ms!);
      expect(r.rows[0]!.graph_p50_ms!).toBeLessThanOrEqual(r.rows[0]!.max_ms!);
      expect(r.rows[1]).toMatchObject({ graph_p50_ms: null, graph_p95_ms: null });
      for (const x of r.rows) {
        expect(x.p95_ms!).toBeGreaterThanOrEqual(x.p50_ms!);
        expect(x.max_ms!).toBeGreaterThanOrEqual(x.p95_ms!);
        expect(['relay', 'Falcon']).toContain(x.slowest);
        expect(x.rss_mb).toBeGreaterThan(0);
      }
      // The index stays in the work dir given.
      expect(fs.existsSync(path.join(work, 'data', 'synapsis.db'))).toBe(true);
      // Reused: the kept index is brought up to date (nothing new), and answers the same queries.
      const again = benchReal({ corpus, queries: ['relay'], workDir: work, reuse: true, rounds: 1 });
      expect(again.index).toMatchObject({ files: 6, indexed: 0, chunks: r.index.chunks });
      expect(again.rows).toHaveLength(2);
      const text = formatReal(r);
      expect(text).toContain('6 files');
      expect(text.split('\n').filter((l) => /^\| (yes|no) \|/.test(l))).toHaveLength(2);
      expect(text).toMatch(/p95 with the graph \/ without: [\d.]+ \(each round alone: [\d.]+, [\d.]+\)/);
      expect(text).toContain('asked by 2 fresh processes a row');
    } finally {
      temp.cleanup();
    }
  }, 120_000);
});

describe('rounds of query processes', () => {
  const run = (latencies_ms: number[], graph_latencies_ms: number[], first: number, rss: number): ColdStart => ({
    open_ms: 5,
    open_and_first_query_ms: first + 5,
    first_query_ms: first,
    queries: latencies_ms.length + 1,
    p50_ms: null,
    p95_ms: null,
    max_ms: null,
    slowest: null,
    graph_p50_ms: null,
    graph_p95_ms: null,
    rss_mb: rss,
    rss_anon_mb: null,
    process_ms: 100,
    latencies_ms,
    graph_latencies_ms,
  });

  it('pool their queries: percentiles over all of them, the first query and memory of the worst process', () => {
    const queries = ['first', 'a', 'b', 'c', 'd', 'e'];
    // Twenty timings: p95 is the 19th smallest, which neither process alone has as its own p95.
    const one = run([1, 2, 3, 4, 50, 6, 7, 8, 9, 10], [0.5, 0.6], 40, 200);
    const two = run([11, 12, 13, 14, 15, 16, 17, 18, 19, 20], [0.7], 90, 180);
    const row = pooledRow(true, [one, two], [...queries, 'f', 'g', 'h', 'i', 'j']);
    expect(row).toEqual({ graph: 'yes', first_query_ms: 90, p50_ms: 11, p95_ms: 20, max_ms: 50, slowest: 'e', graph_p50_ms: 0.6, graph_p95_ms: 0.7, rss_mb: 200 });
    // Without the graph the graph list's columns stay empty whatever the processes said.
    expect(pooledRow(false, [one], queries)).toMatchObject({ graph: 'no', graph_p50_ms: null, graph_p95_ms: null, p95_ms: 50, slowest: 'e' });
    expect(pooledRow(false, [run([], [], 7, 100)], ['only'])).toMatchObject({ p50_ms: null, p95_ms: null, max_ms: null, slowest: null, first_query_ms: 7 });
  });

  it('start with the store in the page cache: its files are read through once', () => {
    const temp = new TempDirs();
    try {
      const dir = temp.make();
      fs.writeFileSync(path.join(dir, 'synapsis.db'), Buffer.alloc(3 << 20, 1));
      fs.writeFileSync(path.join(dir, 'synapsis.db-wal'), Buffer.alloc(1000, 2));
      fs.writeFileSync(path.join(dir, 'other.bin'), Buffer.alloc(5000, 3));
      expect(warmStore(dir)).toBe((3 << 20) + 1000);
      expect(warmStore(temp.make())).toBe(0);
    } finally {
      temp.cleanup();
    }
  });
});

describe('queries while indexing', () => {
  it('are summed up with the graph and without it, failures counted apart', () => {
    const asked = [
      { graph: true, query: 'a', ms: 10 },
      { graph: false, query: 'a', ms: 2 },
      { graph: true, query: 'b', ms: 40 },
      { graph: false, query: 'b', ms: 3, error: 'store busy' },
      { graph: true, query: 'c', ms: 20 },
    ];
    expect(whileIndexingRows(asked)).toEqual([
      { graph: 'yes', queries: 3, failed: 0, p50_ms: 20, p95_ms: 40, max_ms: 40, slowest: 'b' },
      { graph: 'no', queries: 2, failed: 1, p50_ms: 2, p95_ms: 2, max_ms: 2, slowest: 'a' },
    ]);
    expect(whileIndexingRows([])).toEqual([
      { graph: 'yes', queries: 0, failed: 0, p50_ms: null, p95_ms: null, max_ms: null, slowest: null },
      { graph: 'no', queries: 0, failed: 0, p50_ms: null, p95_ms: null, max_ms: null, slowest: null },
    ]);
  });

  it('are answered by the indexing process during the run and printed under the index row', () => {
    const temp = new TempDirs();
    try {
      const corpus = temp.make();
      for (let i = 0; i < 120; i++) {
        fs.writeFileSync(path.join(corpus, `Note ${i}.md`), `# Note ${i}\n\nMaya Chen wrote about the relay and [[Note ${(i + 1) % 120}]].\n\nThe relay runs on Falcon ${i % 7}; Osprey reviewed it.\n`);
      }
      // A query every millisecond: some are asked before the run ends, whatever the machine's speed.
      const r = benchReal({ corpus, queries: ['who is Maya Chen?', 'Falcon relay'], whileIndexing: true, queryEveryMs: 1 });
      expect(r.index).toMatchObject({ files: 120, indexed: 120, failed: 0 });
      const rows = r.index.while_indexing!.rows;
      expect(rows.map((x) => x.graph)).toEqual(['yes', 'no']);
      expect(rows[0]!.queries).toBeGreaterThanOrEqual(1);
      for (const x of rows) expect(x.failed).toBe(0);
      expect(rows[0]!.max_ms!).toBeGreaterThanOrEqual(rows[0]!.p50_ms!);
      const text = formatReal(r);
      expect(text).toContain('while indexing (the indexing process answering a query every 1 ms');
      expect(text.split('\n').filter((l) => /^\| (yes|no) \| \d+ \| 0 \|/.test(l))).toHaveLength(2);
      // Without the option there is no such row.
      expect(formatReal({ ...r, index: { ...r.index, while_indexing: undefined } })).not.toContain('while indexing');
    } finally {
      temp.cleanup();
    }
  }, 120_000);
});
