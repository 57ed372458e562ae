import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { MIGRATIONS } from './index.ts';

describe('migration 020 (note links)', () => {
  it('adds an empty link table whose rows go with their source document, and leaves every note’s links uncounted', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version <= 19));
    db.prepare("INSERT INTO roots (id, path, added_at) VALUES (1, '/notes', 'now')").run();
    for (const [id, p] of [[7, 'a.md'], [8, 'b.md']] as const) {
      db.prepare("INSERT INTO documents (id, root_id, path, doc_id, type, mtime_ms, size, status, indexed_at) VALUES (?, 1, ?, ?, 'markdown', 0, 0, 'indexed', 'now')").run(id, p, p);
    }
    db.prepare('INSERT INTO note_degrees (document_id, degree, public_degree) VALUES (7, 1, 1)').run();
    migrate(db, MIGRATIONS.filter((m) => m.version <= 20));
    expect(schemaVersion(db)).toBe(20);
    expect(db.prepare('SELECT degree, public_degree, links FROM note_degrees WHERE document_id = 7').get()).toEqual({ degree: 1, public_degree: 1, links: null });
    expect(db.prepare('SELECT COUNT(*) FROM note_links').pluck().get()).toBe(0);
    db.prepare(`INSERT INTO note_links (source_id, audience, links) VALUES (7, 0, '["b.md",0.5]'), (8, 0, '["a.md",0.25]'), (8, 1, '[]')`).run();
    expect(() => db.prepare(`INSERT INTO note_links (source_id, audience, links) VALUES (7, 0, '[]')`).run()).toThrow(/UNIQUE/);
    db.prepare('DELETE FROM documents WHERE id = 7').run();
    expect(db.prepare('SELECT source_id, audience FROM note_links').all()).toEqual([{ source_id: 8, audience: 0 }, { source_id: 8, audience: 1 }]);
    db.close();
  });
});
