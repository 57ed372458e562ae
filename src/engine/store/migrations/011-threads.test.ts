import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { MIGRATIONS } from './index.ts';

describe('migration 011 (threads)', () => {
  it('adds threads and their turns to an existing store; a thread’s turns go with it, and a turn’s place in it is unique', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version <= 10));
    db.prepare("INSERT INTO settings (key, value_json) VALUES ('kept', '1')").run();
    migrate(db, MIGRATIONS.filter((m) => m.version <= 11));
    expect(schemaVersion(db)).toBe(11);
    expect(db.prepare("SELECT value_json FROM settings WHERE key = 'kept'").pluck().get()).toBe('1');

    db.prepare("INSERT INTO threads (id, title, created_at, updated_at) VALUES ('t_0123456789abcdef', 'ADR-011', 'a', 'a')").run();
    const turn = db.prepare("INSERT INTO thread_turns (thread_id, ordinal, question, asked_at, envelope_json) VALUES ('t_0123456789abcdef', ?, 'who?', 'a', '{}')");
    turn.run(1);
    expect(() => turn.run(1)).toThrow(/UNIQUE/);
    expect(db.prepare('SELECT searched_as, carried_json, sensitivity_json, doc_ids_json FROM thread_turns').get()).toEqual({
      searched_as: null,
      carried_json: '[]',
      sensitivity_json: '[]',
      doc_ids_json: '[]',
    });
    expect(() => db.prepare("INSERT INTO thread_turns (thread_id, ordinal, question, asked_at, envelope_json) VALUES ('t_ffffffffffffffff', 1, 'q', 'a', '{}')").run()).toThrow(/FOREIGN KEY/);
    db.prepare("DELETE FROM threads WHERE id = 't_0123456789abcdef'").run();
    expect(db.prepare('SELECT COUNT(*) FROM thread_turns').pluck().get()).toBe(0);
    db.close();
  });
});
