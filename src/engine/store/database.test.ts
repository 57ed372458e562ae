import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MMAP_SIZE, migrate, openDatabase, schemaVersion, setMemoryMap } from './database.ts';
import { MIGRATIONS } from './migrations/index.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-db-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('openDatabase', () => {
  it('opens in WAL mode with foreign keys on and reads memory-mapped, at the latest schema', () => {
    const db = openDatabase(path.join(tmp(), 'sub', 'synapsis.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    // SQLite's own cap (0x7fff0000) is what a 2 GB request gets.
    expect(db.pragma('mmap_size', { simple: true })).toBeGreaterThan(2 ** 30);
    expect(schemaVersion(db)).toBe(Math.max(...MIGRATIONS.map((m) => m.version)));
    db.close();
  });

  it('maps as much of the store as asked, for the writer and a reader, clamped to what SQLite maps', () => {
    const file = path.join(tmp(), 'synapsis.db');
    const writer = openDatabase(file, MIGRATIONS, { mmapBytes: 256 * 1024 * 1024 });
    expect(writer.pragma('mmap_size', { simple: true })).toBe(256 * 1024 * 1024);
    const reader = openDatabase(file, MIGRATIONS, { reader: true, mmapBytes: 0 });
    expect(reader.pragma('mmap_size', { simple: true })).toBe(0);
    setMemoryMap(reader, 1e12);
    expect(reader.pragma('mmap_size', { simple: true })).toBe(MMAP_SIZE);
    setMemoryMap(reader, -5);
    expect(reader.pragma('mmap_size', { simple: true })).toBe(0);
    reader.close();
    writer.close();
  });

  it('applies migrations once: a second run changes nothing', () => {
    const file = path.join(tmp(), 'synapsis.db');
    openDatabase(file).close();
    const db = openDatabase(file);
    const rows = db.prepare('SELECT COUNT(*) AS n FROM migrations').get() as { n: number };
    expect(rows.n).toBe(MIGRATIONS.length);
    db.close();
  });

  it('applies only pending migrations, in order, each in a transaction', () => {
    const db = new BetterSqlite3(':memory:');
    const applied: number[] = [];
    const m = (version: number, fail = false) => ({
      version,
      name: `m${version}`,
      up: (d: BetterSqlite3.Database) => {
        d.exec(`CREATE TABLE t${version} (x)`);
        if (fail) throw new Error('broken migration');
        applied.push(version);
      },
    });
    migrate(db, [m(2), m(1)]);
    expect(applied).toEqual([1, 2]);
    expect(() => migrate(db, [m(1), m(2), m(3, true)])).toThrow(/broken migration/);
    expect(schemaVersion(db)).toBe(2);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 't3'").get()).toBeUndefined();
    db.close();
  });

  it('refuses a store written by a newer version', () => {
    const file = path.join(tmp(), 'synapsis.db');
    const db = openDatabase(file);
    db.prepare("INSERT INTO migrations (version, name, applied_at) VALUES (999, 'future', 'now')").run();
    db.close();
    expect(() => openDatabase(file)).toThrowError(/newer than this Synapsis/);
  });

  it('names the file when it is not a database', () => {
    const file = path.join(tmp(), 'synapsis.db');
    fs.writeFileSync(file, 'this is not sqlite at all, just text '.repeat(200));
    expect(() => openDatabase(file)).toThrowError(expect.objectContaining({ code: 'E_SYN_STORE_FAILED', message: expect.stringContaining(file) }));
  });
});
