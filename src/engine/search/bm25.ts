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
