import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { MIGRATIONS } from './index.ts';

describe('migration 009 (chunk sentences)', () => {
  it('adds chunk_sentences (gone with its chunk, ids never reused) and chunks.sentences, NULL for existing rows', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version <= 8));
    db.prepare("INSERT INTO roots (id, path, added_at) VALUES (1, '/r', 'now')").run();
    db.prepare(
      "INSERT INTO documents (id, root_id, path, doc_id, type, mtime_ms, size, status, indexed_at) VALUES (1, 1, 'a.md', 'a.md', 'markdown', 0, 1, 'indexed', 'now')",
    ).run();
    const chunk = (ordinal: number) =>
      db
        .prepare(
          "INSERT INTO chunks (document_id, ordinal, locator, start_line, end_line, text, chunk_hash, text_hash, tags_json, token_count) VALUES (1, ?, 'a.md#L1-L1', 1, 1, 'x', 'h', 't', '{}', 1)",
        )
        .run(ordinal).lastInsertRowid;
    const first = chunk(0);
    migrate(db, MIGRATIONS.filter((m) => m.version <= 9));
    expect(schemaVersion(db)).toBe(9);
    expect(db.prepare('SELECT text, sentences FROM chunks').get()).toEqual({ text: 'x', sentences: null });
    const sentence = (chunkId: number | bigint) =>
      db.prepare("INSERT INTO chunk_sentences (chunk_id, ordinal, start, end, embed_hash) VALUES (?, 0, 0, 1, 'e')").run(chunkId).lastInsertRowid;
    const s1 = sentence(first);
    db.prepare('DELETE FROM chunks WHERE id = ?').run(first);
    expect(db.prepare('SELECT COUNT(*) FROM chunk_sentences').pluck().get()).toBe(0);
    const s2 = sentence(chunk(0));
    expect(Number(s2)).toBeGreaterThan(Number(s1));
    const plan = (db.prepare('EXPLAIN QUERY PLAN SELECT id FROM chunks WHERE sentences IS NULL ORDER BY id LIMIT 10').all() as { detail: string }[]).map((p) => p.detail).join();
    expect(plan).toMatch(/chunks_unsplit/);
    db.close();
  });
});
