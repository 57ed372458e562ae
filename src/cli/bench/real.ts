/**
 * Speed on a real folder of notes (`synapsis bench real`): the folder indexed lexically in a process
 * of its own (time, chunks/s, peak resident memory), then a query file answered by a fresh process
 * with the knowledge graph (every search's default) and by another without it: the first query,
 * p50, p95 and the slowest of the others, and the resident memory after them. Generated notes say
 * little about the graph's cost: real notes name people, products and places, link densely and
 * capitalise words at the start of headings and sentences.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createError } from '../../shared/errors.ts';
import { coldStart, type ColdStart } from './search.ts';

/** How often the indexing process asks a query with `--while-indexing` (real-index.ts QUERY_EVERY_MS). */
export const QUERY_EVERY_MS = 300;

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface RealIndex {
  files: number;
  indexed: number;
  failed: number;
  chunks: number;
  index_ms: number;
  chunks_per_s: number;
  peak_rss_mb: number;
  /** With `--while-indexing`: the queries asked during the run, one every `every_ms` (its time then includes them). */
  while_indexing?: { every_ms: number; rows: WhileIndexingRow[] };
}

/** Queries answered by the indexing engine while it indexes (`--while-indexing`), with the graph or without it. */
export interface WhileIndexingRow {
  graph: 'yes' | 'no';
  queries: number;
  failed: number;
  p50_ms: number | null;
  p95_ms: number | null;
  max_ms: number | null;
  slowest: string | null;
}

export interface RealRow {
  graph: 'yes' | 'no';
  first_query_ms: number;
  p50_ms: number | null;
  p95_ms: number | null;
  max_ms: number | null;
  slowest: string | null;
  /** The graph list's own time in the same queries (`meta.timings.graph_ms`); null without the graph. */
  graph_p50_ms: number | null;
  graph_p95_ms: number | null;
  rss_mb: number;
}

export interface RealResult {
  corpus: string;
  queries: number;
  index: RealIndex;
  rows: RealRow[];
  /** p95 with the graph over p95 without it. */
  graph_p95_ratio: number | null;
}

/**
 * The queries of a file: a JSON array of strings or of objects with a `question` (the eval's
 * question sets), or plain text with one query a line (blank lines and lines starting with # skipped).
 */
export function readQueryFile(file: string): string[] {
  if (!fs.existsSync(file)) throw createError('E_SYN_BAD_REQUEST', `--queries: no such file ${file}`);
  const text = fs.readFileSync(file, 'utf8');
  let queries: string[];
  if (/^\s*\[/.test(text)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw createError('E_SYN_BAD_REQUEST', `--queries: ${file} is not valid JSON (${(error as Error).message})`);
    }
    queries = (parsed as unknown[]).map((q) => (typeof q === 'string' ? q : typeof q === 'object' && q !== null && typeof (q as { question?: unknown }).question === 'string' ? (q as { question: string }).question : ''));
    if (queries.some((q) => q.trim() === '')) throw createError('E_SYN_BAD_REQUEST', `--queries: ${file} must be an array of strings or of objects with a "question"`);
  } else {
    queries = text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  }
  if (queries.length === 0) throw createError('E_SYN_BAD_REQUEST', `--queries: ${file} holds no query`);
  return queries;
}

interface Asked {
  graph: boolean;
  query: string;
  ms: number;
  error?: string;
}

const nearest = (sorted: readonly number[], p: number): number | null => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);

/** The queries asked while indexing, summed up with the graph and without it. */
export function whileIndexingRows(asked: readonly Asked[]): WhileIndexingRow[] {
  return [true, false].map((graph) => {
    const mine = asked.filter((a) => a.graph === graph);
    const ok = mine.filter((a) => a.error === undefined);
    const ms = ok.map((a) => a.ms).sort((a, b) => a - b);
    const round = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);
    const slowest = ok.reduce<Asked | null>((worst, a) => (worst === null || a.ms > worst.ms ? a : worst), null);
    return { graph: graph ? 'yes' : 'no', queries: mine.length, failed: mine.length - ok.length, p50_ms: round(nearest(ms, 50)), p95_ms: round(nearest(ms, 95)), max_ms: round(nearest(ms, 100)), slowest: slowest?.query ?? null };
  });
}

/**
 * Indexes `folder` into `dataDir` in a process of its own; with `queries`, that process also answers
 * them in turn while it indexes (real-index.ts).
 */
export function indexInOwnProcess(folder: string, dataDir: string, queries?: readonly string[], everyMs = QUERY_EVERY_MS): RealIndex {
  const queryFile = queries ? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-bench-queries-')), 'queries.json') : null;
  if (queryFile) fs.writeFileSync(queryFile, JSON.stringify(queries));
  try {
    const args = ['--import', 'tsx', path.join(REPO_ROOT, 'src', 'cli', 'bench', 'real-index.ts'), folder, dataDir, ...(queryFile ? [queryFile, String(everyMs)] : [])];
    const child = spawnSync(process.execPath, args, { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    if (child.status !== 0) throw new Error(`indexing process failed: ${child.stderr}`);
    const { asked, ...r } = JSON.parse(child.stdout.trim().split('\n').pop()!) as Omit<RealIndex, 'chunks_per_s' | 'while_indexing'> & { asked?: Asked[] };
    return { ...r, chunks_per_s: Math.round(r.chunks / Math.max(0.001, r.index_ms / 1000)), ...(asked ? { while_indexing: { every_ms: everyMs, rows: whileIndexingRows(asked) } } : {}) };
  } finally {
    if (queryFile) fs.rmSync(path.dirname(queryFile), { recursive: true, force: true });
  }
}

const row = (graph: boolean, r: ColdStart): RealRow => ({
  graph: graph ? 'yes' : 'no',
  first_query_ms: r.first_query_ms,
  p50_ms: r.p50_ms,
  p95_ms: r.p95_ms,
  max_ms: r.max_ms,
  slowest: r.slowest,
  graph_p50_ms: graph ? r.graph_p50_ms : null,
  graph_p95_ms: graph ? r.graph_p95_ms : null,
  rss_mb: r.rss_mb,
});

/**
 * `reuse`: keep the work dir's index and bring it up to date (an incremental run: what it reports is
 * that run's time, not a first index's); the queries then run on the same index as before.
 */
export function benchReal(options: { corpus: string; queries: readonly string[]; workDir?: string; reuse?: boolean; whileIndexing?: boolean; queryEveryMs?: number; log?: (line: string) => void }): RealResult {
  const corpus = path.resolve(options.corpus);
  if (!fs.existsSync(corpus) || !fs.statSync(corpus).isDirectory()) throw createError('E_SYN_BAD_REQUEST', `--corpus: no such folder ${corpus}`);
  if (options.queries.length === 0) throw createError('E_SYN_BAD_REQUEST', 'no queries to run');
  const log = options.log ?? (() => {});
  const work = options.workDir ? path.resolve(options.workDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-bench-real-'));
  const dataDir = path.join(work, 'data');
  // A fresh index unless told to reuse it: the index time is then the first index of the folder.
  if (!options.reuse) fs.rmSync(dataDir, { recursive: true, force: true });
  try {
    log(`indexing ${corpus} (lexical, a process of its own${options.reuse && fs.existsSync(dataDir) ? ', the kept index brought up to date' : ''}${options.whileIndexing ? ', answering the queries meanwhile' : ''})…`);
    const index = indexInOwnProcess(corpus, dataDir, options.whileIndexing ? options.queries : undefined, options.queryEveryMs);
    log(`${index.files} files, ${index.chunks} chunks in ${(index.index_ms / 1000).toFixed(1)} s`);
    const rows: RealRow[] = [];
    for (const graph of [true, false]) {
      log(`${options.queries.length} queries in a fresh process, ${graph ? 'with' : 'without'} the graph…`);
      rows.push(row(graph, coldStart(dataDir, options.queries, graph)));
    }
    const [withGraph, without] = rows;
    const ratio = withGraph!.p95_ms !== null && without!.p95_ms ? Math.round((withGraph!.p95_ms / without!.p95_ms) * 100) / 100 : null;
    return { corpus, queries: options.queries.length, index, rows, graph_p95_ratio: ratio };
  } finally {
    if (!options.workDir) fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The result as the benchmark notes print it. */
export function formatReal(r: RealResult): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const v = (x: number | null) => (x === null ? '–' : String(x));
  return [
    `${r.corpus}: ${r.index.files.toLocaleString('en-US')} files, ${r.index.chunks.toLocaleString('en-US')} chunks indexed in ${s(r.index.index_ms)} (${r.index.chunks_per_s} chunks/s, peak ${r.index.peak_rss_mb} MB); ${r.queries} queries, k = 10, one process per row`,
    '| graph | first query ms | p50 ms | p95 ms | slowest ms | graph list p50 / p95 ms | RSS MB |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...r.rows.map((x) => `| ${x.graph} | ${x.first_query_ms} | ${v(x.p50_ms)} | ${v(x.p95_ms)} | ${v(x.max_ms)} | ${x.graph_p50_ms === null ? '–' : `${x.graph_p50_ms} / ${v(x.graph_p95_ms)}`} | ${x.rss_mb} |`),
    `p95 with the graph / without: ${v(r.graph_p95_ratio)}; slowest with the graph: ${r.rows[0]?.slowest ?? '–'}`,
    ...(r.index.while_indexing
      ? [
          `while indexing (the indexing process answering a query every ${r.index.while_indexing.every_ms} ms, with the graph and without it in turn; the index time above includes them):`,
          '| graph | queries | failed | p50 ms | p95 ms | slowest ms | slowest query |',
          '|---|---:|---:|---:|---:|---:|---|',
          ...r.index.while_indexing.rows.map((x) => `| ${x.graph} | ${x.queries} | ${x.failed} | ${v(x.p50_ms)} | ${v(x.p95_ms)} | ${v(x.max_ms)} | ${x.slowest ?? '–'} |`),
        ]
      : []),
  ].join('\n');
}
