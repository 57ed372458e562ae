/**
 * FTS5's BM25 reproduced in JS for a handful of rows, and the statistics it needs read from FTS5's
 * own shadow tables (store/queries/fts.ts). The lexical search uses it for exact top-k pruning (MaxScore): the most common
 * query terms stay out of the FTS5 MATCH (their long posting lists are the cost of OR-ed queries)
 * and are added back to the scores of the few candidate rows here.
 *
 * The formula is fts5_aux.c's fts5Bm25Function: k1 = 1.2, b = 0.75,
 * idf = max(1e-6, ln((N - n + 0.5) / (n + 0.5))), f = Σ weight(column) × occurrences in column,
 * D = tokens in the row over all columns, avgdl = tokens / rows over the whole table,
 * score = Σ idf × f × (k1 + 1) / (f + k1 × (1 - b + b × D / avgdl)); FTS5 returns -score.
 */
// The shadow tables are read by the store layer, which owns the SQL; re-exported for the search code.
export { documentFrequencies, readVarint, readVarints, rowLengths, tableStats } from '../store/queries/fts.ts';
import { phraseStats, rowLengths, tableStats } from '../store/queries/fts.ts';
import type { ReadConnection } from '../store/connection.ts';

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

/**
 * A row's bm25 rank as FTS5 computes it, in its order of operations: each phrase's idf, its weighted
 * count in the row `f` (0: absent), the row's length and the mean; summed over the phrases in the
 * query's order and negated (lower is better).
 */
export function ftsRank(idfs: readonly number[], f: ArrayLike<number>, docLen: number, avgdl: number): number {
  let score = 0.0;
  for (let i = 0; i < idfs.length; i++) score += idfs[i]! * ((f[i]! * (K1 + 1.0)) / (f[i]! + K1 * (1 - B + (B * docLen) / avgdl)));
  return -1.0 * score;
}

/**
 * What FTS5's unicode61 tokenizer (remove_diacritics 2, which folds Latin letters only; marks are
 * token characters, migration 014) makes of analyzed text: "café" is "cafe", "район" and "हिन्दी" stay whole.
 */
export function ftsTokens(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/([A-Za-z])\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}\p{Co}]+/u)
    .filter(Boolean);
}

/**
 * The bm25 ranks (FTS5's sign: lower is better) `ids` would have in a table without the `hidden`
 * rows: the query's score is a sum over its phrases, so each phrase is ranked alone for these rows,
 * its occurrences in each row read back from FTS5's score through the formula (the table's own row
 * count, mean length and phrase hits), and scored again with the row count, mean length and phrase
 * hits of the rows the caller may see. A public note's score then does not move when a restricted
 * note with the same word is added (BM25 statistics must not tell what hidden notes hold).
 */
export function visibleRanks(db: ReadConnection, table: 'chunks_fts' | 'chunks_tri', phrases: readonly string[], ids: readonly number[], hidden: readonly number[]): Map<number, number> {
  // Each table named as a literal (test/security/sql-parameterised.test.ts checks the calls).
  const lengthsOf = (rowids: readonly number[]) => (table === 'chunks_fts' ? rowLengths(db, 'chunks_fts', rowids) : rowLengths(db, 'chunks_tri', rowids));
  const { rows, avgdl } = table === 'chunks_fts' ? tableStats(db, 'chunks_fts') : tableStats(db, 'chunks_tri');
  const hiddenLengths = lengthsOf(hidden);
  let hiddenTokens = 0;
  for (const n of hiddenLengths.values()) hiddenTokens += n;
  const visibleRows = Math.max(1, rows - hiddenLengths.size);
  const visibleAvgdl = Math.max(1e-9, (avgdl * rows - hiddenTokens) / visibleRows);
  const lengths = lengthsOf(ids);
  const out = new Map(ids.map((id) => [id, 0]));
  for (const phrase of phrases) {
    const { ranks, hits, hiddenHits } = phraseStats(db, table, phrase, ids, hidden);
    const idfAll = idf(Math.max(rows, 1), hits);
    const idfVisible = idf(visibleRows, hits - hiddenHits);
    for (const [id, rank] of ranks) {
      const docLen = lengths.get(id) ?? avgdl;
      const k = K1 * (1 - B + (B * docLen) / avgdl);
      // score / idf = f (k1 + 1) / (f + k): f back from the score, below the formula's bound.
      const x = Math.min(-rank / idfAll, (K1 + 1) * (1 - 1e-12));
      const f = (k * x) / (K1 + 1 - x);
      out.set(id, out.get(id)! - termScore(idfVisible, f, docLen, visibleAvgdl));
    }
  }
  return out;
}
