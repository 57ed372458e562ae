import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { MIGRATIONS } from './index.ts';

describe('migration 013 (public degrees)', () => {
  it('adds an uncounted public degree to the stored degrees, which go with their document', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version <= 12));
    db.prepare("INSERT INTO roots (id, path, added_at) VALUES (1, '/notes', 'now')").run();
    db.prepare("INSERT INTO documents (id, root_id, path, doc_id, type, mtime_ms, size, status, indexed_at) VALUES (7, 1, 'a.md', 'a.md', 'markdown', 0, 0, 'indexed', 'now')").run();
    db.prepare('INSERT INTO note_degrees (document_id, degree) VALUES (7, 3)').run();
    migrate(db, MIGRATIONS.filter((m) => m.version <= 13));
    expect(schemaVersion(db)).toBe(13);
    expect(db.prepare('SELECT degree, public_degree FROM note_degrees WHERE document_id = 7').get()).toEqual({ degree: 3, public_degree: null });
    db.prepare('UPDATE note_degrees SET public_degree = 2 WHERE document_id = 7').run();
    db.prepare('DELETE FROM documents WHERE id = 7').run();
    expect(db.prepare('SELECT COUNT(*) FROM note_degrees').pluck().get()).toBe(0);
    db.close();
  });
});
