/**
 * Ranking metrics as trec_eval / pytrec_eval (and so BEIR) compute them: linear gain for nDCG,
 * relevance > 0 counts as relevant for recall and MRR, the ideal ranking built from the qrels.
 */

/** Graded relevance of each judged document for one query. */
export type Judgements = ReadonlyMap<string, number>;

export function ndcgAt(ranked: readonly string[], rel: Judgements, k: number): number {
  let dcg = 0;
  const seen = new Set<string>();
  for (let i = 0; i < Math.min(k, ranked.length); i++) {
    const id = ranked[i]!;
    if (seen.has(id)) continue;
    seen.add(id);
    const g = rel.get(id) ?? 0;
    if (g > 0) dcg += g / Math.log2(i + 2);
  }
  const ideal = [...rel.values()].filter((g) => g > 0).sort((a, b) => b - a);
  let idcg = 0;
  for (let i = 0; i < Math.min(k, ideal.length); i++) idcg += ideal[i]! / Math.log2(i + 2);
  return idcg === 0 ? 0 : dcg / idcg;
}

export function recallAt(ranked: readonly string[], rel: Judgements, k: number): number {
  const relevant = [...rel.entries()].filter(([, g]) => g > 0).map(([id]) => id);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

export function mrrAt(ranked: readonly string[], rel: Judgements, k: number): number {
  for (let i = 0; i < Math.min(k, ranked.length); i++) if ((rel.get(ranked[i]!) ?? 0) > 0) return 1 / (i + 1);
  return 0;
}

/** Nearest-rank percentile (p in 0..100) of a list of numbers; NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}
