import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareLexical, compareVectors } from './compare.ts';

/** Twelve documents on distinct topics; each query's words point at exactly one of them. */
const DOCS: [id: string, title: string, text: string][] = [
  ['d-bees', 'Honeybee colonies', 'Worker honeybees forage nectar and pollen; the queen lays eggs in wax combs of the hive.'],
  ['d-volcano', 'Basaltic volcanoes', 'Lava from shield volcanoes cools into basalt; eruptions on Hawaii are effusive rather than explosive.'],
  ['d-chess', 'Chess openings', 'The Sicilian defence answers e4 with c5; grandmasters study opening theory for decades.'],
  ['d-bread', 'Sourdough baking', 'A sourdough starter of wild yeast and lactobacilli leavens the dough before baking the loaf.'],
  ['d-orbit', 'Geostationary orbits', 'A satellite in geostationary orbit circles Earth once per sidereal day above the equator.'],
  ['d-violin', 'Violin making', 'Luthiers carve spruce tops and maple backs; varnish changes the tone of the violin.'],
  ['d-glacier', 'Glacier retreat', 'Alpine glaciers lose ice mass as summers warm; moraines mark where the ice once reached.'],
  ['d-insulin', 'Insulin signalling', 'Pancreatic beta cells secrete insulin, which lowers blood glucose through receptor signalling.'],
  ['d-tides', 'Ocean tides', 'The moon and the sun raise tides; spring tides follow full and new moons.'],
  ['d-rust', 'Iron corrosion', 'Iron rusts when oxygen and water oxidise it; zinc galvanising protects steel from corrosion.'],
  ['d-owls', 'Owl hunting', 'Owls hunt at night, locating mice by sound with asymmetric ears and silent feathers.'],
  ['d-tea', 'Green tea', 'Green tea leaves are steamed or pan-fired to stop oxidation, keeping catechins intact.'],
];
const QUERIES: [id: string, text: string, relevant: string][] = [
  ['q1', 'how does the queen honeybee lay eggs in the hive', 'd-bees'],
  ['q2', 'basalt lava eruptions of shield volcanoes', 'd-volcano'],
  ['q3', 'sourdough starter wild yeast', 'd-bread'],
  ['q4', 'satellite geostationary orbit above the equator', 'd-orbit'],
  ['q5', 'insulin lowers blood glucose', 'd-insulin'],
  ['q6', 'zinc galvanising protects steel from rust', 'd-rust'],
];

let dir = '';

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-compare-test-'));
  const data = path.join(dir, 'toy');
  fs.mkdirSync(path.join(data, 'qrels'), { recursive: true });
  fs.writeFileSync(path.join(data, 'corpus.jsonl'), DOCS.map(([_id, title, text]) => JSON.stringify({ _id, title, text })).join('\n') + '\n');
  // One query without judgements: loadBeir leaves it out, so every engine sees the six judged ones.
  const queryLines = [...QUERIES.map(([_id, text]) => ({ _id, text })), { _id: 'q-unjudged', text: 'owls' }];
  fs.writeFileSync(path.join(data, 'queries.jsonl'), queryLines.map((q) => JSON.stringify(q)).join('\n') + '\n');
  fs.writeFileSync(path.join(data, 'qrels', 'test.tsv'), ['query-id\tcorpus-id\tscore', ...QUERIES.map(([q, , d]) => `${q}\t${d}\t1`)].join('\n') + '\n');
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('compareLexical', () => {
  it('runs our BM25, MiniSearch and Orama on the same documents and judged queries', async () => {
    const lines: string[] = [];
    const rows = await compareLexical({ dataset: path.join(dir, 'toy'), split: 'test', workDir: path.join(dir, 'work'), log: (l) => lines.push(l) });
    expect(rows.map((r) => r.engine)).toEqual(['synapsis', 'minisearch', 'orama']);
    for (const r of rows) {
      expect(r.documents, r.engine).toBe(DOCS.length);
      expect(r.queries, r.engine).toBe(QUERIES.length);
      // Each query's words name one document: every engine should rank it first or close.
      expect(r.ndcg_at_10, r.engine).toBeGreaterThan(0.5);
      expect(r.ndcg_at_10, r.engine).toBeLessThanOrEqual(1);
      expect(r.index_s, r.engine).toBeGreaterThan(0);
      expect(r.p50_ms, r.engine).toBeGreaterThan(0);
      expect(r.p95_ms, r.engine).toBeGreaterThanOrEqual(r.p50_ms);
    }
    expect(lines.some((l) => l.includes('"engine":"orama"'))).toBe(true);
    // Our workspace is kept under workDir/synapsis and rebuilt from scratch on the next run.
    expect(fs.existsSync(path.join(dir, 'work', 'synapsis', 'corpus'))).toBe(true);
  });

  it('honours limit', async () => {
    const rows = await compareLexical({ dataset: path.join(dir, 'toy'), split: 'test', limit: 2 });
    expect(rows.map((r) => r.queries)).toEqual([2, 2, 2]);
  });
});

describe('compareVectors', () => {
  it('measures every engine on the same vectors; exact engines find the exact top 10', async () => {
    const lines: string[] = [];
    const rows = await compareVectors({ vectors: 2000, dimension: 32, queries: 20, workDir: path.join(dir, 'vwork'), log: (l) => lines.push(l) });
    const engines = rows.map((r) => r.engine);
    expect(engines).toEqual(expect.arrayContaining(['synapsis usearch (exact)', 'lancedb (exact)', 'lancedb (ivf_pq)', 'lancedb (hnsw_sq)', 'sqlite-vec (exact)']));
    // FAISS is optional (native module): present as a row or skipped with a log line, never silently.
    expect(engines.includes('synapsis faiss (exact)') || lines.some((l) => l.includes('synapsis faiss skipped'))).toBe(true);
    for (const r of rows) {
      expect(r.vectors, r.engine).toBe(2000);
      expect(r.dimension, r.engine).toBe(32);
      expect(r.recall_at_10, r.engine).toBeGreaterThanOrEqual(0);
      expect(r.recall_at_10, r.engine).toBeLessThanOrEqual(1);
      expect(r.build_s, r.engine).toBeGreaterThan(0);
      expect(r.p50_ms, r.engine).toBeGreaterThan(0);
      expect(r.p95_ms, r.engine).toBeGreaterThanOrEqual(r.p50_ms);
    }
    for (const name of ['sqlite-vec (exact)', 'lancedb (exact)', 'synapsis usearch (exact)']) {
      expect(rows.find((r) => r.engine === name)!.recall_at_10, name).toBe(1);
    }
    // The approximate indexes are tuned to be usable, not just present.
    for (const name of ['lancedb (ivf_pq)', 'lancedb (hnsw_sq)']) {
      expect(rows.find((r) => r.engine === name)!.recall_at_10, name).toBeGreaterThan(0.8);
    }
    // LanceDB's table and sqlite-vec's file are cleaned up.
    expect(fs.readdirSync(path.join(dir, 'vwork', 'tmp'))).toEqual([]);
  });

  it('rejects a size it cannot answer', async () => {
    await expect(compareVectors({ vectors: 5, dimension: 8, queries: 1 })).rejects.toThrow(/at least 10 vectors/);
  });
});
