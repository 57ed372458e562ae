/**
 * The dense side of the engine: a model's vector index, loaded or rebuilt, kept in step and queried.
 * The embedding stage that feeds it is ingest/embed-stage.ts, the sync with the store
 * vector/sync.ts, the blending of chunk and sentence hits vector/blend.ts.
 * SQLite is the source of truth: vectors live in the embeddings table keyed by (model id, embed
 * hash); the vector index under index/<index_version>/ is a cache rebuilt from them when missing or
 * corrupt, and kept in step with the chunks table by id after every indexing run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createError, isSynapsisError } from '../../shared/errors.ts';
import { embedPending, type EmbedProgress } from '../ingest/embed-stage.ts';
import type { ForegroundGate } from '../ingest/foreground.ts';
import type { EmbedderLike } from '../llm/runtime.ts';
import type { Store, VectorUnit } from '../store/store.ts';
import { bestPerChunk, blendPerChunk, type SentenceHits } from './blend.ts';
import { META_FILE, topK } from './common.ts';
import { createVectorIndex, loadVectorIndex, resolveBackend, type VectorBackendChoice } from './index.ts';
import { addStoredVectors, syncVectorIndex } from './sync.ts';
import type { VectorHit, VectorIndex } from './types.ts';

// The stages this class runs live in their own modules; re-exported for the callers that import them here.
export { bestPerChunk, blendPerChunk, type SentenceHits } from './blend.ts';
export type { EmbedProgress } from '../ingest/embed-stage.ts';

export interface SemanticOptions {
  store: Store;
  embedder: EmbedderLike;
  /** index/<index_version>/ of the current version. */
  indexDir: string;
  backend: VectorBackendChoice;
  /** What each vector stands for (default chunk); a sentence index maps its hits to their chunks. */
  unit?: VectorUnit;
  /**
   * The sentence vectors of the same model (a SemanticIndex with unit 'sentence', its own folder):
   * a chunk then scores by its own vector and its best sentence's, blended as the search's chunkShare
   * says (the retrieval profile's chunk_share; none: the better of the two; see ingest/sentences.ts).
   */
  sentences?: SemanticIndex | null;
  /**
   * Embedding of this index's inputs pauses between pages while a request of this gate is in flight
   * (the sentence indexes: background work that waits for questions).
   */
  yieldTo?: ForegroundGate;
  /** Vectors up to which the index searches exactly before it becomes an HNSW graph (tests; default the backend's). */
  exactLimit?: number;
  /** Memory for the stored vectors filtered searches remember (tests; default STORED_CACHE_BYTES). */
  storedCacheBytes?: number;
  /**
   * A reader's index (an engine opened beside the writer): built from the saved index and the stored
   * vectors in memory, and never saved (the index files are the writer's). See markStale.
   */
  readOnly?: boolean;
}

/** Memory for stored vectors that filtered searches read (searchStored): about 21,000 384-d vectors, four filters of the most it answers that way (EXACT_FILTER_MAX). */
const STORED_CACHE_BYTES = 32 * 1024 * 1024;
/**
 * A filter that leaves at most this many chunks is answered exactly from the stored vectors when
 * the index is an HNSW graph: a graph search would have to widen to most of the corpus to find
 * them, while scoring a few thousand stored vectors takes milliseconds.
 */
const EXACT_FILTER_MAX = 5000;
/** A filtered search maps allowed chunks to their sentences only up to this many chunks; beyond it, chunk vectors answer alone. */
const SENTENCE_FILTER_MAX = 20000;
/**
 * The sentence index answers with k sentences found in a beam of max(k, 64) (usearch widens the beam
 * to k; hybrid queries ask for about 120, so their beam is k): it only has to surface the
 * chunks whose best sentence is close (the chunk index fills the rest of the list), and it holds
 * about six times as many vectors as the chunk index. Three times k in the default beam of 256
 * cost 5.5 ms a query at 740k sentences (117k generated chunks).
 */
const SENTENCE_SEARCH_WIDTH = 64;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export class SemanticIndex {
  private index: VectorIndex | null = null;
  private dimension = 0;
  private loading: Promise<void> | null = null;
  /** True while the index is rebuilt from stored embeddings. */
  rebuilding = false;
  private rebuildStarted = deferred();
  /** Why dense retrieval is unavailable (model failed to load, ...); null when it works. */
  unavailable: string | null = null;
  lastRebuildReason: string | null = null;
  /**
   * The last load found nothing embedded and no saved index: searches answer [] at once instead of
   * asking the store again on every query (a scan of every sentence while they wait to be
   * embedded); the next syncIndex looks again.
   */
  private empty = false;
  /** Another process changed the store since the index was loaded or last brought in step (a reader). */
  private stale = false;
  private refreshing: Promise<void> | null = null;

  constructor(private readonly options: SemanticOptions) {}

  /**
   * The writer committed (a reader saw the store's data version change): the next search first
   * brings the loaded index in step with the stored vectors (ids added and removed, in memory), the
   * way the writer's own index run does; an index not loaded yet reads the current state anyway.
   */
  markStale(): void {
    this.stale = true;
    this.empty = false;
    this.sentences?.markStale();
  }

  /** Brings a stale loaded index in step before it answers (one refresh at a time, shared). */
  private async current(): Promise<void> {
    if (!this.stale || !this.index) return;
    this.refreshing ??= (async () => {
      this.stale = false;
      try {
        await this.syncIndex();
      } catch (error) {
        this.stale = true;
        throw error;
      }
    })().finally(() => {
      this.refreshing = null;
    });
    await this.refreshing;
  }

  get modelId(): string {
    return this.options.embedder.modelId;
  }

  get unit(): VectorUnit {
    return this.options.unit ?? 'chunk';
  }

  /** The sentence index of this model, when sentence vectors are on. */
  get sentences(): SemanticIndex | null {
    return this.options.sentences ?? null;
  }

  get ready(): boolean {
    return this.index !== null && this.unavailable === null;
  }

  stats() {
    const stats = this.index?.stats();
    // Before the first search the index is not loaded (no model load just for health): count the stored vectors.
    const vectors = stats?.count ?? this.options.store.countEmbeddedChunks(this.modelId, this.unit);
    const dimension = stats?.dimension ?? (this.dimension || (this.options.store.embeddingDimension(this.modelId) ?? 0));
    return { vectors, dimension, backend: stats?.backend ?? resolveBackend(this.options.backend), kind: stats?.kind ?? null };
  }

  private async modelDimension(): Promise<number> {
    if (this.dimension) return this.dimension;
    const dim = await this.options.embedder.load();
    const stored = this.options.store.embeddingDimension(this.modelId);
    if (stored !== null && stored !== dim) {
      throw createError(
        'E_SYN_INDEX_VERSION_MISMATCH',
        `Stored vectors of model ${this.modelId} have dimension ${stored} but the model produces ${dim}: ` +
          'the embeddings table does not match this model file. Remove the model and add it again (synapsis models remove/add), ' +
          'or use a fresh data dir.',
      );
    }
    this.dimension = dim;
    return dim;
  }

  /** Embeds every chunk input that has no vector for this model yet, in batches, reporting progress. */
  embedPending(onProgress?: (p: EmbedProgress) => void, shouldStop?: () => boolean): Promise<{ embedded: number; failed: number }> {
    const { store, embedder } = this.options;
    const gate = this.options.yieldTo;
    const deps = {
      store,
      embedder,
      modelId: this.modelId,
      unit: this.unit,
      dimension: () => this.modelDimension(),
      onWork: () => void (this.empty = false),
      ...(gate ? { yieldTo: () => gate.idle() } : {}),
    };
    return embedPending(deps, onProgress, shouldStop);
  }

  /** Loads the vector index of this version, or rebuilds it from stored vectors, then matches it to the chunks. */
  async syncIndex(): Promise<{ added: number; removed: number }> {
    const { store, indexDir } = this.options;
    this.empty = false;
    if (!this.index) await this.ensureLoaded();
    const index = this.index;
    if (!index) return { added: 0, removed: 0 };
    const { added, removed } = await syncVectorIndex(index, store, this.modelId, this.unit);
    if (!this.options.readOnly && (added + removed > 0 || !fs.existsSync(path.join(indexDir, META_FILE)))) index.save(indexDir);
    return { added, removed };
  }

  /** One load (or rebuild) at a time, shared by the queries and index runs that need it. */
  private ensureLoaded(): Promise<void> {
    this.loading ??= this.load().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /**
   * Reads the saved index, or rebuilds it from the stored vectors when it is missing or corrupt. A
   * rebuild adds a page of vectors at a time and yields between pages, so queries keep being
   * answered (lexically, see search) while it runs; the index is used once it is complete, and saved.
   */
  private async load(): Promise<void> {
    const { store, indexDir, backend } = this.options;
    this.stale = false; // what is read now is the current state
    const wanted = store.embeddedChunkIds(this.modelId, this.unit);
    if (wanted.size === 0 && !fs.existsSync(path.join(indexDir, META_FILE))) {
      this.empty = true; // nothing embedded yet: no model load until there is
      return;
    }
    const dim = await this.modelDimension();
    if (this.index) return;
    const loaded = this.tryLoad(dim);
    if (loaded) {
      this.index = loaded;
      // The writer saves its index after the vectors are committed: a reader's copy may lag them.
      if (this.options.readOnly) this.stale = true;
      return;
    }
    const index = createVectorIndex({ backend, dimension: dim, expectedCount: wanted.size, ...(this.options.exactLimit !== undefined ? { exactLimit: this.options.exactLimit } : {}) });
    if (wanted.size > 0) {
      this.rebuilding = true;
      this.rebuildStarted.resolve();
      try {
        await addStoredVectors(index, store, this.modelId, this.unit, [...wanted], false);
        if (!this.options.readOnly) index.save(indexDir);
      } catch (error) {
        index.dispose();
        throw error;
      } finally {
        this.rebuilding = false;
        this.rebuildStarted = deferred();
      }
    }
    this.index = index;
  }

  private tryLoad(dim: number): VectorIndex | null {
    const { indexDir, backend } = this.options;
    if (!fs.existsSync(path.join(indexDir, META_FILE))) return null;
    try {
      const index = loadVectorIndex(indexDir);
      if (index.dimension !== dim) {
        index.dispose();
        throw createError(
          'E_SYN_INDEX_VERSION_MISMATCH',
          `The vector index in ${indexDir} has dimension ${index.dimension}, the embedding model ${dim}; ` +
            `delete that folder and Synapsis rebuilds it from stored embeddings.`,
        );
      }
      if (index.backend !== resolveBackend(backend)) {
        this.lastRebuildReason = `vector index rebuilt: the ${backend} backend is configured, the saved index is ${index.backend}`;
        index.dispose();
        return null;
      }
      return index;
    } catch (error) {
      if (isSynapsisError(error) && error.code === 'E_SYN_INDEX_VERSION_MISMATCH') throw error;
      // Missing or corrupt: the store has every vector, so rebuild instead of failing.
      this.lastRebuildReason = `vector index rebuilt from stored embeddings: ${(error as Error).message}`;
      return null;
    }
  }

  /**
   * Nearest chunks to the query; `allow` restricts them (filters and sensitivity). While the index is
   * being rebuilt this throws E_SYN_VECTORSTORE_UNAVAILABLE at once (hybrid queries answer lexically
   * meanwhile) unless `waitForRebuild` (a dense-only query has nothing else to answer with).
   */
  async search(
    query: string,
    k: number,
    allow?: ReadonlySet<number>,
    options: { waitForRebuild?: boolean; feedback?: { docs: number; beta: number }; chunkShare?: number | null } = {},
  ): Promise<VectorHit[]> {
    if (!this.index) {
      if (this.empty) return [];
      if (options.waitForRebuild) await this.ensureLoaded();
      else await Promise.race([this.ensureLoaded(), this.rebuildStarted.promise]);
      if (this.rebuilding) {
        throw createError('E_SYN_VECTORSTORE_UNAVAILABLE', 'the vector index is being built from stored embeddings; lexical results until it is done');
      }
    }
    await this.current();
    const index = this.index;
    if (!index || index.stats().count === 0) return [];
    const vector = await this.options.embedder.embed(query, 'query');
    const sentences = await this.readySentences();
    const run = (v: Float32Array) => {
      const hits = this.searchVector(v, k, allow);
      if (!sentences) return hits;
      const found = sentences.searchChunks(v, k, allow);
      const share = options.chunkShare ?? null;
      return share === null ? bestPerChunk(hits, found.hits, k) : blendPerChunk(hits, found, share, (ids) => this.options.store.splitChunks(ids), k);
    };
    const first = run(vector);
    if (!options.feedback || first.length === 0) return first;
    return run(this.rocchio(vector, first.slice(0, options.feedback.docs), options.feedback.beta));
  }

  /**
   * Nearest units to a vector already stored (no model call): a note's passages alike start from its
   * own chunks' vectors. Filtering is the caller's (it hydrates the hits through the request's
   * filters). While the index is being rebuilt this throws E_SYN_VECTORSTORE_UNAVAILABLE, as search does.
   */
  async nearest(vector: Float32Array, k: number): Promise<VectorHit[]> {
    if (!this.index) {
      if (this.empty) return [];
      await Promise.race([this.ensureLoaded(), this.rebuildStarted.promise]);
      if (this.rebuilding) throw createError('E_SYN_VECTORSTORE_UNAVAILABLE', 'the vector index is being built from stored embeddings');
    }
    await this.current();
    return this.searchVector(vector, k);
  }

  private searchVector(v: Float32Array, k: number, allow?: ReadonlySet<number>): VectorHit[] {
    const index = this.index;
    if (!index || index.stats().count === 0) return [];
    if (allow && allow.size <= EXACT_FILTER_MAX && index.stats().kind === 'hnsw') return this.searchStored(v, k, allow);
    return this.unit === 'sentence' ? index.search(v, k, allow, SENTENCE_SEARCH_WIDTH) : index.search(v, k, allow);
  }

  /**
   * The query's cosine to each stored sentence of the given chunks, from the sentence vectors of this
   * model: no model call beyond the query's vector, which the search just computed (the embedder
   * keeps recent queries). Null when the chunks have no sentence vectors.
   */
  async sentenceSimilarities(query: string, chunkIds: readonly number[]): Promise<{ chunk_id: number; text: string; score: number }[] | null> {
    const s = this.sentences;
    if (!s || chunkIds.length === 0) return null;
    const rows = this.options.store.sentenceTexts(chunkIds);
    if (rows.length === 0) return null;
    const vectors = new Map<number, Float32Array>();
    for (const page of this.options.store.chunkVectors(s.modelId, rows.map((r) => r.id), 'sentence')) for (const { id, vector } of page) vectors.set(id, vector);
    if (vectors.size === 0) return null;
    const q = await this.options.embedder.embed(query, 'query');
    const norm = (v: Float32Array) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0)) || 1;
    const qn = norm(q);
    return rows.flatMap((r) => {
      const v = vectors.get(r.id);
      if (!v || v.length !== q.length) return [];
      let dot = 0;
      for (let i = 0; i < v.length; i++) dot += v[i]! * q[i]!;
      return [{ chunk_id: r.chunk_id, text: r.text, score: dot / (qn * norm(v)) }];
    });
  }

  /** The sentence index when it can answer now (loaded, not being rebuilt); null otherwise (chunk vectors answer alone). */
  private async readySentences(): Promise<SemanticIndex | null> {
    const s = this.sentences;
    if (!s || s.unavailable) return null;
    if (!s.index) {
      if (s.empty) return null;
      await Promise.race([s.ensureLoaded(), s.rebuildStarted.promise]).catch(() => undefined);
      if (s.rebuilding) return null;
    }
    if (!(await s.current().then(() => true, () => false))) return null;
    return s.index && s.index.stats().count > 0 ? s : null;
  }

  /**
   * Sentence index: the chunks whose sentences are nearest to `vector`, each scored by its best
   * sentence; `allow` holds chunk ids. k sentences: fewer chunks than k when a chunk has several
   * among them, which the chunk index's own k hits make up for. `floor`: the score of the last
   * sentence found (no sentence left out scores above it); null when none was found.
   */
  private searchChunks(vector: Float32Array, k: number, allow?: ReadonlySet<number>): SentenceHits {
    let allowed: Set<number> | undefined;
    if (allow) {
      if (allow.size > SENTENCE_FILTER_MAX) return { hits: [], floor: null };
      allowed = new Set(this.options.store.sentencesOfChunks([...allow]));
      if (allowed.size === 0) return { hits: [], floor: null };
    }
    const hits = this.searchVector(vector, k, allowed);
    const chunkOf = this.options.store.sentenceChunks(hits.map((h) => h.id));
    const best = new Map<number, number>();
    for (const h of hits) {
      const chunk = chunkOf.get(h.id);
      if (chunk !== undefined && !(best.get(chunk)! >= h.score)) best.set(chunk, h.score);
    }
    return { hits: [...best].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score).slice(0, k), floor: hits.at(-1)?.score ?? null };
  }

  /**
   * Rocchio's pseudo-relevance feedback on the query vector: q' = q̂ + β · mean of the top hits'
   * unit vectors (from the store, no model call). Moves an underspecified query towards the
   * vocabulary of what it found first; one more vector search per query.
   */
  private rocchio(query: Float32Array, top: readonly VectorHit[], beta: number): Float32Array {
    const unit = (v: Float32Array) => {
      let n = 0;
      for (const x of v) n += x * x;
      n = Math.sqrt(n) || 1;
      return (i: number) => v[i]! / n;
    };
    const q = unit(query);
    const out = new Float32Array(query.length);
    for (let i = 0; i < out.length; i++) out[i] = q(i);
    let count = 0;
    const centroid = new Float32Array(query.length);
    for (const page of this.options.store.chunkVectors(this.modelId, top.map((h) => h.id))) {
      for (const { vector } of page) {
        const u = unit(vector);
        for (let i = 0; i < centroid.length; i++) centroid[i]! += u(i);
        count++;
      }
    }
    if (count === 0) return query;
    for (let i = 0; i < out.length; i++) out[i]! += (beta * centroid[i]!) / count;
    return out;
  }

  /**
   * Exact scores of the allowed chunks from their stored vectors. The vectors read are remembered
   * (least recently used first out, STORED_CACHE_BYTES in all): a filter is usually kept for several
   * questions (a folder chosen in the UI), and reading a folder's vectors from the store is most of
   * such a query. Safe to keep: a unit id never gets another vector (edits write new rows with new
   * ids, and stored embeddings are never replaced).
   */
  private searchStored(query: Float32Array, k: number, allow: ReadonlySet<number>): VectorHit[] {
    let norm = 0;
    for (const x of query) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    // This query's vectors first (the remembered ones marked as just used), so that remembering the
    // ones read now can only push out vectors this query does not need.
    const cache = this.storedVectors;
    const vectors = new Map<number, Float32Array>();
    const missing: number[] = [];
    for (const id of allow) {
      const v = cache.get(id);
      if (!v) {
        missing.push(id);
        continue;
      }
      vectors.set(id, v);
      cache.delete(id);
      cache.set(id, v);
    }
    if (missing.length > 0) {
      for (const page of this.options.store.chunkVectors(this.modelId, missing, this.unit)) {
        for (const { id, vector } of page) {
          vectors.set(id, vector);
          this.remember(id, vector);
        }
      }
    }
    // Chunks without a stored vector yet (still being embedded) are left out, as the index leaves them out.
    const ids: number[] = [];
    const scores: number[] = [];
    for (const [id, vector] of vectors) {
      let dot = 0;
      let vnorm = 0;
      for (let i = 0; i < vector.length; i++) {
        dot += query[i]! * vector[i]!;
        vnorm += vector[i]! * vector[i]!;
      }
      ids.push(id);
      scores.push(dot / (norm * (Math.sqrt(vnorm) || 1)));
    }
    return topK(scores, ids, k, null);
  }

  /** Vectors searchStored read, most recently used last. */
  private readonly storedVectors = new Map<number, Float32Array>();
  private storedBytes = 0;

  private remember(id: number, vector: Float32Array): void {
    this.storedVectors.set(id, vector);
    this.storedBytes += vector.byteLength;
    for (const [old, v] of this.storedVectors) {
      if (this.storedBytes <= (this.options.storedCacheBytes ?? STORED_CACHE_BYTES)) break;
      this.storedVectors.delete(old);
      this.storedBytes -= v.byteLength;
    }
  }

  async dispose(): Promise<void> {
    await this.sentences?.disposeIndex();
    this.index?.dispose();
    this.index = null;
    await this.options.embedder.unload();
  }

  /** Frees the vector index only (a sentence index shares its model with the chunk index, which unloads it). */
  async disposeIndex(): Promise<void> {
    await this.loading?.catch(() => undefined);
    this.index?.dispose();
    this.index = null;
  }
}
