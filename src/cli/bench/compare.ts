/**
 * Side-by-side comparisons with the engines other note and second-brain tools embed: the same
 * corpus and the same queries through each, printed as numbers.
 *
 * - `compareLexical`: our BM25 (`runEval`, mode bm25) against MiniSearch and Orama over a BEIR
 *   dataset (SciFact in `synapsis bench`): indexing time, query latency and nDCG@10 on the judged
 *   queries, scored with the same metric functions and qrels.
 * - `compareVectors`: our vector backends against LanceDB and sqlite-vec over the synthetic clustered
 *   unit vectors of `bench vectors`: build time, query latency and recall@10 against exact
 *   inner-product search.
 *
 * A library that fails throws an error naming the engine: a comparison with a silently missing row
 * would read as a win.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { create as createOrama, insertMultiple as oramaInsertMultiple, search as oramaSearch } from '@orama/orama';
import Database from 'better-sqlite3';
import MiniSearch from 'minisearch';
import * as sqliteVec from 'sqlite-vec';
import { loadBeir, type BeirDataset } from '../eval/beir.ts';
import { mean, ndcgAt, percentile } from '../eval/metrics.ts';
import { runEval } from '../eval/run.ts';
import { createVectorIndex } from '../../engine/vector/index.ts';
import type { VectorIndex } from '../../engine/vector/types.ts';
import { prng } from './corpus.ts';
import { clusteredVectors, groundTruth } from './vectors.ts';

// LanceDB is a CommonJS package that checks Arrow classes with `instanceof` against its own
// require('apache-arrow'); an ESM import would load the ESM build (other classes) and LanceDB would
// write an empty table. Requiring it gives the same module instance LanceDB uses.
type Arrow = typeof import('apache-arrow');
const arrow = createRequire(import.meta.url)('apache-arrow') as Arrow;

export interface LexicalCompareRow {
  engine: 'synapsis' | 'minisearch' | 'orama';
  documents: number;
  queries: number;
  index_s: number;
  p50_ms: number;
  p95_ms: number;
  ndcg_at_10: number;
}

export interface LexicalCompareOptions {
  dataset: string;
  split: string;
  /** Only the first N judged queries. */
  limit?: number;
  /** Our engine's workspace goes to `<workDir>/synapsis` (emptied first, kept afterwards); a temporary folder otherwise. */
  workDir?: string;
  /** Chunks our engine retrieves per query (default 150, as `synapsis eval` and the README's SciFact numbers). */
  depth?: number;
  log?: (line: string) => void;
}

export interface VectorCompareRow {
  /** 'synapsis usearch (hnsw)', 'synapsis faiss (exact)', 'lancedb (exact)', 'lancedb (ivf_pq)', 'lancedb (hnsw_sq)', 'sqlite-vec (exact)'. */
  engine: string;
  vectors: number;
  dimension: number;
  build_s: number;
  p50_ms: number;
  p95_ms: number;
  recall_at_10: number;
}

export interface VectorCompareOptions {
  vectors: number;
  dimension: number;
  queries: number;
  /** Seed of the synthetic vectors (default 11, as `bench vectors`: same vectors at the same size). */
  seed?: number;
  /** LanceDB's table and sqlite-vec's database go under `<workDir>/tmp` (removed afterwards); a temporary folder otherwise. */
  workDir?: string;
  log?: (line: string) => void;
}

const K = 10;
/** Three significant digits: a timing of a tiny run stays above zero, a large one stays readable. */
const sig = (v: number) => (Number.isFinite(v) ? Number(v.toPrecision(3)) : v);

/** Runs one engine's part; any failure becomes an error that names the engine. */
async function forEngine<T>(engine: string, run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`comparison: ${engine} failed: ${message}`, { cause: error });
  }
}

/** One warm-up query (not counted), then each query timed on its own: latencies and the answers. */
async function timeQueries<Q, R>(queries: readonly Q[], run: (query: Q) => Promise<R> | R): Promise<{ latencies: number[]; answers: R[] }> {
  if (queries.length > 0) await run(queries[0]!);
  const latencies: number[] = [];
  const answers: R[] = [];
  for (const q of queries) {
    const t = performance.now();
    answers.push(await run(q));
    latencies.push(performance.now() - t);
  }
  return { latencies, answers };
}

// ---------------------------------------------------------------------------------------------
// Lexical
// ---------------------------------------------------------------------------------------------

function lexicalRow(engine: LexicalCompareRow['engine'], ds: BeirDataset, queries: BeirDataset['queries'], indexS: number, latencies: number[], ranked: string[][]): LexicalCompareRow {
  const ndcg = queries.map((q, i) => ndcgAt(ranked[i]!, ds.qrels.get(q.id)!, K));
  return {
    engine,
    documents: ds.corpus.length,
    queries: queries.length,
    index_s: sig(indexS),
    p50_ms: sig(percentile(latencies, 50)),
    p95_ms: sig(percentile(latencies, 95)),
    ndcg_at_10: Math.round(mean(ndcg) * 1e4) / 1e4,
  };
}

/**
 * MiniSearch 7 with its defaults: tokens split on Unicode spaces and punctuation, lower-cased, no
 * stemming, no stop words; BM25+ (k1 1.2, b 0.7, d 0.5); OR of the query terms, no prefix or fuzzy
 * matching. Both fields at weight 1: a 2x title boost, as our BM25 weighs the title column
 * (BM25_WEIGHTS.title = 2), lowered MiniSearch's SciFact nDCG@10 from 0.6296 to 0.6052.
 */
function runMiniSearch(ds: BeirDataset, queries: BeirDataset['queries']) {
  return forEngine('minisearch', async () => {
    const started = performance.now();
    const index = new MiniSearch<{ id: string; title: string; text: string }>({ fields: ['title', 'text'], idField: 'id' });
    index.addAll(ds.corpus);
    const indexS = (performance.now() - started) / 1000;
    // MiniSearch returns every matching document, best first; the top 10 are the answer.
    const { latencies, answers } = await timeQueries(queries, (q) =>
      index
        .search(q.text)
        .slice(0, K)
        .map((r) => String(r.id)),
    );
    return lexicalRow('minisearch', ds, queries, indexS, latencies, answers);
  });
}

/**
 * Orama 3 with its defaults: the English tokenizer (lower-case, split on non-letters, diacritics
 * folded), no stemming and no stop words unless asked for; BM25 (k1 1.2, b 0.75, d 0.5); a term
 * also matches the words it prefixes (`exact: false`, tolerance 0); threshold 1: documents holding
 * any query term. No boost, as for MiniSearch. On SciFact a 2x title boost moved Orama's nDCG@10
 * from 0.2446 to 0.2474 and its English stemmer (off by default) with that boost to 0.2789; what
 * costs it is the prefix expansion: the same index searched by whole words (its internal
 * `index.search` with exact = true, which the public `exact` option only offers together with a
 * case-sensitive all-words filter) gives 0.5547. In memory, like MiniSearch.
 */
function runOrama(ds: BeirDataset, queries: BeirDataset['queries']) {
  return forEngine('orama', async () => {
    const started = performance.now();
    const db = createOrama({ schema: { title: 'string', text: 'string' } as const });
    await oramaInsertMultiple(db, ds.corpus);
    const indexS = (performance.now() - started) / 1000;
    const { latencies, answers } = await timeQueries(queries, async (q) => {
      const result = await oramaSearch(db, { term: q.text, limit: K });
      return result.hits.map((h) => h.id);
    });
    return lexicalRow('orama', ds, queries, indexS, latencies, answers);
  });
}

/**
 * Our BM25 row, then MiniSearch and Orama over the same documents (title + text, ids = BEIR ids)
 * and the same judged queries.
 *
 * Our row is `runEval` mode bm25 unchanged, at depth 150 chunks by default: the depth of
 * `synapsis eval` and of docs/retrieval.md's BM25 SciFact nDCG@10, and deep enough that the list always
 * holds ten distinct documents (a document scores its best chunk), as the other engines' top 10
 * (they index whole documents) do. Its index time is `engine.index` over the corpus written as one
 * Markdown file per document (reading, parsing, chunking, FTS5 on disk), its latency a full
 * `engine.retrieve` (150 chunks loaded) with no warm-up query (one cold query among hundreds moves
 * neither p50 nor p95). `depth: 10` gives the interactive case instead (README: slightly lower
 * nDCG@10, ten chunks can hold fewer than ten documents). MiniSearch and Orama index in memory
 * and their index time is the insertion of the already parsed documents.
 */
export async function compareLexical(options: LexicalCompareOptions): Promise<LexicalCompareRow[]> {
  const log = options.log ?? (() => {});
  const ds = loadBeir(options.dataset, options.split);
  const queries = options.limit ? ds.queries.slice(0, options.limit) : ds.queries;
  const rows: LexicalCompareRow[] = [];

  const ourWork = options.workDir ? path.join(path.resolve(options.workDir), 'synapsis') : undefined;
  // A kept workspace would re-index nothing on a second run: start from an empty one every time.
  if (ourWork) fs.rmSync(ourWork, { recursive: true, force: true });
  const ours = await forEngine('synapsis', () =>
    runEval({
      dataset: options.dataset,
      split: options.split,
      mode: 'bm25',
      depth: options.depth ?? 150,
      ...(options.limit ? { limit: options.limit } : {}),
      ...(ourWork ? { workDir: ourWork } : {}),
      log,
    }),
  );
  rows.push({
    engine: 'synapsis',
    documents: ours.documents,
    queries: ours.queries,
    index_s: ours.index_s,
    p50_ms: ours.latency_p50_ms,
    p95_ms: ours.latency_p95_ms,
    ndcg_at_10: ours.ndcg_at_10,
  });
  log(`compare lexical: ${JSON.stringify(rows.at(-1))}`);

  for (const run of [runMiniSearch, runOrama]) {
    rows.push(await run(ds, queries));
    log(`compare lexical: ${JSON.stringify(rows.at(-1))}`);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Vectors
// ---------------------------------------------------------------------------------------------

interface VectorSet {
  dim: number;
  count: number;
  data: Float32Array;
  queries: Float32Array[];
  truth: number[][];
  /** The exact 10th best inner product of each query (ties at the boundary count as found). */
  kthScore: number[];
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function row(set: VectorSet, i: number): Float32Array {
  return set.data.subarray(i * set.dim, (i + 1) * set.dim);
}

/** Share of each query's exact top 10 found in its answer; a returned id as close as the 10th (float noise) also counts. */
function recallAt10(set: VectorSet, answers: number[][]): number {
  let found = 0;
  answers.forEach((ids, q) => {
    const want = new Set(set.truth[q]);
    const seen = new Set<number>();
    for (const id of ids.slice(0, K)) {
      if (seen.has(id) || !Number.isInteger(id) || id < 0 || id >= set.count) continue;
      seen.add(id);
      if (want.has(id) || dot(set.queries[q]!, row(set, id)) >= set.kthScore[q]! - 1e-6) found++;
    }
  });
  return found / (answers.length * K);
}

function vectorRow(engine: string, set: VectorSet, buildS: number, latencies: number[], answers: number[][]): VectorCompareRow {
  return {
    engine,
    vectors: set.count,
    dimension: set.dim,
    build_s: sig(buildS),
    p50_ms: sig(percentile(latencies, 50)),
    p95_ms: sig(percentile(latencies, 95)),
    recall_at_10: Math.round(recallAt10(set, answers) * 1e3) / 1e3,
  };
}

/** Our backend as the engine opens it (`createVectorIndex`), fed in batches of 10,000 like `bench vectors`. */
async function runOurs(backend: 'usearch' | 'faiss', set: VectorSet): Promise<VectorCompareRow> {
  let index: VectorIndex | null = null;
  try {
    return await forEngine(`synapsis ${backend}`, async () => {
      const started = performance.now();
      index = createVectorIndex({ backend, dimension: set.dim, expectedCount: set.count });
      const BATCH = 10_000;
      for (let start = 0; start < set.count; start += BATCH) {
        const ids: number[] = [];
        const rows: Float32Array[] = [];
        for (let r = start; r < Math.min(set.count, start + BATCH); r++) {
          ids.push(r);
          rows.push(row(set, r));
        }
        index.add(ids, rows);
      }
      const buildS = (performance.now() - started) / 1000;
      const opened: VectorIndex = index;
      const { latencies, answers } = await timeQueries(set.queries, (q) => opened.search(q, K).map((h) => h.id));
      return vectorRow(`synapsis ${backend} (${opened.stats().kind})`, set, buildS, latencies, answers);
    });
  } finally {
    (index as VectorIndex | null)?.dispose();
  }
}

/** The vectors as an Arrow table (id int32, vector fixed_size_list<float32>[dim]) without copying them row by row. */
function arrowTable(set: VectorSet) {
  const values = arrow.makeData({ type: new arrow.Float32(), length: set.count * set.dim, data: set.data });
  const vectorType = new arrow.FixedSizeList(set.dim, new arrow.Field('item', new arrow.Float32(), true));
  const vectors = arrow.makeData({ type: vectorType, length: set.count, nullCount: 0, child: values });
  const ids = arrow.makeData({ type: new arrow.Int32(), length: set.count, data: Int32Array.from({ length: set.count }, (_, i) => i) });
  return new arrow.Table({ id: arrow.makeVector(ids), vector: arrow.makeVector(vectors) });
}

/**
 * LanceDB, one table on disk under `dir`, distance "cosine" (on unit vectors the ranking of the
 * inner product; its HNSW-SQ index with "dot" returned almost nothing right here: recall@10 0.01
 * on 2,000 x 32, 0.075 with refinement, while cosine and l2 gave 0.99). Three rows from one table:
 * - exact: no index, a flat scan of every row (build = writing the table);
 * - ivf_pq: √n IVF partitions and dim/16 PQ sub-vectors (LanceDB's defaults), searched with
 *   nprobes 20 (default) and refineFactor 30: the 300 best PQ candidates are re-ranked on the full
 *   vectors. Measured at 100k x 384: refineFactor 10 gave recall@10 0.77, 30 gave 0.98 (50: 1.0
 *   at almost twice the latency); nprobes 40 gained nothing;
 * - hnsw_sq: IVF-HNSW with scalar quantisation, LanceDB's defaults (m 20, efConstruction 300),
 *   searched with ef 100 and no refinement (at 100k x 384: 0.986; refineFactor 3 reaches 1.0 at
 *   1.5x the latency; ef must then be at least 10 x refineFactor).
 * build_s of an indexed row = writing the table + building that index.
 */
async function runLance(set: VectorSet, dir: string, log: (line: string) => void): Promise<VectorCompareRow[]> {
  const rows: VectorCompareRow[] = [];
  let db: lancedb.Connection | null = null;
  let table: lancedb.Table | null = null;
  try {
    let writeS = 0;
    await forEngine('lancedb (exact)', async () => {
      const started = performance.now();
      db = await lancedb.connect(dir);
      table = await db.createTable('vectors', arrowTable(set), { mode: 'overwrite' });
      writeS = (performance.now() - started) / 1000;
      const stored = await table.countRows();
      if (stored !== set.count) throw new Error(`the table holds ${stored} rows, ${set.count} were written`);
    });
    const search = (q: Float32Array, tune: (query: lancedb.VectorQuery) => lancedb.VectorQuery) =>
      tune(table!.vectorSearch(q).distanceType('cosine').select(['id', '_distance']).limit(K))
        .toArray()
        .then((hits: { id: number }[]) => hits.map((h) => Number(h.id)));

    rows.push(
      await forEngine('lancedb (exact)', async () => {
        const { latencies, answers } = await timeQueries(set.queries, (q) => search(q, (v) => v));
        return vectorRow('lancedb (exact)', set, writeS, latencies, answers);
      }),
    );
    log(`compare vectors: ${JSON.stringify(rows.at(-1))}`);

    const numPartitions = Math.max(1, Math.round(Math.sqrt(set.count)));
    rows.push(
      await forEngine('lancedb (ivf_pq)', async () => {
        const started = performance.now();
        await table!.createIndex('vector', { config: lancedb.Index.ivfPq({ distanceType: 'cosine', numPartitions }), replace: true });
        const indexS = (performance.now() - started) / 1000;
        const { latencies, answers } = await timeQueries(set.queries, (q) => search(q, (v) => v.nprobes(20).refineFactor(30)));
        return vectorRow('lancedb (ivf_pq)', set, writeS + indexS, latencies, answers);
      }),
    );
    log(`compare vectors: ${JSON.stringify(rows.at(-1))}`);

    rows.push(
      await forEngine('lancedb (hnsw_sq)', async () => {
        const started = performance.now();
        await table!.createIndex('vector', { config: lancedb.Index.hnswSq({ distanceType: 'cosine' }), replace: true });
        const indexS = (performance.now() - started) / 1000;
        const { latencies, answers } = await timeQueries(set.queries, (q) => search(q, (v) => v.ef(100)));
        return vectorRow('lancedb (hnsw_sq)', set, writeS + indexS, latencies, answers);
      }),
    );
    log(`compare vectors: ${JSON.stringify(rows.at(-1))}`);
    return rows;
  } finally {
    (table as lancedb.Table | null)?.close();
    (db as lancedb.Connection | null)?.close();
  }
}

/**
 * sqlite-vec: a `vec0` table `embedding float[dim]` with its default metric, L2 (on unit vectors
 * the same ranking as cosine and inner product, without a norm per row), in a database file under
 * `dir`, all rows inserted in one transaction; `WHERE embedding MATCH ? AND k = 10` scans every
 * row (vec0 has no approximate index).
 */
async function runSqliteVec(set: VectorSet, dir: string): Promise<VectorCompareRow> {
  return forEngine('sqlite-vec (exact)', async () => {
    const started = performance.now();
    const db = new Database(path.join(dir, 'vectors.sqlite'));
    try {
      sqliteVec.load(db);
      db.exec(`CREATE VIRTUAL TABLE vectors USING vec0(embedding float[${set.dim}])`);
      const insert = db.prepare('INSERT INTO vectors(rowid, embedding) VALUES (?, ?)');
      db.transaction(() => {
        for (let i = 0; i < set.count; i++) {
          const v = row(set, i);
          // vec0 wants an integer rowid: better-sqlite3 binds a JS number as REAL, a BigInt as INTEGER.
          insert.run(BigInt(i), Buffer.from(v.buffer, v.byteOffset, v.byteLength));
        }
      })();
      const buildS = (performance.now() - started) / 1000;
      const knn = db.prepare(`SELECT rowid AS id FROM vectors WHERE embedding MATCH ? AND k = ${K} ORDER BY distance`);
      const { latencies, answers } = await timeQueries(set.queries, (q) =>
        (knn.all(Buffer.from(q.buffer, q.byteOffset, q.byteLength)) as { id: number | bigint }[]).map((r) => Number(r.id)),
      );
      return vectorRow('sqlite-vec (exact)', set, buildS, latencies, answers);
    } finally {
      db.close();
    }
  });
}

/**
 * The same synthetic vectors and queries through each vector engine: ours (usearch as
 * `createVectorIndex` opens it for this size: exact up to 20,000 vectors, HNSW above; FAISS's
 * exact index when its native module loads, skipped with a log line otherwise), LanceDB (exact,
 * IVF-PQ, HNSW-SQ) and sqlite-vec. Ground truth: exact inner-product top 10 (usearch's brute force).
 * Latency: one warm-up query, then each query alone, in this process (LanceDB's async calls
 * included).
 */
export async function compareVectors(options: VectorCompareOptions): Promise<VectorCompareRow[]> {
  const log = options.log ?? (() => {});
  const { vectors: count, dimension: dim } = options;
  if (!Number.isInteger(count) || count < K || !Number.isInteger(dim) || dim < 1 || !Number.isInteger(options.queries) || options.queries < 1) {
    throw new Error(`compareVectors needs at least ${K} vectors, a positive dimension and at least one query`);
  }
  // Generated exactly as `bench vectors` does for this size, so both report on the same vectors.
  const rand = prng((options.seed ?? 11) + dim * 7 + count);
  const clusters = Math.max(16, Math.round(count / 500));
  log(`compare vectors: generating ${count} x ${dim} (${clusters} clusters) and ${options.queries} queries`);
  const all = clusteredVectors(count + options.queries, dim, clusters, rand);
  const data = all.subarray(0, count * dim);
  const queryBlock = all.subarray(count * dim);
  const truth = groundTruth(data, queryBlock, dim, K);
  const queries = Array.from({ length: options.queries }, (_, q) => queryBlock.subarray(q * dim, (q + 1) * dim));
  const set: VectorSet = { dim, count, data, queries, truth, kthScore: [] };
  set.kthScore = queries.map((q, i) => dot(q, row(set, truth[i]![K - 1]!)));

  const tmpRoot = options.workDir ? path.join(path.resolve(options.workDir), 'tmp') : fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-compare-'));
  const tmp = path.join(tmpRoot, `vectors-${count}x${dim}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  const rows: VectorCompareRow[] = [];
  try {
    rows.push(await runOurs('usearch', set));
    log(`compare vectors: ${JSON.stringify(rows.at(-1))}`);
    let faissProblem: string | null = null;
    try {
      createVectorIndex({ backend: 'faiss', dimension: dim }).dispose();
    } catch (error) {
      faissProblem = error instanceof Error ? error.message : String(error);
    }
    if (faissProblem) {
      log(`compare vectors: synapsis faiss skipped, its native module does not load: ${faissProblem}`);
    } else {
      rows.push(await runOurs('faiss', set));
      log(`compare vectors: ${JSON.stringify(rows.at(-1))}`);
    }
    rows.push(...(await runLance(set, path.join(tmp, 'lancedb'), log)));
    rows.push(await runSqliteVec(set, tmp));
    log(`compare vectors: ${JSON.stringify(rows.at(-1))}`);
    return rows;
  } finally {
    fs.rmSync(options.workDir ? tmp : tmpRoot, { recursive: true, force: true });
  }
}
