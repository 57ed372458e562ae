import type { Migration } from './types.ts';

/**
 * The word index keeps combining marks inside its tokens: unicode61 reads only letters and digits as
 * token characters by default, so the vowel signs of Hindi, Thai and other Indic and Southeast Asian
 * scripts cut their words into letters ("हिन्दी" was ह | न | द). The table is made again with the
 * marks among its token characters and refilled from chunks (the analyzer version changes with it).
 */
export const migration014: Migration = {
  version: 14,
  name: 'fts-marks',
  up(db) {
    db.exec(`
      DROP TRIGGER IF EXISTS chunks_after_delete;
      DROP TABLE IF EXISTS chunks_fts;
      CREATE VIRTUAL TABLE chunks_fts USING fts5(
        title, heading, body,
        tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'",
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
