import type { Migration } from './types.ts';

/**
 * The knowledge graph, stored per document so it follows the files incrementally (docs/design.md §5):
 * a deleted or re-indexed document takes its relations and mentions with it (ON DELETE CASCADE),
 * and entities no document refers to any more are collected after each indexing run.
 *
 * - `entities`: a name and its type, shared by every document that names it. Names are not resolved
 *   to notes here; the graph loader does that, so a link written before its target note exists
 *   resolves as soon as the note is indexed.
 * - `relations`: an edge from the document itself (src_id NULL) or from an entity, to an entity,
 *   with the evidence: the chunk ordinal and the lines that state it (a PDF's locator fragment,
 *   `page=2&L3-L4`, where lines alone do not say it), and where it came from (`rule` or `llm`).
 * - `mentions`: the other chunks where an entity occurs (its first line in each); with the
 *   relations' own lines, where the notes name an entity (`graph/neighbors` mentioned_in).
 * Both are clustered by document (WITHOUT ROWID, document first): writing a note appends, deleting
 * one removes a range, and no other index is kept up to date on the indexing path. The graph
 * loader reads them whole; unreferenced entities are collected in one pass after indexing. Entity
 * ids carry no foreign key: three parent lookups per row doubled the cost of storing a note's
 * graph, and an entity is only ever deleted once nothing refers to it.
 * - `documents.graph_version`: the extraction rules a document was processed with; older ones are
 *   re-extracted by the next index run. `documents.llm_graph`: 1 once the model stage saw it.
 *
 * Migration 001's placeholder tables were never written; they are replaced.
 */
export const migration006: Migration = {
  version: 6,
  name: 'graph',
  up(db) {
    db.exec(`
      DROP TABLE IF EXISTS mentions;
      DROP TABLE IF EXISTS relations;
      DROP TABLE IF EXISTS entities;
      CREATE TABLE entities (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL,
        type TEXT NOT NULL,
        name TEXT NOT NULL,
        UNIQUE (key, type)
      );
      CREATE TABLE relations (
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        src_id INTEGER,
        dst_id INTEGER NOT NULL,
        type TEXT NOT NULL,
        ordinal INTEGER,
        start_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        -- Only where the locator is not L<start>-L<end> (PDF pages: page=2&L3-L4).
        fragment TEXT,
        origin TEXT NOT NULL CHECK (origin IN ('rule', 'llm')),
        PRIMARY KEY (document_id, seq)
      ) WITHOUT ROWID;
      CREATE TABLE mentions (
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        entity_id INTEGER NOT NULL,
        ordinal INTEGER NOT NULL,
        line INTEGER NOT NULL,
        origin TEXT NOT NULL DEFAULT 'rule',
        PRIMARY KEY (document_id, entity_id, ordinal)
      ) WITHOUT ROWID;
      ALTER TABLE documents ADD COLUMN graph_version INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE documents ADD COLUMN llm_graph INTEGER NOT NULL DEFAULT 0;
    `);
  },
};
