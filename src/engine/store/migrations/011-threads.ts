import type { Migration } from './types.ts';

/**
 * Conversations (issue 32): a thread of questions and their answers, kept per workspace.
 *
 * - `threads`: one row per conversation; `id` is `t_` and 16 hex digits, made by the store.
 * - `thread_turns`: each question in order, what it was searched as (a follow-up carries the
 *   thread's terms; null when the question was searched as asked), and the answer envelope as
 *   JSON (snippets and citations included). `sensitivity_json` lists the sensitivity labels of the
 *   notes the answer used (lower case, 'public' left out): a reader whose request does not allow
 *   one of them gets the turn without its answer (visibility.ts). `doc_ids_json` lists the
 *   documents the answer used, so a note marked restricted after the answer hides it too.
 *
 * Neither table is derived from the files: `synapsis repair` carries them into the new store.
 */
export const migration011: Migration = {
  version: 11,
  name: 'threads',
  up(db) {
    db.exec(`
      CREATE TABLE threads (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX threads_updated ON threads (updated_at);
      CREATE TABLE thread_turns (
        id INTEGER PRIMARY KEY,
        thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        question TEXT NOT NULL,
        searched_as TEXT,
        carried_json TEXT NOT NULL DEFAULT '[]',
        asked_at TEXT NOT NULL,
        envelope_json TEXT NOT NULL,
        sensitivity_json TEXT NOT NULL DEFAULT '[]',
        doc_ids_json TEXT NOT NULL DEFAULT '[]',
        UNIQUE (thread_id, ordinal)
      );
    `);
  },
};
