import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { MIGRATIONS } from './index.ts';

const plan = (db: BetterSqlite3.Database, sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((p) => p.detail).join();

describe('migration 017 (entity node keys)', () => {
  it('computes the node key of every stored entity from its name', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version <= 16));
    db.prepare(
      `INSERT INTO entities (id, key, type, name) VALUES
         (1, 'websocket', 'name', 'WebSocket'), (2, 'websockets', 'name', 'WebSockets'), (3, 'websockets', 'ref', 'WebSockets'),
         (4, 'москвой', 'name', 'Москвой'), (5, 'организатор', 'name', 'Организатор'), (6, 'meetings', 'tag', 'meetings'), (7, 'accepted', 'status', 'Accepted')`,
    ).run();
    migrate(db, MIGRATIONS.filter((m) => m.version <= 17));
    expect(schemaVersion(db)).toBe(17);
    expect(db.prepare('SELECT id, node_key FROM entities ORDER BY id').all()).toEqual([
      { id: 1, node_key: 'websocket' },
      { id: 2, node_key: 'websocket' },
      { id: 3, node_key: 'websocket' },
      { id: 4, node_key: 'москв' },
      { id: 5, node_key: 'организатор' },
      { id: 6, node_key: 'meetings' },
      { id: 7, node_key: 'accepted' },
    ]);
    expect(plan(db, "SELECT id FROM entities WHERE node_key = 'x'")).toMatch(/entities_node_key/);
    db.close();
  });
});
