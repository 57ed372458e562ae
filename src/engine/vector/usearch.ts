/**
 * The usearch backend. Small corpora are searched exactly: the vectors live in one contiguous
 * Float32Array and usearch's SIMD `exactSearch` scores them all, so recall is 1 and removal is a
 * swap with the last row. Past `exactLimit` vectors the matrix is turned into an HNSW graph
 * (usearch `Index`, inner product over normalised vectors), which answers in about a millisecond at
 * 100k vectors; the graph keeps the vectors itself, so the matrix is dropped then.
 */
import fs from 'node:fs';
import os from 'node:os';
import usearch from 'usearch';
import { createError } from '../../shared/errors.ts';
import { allowPredicate, checkAddInput, checkQuery, readEnvelope, saveEnvelope, searchWithAllow, topK } from './common.ts';
import type { VectorAllow, VectorHit, VectorIndex, VectorIndexStats, VectorSearchKind } from './types.ts';

export interface UsearchOptions {
  dimension: number;
  /** Up to this many vectors are searched exactly; above it an HNSW graph is built. */
  exactLimit?: number;
  /** HNSW parameters (usearch defaults are 16 / 128 / 64). */
  connectivity?: number;
  expansionAdd?: number;
  expansionSearch?: number;
}

export const DEFAULT_EXACT_LIMIT = 20_000;
/** Neighbours an HNSW search collects before the best k are kept. */
export const HNSW_SEARCH_WIDTH = 256;

type Graph = InstanceType<typeof usearch.Index>;

export class UsearchVectorIndex implements VectorIndex {
  readonly backend = 'usearch' as const;
  readonly dimension: number;
  private readonly exactLimit: number;
  private readonly hnswConfig: { connectivity: number; expansion_add: number; expansion_search: number };
  // Exact mode: row i of `matrix` is the vector of rowIds[i].
  private matrix: Float32Array | null;
  private rowIds: number[] = [];
  private rowOf = new Map<number, number>();
  // HNSW mode: the graph holds the vectors; `members` the ids (usearch cannot list its keys).
  private graph: Graph | null = null;
  private members = new Set<number>();
  private disposed = false;

  constructor(options: UsearchOptions) {
    if (!Number.isInteger(options.dimension) || options.dimension < 1) {
      throw createError('E_SYN_BAD_REQUEST', `A vector index needs a positive dimension, got ${options.dimension}.`);
    }
    this.dimension = options.dimension;
    this.exactLimit = options.exactLimit ?? DEFAULT_EXACT_LIMIT;
    this.hnswConfig = {
      connectivity: options.connectivity ?? 16,
      expansion_add: options.expansionAdd ?? 128,
      expansion_search: options.expansionSearch ?? 64,
    };
    this.matrix = new Float32Array(this.dimension * 1024);
  }

  static load(dir: string, options: Partial<UsearchOptions> = {}): UsearchVectorIndex {
    const { meta, dataFile } = readEnvelope(dir, 'usearch');
    const index = new UsearchVectorIndex({ ...options, dimension: meta.dimension });
    try {
      if (meta.kind === 'exact') {
        const bytes = fs.readFileSync(dataFile);
        if (bytes.byteLength !== meta.count * meta.dimension * 4) throw new Error('the matrix size does not match the count');
        index.matrix = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
        index.rowIds = [...meta.ids];
        meta.ids.forEach((id, row) => index.rowOf.set(id, row));
      } else {
        const graph = index.newGraph();
        graph.load(dataFile);
        if (graph.size() !== meta.count || graph.dimensions() !== meta.dimension) throw new Error('the graph does not match its meta file');
        index.graph = graph;
        index.matrix = null;
        index.members = new Set(meta.ids);
      }
    } catch (error) {
      throw createError('E_SYN_VECTORSTORE_UNAVAILABLE', `The vector index in ${dir} cannot be read: ${(error as Error).message}.`, { dir }, error);
    }
    return index;
  }

  private newGraph(): Graph {
    return new usearch.Index({
      dimensions: this.dimension,
      metric: usearch.MetricKind.IP,
      quantization: usearch.ScalarKind.F32,
      multi: false,
      ...this.hnswConfig,
    });
  }

  private get kind(): VectorSearchKind {
    return this.graph ? 'hnsw' : 'exact';
  }

  get count(): number {
    return this.graph ? this.members.size : this.rowIds.length;
  }

  has(id: number): boolean {
    return this.graph ? this.members.has(id) : this.rowOf.has(id);
  }

  ids(): number[] {
    return this.graph ? [...this.members] : [...this.rowIds];
  }

  add(ids: number[], vectors: Float32Array[]): void {
    this.assertAlive();
    const rows = checkAddInput(ids, vectors, this.dimension);
    this.remove(ids.filter((id) => this.has(id)));
    if (this.graph) {
      this.addToGraph(this.graph, ids, rows);
      return;
    }
    if (this.rowIds.length + ids.length > this.exactLimit) {
      this.promoteToGraph(ids, rows);
      return;
    }
    const dim = this.dimension;
    let matrix = this.matrix!;
    const needed = (this.rowIds.length + ids.length) * dim;
    if (needed > matrix.length) {
      const grown = new Float32Array(Math.max(needed, matrix.length * 2));
      grown.set(matrix.subarray(0, this.rowIds.length * dim));
      matrix = this.matrix = grown;
    }
    ids.forEach((id, i) => {
      const row = this.rowIds.length;
      matrix.set(rows[i]!, row * dim);
      this.rowIds.push(id);
      this.rowOf.set(id, row);
    });
  }

  private addToGraph(graph: Graph, ids: number[], rows: Float32Array[]): void {
    if (ids.length === 0) return;
    // Graph insertion is the slow part of indexing a large corpus; it parallelises well.
    graph.add(BigUint64Array.from(ids, (id) => BigInt(id)), rows, ids.length >= 256 ? os.availableParallelism() : 1);
    for (const id of ids) this.members.add(id);
  }

  /** The corpus outgrew exact search: build the graph from the matrix plus the new rows. */
  private promoteToGraph(ids: number[], rows: Float32Array[]): void {
    const graph = this.newGraph();
    const dim = this.dimension;
    const existing = this.rowIds.map((_, row) => this.matrix!.subarray(row * dim, (row + 1) * dim));
    const allIds = [...this.rowIds, ...ids];
    const allRows = [...existing, ...rows];
    this.members = new Set();
    for (let start = 0; start < allIds.length; start += 10_000) {
      this.addToGraph(graph, allIds.slice(start, start + 10_000), allRows.slice(start, start + 10_000));
    }
    this.graph = graph;
    this.matrix = null;
    this.rowIds = [];
    this.rowOf = new Map();
  }

  remove(ids: number[]): number {
    this.assertAlive();
    let removed = 0;
    if (this.graph) {
      for (const id of ids) {
        if (!this.members.delete(id)) continue;
        this.graph.remove(BigInt(id));
        removed++;
      }
      return removed;
    }
    const dim = this.dimension;
    const matrix = this.matrix!;
    for (const id of ids) {
      const row = this.rowOf.get(id);
      if (row === undefined) continue;
      const last = this.rowIds.length - 1;
      if (row !== last) {
        matrix.copyWithin(row * dim, last * dim, (last + 1) * dim);
        const moved = this.rowIds[last]!;
        this.rowIds[row] = moved;
        this.rowOf.set(moved, row);
      }
      this.rowIds.pop();
      this.rowOf.delete(id);
      removed++;
    }
    return removed;
  }

  search(query: Float32Array, k: number, allow?: VectorAllow, width = HNSW_SEARCH_WIDTH): VectorHit[] {
    this.assertAlive();
    const q = checkQuery(query, k, this.dimension);
    const allowed = allowPredicate(allow);
    if (this.count === 0 || k === 0) return [];
    if (!this.graph) {
      const rows = this.rowIds.length;
      if (allow instanceof Set && allow.size < rows / 4) return this.scoreRows(q, k, allow);
      return searchWithAllow(rows, k, allowed, (candidates) => {
        const m = usearch.exactSearch(this.matrix!.subarray(0, rows * this.dimension), q, this.dimension, candidates, usearch.MetricKind.IP, 1) as InstanceType<typeof usearch.Matches>;
        return Array.from(m.keys, (row, i) => ({ id: this.rowIds[Number(row)]!, score: 1 - m.distances[i]! }));
      });
    }
    const graph = this.graph;
    const count = this.members.size;
    return searchWithAllow(count, k, allowed, (candidates) => {
      // usearch searches with a beam of max(expansion_search, k): asking for at least
      // HNSW_SEARCH_WIDTH neighbours widens the beam, which raised recall@10 at 300k x 768 from
      // 0.968 (64) to 1.0 (256) for 0.3 ms more per query (bench vectors; docs/retrieval.md).
      const m = graph.search(q, Math.min(count, Math.max(candidates, width)), 1);
      return Array.from(m.keys.subarray(0, candidates), (key, i) => ({ id: Number(key), score: 1 - m.distances[i]! }));
    });
  }

  /** A strict filter over the exact matrix: score only the allowed rows. */
  private scoreRows(q: Float32Array, k: number, allow: ReadonlySet<number>): VectorHit[] {
    const dim = this.dimension;
    const matrix = this.matrix!;
    const ids: number[] = [];
    const scores: number[] = [];
    for (const id of allow) {
      const row = this.rowOf.get(id);
      if (row === undefined) continue;
      let dot = 0;
      const base = row * dim;
      for (let i = 0; i < dim; i++) dot += q[i]! * matrix[base + i]!;
      ids.push(id);
      scores.push(dot);
    }
    return topK(scores, ids, k, null);
  }

  save(dir: string): void {
    this.assertAlive();
    const ids = this.ids();
    saveEnvelope(dir, { backend: 'usearch', kind: this.kind, dimension: this.dimension, count: ids.length, ids }, (file) => {
      if (this.graph) this.graph.save(file);
      else {
        const used = this.matrix!.subarray(0, this.rowIds.length * this.dimension);
        fs.writeFileSync(file, new Uint8Array(used.buffer, used.byteOffset, used.byteLength));
      }
    });
  }

  stats(): VectorIndexStats {
    const count = this.count;
    // usearch does not report its memory: vectors plus about two neighbour lists of `connectivity` u32 per node.
    const memoryBytes = this.graph
      ? count * (this.dimension * 4 + this.hnswConfig.connectivity * 2 * 4 + 16) + count * 40
      : (this.matrix?.byteLength ?? 0) + count * 40;
    return { backend: 'usearch', kind: this.kind, count, dimension: this.dimension, memoryBytes };
  }

  dispose(): void {
    this.disposed = true;
    this.graph = null;
    this.matrix = null;
    this.members.clear();
    this.rowIds = [];
    this.rowOf.clear();
  }

  private assertAlive(): void {
    if (this.disposed) throw createError('E_SYN_VECTORSTORE_UNAVAILABLE', 'This vector index was disposed.');
  }
}
