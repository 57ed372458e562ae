import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database.ts';
import { TRIGRAM_AUTOMERGE } from './018-trigram-automerge.ts';
import { MIGRATIONS } from './index.ts';

/** A chunk of varied Russian-looking words: 20 of them fill a few pages of the trigram index. */
const text = (i: number) =>
  Array.from({ length: 60 }, (_, w) => `слово${'абвгдежзиклмнопрстуфхцчшщэюя'[(i * 7 + w) % 28]}${(i * 31 + w * 17) % 997}ный`).join(' ') + ` открывает файл CreateFileW${i}`;

/** Writes `batches` commits of 20 trigram rows each (as the indexer's batches do) and returns the table's segments. */
function writeBatches(db: BetterSqlite3.Database, batches: number): number {
  const insert = db.prepare('INSERT INTO chunks_tri (rowid, body) VALUES (?, ?)');
  for (let b = 0; b < batches; b++) {
    db.transaction(() => {
      for (let i = b * 20 + 1; i <= b * 20 + 20; i++) insert.run(i, text(i));
    })();
  }
  return (db.prepare('SELECT count(DISTINCT segid) AS n FROM chunks_tri_idx').get() as { n: number }).n;
}

const found = (db: BetterSqlite3.Database, match: string) => db.prepare('SELECT rowid, bm25(chunks_tri) AS rank FROM chunks_tri WHERE chunks_tri MATCH ? ORDER BY rank, rowid').all(match);

describe('migration 018 (the trigram index merges 8 segments at a time)', () => {
  it('stores the setting with the table, lets 7 segments stand unmerged, and finds the same rows with the same ranks', () => {
    const before = new BetterSqlite3(':memory:');
    migrate(before, MIGRATIONS.filter((m) => m.version <= 17));
    const after = new BetterSqlite3(':memory:');
    migrate(after, MIGRATIONS.filter((m) => m.version <= 17));
    after.prepare('INSERT INTO chunks_tri (rowid, body) VALUES (1000, ?)').run('written before the migration: CreateFileW1000');
    migrate(after, MIGRATIONS.filter((m) => m.version <= 18));
    expect(schemaVersion(after)).toBe(18);
    expect(after.prepare("SELECT v FROM chunks_tri_config WHERE k = 'automerge'").get()).toEqual({ v: TRIGRAM_AUTOMERGE });
    before.prepare('INSERT INTO chunks_tri (rowid, body) VALUES (1000, ?)').run('written before the migration: CreateFileW1000');

    // FTS5's default merges the first 4 or 5 segments into one; 8 leaves the 1 + 6 batches' segments as they are.
    expect(writeBatches(before, 6)).toBeLessThan(4);
    expect(writeBatches(after, 6)).toBe(7);
    for (const match of ['"CreateFileW1000"', '"CreateFileW1"', '"открывает файл" OR "слово3"', '"ный слово"', '"migration"']) {
      const rows = found(after, match);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows).toEqual(found(before, match));
    }
    before.close();
    after.close();
  });
});
