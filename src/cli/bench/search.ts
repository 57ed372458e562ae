import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngine } from '../../engine/index.ts';
import { percentile } from '../eval/metrics.ts';
import { prng } from './corpus.ts';

export interface SearchBenchResult {
  files: number;
  chunks: number;
  index_s: number;
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
 * exist. With `write` false nothing is written: the same notes are drawn, for their sampled sections
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
  const next = zipfSampler(vocabulary(40_000), rand);
  const files = Math.ceil(chunks / 5);
  const sample: string[][] = [];
  for (let i = 0; i < files; i++) {
    const folder = path.join(dir, `d${String(Math.floor(i / 500)).padStart(3, '0')}`);
    if (write && i % 500 === 0) fs.mkdirSync(folder, { recursive: true });
    const parts = [`# Note ${i} ${next()} ${next()}\n`];
    for (let s = 0; s < 4; s++) {
      const words = Array.from({ length: 140 + Math.floor(rand() * 20) }, next);
      if (i % 97 === 0 && s === 0) sample.push(words);
      parts.push(`## ${next()} ${next()}\n\n${sentences(words, rand)}\n`);
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
    try {
      const t0 = performance.now();
      const report = await engine.index([corpus]);
      const indexS = (performance.now() - t0) / 1000;
      log(`indexed ${report.indexed} (unchanged ${report.unchanged}) files, ${report.chunks_total} chunks in ${indexS.toFixed(1)} s`);
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
      return {
        files,
        chunks: report.chunks_total,
        index_s: Math.round(indexS * 10) / 10,
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
  } finally {
    if (!workDir) fs.rmSync(work, { recursive: true, force: true });
  }
}
