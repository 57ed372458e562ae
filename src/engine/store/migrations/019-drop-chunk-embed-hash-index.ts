import type { Migration } from './types.ts';

/**
 * Drops the index on chunks.embed_hash (migration 004). Vectors are looked up from the chunk to the
 * embeddings table (its primary key is the model and the hash), never from a hash to its chunks, so
 * no statement reads the index; every chunk written still paid for a random-key B-tree insert in it
 * (a 64-character hex key per chunk). Sentence spans keep theirs (chunk_sentences_embed_hash).
 */
export const migration019: Migration = {
  version: 19,
  name: 'drop-chunk-embed-hash-index',
  up(db) {
    db.exec('DROP INDEX IF EXISTS chunks_embed_hash');
  },
};
