/**
 * A synthetic embedder for benchmarks: each word is hashed to a few signed coordinates of a
 * `dimension`-wide vector (a sparse random projection of the bag of words), summed and normalised.
 * Texts that share words get similar vectors, so hybrid retrieval over it behaves like hybrid
 * retrieval over a real model, while embedding 100k chunks takes seconds instead of an hour: it
 * measures the engine (fusion, the vector index, storage), with the query vector as good as
 * precomputed. It is not a language model and says nothing about quality.
 */
import type { EmbedderLike } from '../../engine/llm/runtime.ts';

const NONZERO = 8;

export class HashedEmbedder implements EmbedderLike {
  readonly modelId: string;

  constructor(readonly dimension = 384) {
    this.modelId = `hashed-bow-${dimension}`;
  }

  async load(): Promise<number> {
    return this.dimension;
  }

  vector(text: string): Float32Array {
    const v = new Float32Array(this.dimension);
    for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
      if (!word) continue;
      // FNV-1a, then a xorshift stream for the coordinates and signs.
      let h = 0x811c9dc5;
      for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193) >>> 0;
      for (let k = 0; k < NONZERO; k++) {
        h ^= h << 13;
        h ^= h >>> 17;
        h ^= h << 5;
        h >>>= 0;
        v[h % this.dimension]! += h & 0x80000000 ? -1 : 1;
      }
    }
    let norm = 0;
    for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < v.length; i++) v[i]! /= norm;
    return v;
  }

  /** Queries and documents are embedded alike. */
  async embed(text: string, _kind?: 'query' | 'document'): Promise<Float32Array> {
    return this.vector(text);
  }

  async embedMany(texts: readonly string[], _kind?: 'query' | 'document'): Promise<PromiseSettledResult<Float32Array>[]> {
    return texts.map((t) => ({ status: 'fulfilled' as const, value: this.vector(t) }));
  }

  async unload(): Promise<void> {}
}
