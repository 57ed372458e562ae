import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateZipfCorpus } from './search.ts';
import { HashedEmbedder } from './hashed-embedder.ts';
import { formatSuite } from './suite.ts';
import { cli } from '../../../test/helpers/cli.ts';

const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('benchmark suite pieces', () => {
  it('the synthetic embedder gives unit vectors, the same for the same words, closer for texts that share words', async () => {
    const e = new HashedEmbedder(384);
    expect(await e.load()).toBe(384);
    const a = await e.embed('relay outage root cause certificate', 'query');
    const b = await e.embed('the relay outage was caused by an expired certificate', 'document');
    const c = await e.embed('gardening tips for tomatoes and basil', 'document');
    expect(Math.abs(cos(a, a) - 1)).toBeLessThan(1e-5);
    expect(cos(a, b)).toBeGreaterThan(0.4);
    expect(cos(a, c)).toBeLessThan(0.2);
    expect(Array.from(await e.embed('Relay OUTAGE', 'query'))).toEqual(Array.from(await e.embed('relay outage', 'document')));
    const [ok] = await e.embedMany(['x y'], 'document');
    expect(ok!.status).toBe('fulfilled');
  });

  it('prints one table of targets with their verdicts, and the comparisons with ratios to ours', () => {
    const text = formatSuite({
      rows: [
        { target: 'lexical indexing', measured: '4000 chunks/s', goal: '≥ 2,000 chunks/s', met: true },
        { target: 'cold start', measured: '2.1 s', goal: '< 1.5 s', met: false },
        { target: 'lexical query', measured: 'p95 20 ms', goal: 'reported', met: null },
      ],
      lexical: [
        { engine: 'synapsis', documents: 5183, queries: 300, index_s: 4, p50_ms: 10, p95_ms: 20, ndcg_at_10: 0.7 },
        { engine: 'minisearch', documents: 5183, queries: 300, index_s: 8, p50_ms: 5, p95_ms: 10, ndcg_at_10: 0.6 },
      ],
      vectors: [
        { engine: 'lancedb (exact)', vectors: 100000, dimension: 384, build_s: 10, p50_ms: 40, p95_ms: 50, recall_at_10: 1 },
        { engine: 'synapsis usearch (hnsw)', vectors: 100000, dimension: 384, build_s: 20, p50_ms: 0.5, p95_ms: 1, recall_at_10: 0.99 },
      ],
      elapsed_s: 100,
    });
    expect(text).toContain('| lexical indexing | 4000 chunks/s | ≥ 2,000 chunks/s | yes |');
    expect(text).toContain('| cold start | 2.1 s | < 1.5 s | **no** |');
    expect(text).toContain('| lexical query | p95 20 ms | reported | – |');
    expect(text).toContain('| minisearch | 8 | 5 | 10 | 0.6 | 2.0x | 0.5x |');
    // Ratios are to our own vector index, wherever it stands in the list.
    expect(text).toContain('| lancedb (exact) | 10 | 40 | 50 | 1 | 0.5x | 50.0x |');
    expect(text).toContain('100,000 x 384');
  });

  it('draws the same sections of the generated notes without writing them again', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-zipf-'));
    try {
      const written = generateZipfCorpus(path.join(dir, 'a'), 1000);
      const drawn = generateZipfCorpus(path.join(dir, 'b'), 1000, undefined, false);
      expect(drawn).toEqual(written);
      expect(fs.existsSync(path.join(dir, 'b'))).toBe(false);
      expect(fs.readdirSync(path.join(dir, 'a', 'd000')).length).toBe(written.files);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bench hybrid measures hybrid latency with each stage, and measures a kept work dir again without rebuilding it', async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-bench-hybrid-'));
    try {
      const first = await cli(['bench', 'hybrid', '--chunks', '300', '--queries', '12', '--work-dir', work, '--json']);
      expect(first.code, first.err).toBe(0);
      const r = JSON.parse(first.out) as { chunks: number; p50: number; p95: number; stages: Record<string, { p50: number; p95: number }> };
      expect(r.chunks).toBeGreaterThan(250);
      expect(r.p95).toBeGreaterThanOrEqual(r.p50);
      expect(Object.keys(r.stages)).toEqual(expect.arrayContaining(['lexical_ms', 'dense_ms', 'fusion_ms']));
      expect(first.err).toMatch(/hybrid: indexed \d+ chunks, \d+ embedded/);
      expect(Number(/(\d+) embedded/.exec(first.err)![1])).toBeGreaterThan(0);
      // The kept notes and index: nothing generated or embedded again.
      const again = await cli(['bench', 'hybrid', '--chunks', '300', '--queries', '12', '--work-dir', work]);
      expect(again.code, again.err).toBe(0);
      expect(again.err).not.toContain('generating notes');
      expect(again.err).toMatch(/, 0 embedded/);
      expect(again.out).toMatch(/hybrid query, \d+ chunks, k = 10, 12 queries \(warm, 10 results each on average\): p50 [\d.]+ ms, p95 [\d.]+ ms/);
      expect(again.out).toContain('| dense_ms |');
      // Filters reach every query: a folder that holds nothing leaves no result.
      const filtered = await cli(['bench', 'hybrid', '--chunks', '300', '--queries', '12', '--work-dir', work, '--include', 'd000/**', '--exclude', 'd000/n1*', '--json']);
      expect(filtered.code, filtered.err).toBe(0);
      expect((JSON.parse(filtered.out) as { results_mean: number }).results_mean).toBe(10);
      const nowhere = await cli(['bench', 'hybrid', '--chunks', '300', '--queries', '12', '--work-dir', work, '--include', 'nowhere/**', '--no-lexical-thread']);
      expect(nowhere.out).toContain('hybrid query (lexical list on the main thread) (filtered: in nowhere/**), ');
      expect(nowhere.out).toContain('0 results each on average');
      expect((await cli(['bench', 'hybrid', '--chunks', 'many'])).code).toBe(2);
      // --profile reaches the engine: another profile's file is queried with, an unknown name is refused.
      const profile = path.resolve(import.meta.dirname, '../../../docs/profiles/default-chunk-max.json');
      const other = await cli(['bench', 'hybrid', '--chunks', '300', '--queries', '12', '--work-dir', work, '--profile', profile]);
      expect(other.code, other.err).toBe(0);
      expect(other.out).toContain(`hybrid query (profile ${profile}), `);
      const unknown = await cli(['bench', 'hybrid', '--chunks', '300', '--queries', '12', '--work-dir', work, '--profile', 'nosuch']);
      expect(unknown.code).toBe(2);
      expect(unknown.err).toMatch(/No retrieval profile "nosuch"/);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
