import type { Migration } from './types.ts';

/**
 * Sentence vectors (issue 14): the sentence spans of each prose chunk, so an embedding model can
 * score a chunk by its best sentence. A span is [start, end) in the chunk's text (JS string
 * offsets) with the hash of its embedding input (title, heading, sentence) that keys its vectors in
 * the embeddings table, as embed_hash does for chunks. Spans go with their chunk (ON DELETE
 * CASCADE). AUTOINCREMENT: a span id is a key in the sentence vector index, and must never name
 * another sentence later. `chunks.sentences` is NULL until the chunk has been split (then the
 * number of spans, 0 when the chunk vector already stands for its one sentence, or for code).
 */
export const migration009: Migration = {
  version: 9,
  name: 'chunk-sentences',
  up(db) {
    db.exec(`
      CREATE TABLE chunk_sentences (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chunk_id INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        start INTEGER NOT NULL,
        end INTEGER NOT NULL,
        embed_hash TEXT NOT NULL
      );
      CREATE INDEX chunk_sentences_chunk ON chunk_sentences (chunk_id);
      CREATE INDEX chunk_sentences_embed_hash ON chunk_sentences (embed_hash);
      ALTER TABLE chunks ADD COLUMN sentences INTEGER;
      CREATE INDEX chunks_unsplit ON chunks (id) WHERE sentences IS NULL;
    `);
  },
};
