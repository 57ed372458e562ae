/**
 * `synapsis bench vectors`: build time, memory, query latency and recall@10 of each vector backend
 * at several corpus sizes and dimensions. The vectors are synthetic but shaped like sentence
 * embeddings: points scattered around many cluster centres (a uniform cloud in 384+ dimensions has
 * no near neighbours at all, which would make any graph index look worse than it is on real text).
 * Recall@10 is measured against exact inner-product search over the same vectors.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import usearch from 'usearch';
import { percentile } from '../eval/metrics.ts';
import { createVectorIndex } from '../../engine/vector/index.ts';
import type { VectorBackend, VectorIndex } from '../../engine/vector/types.ts';
import { prng } from './corpus.ts';

export interface VectorBenchRow {
  backend: VectorBackend;
  kind: string;
  dimension: number;
  vectors: number;
  build_s: number;
  /** Growth of the process's resident memory while building, in MiB. */
  memory_mib: number;
  p50_ms: number;
  p95_ms: number;
  recall_at_10: number;
}

export interface VectorBenchOptions {
  sizes: number[];
  dimensions: number[];
  backends: (VectorBackend | 'usearch-exact')[];
  queries: number;
  seed?: number;
}

/** Unit vectors around `clusters` random centres; row i starts at i * dim. */
export function clusteredVectors(count: number, dim: number, clusters: number, rand: () => number): Float32Array {
  const centres = new Float32Array(clusters * dim);
  for (let i = 0; i < centres.length; i++) centres[i] = rand() * 2 - 1;
  const out = new Float32Array(count * dim);
  for (let r = 0; r < count; r++) {
    const c = Math.floor(rand() * clusters) * dim;
    let norm = 0;
    const base = r * dim;
    for (let i = 0; i < dim; i++) {
      // Noise about as large as the centre: neighbours are close but not duplicates.
      const x = centres[c + i]! + (rand() + rand() + rand() - 1.5) * 1.2;
      out[base + i] = x;
      norm += x * x;
    }
    norm = Math.sqrt(norm);
    for (let i = 0; i < dim; i++) out[base + i]! /= norm;
  }
  return out;
}

/**
 * Collects garbage and waits: V8 frees large ArrayBuffers (the previous configuration's vectors)
 * on a background thread after the collection, and until then they still count in RSS.
 */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function rssMiB(): number {
  return process.memoryUsage().rss / 2 ** 20;
}

/** A full collection before each measurement, so freed buffers of the previous backend do not count. */
const gc: () => void = (() => {
  v8.setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** Exact top-10 row numbers of each query (usearch's SIMD brute force, all cores). */
export function groundTruth(data: Float32Array, queries: Float32Array, dim: number, k: number): number[][] {
  const m = usearch.exactSearch(data, Array.from({ length: queries.length / dim }, (_, q) => queries.subarray(q * dim, (q + 1) * dim)), dim, k, usearch.MetricKind.IP, 0) as InstanceType<typeof usearch.BatchMatches>;
  return Array.from({ length: queries.length / dim }, (_, q) => Array.from(m.get(q).keys, Number));
}

function build(backend: VectorBenchOptions['backends'][number], dim: number, data: Float32Array, count: number): VectorIndex {
  const index =
    backend === 'usearch-exact'
      ? createVectorIndex({ backend: 'usearch', dimension: dim, exactLimit: Number.MAX_SAFE_INTEGER })
      : createVectorIndex({ backend, dimension: dim });
  const BATCH = 10_000;
  for (let start = 0; start < count; start += BATCH) {
    const end = Math.min(count, start + BATCH);
    const ids: number[] = [];
    const rows: Float32Array[] = [];
    for (let r = start; r < end; r++) {
      ids.push(r);
      rows.push(data.subarray(r * dim, (r + 1) * dim));
    }
    index.add(ids, rows);
  }
  return index;
}

export async function benchVectors(options: VectorBenchOptions, log: (line: string) => void): Promise<VectorBenchRow[]> {
  const rows: VectorBenchRow[] = [];
  for (const dim of options.dimensions) {
    for (const size of options.sizes) {
      const rand = prng((options.seed ?? 11) + dim * 7 + size);
      const clusters = Math.max(16, Math.round(size / 500));
      log(`vectors: generating ${size} x ${dim} (${clusters} clusters) and ${options.queries} queries`);
      // Queries come from the same distribution, generated with the data so both share centres.
      const all = clusteredVectors(size + options.queries, dim, clusters, rand);
      const data = all.subarray(0, size * dim);
      const queries = all.subarray(size * dim);
      const truth = groundTruth(data, queries, dim, 10);
      for (const backend of options.backends) {
        await settle();
        const before = rssMiB();
        const started = performance.now();
        const index = build(backend, dim, data, size);
        const buildS = (performance.now() - started) / 1000;
        await settle();
        const memory = rssMiB() - before;
        const latencies: number[] = [];
        let found = 0;
        for (let q = 0; q < options.queries; q++) {
          const query = queries.subarray(q * dim, (q + 1) * dim);
          const t = performance.now();
          const hits = index.search(query, 10);
          latencies.push(performance.now() - t);
          const want = new Set(truth[q]);
          found += hits.filter((h) => want.has(h.id)).length;
        }
        const row: VectorBenchRow = {
          backend: backend === 'usearch-exact' ? 'usearch' : backend,
          kind: index.stats().kind,
          dimension: dim,
          vectors: size,
          build_s: Math.round(buildS * 100) / 100,
          memory_mib: Math.round(memory),
          p50_ms: Math.round(percentile(latencies, 50) * 100) / 100,
          p95_ms: Math.round(percentile(latencies, 95) * 100) / 100,
          recall_at_10: Math.round((found / (options.queries * 10)) * 1000) / 1000,
        };
        log(`vectors: ${JSON.stringify(row)}`);
        rows.push(row);
        index.dispose();
      }
    }
  }
  return rows;
}
