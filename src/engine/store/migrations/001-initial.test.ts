import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../database.ts';
import { migration001 } from './001-initial.ts';

function tables(db: BetterSqlite3.Database): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table') ORDER BY name").all() as { name: string }[]).map((r) => r.name);
}

describe('migration 001 (initial)', () => {
  it('creates every table the design names', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, [migration001]);
    const names = tables(db);
    for (const t of ['roots', 'documents', 'chunks', 'chunks_fts', 'embeddings', 'entities', 'relations', 'mentions', 'traces', 'settings', 'migrations']) {
      expect(names).toContain(t);
    }
    db.close();
  });

  it('removes a chunk from the FTS index when its document is deleted (cascade + trigger)', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, [migration001]);
    db.prepare("INSERT INTO roots (id, path, added_at) VALUES (1, '/r', 'now')").run();
    db.prepare(
      `INSERT INTO documents (id, root_id, path, doc_id, type, mtime_ms, size, status, indexed_at)
       VALUES (1, 1, 'a.md', 'a.md', 'markdown', 0, 0, 'indexed', 'now')`,
    ).run();
    db.prepare(
      `INSERT INTO chunks (id, document_id, ordinal, locator, start_line, end_line, text, chunk_hash, text_hash, token_count)
       VALUES (7, 1, 0, 'a.md#L1-L1', 1, 1, 'zebra', 'h', 't', 1)`,
    ).run();
    db.prepare("INSERT INTO chunks_fts (rowid, title, heading, body) VALUES (7, 'A', '', 'zebra')").run();
    const count = () => (db.prepare("SELECT COUNT(*) AS n FROM chunks_fts WHERE chunks_fts MATCH 'zebra'").get() as { n: number }).n;
    expect(count()).toBe(1);
    db.prepare('DELETE FROM documents WHERE id = 1').run();
    expect(count()).toBe(0);
    db.close();
  });

  it('indexes with porter stemming and folds diacritics', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, [migration001]);
    db.prepare("INSERT INTO chunks_fts (rowid, title, heading, body) VALUES (1, '', '', 'Indexing the café notes')").run();
    const hit = (q: string) => (db.prepare('SELECT COUNT(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?').get(q) as { n: number }).n;
    expect(hit('indexed')).toBe(1);
    expect(hit('cafe')).toBe(1);
    db.close();
  });
});
