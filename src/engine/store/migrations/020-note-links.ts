import type { Migration } from './types.ts';

/**
 * The links the graph list reads of each note, kept with the index beside its degree (migrations 012
 * and 013): a question's seed notes name hundreds of things on a real vault, and walking their
 * relations, entities and the notes those join cost the graph list most of its time.
 *
 * - `note_links`: per source note (a document; gone with it) and audience (0: the graph of every
 *   indexed document, 1: the public graph, where it differs), its linked notes and their summed
 *   weights (graph/note-links.ts linksOf) as one JSON array [document id, weight, ...]: a question
 *   reads a few notes' links whole, one row each (a rowid table: a row is kilobytes). Written by graph/degrees.ts with the degrees; a note
 *   without links, or past MAX_SOURCE_DEGREE, has no row.
 * - `note_degrees.links`: NULL until the note's links are counted; 0 where its public links are its
 *   links in the whole graph (kept once), 1 where they are kept apart. NULL for every note here, so
 *   the next index run counts every note once.
 */
export const migration020: Migration = {
  version: 20,
  name: 'note-links',
  up(db) {
    db.exec(`
      CREATE TABLE note_links (
        source_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        audience INTEGER NOT NULL,
        links TEXT NOT NULL,
        PRIMARY KEY (source_id, audience)
      );
      ALTER TABLE note_degrees ADD COLUMN links INTEGER;
    `);
  },
};
