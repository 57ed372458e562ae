import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../../engine/index.ts';
import { percentile } from '../eval/metrics.ts';
import { linkedNoteParts, prng } from './corpus.ts';

export interface SearchBenchResult {
  files: number;
  chunks: number;
  index_s: number;
  /** The process's peak resident memory while indexing (Linux: VmHWM, reset before the run); null elsewhere. */
  index_peak_rss_mb: number | null;
  queries: number;
  query_terms_mean: number;
  k10_p50_ms: number;
  k10_p95_ms: number;
  k10_unpruned_p50_ms: number;
  k10_unpruned_p95_ms: number;
  k10_pruned_share: number;
  k10_top10_overlap_with_unpruned: number;
  k100_p50_ms: number;
  k100_p95_ms: number;
  /** A fresh process on this index: open + first query, then the other queries (p50/p95), and RSS after them all; with the graph and without. */
  cold_first_query_ms: number;
  cold_p50_ms: number | null;
  cold_p95_ms: number | null;
  cold_rss_mb: number;
  /** Of which the process's own (not file-backed: the memory-mapped store is not in it); null off Linux. */
  cold_rss_anon_mb: number | null;
  cold_first_query_no_graph_ms: number;
  cold_p50_no_graph_ms: number | null;
  cold_p95_no_graph_ms: number | null;
  cold_rss_no_graph_mb: number;
  cold_rss_anon_no_graph_mb: number | null;
}

/** Resets the kernel's peak-RSS mark of this process (Linux); false where that cannot be done. */
function resetPeakRss(): boolean {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** Peak RSS since the last reset, in MB (VmHWM). */
function peakRssMb(): number | null {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : null;
}

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface ColdStart {
  open_ms: number;
  open_and_first_query_ms: number;
  /** The first query alone, the store already open. */
  first_query_ms: number;
  queries: number;
  /** The queries after the first, each timed alone. */
  p50_ms: number | null;
  p95_ms: number | null;
  /** The slowest of them, and which query it was. */
  max_ms: number | null;
  slowest: string | null;
  /** The graph list's share of those queries (meta.timings.graph_ms); null without the graph. */
  graph_p50_ms: number | null;
  graph_p95_ms: number | null;
  rss_mb: number;
  rss_anon_mb: number | null;
  /** The whole process, Node and tsx start included. */
  process_ms: number;
  /** With `latencies`: each query after the first in order, and the graph list's time in those that ran it. */
  latencies_ms?: number[];
  graph_latencies_ms?: number[];
}

/**
 * Opening an engine on an existing index and answering `queries` in order, in a fresh process
 * (cold-start.ts); its memory afterwards. `mmapMb` sets the store's memory map (SYN_MMAP_MB);
 * `latencies` keeps each query's time (for pooling several processes).
 */
export function coldStart(dataDir: string, queries: readonly string[], graph = true, mmapMb?: number, latencies = false): ColdStart {
  const t = performance.now();
  const args = ['--import', 'tsx', path.join(REPO_ROOT, 'src', 'cli', 'bench', 'cold-start.ts'), dataDir, ...(graph ? [] : ['--no-graph'])];
  const env = { ...process.env, ...(mmapMb === undefined ? {} : { SYN_MMAP_MB: String(mmapMb) }) };
  const child = spawnSync(process.execPath, args, { cwd: REPO_ROOT, encoding: 'utf8', input: JSON.stringify(queries), env, maxBuffer: 1 << 20 });
  const processMs = performance.now() - t;
  if (child.status !== 0) throw new Error(`cold-start process failed: ${child.stderr}`);
  const line = child.stdout.trim().split('\n').pop()!;
  const { latencies_ms, graph_latencies_ms, ...summary } = JSON.parse(line) as Omit<ColdStart, 'process_ms'>;
  return { ...summary, process_ms: Math.round(processMs), ...(latencies ? { latencies_ms: latencies_ms ?? [], graph_latencies_ms: graph_latencies_ms ?? [] } : {}) };
}

const SYLLABLES = 'ka lo mi re su ta ne vo pi da ru sel mor tin gra bel fen dor lis pra qua zen hul vik nor trem'.split(' ');

/** A pseudo-word vocabulary: `n` distinct words built from syllables, deterministic. */
function vocabulary(n: number): string[] {
  const words: string[] = [];
  for (let i = 0; words.length < n; i++) {
    let x = i;
    let w = '';
    do {
      w += SYLLABLES[x % SYLLABLES.length];
      x = Math.floor(x / SYLLABLES.length);
    } while (x > 0);
    words.push(w.length < 4 ? `${w}x` : w);
  }
  return words;
}

/**
 * A Zipf-distributed sampler over the vocabulary (s = 1.05, like natural text): a few words occur
 * in many chunks, most words are rare. Ranks start at 50: in real text the top ranks are function
 * words that the analyzer drops as stopwords, and with this offset the most frequent indexed term
 * is in about 40% of chunks, as measured on SciFact after stopword removal. That makes OR-ed
 * multi-term queries realistic: each holds some common terms whose posting lists are long.
 */
function zipfSampler(vocab: readonly string[], rand: () => number, s = 1.05, offset = 50): () => string {
  const cdf = new Float64Array(vocab.length);
  let sum = 0;
  for (let i = 0; i < vocab.length; i++) cdf[i] = sum += 1 / (i + offset) ** s;
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return vocab[lo]!;
  };
}

/**
 * Writes notes of a title line and four ~150-word sections (five chunks) until about `chunks` chunks
 * exist, each with the links, names, tags and front matter of a real vault's note (linkedNoteParts). With `write` false nothing is written: the same notes are drawn, for their sampled sections
 * (queries over a corpus an earlier call wrote).
 */
/**
 * Words as sentences of 10 to 24 words, each capitalised and ending in a full stop: prose the
 * sentence splitter cuts as it cuts real notes, so the hybrid benchmark carries sentence vectors
 * (about five per chunk). Case and stops do not change what the lexical index holds.
 */
function sentences(words: readonly string[], rand: () => number): string {
  const out: string[] = [];
  for (let i = 0; i < words.length; ) {
    const n = 10 + Math.floor(rand() * 15);
    const s = words.slice(i, i + n);
    out.push(`${s[0]!.charAt(0).toUpperCase()}${s[0]!.slice(1)} ${s.slice(1).join(' ')}.`.replace(' .', '.'));
    i += n;
  }
  return out.join(' ');
}

export function generateZipfCorpus(dir: string, chunks: number, seed = 7, write = true): { files: number; sections: string[][] } {
  const rand = prng(seed);
  // Links, names and tags come from their own stream: the words, and so the queries, stay as they were.
  const linkRand = prng(seed + 1);
  const next = zipfSampler(vocabulary(40_000), rand);
  const files = Math.ceil(chunks / 5);
  const sample: string[][] = [];
  for (let i = 0; i < files; i++) {
    const folder = path.join(dir, `d${String(Math.floor(i / 500)).padStart(3, '0')}`);
    if (write && i % 500 === 0) fs.mkdirSync(folder, { recursive: true });
    const linked = linkedNoteParts(i, files, linkRand, 4);
    const parts = [`---\n${linked.frontMatter}---\n# Note ${i} ${next()} ${next()}\n`];
    for (let s = 0; s < 4; s++) {
      const words = Array.from({ length: 140 + Math.floor(rand() * 20) }, next);
      if (i % 97 === 0 && s === 0) sample.push(words);
      parts.push(`## ${next()} ${next()}\n\n${sentences(words, rand)}\n${linked.sectionLines[s] ? `\n${linked.sectionLines[s]}\n` : ''}`);
    }
    if (write) fs.writeFileSync(path.join(folder, `n${i}.md`), parts.join('\n'));
  }
  return { files, sections: sample };
}

const ms = (v: number) => Math.round(v * 100) / 100;

/** Queries of 4 to 12 consecutive words taken from sampled sections of the generated notes. */
export function sampleQueries(sections: readonly string[][], count: number, seed = 11): string[] {
  const rand = prng(seed);
  return Array.from({ length: count }, () => {
    const words = sections[Math.floor(rand() * sections.length)]!;
    const n = 4 + Math.floor(rand() * 9);
    const at = Math.floor(rand() * (words.length - n));
    return words.slice(at, at + n).join(' ');
  });
}

/**
 * Lexical search latency over a large generated index: OR-ed queries of 4 to 12 words taken from
 * the notes themselves (so every query has common and rare terms), at k = 10 (with and without
 * pruning, and how much of the unpruned top 10 the pruned search returns) and at k = 100.
 */
export async function benchSearch(chunks: number, queryCount: number, log: (line: string) => void, workDir?: string): Promise<SearchBenchResult> {
  const work = workDir ? path.resolve(workDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-bench-search-'));
  try {
    const corpus = path.join(work, 'corpus');
    log(`generating notes for about ${chunks} chunks…`);
    const { files, sections } = generateZipfCorpus(corpus, chunks);
    const dataDir = path.join(work, 'data');
    const engine = createEngine({ dataDir, env: {} });
    const unpruned = createEngine({ dataDir, env: {}, config: { lexicalPruning: false } });
    let measured: Omit<SearchBenchResult, `cold_${string}`>;
    let coldQueries: string[];
    try {
      const peakReset = resetPeakRss();
      const t0 = performance.now();
      const report = await engine.index([corpus]);
      const indexS = (performance.now() - t0) / 1000;
      const indexPeak = peakReset ? peakRssMb() : null;
      log(`indexed ${report.indexed} (unchanged ${report.unchanged}) files, ${report.chunks_total} chunks in ${indexS.toFixed(1)} s${indexPeak === null ? '' : `, peak RSS ${indexPeak} MB`}`);
      const queries = sampleQueries(sections, queryCount);
      const run = async (e: typeof engine, k: number) => {
        const lat: number[] = [];
        const results = [];
        for (const q of queries) {
          const t = performance.now();
          results.push(await e.retrieve(q, {}, k));
          lat.push(performance.now() - t);
        }
        return { lat, results };
      };
      await run(engine, 10); // warm the page cache and statement caches
      const k10 = await run(engine, 10);
      const k10full = await run(unpruned, 10);
      const k100 = await run(engine, 100);
      const overlap =
        k10.results.reduce((sum, r, i) => {
          const full = new Set(k10full.results[i]!.chunks.map((c) => c.locator));
          return sum + (full.size === 0 ? 1 : r.chunks.filter((c) => full.has(c.locator)).length / full.size);
        }, 0) / queries.length;
      coldQueries = queries;
      measured = {
        files,
        chunks: report.chunks_total,
        index_s: Math.round(indexS * 10) / 10,
        index_peak_rss_mb: indexPeak,
        queries: queries.length,
        query_terms_mean: Math.round((queries.reduce((a, q) => a + q.split(' ').length, 0) / queries.length) * 10) / 10,
        k10_p50_ms: ms(percentile(k10.lat, 50)),
        k10_p95_ms: ms(percentile(k10.lat, 95)),
        k10_unpruned_p50_ms: ms(percentile(k10full.lat, 50)),
        k10_unpruned_p95_ms: ms(percentile(k10full.lat, 95)),
        k10_pruned_share: Math.round((k10.results.filter((r) => r.meta.pruned).length / queries.length) * 1000) / 1000,
        k10_top10_overlap_with_unpruned: Math.round(overlap * 1000) / 1000,
        k100_p50_ms: ms(percentile(k100.lat, 50)),
        k100_p95_ms: ms(percentile(k100.lat, 95)),
      };
    } finally {
      await unpruned.dispose();
      await engine.dispose();
    }
    // A fresh process on the index just built (the writer closed, as after a restart).
    log('cold start of a fresh process, with the graph and without…');
    const cold = coldStart(dataDir, coldQueries);
    const coldNoGraph = coldStart(dataDir, coldQueries, false);
    return {
      ...measured,
      cold_first_query_ms: cold.open_and_first_query_ms,
      cold_p50_ms: cold.p50_ms,
      cold_p95_ms: cold.p95_ms,
      cold_rss_mb: cold.rss_mb,
      cold_rss_anon_mb: cold.rss_anon_mb,
      cold_first_query_no_graph_ms: coldNoGraph.open_and_first_query_ms,
      cold_p50_no_graph_ms: coldNoGraph.p50_ms,
      cold_p95_no_graph_ms: coldNoGraph.p95_ms,
      cold_rss_no_graph_mb: coldNoGraph.rss_mb,
      cold_rss_anon_no_graph_mb: coldNoGraph.rss_anon_mb,
    };
  } finally {
    if (!workDir) fs.rmSync(work, { recursive: true, force: true });
  }
}
