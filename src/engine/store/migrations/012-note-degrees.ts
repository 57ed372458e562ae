import type { Migration } from './types.ts';

/**
 * How many neighbours each note has in the knowledge graph, kept with the index (issue 29): the
 * graph list normalises a link by both ends' link counts, and reading a linked note's whole
 * adjacency to count them cost more than the rest of a graph query on a 50,000-note vault.
 *
 * - `note_degrees`: a document's note node and its degree in the graph of every indexed document
 *   (graph/degrees.ts), written after each index run for the notes the run changed, their
 *   neighbours before and after, and every indexed document without a row; gone with the document.
 *
 * Created empty: the next index run fills it, and until then the graph reads the counts as before.
 */
export const migration012: Migration = {
  version: 12,
  name: 'note-degrees',
  up(db) {
    db.exec(`
      CREATE TABLE note_degrees (
        document_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
        degree INTEGER NOT NULL
      );
    `);
  },
};
