/**
 * A change of the primary embedding model's file (a Q4_0 imported, then a Q8_0 of the same model
 * downloaded, or another model): vectors are stored per model id, the hash of the file
 * (llm/registry.ts), so the old file's vectors are never searched with the new file's queries; the
 * new file embeds every chunk again in the next indexing run (its passages phase). This module
 * records the change when an engine opens and tells health about it until the new file has caught
 * up with the chunks that were there.
 */
import type { Store } from '../store/store.ts';

const CURRENT = 'embed_model';
const CHANGE = 'embed_model_change';

interface EmbedderRef {
  id: string;
  name: string;
}

/** The last change: from which file to which, and the highest chunk id when it happened. */
export interface EmbedderChange {
  from: EmbedderRef;
  to: EmbedderRef;
  through: number;
}

/**
 * Called by the writer at open with the primary embedding model: a different file from the last
 * one that embedded anything is recorded as a change (the old file's vectors stay, keyed by its id,
 * so switching back embeds nothing again).
 */
export function recordEmbedderChange(store: Store, primary: EmbedderRef | null): EmbedderChange | null {
  if (!primary) return null;
  const last = store.getSetting<EmbedderRef>(CURRENT);
  let change: EmbedderChange | null = null;
  if (last && last.id !== primary.id && store.embeddingDimension(last.id) !== null) {
    change = { from: { id: last.id, name: last.name }, to: { id: primary.id, name: primary.name }, through: store.maxUnitId('chunk') };
    store.setSetting(CHANGE, change);
  }
  if (!last || last.id !== primary.id || last.name !== primary.name) store.setSetting(CURRENT, { id: primary.id, name: primary.name });
  return change;
}

/**
 * The health line while the primary embedder's file changed and chunks that were there then still
 * wait for its vectors; null otherwise.
 */
export function embedderChangeLine(store: Store, primaryId: string, pending: number, vectors: number): string | null {
  const change = store.getSetting<EmbedderChange>(CHANGE);
  if (!change || change.to.id !== primaryId || pending === 0) return null;
  // The embed stage marks every chunk up to an id embedded once a pass ends with none pending.
  if (store.embeddedThrough(primaryId, 'chunk') >= change.through) return null;
  return (
    `the embedding model file changed (${change.from.name} → ${change.to.name}): vectors are kept per file and never mixed, ` +
    `so ${pending} chunks wait to be embedded again with the new file (the next indexing run does it); ` +
    `until then meaning search covers the ${vectors} chunks embedded so far and word search covers every note`
  );
}
