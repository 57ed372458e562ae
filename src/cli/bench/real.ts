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

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface RealIndex {
  files: number;
  indexed: number;
  failed: number;
  chunks: number;
  index_ms: number;
  chunks_per_s: number;
  peak_rss_mb: number;
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

/** Indexes `folder` into `dataDir` in a process of its own. */
export function indexInOwnProcess(folder: string, dataDir: string): RealIndex {
  const args = ['--import', 'tsx', path.join(REPO_ROOT, 'src', 'cli', 'bench', 'real-index.ts'), folder, dataDir];
  const child = spawnSync(process.execPath, args, { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) throw new Error(`indexing process failed: ${child.stderr}`);
  const r = JSON.parse(child.stdout.trim().split('\n').pop()!) as Omit<RealIndex, 'chunks_per_s'>;
  return { ...r, chunks_per_s: Math.round(r.chunks / Math.max(0.001, r.index_ms / 1000)) };
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
export function benchReal(options: { corpus: string; queries: readonly string[]; workDir?: string; reuse?: boolean; log?: (line: string) => void }): RealResult {
  const corpus = path.resolve(options.corpus);
  if (!fs.existsSync(corpus) || !fs.statSync(corpus).isDirectory()) throw createError('E_SYN_BAD_REQUEST', `--corpus: no such folder ${corpus}`);
  if (options.queries.length === 0) throw createError('E_SYN_BAD_REQUEST', 'no queries to run');
  const log = options.log ?? (() => {});
  const work = options.workDir ? path.resolve(options.workDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-bench-real-'));
  const dataDir = path.join(work, 'data');
  // A fresh index unless told to reuse it: the index time is then the first index of the folder.
  if (!options.reuse) fs.rmSync(dataDir, { recursive: true, force: true });
  try {
    log(`indexing ${corpus} (lexical, a process of its own${options.reuse && fs.existsSync(dataDir) ? ', the kept index brought up to date' : ''})…`);
    const index = indexInOwnProcess(corpus, dataDir);
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
  ].join('\n');
}
