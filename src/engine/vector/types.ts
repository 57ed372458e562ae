/**
 * The vector index: nearest chunks to a query embedding by cosine similarity. It is a cache of the
 * embeddings stored in SQLite, so every backend may lose its files: loading a missing or corrupt
 * index throws E_SYN_VECTORSTORE_UNAVAILABLE and the engine rebuilds it from the store.
 */

export type VectorBackend = 'usearch' | 'faiss';

/** `exact`: every vector is scored; `hnsw`: an approximate graph answers unfiltered queries. */
export type VectorSearchKind = 'exact' | 'hnsw';

export interface VectorHit {
  /** Chunk id. */
  id: number;
  /** Cosine similarity in [-1, 1], higher is closer. */
  score: number;
}

/** Which chunk ids a search may return: a predicate or the set of allowed ids. */
export type VectorAllow = ((id: number) => boolean) | ReadonlySet<number>;

export interface VectorIndexStats {
  backend: VectorBackend;
  /** How the next unfiltered search runs. */
  kind: VectorSearchKind;
  count: number;
  dimension: number;
  /** Native and JS memory held by the index (estimated where the library does not say), or null. */
  memoryBytes: number | null;
}

export interface VectorIndex {
  readonly backend: VectorBackend;
  readonly dimension: number;
  /**
   * Adds or replaces vectors (an id already present gets the new vector). Vectors are copied and
   * L2-normalised. A vector of another dimension throws E_SYN_INDEX_VERSION_MISMATCH and adds nothing.
   */
  add(ids: number[], vectors: Float32Array[]): void;
  /** Removes these ids (unknown ids are ignored); returns how many were present. */
  remove(ids: number[]): number;
  has(id: number): boolean;
  /** Every id held (order unspecified). */
  ids(): number[];
  /** Up to k hits, best first; with `allow`, only allowed ids, still the best k of them. */
  /**
   * `width`: the least number of neighbours an approximate (HNSW) search collects before keeping the
   * best k (its beam; default HNSW_SEARCH_WIDTH); exact searches ignore it.
   */
  search(query: Float32Array, k: number, allow?: VectorAllow, width?: number): VectorHit[];
  /** Writes the index into `dir` (created if needed), replacing a previous save there. */
  save(dir: string): void;
  stats(): VectorIndexStats;
  /** Frees native memory; the index must not be used afterwards. */
  dispose(): void;
}

/** What each backend class offers besides the instance methods. */
export interface VectorIndexClass {
  /** Reads an index saved by `save`; throws E_SYN_VECTORSTORE_UNAVAILABLE when missing or corrupt. */
  load(dir: string): VectorIndex;
}
