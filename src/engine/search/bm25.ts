/**
 * FTS5's BM25 reproduced in JS for a handful of rows, and the statistics it needs read from FTS5's
 * own shadow tables. The lexical search uses it for exact top-k pruning (MaxScore): the most common
 * query terms stay out of the FTS5 MATCH (their long posting lists are the cost of OR-ed queries)
 * and are added back to the scores of the few candidate rows here.
 *
 * The formula is fts5_aux.c's fts5Bm25Function: k1 = 1.2, b = 0.75,
 * idf = max(1e-6, ln((N - n + 0.5) / (n + 0.5))), f = Σ weight(column) × occurrences in column,
 * D = tokens in the row over all columns, avgdl = tokens / rows over the whole table,
 * score = Σ idf × f × (k1 + 1) / (f + k1 × (1 - b + b × D / avgdl)); FTS5 returns -score.
 */
import type { Database } from 'better-sqlite3';
import { statements } from '../store/statements.ts';

export const K1 = 1.2;
export const B = 0.75;

/** Upper bound of one term's contribution to a row's score, whatever the row. */
export const maxContribution = (idf: number) => idf * (K1 + 1);

export function idf(rows: number, hits: number): number {
  const v = Math.log((rows - hits + 0.5) / (hits + 0.5));
  return v <= 0 ? 1e-6 : v;
}

export function termScore(idfValue: number, f: number, docLen: number, avgdl: number): number {
  if (f <= 0) return 0;
  return (idfValue * f * (K1 + 1)) / (f + K1 * (1 - B + (B * docLen) / avgdl));
}

/** SQLite's varint (as FTS5 writes it): big-endian, 7 bits a byte, the 9th byte holds 8 bits. */
export function readVarint(buf: Uint8Array, pos: number): [value: number, next: number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const byte = buf[pos + i];
    if (byte === undefined) return [v, pos + i];
    v = v * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [v, pos + i + 1];
  }
  const last = buf[pos + 8] ?? 0;
  return [v * 256 + last, pos + 9];
}

export function readVarints(buf: Uint8Array): number[] {
  const out: number[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [v, next] = readVarint(buf, pos);
    out.push(v);
    pos = next;
  }
  return out;
}

/** Rows and average row length (tokens over all columns) of an FTS5 table, from its averages record. */
export function tableStats(db: Database, table: string): { rows: number; avgdl: number } {
  const rec = statements(db).prepare(`SELECT block FROM ${table}_data WHERE id = 1`).get() as { block: Uint8Array } | undefined;
  if (!rec) return { rows: 0, avgdl: 1 };
  const [rows, ...sizes] = readVarints(rec.block);
  const tokens = sizes.reduce((a, b) => a + b, 0);
  return { rows: rows ?? 0, avgdl: rows ? tokens / rows : 1 };
}

/** Tokens in each row (all columns together), from the table's docsize shadow table. */
export function rowLengths(db: Database, table: string, rowids: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  if (rowids.length === 0) return out;
  const rows = statements(db)
    .prepare(`SELECT id, sz FROM ${table}_docsize WHERE id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(rowids)) as { id: number; sz: Uint8Array }[];
  for (const r of rows) out.set(r.id, readVarints(r.sz).reduce((a, b) => a + b, 0));
  return out;
}

/**
 * Documents (rows) holding each term, from an fts5vocab 'row' table over the FTS5 table. fts5vocab
 * counts them by walking each term's whole doclist (common terms: tens of thousands of rows), so the
 * counts are remembered until the store changes: a commit on another connection moves
 * PRAGMA data_version, one on this connection total_changes().
 */
export function documentFrequencies(db: Database, vocabTable: string, terms: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  if (terms.length === 0) return out;
  const cache = dfCache(db, vocabTable);
  const missing = [...new Set(terms.filter((t) => !cache.has(t)))];
  if (missing.length > 0) {
    const rows = statements(db)
      .prepare(`SELECT term, doc FROM ${vocabTable} WHERE term IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(missing)) as { term: string; doc: number }[];
    const found = new Map(rows.map((r) => [r.term, r.doc]));
    if (cache.size + missing.length > DF_CACHE_MAX) cache.clear();
    for (const t of missing) cache.set(t, found.get(t) ?? 0);
  }
  for (const t of terms) out.set(t, cache.get(t)!);
  return out;
}

const DF_CACHE_MAX = 50_000;
const dfCaches = new WeakMap<Database, { version: string; tables: Map<string, Map<string, number>> }>();

/** The remembered document frequencies of one vocab table, emptied whenever the store has changed since. */
function dfCache(db: Database, vocabTable: string): Map<string, number> {
  const v = statements(db).prepare('SELECT total_changes() AS t, (SELECT data_version FROM pragma_data_version) AS d').get() as { t: number; d: number };
  const version = `${v.t}:${v.d}`;
  let entry = dfCaches.get(db);
  if (!entry || entry.version !== version) {
    entry = { version, tables: new Map() };
    dfCaches.set(db, entry);
  }
  let cache = entry.tables.get(vocabTable);
  if (!cache) entry.tables.set(vocabTable, (cache = new Map()));
  return cache;
}

/** What FTS5's unicode61 tokenizer (remove_diacritics 2, which folds Latin letters only) makes of analyzed text. */
export function ftsTokens(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/([A-Za-z])\p{M}+/gu, '$1')
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{Co}]+/u)
    .filter(Boolean);
}
