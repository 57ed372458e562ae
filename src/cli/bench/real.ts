/**
 * Speed on a real folder of notes (`synapsis bench real`): the folder indexed lexically in a process
 * of its own (time, chunks/s, peak resident memory), then a query file answered by fresh processes
 * with the knowledge graph (every search's default) and without it, in rounds: the first query,
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
import { percentile } from '../eval/metrics.ts';
import { coldStart, type ColdStart } from './search.ts';

/**
 * Rounds of query processes by default, each a fresh process with the graph and one without. One
 * process's p95 is its two or three slowest queries, which move from run to run (the link-rich wiki's
 * graph/no-graph ratio ranged 1.31-1.80 over four single runs): the rounds' queries are pooled.
 */
export const REAL_ROUNDS = 3;
export const REAL_ROUNDS_MAX = 20;

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

/** One side's queries (ColdStart's fields of the same names; the graph list's null without the graph). */
export type RealRow = { graph: 'yes' | 'no' } & Pick<ColdStart, 'first_query_ms' | 'p50_ms' | 'p95_ms' | 'max_ms' | 'slowest' | 'graph_p50_ms' | 'graph_p95_ms' | 'rss_mb'>;

export interface RealResult {
  corpus: string;
  queries: number;
  index: RealIndex;
  rows: RealRow[];
  /** Query processes a side: the rows pool their queries. */
  rounds: number;
  /** p95 with the graph over p95 without it, over the pooled queries. */
  graph_p95_ratio: number | null;
  /** The same ratio within each round (its two processes alone). */
  round_ratios: (number | null)[];
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

const ratio = (a: number | null, b: number | null) => (a !== null && b ? Math.round((a / b) * 100) / 100 : null);

/**
 * One side's row from its processes (each run with `latencies`): p50, p95 and the slowest over the
 * queries of all of them together; the first query and the memory of the process that did worst.
 * `queries`: the query file the processes answered (their latencies are those after the first).
 */
export function pooledRow(graph: boolean, runs: readonly ColdStart[], queries: readonly string[]): RealRow {
  const asked = runs.flatMap((r) => (r.latencies_ms ?? []).map((ms, i) => ({ ms, query: queries[i + 1] ?? null })));
  const lat = asked.map((a) => a.ms);
  const graphLat = runs.flatMap((r) => r.graph_latencies_ms ?? []);
  const at = (values: number[], p: number) => (values.length > 0 ? Math.round(percentile(values, p) * 10) / 10 : null);
  const slowest = asked.reduce<(typeof asked)[number] | null>((worst, a) => (worst === null || a.ms > worst.ms ? a : worst), null);
  return {
    graph: graph ? 'yes' : 'no',
    first_query_ms: Math.max(...runs.map((r) => r.first_query_ms)),
    p50_ms: at(lat, 50),
    p95_ms: at(lat, 95),
    max_ms: slowest ? Math.round(slowest.ms * 10) / 10 : null,
    slowest: slowest?.query ?? null,
    graph_p50_ms: graph ? at(graphLat, 50) : null,
    graph_p95_ms: graph ? at(graphLat, 95) : null,
    rss_mb: Math.max(...runs.map((r) => r.rss_mb)),
  };
}

/**
 * Reads the store's files once, so that every query process starts with them in the page cache: the
 * first process would otherwise pay the disk reads the later ones are spared, and the graph/no-graph
 * comparison would be of the order they ran in. (A cold first query is `bench cold-start`'s.)
 */
export function warmStore(dataDir: string): number {
  const buffer = Buffer.allocUnsafe(16 << 20);
  let bytes = 0;
  for (const name of ['synapsis.db', 'synapsis.db-wal']) {
    const file = path.join(dataDir, name);
    if (!fs.existsSync(file)) continue;
    const fd = fs.openSync(file, 'r');
    try {
      for (let n = fs.readSync(fd, buffer, 0, buffer.length, null); n > 0; n = fs.readSync(fd, buffer, 0, buffer.length, null)) bytes += n;
    } finally {
      fs.closeSync(fd);
    }
  }
  return bytes;
}

/**
 * `reuse`: keep the work dir's index and bring it up to date (an incremental run: what it reports is
 * that run's time, not a first index's); the queries then run on the same index as before.
 */
export function benchReal(options: { corpus: string; queries: readonly string[]; workDir?: string; reuse?: boolean; whileIndexing?: boolean; queryEveryMs?: number; rounds?: number; log?: (line: string) => void }): RealResult {
  const corpus = path.resolve(options.corpus);
  if (!fs.existsSync(corpus) || !fs.statSync(corpus).isDirectory()) throw createError('E_SYN_BAD_REQUEST', `--corpus: no such folder ${corpus}`);
  if (options.queries.length === 0) throw createError('E_SYN_BAD_REQUEST', 'no queries to run');
  const rounds = options.rounds ?? REAL_ROUNDS;
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > REAL_ROUNDS_MAX) throw createError('E_SYN_BAD_REQUEST', `--rounds must be a whole number from 1 to ${REAL_ROUNDS_MAX}, not ${rounds}`);
  const log = options.log ?? (() => {});
  const work = options.workDir ? path.resolve(options.workDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-bench-real-'));
  const dataDir = path.join(work, 'data');
  // A fresh index unless told to reuse it: the index time is then the first index of the folder.
  if (!options.reuse) fs.rmSync(dataDir, { recursive: true, force: true });
  try {
    log(`indexing ${corpus} (lexical, a process of its own${options.reuse && fs.existsSync(dataDir) ? ', the kept index brought up to date' : ''}${options.whileIndexing ? ', answering the queries meanwhile' : ''})…`);
    const index = indexInOwnProcess(corpus, dataDir, options.whileIndexing ? options.queries : undefined, options.queryEveryMs);
    log(`${index.files} files, ${index.chunks} chunks in ${(index.index_ms / 1000).toFixed(1)} s`);
    log(`the store read into the page cache (${Math.round(warmStore(dataDir) / (1 << 20))} MB)`);
    const runs = { yes: [] as ColdStart[], no: [] as ColdStart[] };
    for (let round = 0; round < rounds; round++) {
      // Which side goes first alternates: neither always meets the caches the other left.
      for (const graph of round % 2 === 0 ? [true, false] : [false, true]) {
        log(`round ${round + 1} of ${rounds}: ${options.queries.length} queries in a fresh process, ${graph ? 'with' : 'without'} the graph…`);
        runs[graph ? 'yes' : 'no'].push(coldStart(dataDir, options.queries, graph, undefined, true));
      }
    }
    const rows = [pooledRow(true, runs.yes, options.queries), pooledRow(false, runs.no, options.queries)];
    return {
      corpus,
      queries: options.queries.length,
      index,
      rows,
      rounds,
      graph_p95_ratio: ratio(rows[0]!.p95_ms, rows[1]!.p95_ms),
      round_ratios: runs.yes.map((r, i) => ratio(r.p95_ms, runs.no[i]!.p95_ms)),
    };
  } finally {
    if (!options.workDir) fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The result as the benchmark notes print it. */
export function formatReal(r: RealResult): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const v = (x: number | null) => (x === null ? '–' : String(x));
  return [
    `${r.corpus}: ${r.index.files.toLocaleString('en-US')} files, ${r.index.chunks.toLocaleString('en-US')} chunks indexed in ${s(r.index.index_ms)} (${r.index.chunks_per_s} chunks/s, peak ${r.index.peak_rss_mb} MB); ${r.queries} queries, k = 10, asked by ${r.rounds} fresh process${r.rounds === 1 ? '' : 'es'} a row (their queries pooled; first query and RSS: the worst process)`,
    '| graph | first query ms | p50 ms | p95 ms | slowest ms | graph list p50 / p95 ms | RSS MB |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...r.rows.map((x) => `| ${x.graph} | ${x.first_query_ms} | ${v(x.p50_ms)} | ${v(x.p95_ms)} | ${v(x.max_ms)} | ${x.graph_p50_ms === null ? '–' : `${x.graph_p50_ms} / ${v(x.graph_p95_ms)}`} | ${x.rss_mb} |`),
    `p95 with the graph / without: ${v(r.graph_p95_ratio)}${r.rounds > 1 ? ` (each round alone: ${r.round_ratios.map(v).join(', ')})` : ''}; slowest with the graph: ${r.rows[0]?.slowest ?? '–'}`,
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
