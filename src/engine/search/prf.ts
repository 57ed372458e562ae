/**
 * Pseudo-relevance feedback on the lexical side, RM3-like: the best chunks of the first BM25 pass
 * are taken as relevant, and the index terms most typical of them (frequent there, rare in the
 * index) become an expansion query, searched as a list of its own and fused with a weight of its
 * own (FTS5 cannot weight terms inside one query).
 */
import type { ReadConnection } from '../store/connection.ts';
import type { RetrievedChunk } from '../../shared/contract.ts';
import { isStopword, tokenize } from './analyzer.ts';
import { termStats } from './lexical.ts';

/** Index terms shorter than this, or made of digits only, make poor expansions. */
const MIN_TERM = 3;

/**
 * The `count` best expansion terms: Σ over the feedback chunks of (term frequency / chunk length) ·
 * the chunk's weight (1 / rank), times the term's idf; query terms and terms found in one feedback
 * chunk only are left out. Returned as raw words (the analyzer stems them again to the same term).
 * `lang`: the analysis language the query was read in (its function words are no expansion).
 */
export function expansionTerms(db: ReadConnection, feedback: readonly RetrievedChunk[], queryTerms: readonly string[], count: number, lang?: string): string[] {
  const skip = new Set(queryTerms);
  const weight = new Map<string, number>();
  const docsWith = new Map<string, number>();
  const surface = new Map<string, string>();
  feedback.forEach((chunk, rank) => {
    const tokens = tokenize(`${chunk.title}\n${chunk.text}`, lang).filter((t) => t.term.length >= MIN_TERM && !/^\d+$/.test(t.term) && !isStopword(t.raw, lang) && !skip.has(t.term));
    if (tokens.length === 0) return;
    const tf = new Map<string, number>();
    for (const t of tokens) {
      tf.set(t.term, (tf.get(t.term) ?? 0) + 1);
      if (!surface.has(t.term)) surface.set(t.term, t.raw.toLowerCase());
    }
    for (const [term, n] of tf) {
      weight.set(term, (weight.get(term) ?? 0) + (n / tokens.length) / (rank + 1));
      docsWith.set(term, (docsWith.get(term) ?? 0) + 1);
    }
  });
  const candidates = [...weight.keys()].filter((t) => feedback.length < 2 || docsWith.get(t)! >= 2);
  if (candidates.length === 0) return [];
  const stats = termStats(db, candidates);
  return candidates
    .map((t) => ({ t, score: weight.get(t)! * (stats.get(t)?.idf ?? 0) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || (a.t < b.t ? -1 : 1))
    .slice(0, count)
    .map((x) => surface.get(x.t)!);
}
