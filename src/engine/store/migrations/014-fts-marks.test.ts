import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { MIGRATIONS } from './index.ts';

describe('migration 014 (combining marks in the word index)', () => {
  it('makes the word index again with marks inside tokens, keeps chunks and the delete trigger, and asks for a rebuild', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version < 14));
    db.prepare("INSERT INTO settings (key, value_json) VALUES ('lexical_analyzer', '\"old\"')").run();
    db.prepare('INSERT INTO chunks_fts (rowid, title, heading, body) VALUES (7, ?, ?, ?)').run('', '', 'हिन्दी भाषा');
    // Before: the vowel signs cut the word into letters.
    expect(db.prepare("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH '\"हिन्दी\"' AND rowid = 7").all()).toEqual([{ rowid: 7 }]);
    db.exec('CREATE VIRTUAL TABLE temp.v13 USING fts5vocab(main, chunks_fts, row)');
    expect((db.prepare('SELECT term FROM temp.v13').all() as { term: string }[]).map((r) => r.term)).toContain('ह');
    db.exec('DROP TABLE temp.v13');

    migrate(db, MIGRATIONS.filter((m) => m.version <= 14));
    expect(schemaVersion(db)).toBe(14);
    expect(db.prepare("SELECT value_json FROM settings WHERE key = 'lexical_analyzer'").get()).toBeUndefined();
    db.prepare('INSERT INTO chunks_fts (rowid, title, heading, body) VALUES (8, ?, ?, ?)').run('', '', 'हिन्दी भाषा café');
    db.exec('CREATE VIRTUAL TABLE temp.v14 USING fts5vocab(main, chunks_fts, row)');
    expect((db.prepare('SELECT term FROM temp.v14').all() as { term: string }[]).map((r) => r.term).sort()).toEqual(['cafe', 'भाषा', 'हिन्दी'].sort());
    expect(db.prepare("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH '\"हिन्दी\"'").all()).toEqual([{ rowid: 8 }]);
    // Deleting a chunk still deletes its index rows.
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'chunks_after_delete'").get()).toEqual({ sql: expect.stringContaining('DELETE FROM chunks_fts WHERE rowid = old.id') });
    db.close();
  });
});
