import type { Migration } from './types.ts';

/**
 * Each chunk records the language of its text (ISO 639-1, 'und' when unknown; issue 14), so
 * retrieval can tell which embedding model covers it and health can count chunks by language.
 * Rows written before stay NULL, read as unknown, until their document is indexed again. The
 * index lets the count by language read the index instead of every chunk's text.
 */
export const migration008: Migration = {
  version: 8,
  name: 'chunk-lang',
  up(db) {
    db.exec(`
      ALTER TABLE chunks ADD COLUMN lang TEXT;
      CREATE INDEX chunks_lang ON chunks (lang);
    `);
  },
};
