import type { Migration } from './types.ts';

/**
 * How many notes write a name's word in lower case, kept with the index (issue 48). A capitalised
 * word that a few notes use as a name and more notes write in lower case is a common word of the
 * vault, not a node of the graph (graph/names.ts isCommonWord). Counting those notes when a
 * question met the name meant reading every chunk the word's index term matched: seconds on a
 * 50,000-file vault for a question naming a few common words.
 *
 * - `lower_writings`: a document that writes `word` (a single-word name in lower case) exactly so,
 *   as a word of prose; written with the document's chunks, gone with them and with the document.
 *   A question counts the rows of the documents its caller may see, at most a handful.
 * - `counted_words`: the words whose rows are complete, every indexed document counted (after an
 *   index run, graph/names.ts nameWords). A word not there is counted from the chunks as before.
 *
 * Created empty: the next index run counts the words of the names already stored.
 *
 * Restricted notes: a count is always of the documents the caller may see (the rows are joined to
 * them), as the count from the chunks was. `counted_words` says only which words are complete, not
 * who writes them, and a word counted or not gives the same count: it changes how fast, not what.
 */
export const migration016: Migration = {
  version: 16,
  name: 'lower-writings',
  up(db) {
    db.exec(`
      CREATE TABLE lower_writings (
        word TEXT NOT NULL,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        PRIMARY KEY (word, document_id)
      ) WITHOUT ROWID;
      CREATE INDEX lower_writings_document ON lower_writings (document_id);
      CREATE TABLE counted_words (word TEXT PRIMARY KEY) WITHOUT ROWID;
    `);
  },
};
