/**
 * The faiss-node backend: an exact inner-product index (IndexFlatIP) over normalised vectors.
 * faiss-node 0.5.1 labels vectors by insertion position, cannot set efSearch (its HNSW measured
 * recall@10 0.63 here, docs/design.md §8) and takes plain number arrays, so this backend stays exact and
 * keeps the position → chunk id map itself. FAISS compacts rows in order on removal, which the map
 * mirrors. The native module is built by scripts/build-faiss.mjs; when it is missing, creating or
 * loading this backend throws E_SYN_VECTORSTORE_UNAVAILABLE saying how to build it.
 */
import { createRequire } from 'node:module';
import { createError } from '../../shared/errors.ts';
import { allowPredicate, checkAddInput, checkQuery, readEnvelope, saveEnvelope, searchWithAllow } from './common.ts';
import type { VectorAllow, VectorHit, VectorIndex, VectorIndexStats } from './types.ts';

type FaissModule = typeof import('faiss-node');
type FlatIndex = InstanceType<FaissModule['IndexFlatIP']>;

let faissModule: FaissModule | null = null;
let faissProblem: string | null = null;

/** The native module, or null with the reason in `faissUnavailableReason()`. */
export function loadFaiss(): FaissModule | null {
  if (faissModule || faissProblem) return faissModule;
  try {
    faissModule = createRequire(import.meta.url)('faiss-node') as FaissModule;
  } catch (error) {
    faissProblem = (error as Error).message.split('\n')[0] ?? 'unknown error';
  }
  return faissModule;
}

export function faissUnavailableReason(): string | null {
  loadFaiss();
  return faissProblem;
}

function requireFaiss(): FaissModule {
  const faiss = loadFaiss();
  if (!faiss) {
    throw createError(
      'E_SYN_VECTORSTORE_UNAVAILABLE',
      `The faiss vector backend is not built (${faissProblem}). Run \`node scripts/build-faiss.mjs\` ` +
        '(it needs libfaiss-dev, see the README) or set vectorBackend to usearch or auto.',
    );
  }
  return faiss;
}

/** Rows per native add call: faiss-node copies a JS number array, so batches keep that array small. */
const ADD_BATCH = 4096;

export class FaissVectorIndex implements VectorIndex {
  readonly backend = 'faiss' as const;
  readonly dimension: number;
  private index: FlatIndex | null;
  private rowIds: number[] = [];
  private rowOf = new Map<number, number>();

  constructor(options: { dimension: number }) {
    if (!Number.isInteger(options.dimension) || options.dimension < 1) {
      throw createError('E_SYN_BAD_REQUEST', `A vector index needs a positive dimension, got ${options.dimension}.`);
    }
    this.dimension = options.dimension;
    this.index = new (requireFaiss().IndexFlatIP)(this.dimension);
  }

  static load(dir: string): FaissVectorIndex {
    const faiss = requireFaiss();
    const { meta, dataFile } = readEnvelope(dir, 'faiss');
    const index = new FaissVectorIndex({ dimension: meta.dimension });
    try {
      const read = faiss.IndexFlatIP.read(dataFile);
      if (read.ntotal() !== meta.count || read.getDimension() !== meta.dimension) throw new Error('the FAISS file does not match its meta file');
      index.index = read;
    } catch (error) {
      throw createError('E_SYN_VECTORSTORE_UNAVAILABLE', `The vector index in ${dir} cannot be read: ${(error as Error).message}.`, { dir }, error);
    }
    index.rowIds = [...meta.ids];
    index.reindexRows();
    return index;
  }

  private get native(): FlatIndex {
    if (!this.index) throw createError('E_SYN_VECTORSTORE_UNAVAILABLE', 'This vector index was disposed.');
    return this.index;
  }

  private reindexRows(): void {
    this.rowOf = new Map();
    this.rowIds.forEach((id, row) => this.rowOf.set(id, row));
  }

  has(id: number): boolean {
    return this.rowOf.has(id);
  }

  ids(): number[] {
    return [...this.rowIds];
  }

  add(ids: number[], vectors: Float32Array[]): void {
    const native = this.native;
    const rows = checkAddInput(ids, vectors, this.dimension);
    this.remove(ids.filter((id) => this.has(id)));
    for (let start = 0; start < rows.length; start += ADD_BATCH) {
      const batch = rows.slice(start, start + ADD_BATCH);
      const flat = new Array<number>(batch.length * this.dimension);
      batch.forEach((row, r) => {
        for (let i = 0; i < this.dimension; i++) flat[r * this.dimension + i] = row[i]!;
      });
      native.add(flat);
      for (const id of ids.slice(start, start + ADD_BATCH)) {
        this.rowOf.set(id, this.rowIds.length);
        this.rowIds.push(id);
      }
    }
  }

  remove(ids: number[]): number {
    const native = this.native;
    const rows = [...new Set(ids)].map((id) => this.rowOf.get(id)).filter((row): row is number => row !== undefined);
    if (rows.length === 0) return 0;
    const removed = native.removeIds(rows);
    const gone = new Set(rows);
    this.rowIds = this.rowIds.filter((_, row) => !gone.has(row));
    this.reindexRows();
    if (removed !== rows.length || native.ntotal() !== this.rowIds.length) {
      throw createError('E_SYN_VECTORSTORE_UNAVAILABLE', `FAISS removed ${removed} of ${rows.length} vectors; the index is out of step and will be rebuilt.`);
    }
    return removed;
  }

  search(query: Float32Array, k: number, allow?: VectorAllow): VectorHit[] {
    const native = this.native;
    const q = Array.from(checkQuery(query, k, this.dimension));
    return searchWithAllow(this.rowIds.length, k, allowPredicate(allow), (candidates) => {
      const { labels, distances } = native.search(q, candidates);
      const hits: VectorHit[] = [];
      labels.forEach((row, i) => {
        if (row >= 0) hits.push({ id: this.rowIds[row]!, score: distances[i]! });
      });
      return hits;
    });
  }

  save(dir: string): void {
    const native = this.native;
    saveEnvelope(dir, { backend: 'faiss', kind: 'exact', dimension: this.dimension, count: this.rowIds.length, ids: this.rowIds }, (file) => native.write(file));
  }

  stats(): VectorIndexStats {
    const count = this.rowIds.length;
    return { backend: 'faiss', kind: 'exact', count, dimension: this.dimension, memoryBytes: count * (this.dimension * 4 + 40) };
  }

  dispose(): void {
    // faiss-node frees the native index when the wrapper is collected.
    this.index = null;
    this.rowIds = [];
    this.rowOf.clear();
  }
}
