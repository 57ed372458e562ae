import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { migration001 } from './001-initial.ts';
import { migration002 } from './002-index-jobs.ts';
import { migration003 } from './003-analyzed-fts.ts';
import { migration004 } from './004-embed-hash.ts';

describe('migration 004 (embed hash)', () => {
  it('adds an indexed embed_hash column to existing chunks, left NULL for the engine to fill', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, [migration001, migration002, migration003]);
    db.prepare("INSERT INTO roots (id, path, added_at) VALUES (1, '/r', 'now')").run();
    db.prepare(
      "INSERT INTO documents (id, root_id, path, doc_id, type, mtime_ms, size, status, indexed_at) VALUES (1, 1, 'a.md', 'a.md', 'markdown', 0, 1, 'indexed', 'now')",
    ).run();
    db.prepare(
      "INSERT INTO chunks (document_id, ordinal, locator, start_line, end_line, text, chunk_hash, text_hash, tags_json, token_count) VALUES (1, 0, 'a.md#L1-L1', 1, 1, 'x', 'h', 't', '{}', 1)",
    ).run();
    migrate(db, [migration001, migration002, migration003, migration004]);
    expect(schemaVersion(db)).toBe(4);
    expect(db.prepare('SELECT text, embed_hash FROM chunks').get()).toEqual({ text: 'x', embed_hash: null });
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT id FROM chunks WHERE embed_hash = 'e'").all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join()).toMatch(/chunks_embed_hash/);
    db.close();
  });
});
