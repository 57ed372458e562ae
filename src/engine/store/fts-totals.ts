/**
 * The "averages" record of an FTS5 table (row id 1 of its %_data table): the row count and each
 * column's token total, as varints, which BM25 reads for idf and the mean length. Its docsize table
 * holds each live row's column sizes the same way.
 */
import type { Database } from 'better-sqlite3';

/** SQLite's varints as FTS5 writes them: 7 bits a byte, most significant first, the high bit set on all but the last. */
export function decodeVarints(buf: Uint8Array): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < buf.length) {
    let v = 0;
    let b: number;
    let n = 0;
    do {
      b = buf[i++]!;
      v = v * 128 + (b & 0x7f);
      n++;
    } while (b & 0x80 && i < buf.length && n < 9);
    out.push(v);
  }
  return out;
}

export function encodeVarints(values: readonly number[]): Buffer {
  const out: number[] = [];
  for (let v of values) {
    const bytes: number[] = [];
    do {
      bytes.unshift(v % 128);
      v = Math.floor(v / 128);
    } while (v > 0);
    for (let k = 0; k < bytes.length - 1; k++) bytes[k]! |= 0x80;
    out.push(...bytes);
  }
  return Buffer.from(out);
}

/** How far the recorded row count may be off before it is put right. */
const SETTLE_SHARE = 0.01;

/** The store's FTS5 tables (contentless-delete, both). */
export type FtsTable = 'chunks_fts' | 'chunks_tri';

/**
 * Writes the live rows' count and token totals into the table's averages record when it counts
 * others (see Store.settleLexicalTotals); whether it did. A shadow table: FTS5 lets it be written
 * only outside SQLite's defensive mode, which is off for that one statement.
 */
export function settleFtsTotals(db: Database, table: FtsTable, columns: number): boolean {
  const record = db.prepare(`SELECT block FROM ${table}_data WHERE id = 1`).pluck().get() as Uint8Array | undefined;
  if (!record) return false;
  const rows = db.prepare(`SELECT count(*) FROM ${table}_docsize`).pluck().get() as number;
  // A count alone is cheap; the token totals are summed (about 0.25 s per 100,000 chunks) only when
  // the recorded count is off by more than a hundredth, which moves no idf noticeably.
  if (Math.abs((decodeVarints(record)[0] ?? 0) - rows) <= rows * SETTLE_SHARE) return false;
  const tokens = new Array<number>(columns).fill(0);
  for (const sz of db.prepare(`SELECT sz FROM ${table}_docsize`).pluck().iterate() as IterableIterator<Uint8Array>) {
    const sizes = decodeVarints(sz);
    for (let c = 0; c < columns; c++) tokens[c]! += sizes[c] ?? 0;
  }
  db.unsafeMode(true);
  try {
    db.prepare(`UPDATE ${table}_data SET block = ? WHERE id = 1`).run(encodeVarints([rows, ...tokens]));
  } finally {
    db.unsafeMode(false);
  }
  return true;
}
