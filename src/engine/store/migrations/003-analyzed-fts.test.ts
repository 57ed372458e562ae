import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { migration001 } from './001-initial.ts';
import { migration002 } from './002-index-jobs.ts';
import { migration003 } from './003-analyzed-fts.ts';

describe('migration 003 (analyzed FTS and trigram index)', () => {
  it('replaces the lexical tables, keeps chunks, and asks for a rebuild', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, [migration001, migration002]);
    db.prepare("INSERT INTO roots (id, path, added_at) VALUES (1, '/r', 'now')").run();
    db.prepare("INSERT INTO settings (key, value_json) VALUES ('lexical_analyzer', '\"old\"')").run();
    const docCols = (db.prepare('PRAGMA table_info(documents)').all() as { name: string }[]).map((c) => c.name);
    const chunkCols = (db.prepare('PRAGMA table_info(chunks)').all() as { name: string }[]).map((c) => c.name);
    expect(docCols).toContain('path');
    expect(chunkCols).toContain('text');

    migrate(db, [migration001, migration002, migration003]);
    expect(schemaVersion(db)).toBe(3);
    expect(db.prepare("SELECT value_json FROM settings WHERE key = 'lexical_analyzer'").get()).toBeUndefined();

    // The new tables take analyzed terms (plain unicode61) and raw text (trigram), contentless.
    db.prepare('INSERT INTO chunks_fts (rowid, title, heading, body) VALUES (7, ?, ?, ?)').run('storag', 'decis', 'sqlit postgr');
    db.prepare('INSERT INTO chunks_tri (rowid, body) VALUES (7, ?)').run('retrySyncEngine port 7421');
    expect(db.prepare("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH 'sqlit'").all()).toEqual([{ rowid: 7 }]);
    expect(db.prepare("SELECT rowid FROM chunks_tri WHERE chunks_tri MATCH 'ncEng'").all()).toEqual([{ rowid: 7 }]);
    db.prepare('DELETE FROM chunks_fts WHERE rowid = 7').run();
    expect(db.prepare("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH 'sqlit'").all()).toEqual([]);
    db.close();
  });
});
