import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { statements } from './statements.ts';

describe('statements (per-connection statement cache)', () => {
  const open: Database.Database[] = [];
  const db = () => {
    const d = new Database(':memory:');
    d.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, \'a\'), (2, \'b\')');
    open.push(d);
    return d;
  };
  afterEach(() => open.splice(0).forEach((d) => d.close()));

  it('compiles each SQL text once per connection', () => {
    const a = db();
    const b = db();
    const sql = 'SELECT v FROM t WHERE id = ?';
    expect(statements(a).prepare(sql)).toBe(statements(a).prepare(sql));
    expect(statements(a).prepare(sql)).not.toBe(statements(b).prepare(sql));
    expect(statements(a).prepare(sql).get(2)).toEqual({ v: 'b' });
  });

  it('hands a statement back with rows as objects after a caller plucked it', () => {
    const a = db();
    const sql = 'SELECT v FROM t ORDER BY id';
    expect(statements(a).prepare(sql).pluck().all()).toEqual(['a', 'b']);
    expect(statements(a).prepare(sql).all()).toEqual([{ v: 'a' }, { v: 'b' }]);
  });

  it('hands a statement back with rows as objects after a caller read it raw', () => {
    const a = db();
    const sql = 'SELECT v FROM t ORDER BY id';
    expect(statements(a).prepare(sql).raw(true).all()).toEqual([['a'], ['b']]);
    expect(statements(a).prepare(sql).all()).toEqual([{ v: 'a' }, { v: 'b' }]);
  });

  it('keeps at most 64 texts, dropping the oldest first', () => {
    const a = db();
    const first = statements(a).prepare('SELECT 0');
    for (let i = 1; i <= 64; i++) statements(a).prepare(`SELECT ${i}`);
    expect(statements(a).prepare('SELECT 64')).toBe(statements(a).prepare('SELECT 64'));
    expect(statements(a).prepare('SELECT 0')).not.toBe(first);
  });
});
