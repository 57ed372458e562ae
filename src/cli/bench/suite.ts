/**
 * `synapsis bench` (`npm run bench`): every speed target of the performance issue in one table,
 * measured on this machine in one run, plus the side-by-side comparisons with the engines other
 * second-brain tools use. docs/benchmarks.md explains the method and records a run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../../engine/index.ts';
import { percentile } from '../eval/metrics.ts';
// compare.ts loads the devDependencies it compares against (LanceDB, Orama, ...): import it only when
// a comparison runs, so the CLI starts where only production dependencies are installed (the demo bundle).
import type { LexicalCompareRow, VectorCompareRow } from './compare.ts';
import { benchCliStart, cliStartRow } from './cli-start.ts';
import { benchEmbed, embedRow } from './embed.ts';
import { HashedEmbedder } from './hashed-embedder.ts';
import { benchIngest } from './ingest.ts';
import { benchSearch, coldStart, generateZipfCorpus, sampleQueries } from './search.ts';
import { benchVectors } from './vectors.ts';

export interface SuiteRow {
  target: string;
  measured: string;
  goal: string;
  /** null: reported, no goal of its own. */
  met: boolean | null;
}

export interface SuiteReport {
  rows: SuiteRow[];
  lexical: LexicalCompareRow[];
  vectors: VectorCompareRow[];
  elapsed_s: number;
}

export interface SuiteOptions {
  /** Chunks of the generated corpus for the latency, memory and cold-start rows (100k by default). */
  chunks: number;
  /** Also measure at 1M chunks (lexical index and vector index; about 25 more minutes here). */
  full: boolean;
  /** The BEIR folder for indexing time and the lexical comparison (../shared/data/scifact). */
  scifact: string;
  queries: number;
  workDir?: string;
  /** The default embedding model for the time-to-semantic row; missing: the row says so. */
  embedModel?: string;
  log: (line: string) => void;
}

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const ms = (v: number) => Math.round(v * 10) / 10;

export interface HybridBenchResult {
  chunks: number;
  /** Seconds of engine.index: the whole build on a fresh work dir, an unchanged check on a kept one. */
  index_s: number;
  p50: number;
  p95: number;
  /** p50 and p95 of each stage the pipeline times (meta.timings: lexical_ms, dense_ms, fusion_ms, graph_ms). */
  stages: Record<string, { p50: number; p95: number }>;
  /** Chunks a query returned, on average (fewer than k when filters leave fewer). */
  results_mean: number;
  queries: string[];
}

/**
 * Hybrid retrieval over the generated corpus with the synthetic embedder (the query vector costs
 * microseconds). `corpusWork` holds the notes benchSearch wrote (`corpus/`); the hybrid data dir
 * is `data-hybrid/` beside them, so a kept work dir is measured again without building it again.
 */
export async function benchHybrid(
  corpusWork: string,
  chunks: number,
  queryCount: number,
  log: (line: string) => void,
  options: { sentenceVectors?: boolean; lexicalThread?: boolean; includeGlobs?: string[]; excludeGlobs?: string[]; profile?: string } = {},
): Promise<HybridBenchResult> {
  const corpus = path.join(corpusWork, 'corpus');
  // The notes benchSearch wrote: only their sections are drawn again, for the same queries.
  const { sections } = generateZipfCorpus(corpus, chunks, undefined, false);
  const queries = sampleQueries(sections, queryCount);
  // The warm-up pass asks other questions of the same kind: the measured queries meet warm pages and
  // caches of common terms, as a user's next question does, but never their own answers.
  const warmUp = sampleQueries(sections, queryCount, 12);
  const embedder = new HashedEmbedder(384);
  const env = {
    SYN_CHAT_MODEL: '',
    ...(options.sentenceVectors === false ? { SYN_SENTENCE_VECTORS: 'false' } : {}),
    ...(options.lexicalThread === false ? { SYN_LEXICAL_THREAD: 'false' } : {}),
    ...(options.profile ? { SYN_PROFILE: options.profile } : {}),
  };
  const engine = createEngine({ dataDir: path.join(corpusWork, 'data-hybrid'), env, embedder });
  try {
    const t0 = performance.now();
    const report = await engine.index([corpus]);
    const indexS = (performance.now() - t0) / 1000;
    log(`hybrid: indexed ${report.chunks_total} chunks, ${report.embedded} embedded (synthetic 384-d) in ${indexS.toFixed(1)} s`);
    const run = async (asked: readonly string[]) => {
      const lat: number[] = [];
      const stages: Record<string, number[]> = {};
      let results = 0;
      for (const q of asked) {
        // Each question arrives as an event, as from the UI: the engine's threads get their turn between them.
        await new Promise((resolve) => setImmediate(resolve));
        const t = performance.now();
        const r = await engine.retrieve(q, { mode: 'hybrid', include_globs: options.includeGlobs ?? [], exclude_globs: options.excludeGlobs ?? [] }, 10);
        lat.push(performance.now() - t);
        if (!r.meta.hybrid_used) throw new Error(`hybrid retrieval fell back: ${r.meta.limits?.map((l) => l.detail).join('; ')}`);
        results += r.chunks.length;
        for (const [stage, v] of Object.entries(r.meta.timings ?? {})) (stages[stage] ??= []).push(v);
      }
      return { lat, stages, results };
    };
    await run(warmUp);
    const { lat, stages, results } = await run(queries);
    const byStage = Object.fromEntries(Object.entries(stages).map(([s, v]) => [s, { p50: ms(percentile(v, 50)), p95: ms(percentile(v, 95)) }]));
    return { chunks: report.chunks_total, index_s: indexS, p50: percentile(lat, 50), p95: percentile(lat, 95), stages: byStage, results_mean: Math.round((results / Math.max(1, queries.length)) * 10) / 10, queries };
  } finally {
    await engine.dispose();
  }
}

export async function runSuite(options: SuiteOptions): Promise<SuiteReport> {
  const started = performance.now();
  const { log } = options;
  const work = options.workDir ? path.resolve(options.workDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-bench-'));
  const rows: SuiteRow[] = [];
  const k = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${Math.round(n / 1000)}k`);
  try {
    // 1. Lexical indexing speed and lexical latency at the default size.
    log(`— lexical index and search, ${k(options.chunks)} chunks`);
    const searchWork = path.join(work, `search-${options.chunks}`);
    const lexical = await benchSearch(options.chunks, options.queries, log, searchWork);
    const chunksPerS = Math.round(lexical.chunks / lexical.index_s);
    rows.push({ target: `lexical indexing, generated ${k(lexical.chunks)}-chunk markdown corpus`, measured: `${chunksPerS} chunks/s (${lexical.index_s} s)`, goal: '≥ 2,000 chunks/s', met: chunksPerS >= 2000 });
    if (lexical.index_peak_rss_mb !== null) {
      rows.push({ target: `indexing peak RSS, ${k(lexical.files)} linked notes (${k(lexical.chunks)} chunks)`, measured: `${lexical.index_peak_rss_mb} MB`, goal: '< 1 GB', met: lexical.index_peak_rss_mb < 1024 });
    }
    rows.push({ target: `lexical query, ${k(lexical.chunks)} chunks, k = 10 (warm)`, measured: `p50 ${lexical.k10_p50_ms} ms, p95 ${lexical.k10_p95_ms} ms`, goal: 'reported', met: null });

    // 2. Hybrid latency (synthetic query vectors) and the vector index's recall.
    log(`— hybrid search, ${k(options.chunks)} chunks`);
    const hybrid = await benchHybrid(searchWork, options.chunks, options.queries, log);
    rows.push({ target: `hybrid query, ${k(hybrid.chunks)} chunks, precomputed query vector`, measured: `p50 ${ms(hybrid.p50)} ms, p95 ${ms(hybrid.p95)} ms`, goal: 'p95 < 30 ms', met: hybrid.p95 < 30 });
    log('— vector index recall');
    const sizes = options.full ? [options.chunks, 1_000_000] : [options.chunks];
    const vec = await benchVectors({ sizes, dimensions: [384], backends: ['usearch'], queries: 200 }, log);
    for (const v of vec) {
      rows.push({ target: `ANN recall@10 vs exact, ${k(v.vectors)} x 384 (usearch ${v.kind})`, measured: `${v.recall_at_10} (p95 ${v.p95_ms} ms, build ${v.build_s} s)`, goal: '≥ 0.95', met: v.recall_at_10 >= 0.95 });
    }

    // 3. Memory and cold start on the index built in 1.
    log('— cold start and memory');
    const cold = coldStart(path.join(searchWork, 'data'), hybrid.queries);
    rows.push({
      target: `engine RSS without models after ${cold.queries} queries, ${k(lexical.chunks)} chunks (${k(lexical.files)} linked notes) indexed, searching with the graph`,
      measured: `${cold.rss_mb} MB (anonymous ${cold.rss_anon_mb ?? '?'} MB); those queries p50 ${cold.p50_ms} ms, p95 ${cold.p95_ms} ms`,
      goal: '< 400 MB',
      met: cold.rss_mb < 400,
    });
    rows.push({
      target: `cold start on an existing ${k(lexical.chunks)}-chunk index (open + first query, with the graph)`,
      measured: `${(cold.open_and_first_query_ms / 1000).toFixed(2)} s (whole process with Node and tsx start: ${(cold.process_ms / 1000).toFixed(2)} s)`,
      goal: '< 1.5 s',
      met: cold.open_and_first_query_ms < 1500,
    });
    rows.push({
      target: 'the same without the graph (use_graph: false)',
      measured: `${(lexical.cold_first_query_no_graph_ms / 1000).toFixed(2)} s, ${lexical.cold_rss_no_graph_mb} MB (with the graph, measured by bench search: ${(lexical.cold_first_query_ms / 1000).toFixed(2)} s, ${lexical.cold_rss_mb} MB)`,
      goal: 'reported',
      met: null,
    });

    log('— the CLI as a whole process');
    rows.push(cliStartRow(await benchCliStart({ vault: path.join(REPO_ROOT, 'resources', 'sample-vault'), log })));

    // 4. Incremental: an edit saved, found through the watcher.
    log('— incremental edit (5,000 notes)');
    const ingest = await benchIngest(5000, log);
    rows.push({ target: 'one-file edit searchable lexically (watcher, 5,000 notes)', measured: `${ingest.watch_edit_to_searchable_ms} ms`, goal: '< 1 s', met: ingest.watch_edit_to_searchable_ms < 1000 });

    // 4b. Time to semantic: 1,000 notes with the default embedding model, until every chunk has its vector.
    if (options.embedModel && fs.existsSync(options.embedModel)) {
      log('— time to semantic (1,000 notes, default embedding model)');
      rows.push(embedRow(await benchEmbed({ model: options.embedModel, notes: 1000, log })));
    } else {
      rows.push({ target: 'time to semantic: 1,000 generated notes, default embedding model', measured: `not measured: no model file ${options.embedModel ?? ''}`, goal: '< 300 s on 2 cores', met: null });
    }

    // 5. At 1M chunks: lexical latency; hybrid is bounded by lexical p95 + vector p95 (fusion adds < 1 ms).
    if (options.full) {
      log('— lexical search, 1M chunks');
      const big = await benchSearch(1_000_000, options.queries, log, path.join(work, 'search-1000000'));
      rows.push({ target: `lexical indexing, generated ${k(big.chunks)}-chunk corpus`, measured: `${Math.round(big.chunks / big.index_s)} chunks/s (${big.index_s} s)`, goal: '≥ 2,000 chunks/s', met: big.chunks / big.index_s >= 2000 });
      rows.push({ target: `lexical query, ${k(big.chunks)} chunks, k = 10`, measured: `p50 ${big.k10_p50_ms} ms, p95 ${big.k10_p95_ms} ms`, goal: 'reported', met: null });
      const v1m = vec.find((v) => v.vectors === 1_000_000)!;
      const bound = big.k10_p95_ms + v1m.p95_ms;
      rows.push({ target: 'hybrid query, 1M chunks (bound: lexical p95 + vector p95)', measured: `≤ ${ms(bound)} ms`, goal: 'p95 < 150 ms', met: bound < 150 });
    }

    // 6. Side by side: SciFact lexical (also the indexing-time target), and vector indexes.
    log('— comparisons: BM25 engines on SciFact');
    const { compareLexical } = await import('./compare.ts');
    const lexicalRows = await compareLexical({ dataset: options.scifact, split: 'test', workDir: path.join(work, 'scifact'), log });
    const ours = lexicalRows.find((r) => r.engine === 'synapsis')!;
    rows.push({ target: `SciFact (${ours.documents} documents) searchable lexically`, measured: `${ours.index_s} s`, goal: '< 10 s', met: ours.index_s < 10 });
    log('— comparisons: vector indexes, 100k x 384');
    const { compareVectors } = await import('./compare.ts');
    const vectorRows = await compareVectors({ vectors: 100_000, dimension: 384, queries: 200, workDir: path.join(work, 'vectors'), log });
    return { rows, lexical: lexicalRows, vectors: vectorRows, elapsed_s: Math.round((performance.now() - started) / 1000) };
  } finally {
    if (!options.workDir) fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The report as markdown tables (what `synapsis bench` prints and docs/benchmarks.md records). */
export function formatSuite(report: SuiteReport): string {
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(1)}x` : '–');
  const ours = report.lexical.find((r) => r.engine === 'synapsis')!;
  const vBase = report.vectors.find((r) => r.engine.startsWith('synapsis')) ?? report.vectors[0]!;
  return [
    '| target | measured | goal | met |',
    '|---|---|---|---|',
    ...report.rows.map((r) => `| ${r.target} | ${r.measured} | ${r.goal} | ${r.met === null ? '–' : r.met ? 'yes' : '**no**'} |`),
    '',
    'BM25 engines, SciFact test (same documents and queries):',
    '',
    '| engine | index s | p50 ms | p95 ms | nDCG@10 | index time vs ours | p95 vs ours |',
    '|---|---|---|---|---|---|---|',
    ...report.lexical.map((r) => `| ${r.engine} | ${r.index_s} | ${r.p50_ms} | ${r.p95_ms} | ${r.ndcg_at_10} | ${ratio(r.index_s, ours.index_s)} | ${ratio(r.p95_ms, ours.p95_ms)} |`),
    '',
    `Vector indexes, ${vBase.vectors.toLocaleString('en')} x ${vBase.dimension} (same vectors and queries; recall against exact search):`,
    '',
    '| engine | build s | p50 ms | p95 ms | recall@10 | build vs ours | p95 vs ours |',
    '|---|---|---|---|---|---|---|',
    ...report.vectors.map((r) => `| ${r.engine} | ${r.build_s} | ${r.p50_ms} | ${r.p95_ms} | ${r.recall_at_10} | ${ratio(r.build_s, vBase.build_s)} | ${ratio(r.p95_ms, vBase.p95_ms)} |`),
    '',
    `(whole run: ${report.elapsed_s} s)`,
  ].join('\n');
}
