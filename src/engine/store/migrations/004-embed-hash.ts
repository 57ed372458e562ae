import type { Migration } from './types.ts';

/**
 * Each chunk records the hash of the text its embedding is made from (title, heading and text),
 * so embeddings are keyed by (model_id, embed_hash): a moved file, or a new index version with the
 * same model, re-embeds nothing, and finding chunks without an embedding is one indexed join.
 * Existing rows get NULL; the engine fills them in at start.
 */
export const migration004: Migration = {
  version: 4,
  name: 'embed-hash',
  up(db) {
    db.exec(`
      ALTER TABLE chunks ADD COLUMN embed_hash TEXT;
      CREATE INDEX chunks_embed_hash ON chunks (embed_hash);
    `);
  },
};
