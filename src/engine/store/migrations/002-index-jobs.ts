import type { Migration } from './types.ts';

/**
 * The persisted indexing queue: one row per file still to process. A file's job is deleted in the
 * same transaction that writes its document and chunks, so a crash at any moment leaves either the
 * old state plus the job, or the new state without it; the next run resumes from the jobs left.
 */
export const migration002: Migration = {
  version: 2,
  name: 'index-jobs',
  up(db) {
    db.exec(`
      CREATE TABLE index_jobs (
        id INTEGER PRIMARY KEY,
        root_id INTEGER NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('upsert', 'delete')),
        stage TEXT NOT NULL DEFAULT 'lexical',
        attempts INTEGER NOT NULL DEFAULT 0,
        enqueued_at TEXT NOT NULL,
        UNIQUE (root_id, path)
      );
    `);
  },
};
