import type { Migration } from './types.ts';

/**
 * The lexical index holds analyzed terms (Snowball stems per script, stopwords dropped) written by
 * the engine, plus a trigram index of the raw text for identifiers and substrings. Both are
 * contentless: the text lives once, in chunks. The engine refills them from chunks at start when
 * the analyzer version recorded in settings differs (here: always, once).
 */
export const migration003: Migration = {
  version: 3,
  name: 'analyzed-fts',
  up(db) {
    db.exec(`
      DROP TRIGGER IF EXISTS chunks_after_delete;
      DROP TABLE IF EXISTS chunks_fts;
      CREATE VIRTUAL TABLE chunks_fts USING fts5(
        title, heading, body,
        tokenize = 'unicode61 remove_diacritics 2',
        content = '', contentless_delete = 1
      );
      CREATE VIRTUAL TABLE chunks_tri USING fts5(
        body,
        tokenize = 'trigram remove_diacritics 1',
        content = '', contentless_delete = 1
      );
      CREATE TRIGGER chunks_after_delete AFTER DELETE ON chunks BEGIN
        DELETE FROM chunks_fts WHERE rowid = old.id;
        DELETE FROM chunks_tri WHERE rowid = old.id;
      END;
      DELETE FROM settings WHERE key = 'lexical_analyzer';
    `);
  },
};
