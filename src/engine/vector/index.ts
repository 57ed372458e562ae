/**
 * Picks and opens a vector backend. `auto` is usearch: exact search up to DEFAULT_EXACT_LIMIT
 * vectors, HNSW above, which `synapsis bench vectors` measured faster than FAISS's exact index at
 * every size with recall@10 near 1 (docs/retrieval.md, "Vector index backends"); FAISS is the fallback when
 * usearch's native module cannot load, and can be chosen explicitly.
 */
import { createError } from '../../shared/errors.ts';
import { readEnvelope } from './common.ts';
import { FaissVectorIndex, faissUnavailableReason } from './faiss.ts';
import type { VectorBackend, VectorIndex } from './types.ts';
import { UsearchVectorIndex } from './usearch.ts';

export type VectorBackendChoice = 'auto' | VectorBackend;

export interface CreateVectorIndexOptions {
  backend: VectorBackendChoice;
  dimension: number;
  /** How many vectors are about to be added (lets usearch start in HNSW mode for a big corpus). */
  expectedCount?: number;
  /** Override of the exact → HNSW switch point (tests and benchmarks). */
  exactLimit?: number;
}

/** Which backend `choice` means on this machine now. */
export function resolveBackend(choice: VectorBackendChoice): VectorBackend {
  if (choice !== 'auto') return choice;
  return 'usearch';
}

export function createVectorIndex(options: CreateVectorIndexOptions): VectorIndex {
  const backend = resolveBackend(options.backend);
  if (backend === 'faiss') return new FaissVectorIndex({ dimension: options.dimension });
  try {
    return new UsearchVectorIndex({ dimension: options.dimension, exactLimit: options.exactLimit });
  } catch (error) {
    if (options.backend !== 'auto' || faissUnavailableReason()) throw error;
    // auto: usearch's native module failed on this machine, FAISS can still answer.
    return new FaissVectorIndex({ dimension: options.dimension });
  }
}

/** Opens the index saved in `dir` with the backend that wrote it; E_SYN_VECTORSTORE_UNAVAILABLE when missing or corrupt. */
export function loadVectorIndex(dir: string): VectorIndex {
  const { meta } = readEnvelope(dir);
  if (meta.backend === 'faiss') return FaissVectorIndex.load(dir);
  if (meta.backend === 'usearch') return UsearchVectorIndex.load(dir);
  throw createError('E_SYN_VECTORSTORE_UNAVAILABLE', `The vector index in ${dir} names an unknown backend ${String(meta.backend)}.`);
}
