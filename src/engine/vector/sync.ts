/**
 * Keeping a vector index in step with the store, the source of truth: vectors are added and
 * removed by unit id, read from the embeddings table a page at a time. SemanticIndex runs it after
 * every indexing run (and a reader when the writer committed), and to rebuild a missing or corrupt
 * index from stored embeddings without re-embedding.
 */
import type { Store, VectorUnit } from '../store/store.ts';
import type { VectorIndex } from './types.ts';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Adds the stored vectors of `ids` to the index a page at a time, yielding between pages so that
 * queries are answered meanwhile (a first sync of a large vault's sentences adds hundreds of
 * thousands of vectors). `skipEmpty`: an empty page neither adds nor yields.
 */
export async function addStoredVectors(index: VectorIndex, store: Store, modelId: string, unit: VectorUnit, ids: number[], skipEmpty: boolean): Promise<void> {
  for (const page of store.chunkVectors(modelId, ids, unit)) {
    if (page.length === 0) {
      if (skipEmpty) continue;
    } else {
      index.add(
        page.map((p) => p.id),
        page.map((p) => p.vector),
      );
    }
    await nextTurn();
  }
}

/** Matches the index to the units that have a stored vector of the model: removes the others, adds the missing. */
export async function syncVectorIndex(index: VectorIndex, store: Store, modelId: string, unit: VectorUnit): Promise<{ added: number; removed: number }> {
  const wanted = store.embeddedChunkIds(modelId, unit);
  const held = index.ids();
  const toRemove = held.filter((id) => !wanted.has(id));
  const heldSet = new Set(held);
  const toAdd = [...wanted].filter((id) => !heldSet.has(id));
  if (toRemove.length > 0) index.remove(toRemove);
  await addStoredVectors(index, store, modelId, unit, toAdd, true);
  return { added: toAdd.length, removed: toRemove.length };
}
