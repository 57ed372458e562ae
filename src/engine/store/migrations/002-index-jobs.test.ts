import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { migration001 } from './001-initial.ts';
import { migration002 } from './002-index-jobs.ts';

describe('migration 002 (index jobs)', () => {
  it('upgrades a version-1 store in place, keeping its data', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, [migration001]);
    db.prepare("INSERT INTO roots (id, path, added_at) VALUES (1, '/r', 'now')").run();
    migrate(db, [migration001, migration002]);
    expect(schemaVersion(db)).toBe(2);
    db.prepare("INSERT INTO index_jobs (root_id, path, kind, enqueued_at) VALUES (1, 'a.md', 'upsert', 'now')").run();
    expect(() => db.prepare("INSERT INTO index_jobs (root_id, path, kind, enqueued_at) VALUES (1, 'a.md', 'delete', 'now')").run()).toThrow(/UNIQUE/);
    expect(() => db.prepare("INSERT INTO index_jobs (root_id, path, kind, enqueued_at) VALUES (1, 'b.md', 'explode', 'now')").run()).toThrow(/CHECK/);
    db.prepare('DELETE FROM roots WHERE id = 1').run();
    expect((db.prepare('SELECT COUNT(*) AS n FROM index_jobs').get() as { n: number }).n).toBe(0);
    db.close();
  });
});
