import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { MIGRATIONS } from './index.ts';

describe('migration 015 (the passages a saved answer quoted)', () => {
  it('adds passages_json to the turns, empty for those saved before', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version < 15));
    db.prepare("INSERT INTO threads (id, title, created_at, updated_at) VALUES ('t_1', 'q', 'now', 'now')").run();
    db.prepare("INSERT INTO thread_turns (thread_id, ordinal, question, asked_at, envelope_json) VALUES ('t_1', 1, 'q', 'now', '{}')").run();
    migrate(db, MIGRATIONS.filter((m) => m.version <= 15));
    expect(schemaVersion(db)).toBe(15);
    expect(db.prepare('SELECT passages_json FROM thread_turns').pluck().all()).toEqual(['[]']);
    db.close();
  });
});
