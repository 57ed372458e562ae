/**
 * Rank fusion for hybrid retrieval (docs/design.md §6, RRF k = 60; spec 003 §5.3-5.4, score = 0.7·dense
 * + 0.3·sparse). Pure functions over lists: no store, no index, so they are tested on their own.
 */

export type ItemId = string | number;

export interface ScoredItem<Id extends ItemId = ItemId> {
  id: Id;
  score: number;
}

/** One retriever's answer: items best first. The array order is the ranking. */
export interface RankedList<Id extends ItemId = ItemId> {
  name: string;
  /** How much the list counts in fusion (default 1): a fitted profile's per-list weight. */
  weight?: number;
  items: readonly ScoredItem<Id>[];
}

export interface ReciprocalRankItem<Id extends ItemId = ItemId> {
  id: Id;
  /** Sum over the lists that hold the item of weight / (k + rank). */
  score: number;
  /** 1-based rank of the item in each list that holds it, by list name (for explain). */
  ranks: Record<string, number>;
  /** The score each list gave the item, by list name (for explain). */
  scores: Record<string, number>;
}

export interface WeightedItem<Id extends ItemId = ItemId> {
  id: Id;
  /** weights.dense · dense + weights.sparse · sparse, a missing side counting 0. */
  score: number;
  /** Min-max normalised dense score in [0, 1]; null when the dense list does not hold the item. */
  dense: number | null;
  /** Min-max normalised sparse score in [0, 1]; null when the sparse list does not hold the item. */
  sparse: number | null;
}

export interface FusionWeights {
  dense: number;
  sparse: number;
}

export const DEFAULT_RRF_K = 60;
export const DEFAULT_FUSION_WEIGHTS: Readonly<FusionWeights> = Object.freeze({ dense: 0.7, sparse: 0.3 });

/**
 * Total order on ids so equal scores always come out the same way, whatever order the retrievers
 * answered in: numbers before strings, numbers numerically, strings by code unit.
 */
export function compareIds(a: ItemId, b: ItemId): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Reciprocal rank fusion (Cormack et al. 2009). Ranks, not scores, are fused, because BM25 and
 * cosine scores live on unrelated scales. An id repeated within one list counts at its best rank.
 */
export function fuseReciprocalRank<Id extends ItemId>(
  lists: readonly RankedList<Id>[],
  k: number = DEFAULT_RRF_K,
): ReciprocalRankItem<Id>[] {
  if (!Number.isFinite(k) || k < 0) throw new RangeError(`RRF k must be a finite number >= 0, got ${k}`);
  const names = new Set<string>();
  for (const list of lists) {
    // Explain output is keyed by list name, so two lists with one name would overwrite each other.
    if (names.has(list.name)) throw new RangeError(`duplicate list name "${list.name}"`);
    names.add(list.name);
    checkWeight(list);
  }

  const fused = new Map<Id, ReciprocalRankItem<Id>>();
  for (const list of lists) {
    const weight = list.weight ?? 1;
    list.items.forEach((item, index) => {
      let entry = fused.get(item.id);
      if (!entry) {
        entry = { id: item.id, score: 0, ranks: {}, scores: {} };
        fused.set(item.id, entry);
      }
      if (list.name in entry.ranks) return;
      const rank = index + 1;
      entry.ranks[list.name] = rank;
      entry.scores[list.name] = item.score;
      entry.score += weight / (k + rank);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || compareIds(a.id, b.id));
}

function checkWeight(list: RankedList): void {
  if (list.weight !== undefined && (!Number.isFinite(list.weight) || list.weight < 0)) throw new RangeError(`weight of list "${list.name}" must be a finite number >= 0, got ${list.weight}`);
}

/** Each id's best score; a score that is not a finite number is an error naming the id. */
function bestPerId<Id extends ItemId>(items: readonly ScoredItem<Id>[]): Map<Id, number> {
  const best = new Map<Id, number>();
  for (const { id, score } of items) {
    if (!Number.isFinite(score)) throw new RangeError(`score of ${String(id)} is not a finite number: ${score}`);
    const seen = best.get(id);
    if (seen === undefined || score > seen) best.set(id, score);
  }
  return best;
}

/**
 * Min-max normalisation to [0, 1], keeping the best score per id. A list whose scores are all
 * equal maps to 1: every item in it was found, and nothing distinguishes them, so none should lose
 * to an item the list did not find at all (which counts 0).
 */
export function normalizeMinMax<Id extends ItemId>(items: readonly ScoredItem<Id>[]): Map<Id, number> {
  const best = bestPerId(items);
  let min = Infinity;
  let max = -Infinity;
  for (const s of best.values()) {
    if (s < min) min = s;
    if (s > max) max = s;
  }
  const range = max - min;
  const out = new Map<Id, number>();
  for (const [id, s] of best) out.set(id, range > 0 ? (s - min) / range : 1);
  return out;
}

/**
 * Weighted score fusion (spec 003 §5.3): each list min-max normalised on its own, then
 * weights.dense · dense + weights.sparse · sparse. Unlike RRF it keeps how far apart the scores are,
 * which is what the specification's hybrid score asks for.
 */
export function fuseWeighted<Id extends ItemId>(
  dense: readonly ScoredItem<Id>[],
  sparse: readonly ScoredItem<Id>[],
  weights: FusionWeights = DEFAULT_FUSION_WEIGHTS,
): WeightedItem<Id>[] {
  for (const [side, w] of Object.entries(weights)) {
    if (!Number.isFinite(w) || w < 0) throw new RangeError(`weight ${side} must be a finite number >= 0, got ${w}`);
  }
  // The two-list case of fuseWeightedLists, with each side's normalised score kept for explain.
  const d = normalizeMinMax(dense);
  const s = normalizeMinMax(sparse);
  return fuseWeightedLists([
    { name: 'dense', weight: weights.dense, items: dense },
    { name: 'sparse', weight: weights.sparse, items: sparse },
  ]).map(({ id, score }) => ({ id, score, dense: d.get(id) ?? null, sparse: s.get(id) ?? null }));
}

/**
 * Z-score normalisation: (score − mean) / standard deviation over the list, keeping the best score
 * per id. Unlike min-max it is not set by the two extremes: one outlier at the top of a list does
 * not squash every other score of it towards 0. A list of equal scores maps to 0.
 */
export function normalizeZScore<Id extends ItemId>(items: readonly ScoredItem<Id>[]): Map<Id, number> {
  const best = bestPerId(items);
  let sum = 0;
  for (const s of best.values()) sum += s;
  const mean = best.size > 0 ? sum / best.size : 0;
  let sq = 0;
  for (const s of best.values()) sq += (s - mean) ** 2;
  const sd = best.size > 0 ? Math.sqrt(sq / best.size) : 0;
  const out = new Map<Id, number>();
  for (const [id, s] of best) out.set(id, sd > 0 ? (s - mean) / sd : 0);
  return out;
}

/**
 * Z-scores need a distribution: a list of fewer than this many candidates (a rare word found in
 * three notes, a vault of five) has none, and its z-scores would give a lone exact match one
 * deviation of credit while a dense list of a few near-random neighbours spreads over three.
 */
export const ZSCORE_MIN_ITEMS = 10;

/**
 * The normalisation a fusion uses: z-score only when every list has at least ZSCORE_MIN_ITEMS
 * distinct candidates, min-max otherwise (so an exact term found in one note keeps a whole list's
 * weight of credit, as with min-max).
 */
export function effectiveNormalization<Id extends ItemId>(lists: readonly RankedList<Id>[], normalize: 'minmax' | 'zscore', minItems = ZSCORE_MIN_ITEMS): 'minmax' | 'zscore' {
  if (normalize === 'minmax') return normalize;
  return lists.every((l) => new Set(l.items.map((i) => i.id)).size >= minItems) ? 'zscore' : 'minmax';
}

/**
 * Weighted score fusion over any number of lists: each normalised on its own (min-max or z-score),
 * then Σ weight · normalised score. An item a list does not hold counts 0 there for min-max (the
 * floor of that scale), and the list's lowest z-score for z-scores: not found ranks with the least of
 * what was found.
 */
export function fuseWeightedLists<Id extends ItemId>(lists: readonly RankedList<Id>[], asked: 'minmax' | 'zscore' = 'minmax', zscoreMinItems = ZSCORE_MIN_ITEMS): ScoredItem<Id>[] {
  const normalize = effectiveNormalization(lists, asked, zscoreMinItems);
  const norms = lists.map((list) => {
    checkWeight(list);
    const values = normalize === 'zscore' ? normalizeZScore(list.items) : normalizeMinMax(list.items);
    // Min-max: not found counts 0 (a list of equal scores maps to 1, so its hits still count more).
    // Z-score: the list's lowest value, or one deviation below its hits when they are all equal.
    let floor = 0;
    if (normalize === 'zscore') {
      let min = Infinity;
      let max = -Infinity;
      for (const v of values.values()) {
        if (v < min) min = v;
        if (v > max) max = v;
      }
      floor = !Number.isFinite(min) ? 0 : max > min ? min : min - 1;
    }
    return { weight: list.weight ?? 1, values, floor };
  });
  const ids = new Set<Id>();
  for (const list of lists) for (const { id } of list.items) ids.add(id);
  const out: ScoredItem<Id>[] = [];
  for (const id of ids) {
    let score = 0;
    for (const n of norms) score += n.weight * (n.values.get(id) ?? n.floor);
    out.push({ id, score });
  }
  return out.sort((a, b) => b.score - a.score || compareIds(a.id, b.id));
}
