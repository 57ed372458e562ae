import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { MIGRATIONS } from './index.ts';

describe('migration 016 (lower-case writings of names)', () => {
  it('adds empty writings and counted words; a document’s writings go with it', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version <= 15));
    db.prepare("INSERT INTO roots (id, path, added_at) VALUES (1, '/notes', 'now')").run();
    db.prepare("INSERT INTO documents (id, root_id, path, doc_id, type, mtime_ms, size, status, indexed_at) VALUES (7, 1, 'a.md', 'a.md', 'markdown', 0, 0, 'indexed', 'now')").run();
    migrate(db, MIGRATIONS.filter((m) => m.version <= 16));
    expect(schemaVersion(db)).toBe(16);
    // Nothing is counted yet: questions count from the chunks until the next index run counts the names' words.
    expect(db.prepare('SELECT COUNT(*) FROM counted_words').pluck().get()).toBe(0);
    db.prepare("INSERT INTO lower_writings (word, document_id) VALUES ('falcon', 7)").run();
    expect(() => db.prepare("INSERT INTO lower_writings (word, document_id) VALUES ('falcon', 8)").run()).toThrowError(/FOREIGN KEY/);
    db.prepare('DELETE FROM documents WHERE id = 7').run();
    expect(db.prepare('SELECT COUNT(*) FROM lower_writings').pluck().get()).toBe(0);
    db.close();
  });
});
