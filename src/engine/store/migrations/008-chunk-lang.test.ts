import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { MIGRATIONS } from './index.ts';

describe('migration 008 (chunk language)', () => {
  it('adds a nullable, indexed lang column to chunks, leaving existing rows NULL', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version <= 7));
    db.prepare("INSERT INTO roots (id, path, added_at) VALUES (1, '/r', 'now')").run();
    db.prepare(
      "INSERT INTO documents (id, root_id, path, doc_id, type, mtime_ms, size, status, indexed_at) VALUES (1, 1, 'a.md', 'a.md', 'markdown', 0, 1, 'indexed', 'now')",
    ).run();
    db.prepare(
      "INSERT INTO chunks (document_id, ordinal, locator, start_line, end_line, text, chunk_hash, text_hash, tags_json, token_count) VALUES (1, 0, 'a.md#L1-L1', 1, 1, 'x', 'h', 't', '{}', 1)",
    ).run();
    migrate(db, MIGRATIONS.filter((m) => m.version <= 8));
    expect(schemaVersion(db)).toBe(8);
    expect(db.prepare('SELECT text, lang FROM chunks').get()).toEqual({ text: 'x', lang: null });
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT lang, COUNT(*) FROM chunks GROUP BY lang').all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join()).toMatch(/COVERING INDEX chunks_lang/);
    db.close();
  });
});
