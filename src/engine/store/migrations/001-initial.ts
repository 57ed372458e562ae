import type { Migration } from './types.ts';

/** The first schema: roots, documents, chunks with their FTS5 index, embeddings, graph, traces, settings. */
export const migration001: Migration = {
  version: 1,
  name: 'initial',
  up(db) {
    db.exec(`
      CREATE TABLE roots (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        include_json TEXT NOT NULL DEFAULT '[]',
        exclude_json TEXT NOT NULL DEFAULT '[]',
        added_at TEXT NOT NULL
      );

      CREATE TABLE documents (
        id INTEGER PRIMARY KEY,
        root_id INTEGER NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        doc_id TEXT NOT NULL,
        type TEXT NOT NULL,
        language TEXT,
        title TEXT,
        content_hash TEXT,
        mtime_ms INTEGER NOT NULL,
        size INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('indexed', 'skipped', 'failed')),
        error_code TEXT,
        error TEXT,
        sensitivity TEXT,
        tags_json TEXT NOT NULL DEFAULT '{}',
        meta_json TEXT NOT NULL DEFAULT '{}',
        indexed_at TEXT NOT NULL,
        UNIQUE (root_id, path)
      );
      CREATE INDEX documents_status ON documents(status);
      CREATE INDEX documents_content_hash ON documents(content_hash);

      CREATE TABLE chunks (
        id INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        locator TEXT NOT NULL,
        section_id TEXT,
        heading TEXT,
        start_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        text TEXT NOT NULL,
        chunk_hash TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        tags_json TEXT NOT NULL DEFAULT '{}',
        token_count INTEGER NOT NULL,
        UNIQUE (document_id, ordinal)
      );
      CREATE INDEX chunks_chunk_hash ON chunks(chunk_hash);
      CREATE INDEX chunks_text_hash ON chunks(text_hash);

      -- Rows are written by the engine (rowid = chunks.id) so the indexed text can differ from the
      -- stored text (stemming, folding); deletes follow the chunks table through a trigger.
      CREATE VIRTUAL TABLE chunks_fts USING fts5(
        title, heading, body,
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER chunks_after_delete AFTER DELETE ON chunks BEGIN
        DELETE FROM chunks_fts WHERE rowid = old.id;
      END;

      -- Keyed by the chunk's normalised text hash so a moved or renamed file re-embeds nothing.
      CREATE TABLE embeddings (
        model_id TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        dim INTEGER NOT NULL,
        vector BLOB NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (model_id, text_hash)
      ) WITHOUT ROWID;

      CREATE TABLE entities (
        id INTEGER PRIMARY KEY,
        canonical TEXT NOT NULL,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        UNIQUE (canonical, type)
      );
      CREATE TABLE relations (
        id INTEGER PRIMARY KEY,
        src_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        dst_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        chunk_id INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
        weight REAL NOT NULL DEFAULT 1
      );
      CREATE INDEX relations_src ON relations(src_id);
      CREATE INDEX relations_dst ON relations(dst_id);
      CREATE INDEX relations_chunk ON relations(chunk_id);
      CREATE TABLE mentions (
        entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        chunk_id INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
        start_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        PRIMARY KEY (entity_id, chunk_id, start_line)
      ) WITHOUT ROWID;
      CREATE INDEX mentions_chunk ON mentions(chunk_id);

      CREATE TABLE traces (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        created_at TEXT NOT NULL,
        data_json TEXT NOT NULL
      );

      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL
      );
    `);
  },
};
