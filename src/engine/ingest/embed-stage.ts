/**
 * The embedding stage of indexing: every chunk (or sentence) input that has no vector of the model
 * yet is embedded in batches and written to the store, the source of truth the vector index is
 * built from (vector/sync.ts). SemanticIndex.embedPending runs it for its model and unit.
 */
import { isSynapsisError } from '../../shared/errors.ts';
import { embeddingInput } from '../llm/embedding-input.ts';
import type { EmbedderLike } from '../llm/runtime.ts';
import type { Store, VectorUnit } from '../store/store.ts';

export interface EmbedProgress {
  done: number;
  total: number;
}

const BATCH = 32;

export interface EmbedStageDeps {
  store: Store;
  embedder: EmbedderLike;
  modelId: string;
  unit: VectorUnit;
  /** Loads the model and checks its dimension against the stored vectors (once there is work). */
  dimension: () => Promise<number>;
  /** Called once there is something to embed, before the model loads. */
  onWork?: () => void;
  /** Waited for before each page: background work (sentence vectors) gives way to questions in flight (ForegroundGate). */
  yieldTo?: () => Promise<void>;
}

/** Embeds every input that has no vector for this model yet, in batches, reporting progress. */
export async function embedPending(deps: EmbedStageDeps, onProgress?: (p: EmbedProgress) => void, shouldStop?: () => boolean): Promise<{ embedded: number; failed: number }> {
  const { store, embedder, modelId, unit } = deps;
  // Rows written from here on get higher ids: up to `top`, a pass that ends with nothing left
  // pending has embedded every row (see Store.embeddedThrough).
  const top = store.maxUnitId(unit);
  const total = store.countPendingEmbeddings(modelId, unit);
  if (total === 0) {
    store.markEmbeddedThrough(modelId, unit, top);
    return { embedded: 0, failed: 0 };
  }
  deps.onWork?.();
  await deps.dimension();
  const failed = new Set<string>();
  /** The lowest id whose input failed: the next run tries it again, so the mark stays below it. */
  let firstFailedId = Infinity;
  let embedded = 0;
  let after = 0;
  let finished = false;
  onProgress?.({ done: 0, total });
  while (!shouldStop?.()) {
    if (deps.yieldTo) {
      await deps.yieldTo();
      if (shouldStop?.()) break;
    }
    // Paged by chunk id: each page reads only its own rows. A hash already in this page (the same
    // text in two chunks) is embedded once; one written by an earlier page is no longer pending.
    const page = store.pendingEmbeddings(modelId, BATCH, after, unit);
    if (page.length === 0) {
      finished = true;
      break;
    }
    after = page[page.length - 1]!.id;
    const taken = new Set<string>();
    const batch = page.filter((r) => !failed.has(r.hash) && !taken.has(r.hash) && taken.add(r.hash));
    if (batch.length === 0) continue;
    const rows: { hash: string; vector: Float32Array }[] = [];
    const outcomes = await embedder.embedMany(
      batch.map((r) => embeddingInput(r.title, r.heading, r.text)),
      'document',
    );
    outcomes.forEach((outcome, i) => {
      const { hash } = batch[i]!;
      if (outcome.status === 'fulfilled') {
        rows.push({ hash, vector: outcome.value });
        return;
      }
      const error = outcome.reason as unknown;
      if (isSynapsisError(error) && error.code === 'E_SYN_MODEL_UNAVAILABLE') throw error;
      failed.add(hash);
    });
    // Rows whose input failed, now or on an earlier page (those were left out of the batch).
    for (const r of page) if (failed.has(r.hash) && r.id < firstFailedId) firstFailedId = r.id;
    store.writeEmbeddings(modelId, rows);
    embedded += rows.length;
    onProgress?.({ done: embedded + failed.size, total });
    // An embedder that answers at once (a cache, the benchmarks' hashed one) would otherwise hold
    // the event loop for the whole stage; queries get in between pages.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  // Stopped (pause, shutdown): every row up to the last page is done; finished: every row up to top.
  store.markEmbeddedThrough(modelId, unit, Math.min(finished ? top : after, firstFailedId - 1));
  return { embedded, failed: failed.size };
}
