import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { MIGRATIONS } from './index.ts';
import { migration005 } from './005-traces.ts';

describe('migration 005 (traces)', () => {
  it('adds a traces table beside existing data, queryable by time', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version < 5));
    db.prepare("INSERT INTO roots (id, path, added_at) VALUES (1, '/r', 'now')").run();
    migrate(db, MIGRATIONS.filter((m) => m.version <= 5));
    expect(schemaVersion(db)).toBe(migration005.version);
    expect(db.prepare('SELECT path FROM roots').pluck().get()).toBe('/r');
    db.prepare(
      "INSERT INTO traces (trace_id, started_at, finished_at, query, answer_mode, confidence, latencies_json, retrieved_json, reranked_json, limits_json) VALUES ('t1', '2026-01-01T00:00:00Z', '2026-01-01T00:00:01Z', 'q', 'extractive', 0.5, '{}', '[]', '[]', '[]')",
    ).run();
    expect(db.prepare('SELECT trace_id, tokens_in, verdict FROM traces').get()).toEqual({ trace_id: 't1', tokens_in: 0, verdict: null });
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT * FROM traces WHERE started_at > '2026'").all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join()).toMatch(/traces_started_at/);
    db.close();
  });
});
