import { noteNameKeys, refBaseKey, wordsKey } from '../../graph/names.ts';
import type { Migration } from './types.ts';

/**
 * The graph read where it is stored (issue 29): a search or a graph question reads the adjacency of
 * the few entities it touches instead of loading every relation into memory.
 *
 * - `relations_dst`, `relations_src`: the relations that name an entity, by entity id.
 * - `mentions_entity`: the mentions of an entity (graph/neighbors mentioned_in, node existence).
 * - `documents_path`: a note node is its path (whichever root holds it).
 * - `entities.words`: the name reduced to its words (wordsKey), how a question names an entity;
 *   `entities.base_key`: for a link to a path, the folded file name it also resolves by.
 * - `note_names`: every name a note answers to (title, file name, path, aliases; graph/names.ts),
 *   folded (`key`, how a link resolves) and as words (`words`, how a question names it). Written
 *   with the document, gone with it.
 *
 * Existing rows are filled in here, with the same functions the store writes them with.
 */
export const migration010: Migration = {
  version: 10,
  name: 'graph-adjacency',
  up(db) {
    db.exec(`
      CREATE INDEX relations_dst ON relations (dst_id);
      CREATE INDEX relations_src ON relations (src_id) WHERE src_id IS NOT NULL;
      CREATE INDEX mentions_entity ON mentions (entity_id);
      CREATE INDEX documents_path ON documents (path);
      ALTER TABLE entities ADD COLUMN words TEXT NOT NULL DEFAULT '';
      ALTER TABLE entities ADD COLUMN base_key TEXT;
      CREATE INDEX entities_words ON entities (words);
      CREATE INDEX entities_base_key ON entities (base_key) WHERE base_key IS NOT NULL;
      CREATE TABLE note_names (
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        words TEXT NOT NULL,
        PRIMARY KEY (document_id, key)
      ) WITHOUT ROWID;
      CREATE INDEX note_names_key ON note_names (key);
      CREATE INDEX note_names_words ON note_names (words);
    `);
    const setEntity = db.prepare('UPDATE entities SET words = ?, base_key = ? WHERE id = ?');
    for (const e of db.prepare('SELECT id, key, type, name FROM entities').all() as { id: number; key: string; type: string; name: string }[]) {
      setEntity.run(wordsKey(e.key), refBaseKey(e.type, e.name), e.id);
    }
    const addName = db.prepare('INSERT INTO note_names (document_id, key, words) VALUES (?, ?, ?)');
    for (const d of db.prepare('SELECT id, path, title, meta_json FROM documents').all() as { id: number; path: string; title: string | null; meta_json: string }[]) {
      for (const n of noteNameKeys(d.path, d.title, d.meta_json)) addName.run(d.id, n.key, n.words);
    }
  },
};
