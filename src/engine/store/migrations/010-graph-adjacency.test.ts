import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { MIGRATIONS } from './index.ts';

const plan = (db: BetterSqlite3.Database, sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((p) => p.detail).join();

describe('migration 010 (graph adjacency)', () => {
  it('indexes relations and mentions by entity, and fills in the names of existing entities and notes', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version <= 9));
    db.prepare("INSERT INTO roots (id, path, added_at) VALUES (1, '/r', 'now')").run();
    db.prepare(
      `INSERT INTO documents (id, root_id, path, doc_id, type, title, meta_json, mtime_ms, size, status, indexed_at)
       VALUES (1, 1, 'people/Maya Chen.md', 'people/Maya Chen.md', 'markdown', 'Maya Chén', '{"aliases":["M. Chen"]}', 0, 1, 'indexed', 'now')`,
    ).run();
    db.prepare("INSERT INTO entities (id, key, type, name) VALUES (1, 'people/maya chen', 'ref', 'people/Maya Chen'), (2, 'adr-011 review', 'project', 'ADR-011 Review')").run();
    migrate(db, MIGRATIONS.filter((m) => m.version <= 10));
    expect(schemaVersion(db)).toBe(10);
    expect(db.prepare('SELECT id, words, base_key FROM entities ORDER BY id').all()).toEqual([
      { id: 1, words: 'people maya chen', base_key: 'maya chen' },
      { id: 2, words: 'adr 011 review', base_key: null },
    ]);
    expect(db.prepare('SELECT key, words FROM note_names WHERE document_id = 1 ORDER BY key').all()).toEqual([
      { key: 'm. chen', words: 'm chen' },
      { key: 'maya chen', words: 'maya chen' },
      { key: 'people/maya chen', words: 'people maya chen' },
    ]);
    expect(plan(db, 'SELECT * FROM relations WHERE dst_id = 1')).toMatch(/relations_dst/);
    expect(plan(db, 'SELECT * FROM relations WHERE src_id = 1')).toMatch(/relations_src/);
    expect(plan(db, 'SELECT * FROM mentions WHERE entity_id = 1')).toMatch(/mentions_entity/);
    expect(plan(db, "SELECT document_id FROM note_names WHERE key = 'x'")).toMatch(/note_names_key/);
    expect(plan(db, "SELECT document_id FROM note_names WHERE words = 'x'")).toMatch(/note_names_words/);
    expect(plan(db, "SELECT id FROM entities WHERE words = 'x'")).toMatch(/entities_words/);
    expect(plan(db, "SELECT id FROM documents WHERE path = 'x'")).toMatch(/documents_path/);
    // A note's names go with it.
    db.prepare('DELETE FROM documents WHERE id = 1').run();
    expect(db.prepare('SELECT COUNT(*) FROM note_names').pluck().get()).toBe(0);
    db.close();
  });
});
