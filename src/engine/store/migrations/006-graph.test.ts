import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { MIGRATIONS } from './index.ts';

describe('migration 006 (graph)', () => {
  it('replaces the placeholder graph tables, marks existing documents for extraction, and cascades from documents', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version < 6));
    db.prepare("INSERT INTO roots (id, path, added_at) VALUES (1, '/r', 'now')").run();
    db.prepare(
      "INSERT INTO documents (id, root_id, path, doc_id, type, mtime_ms, size, status, indexed_at) VALUES (1, 1, 'a.md', 'a.md', 'markdown', 0, 1, 'indexed', 'now')",
    ).run();
    migrate(db, MIGRATIONS.filter((m) => m.version <= 6));
    expect(schemaVersion(db)).toBe(6);
    // Existing documents have not been through graph extraction: the next index run redoes them.
    expect(db.prepare('SELECT graph_version, llm_graph FROM documents').get()).toEqual({ graph_version: 0, llm_graph: 0 });
    db.prepare("INSERT INTO entities (id, key, type, name) VALUES (1, 'maya chen', 'person', 'Maya Chen')").run();
    db.prepare("INSERT INTO relations (document_id, seq, src_id, dst_id, type, ordinal, start_line, end_line, origin) VALUES (1, 0, NULL, 1, 'mentions', 0, 2, 2, 'rule')").run();
    db.prepare('INSERT INTO mentions (document_id, entity_id, ordinal, line) VALUES (1, 1, 3, 40)').run();
    expect(() => db.prepare("INSERT INTO relations (document_id, seq, dst_id, type, start_line, end_line, origin) VALUES (1, 1, 1, 'x', 1, 1, 'guess')").run()).toThrow(/CHECK/);
    // Deleting a document's facts is a range of the clustered key, not a scan.
    const plan = db.prepare('EXPLAIN QUERY PLAN DELETE FROM relations WHERE document_id = 1').all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join()).toMatch(/PRIMARY KEY \(document_id=\?\)|USING PRIMARY KEY/);
    db.prepare('DELETE FROM documents WHERE id = 1').run();
    expect(db.prepare('SELECT COUNT(*) FROM relations').pluck().get()).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM mentions').pluck().get()).toBe(0);
    // The entity itself stays until the collector finds nothing refers to it.
    expect(db.prepare('SELECT COUNT(*) FROM entities').pluck().get()).toBe(1);
    db.close();
  });
});
