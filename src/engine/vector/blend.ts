/**
 * Chunk and sentence hits of one model made into one list of chunks: each chunk once, scored by its
 * own vector and its best sentence's (see ingest/sentences.ts). Pure functions over hit lists.
 */
import type { VectorHit } from './types.ts';

/** What the sentence index found: each chunk once with its best sentence's score, and the last sentence's score. */
export interface SentenceHits {
  hits: VectorHit[];
  floor: number | null;
}

/**
 * Each chunk once, scored share × its chunk vector's cosine + (1 − share) × its best sentence's; the k
 * best. A chunk one search did not find gets what that search rules out being exceeded: the last
 * chunk hit's score for its own vector, the last sentence's for its best sentence (the lists are
 * the k nearest of each index). A chunk that has no sentence vectors (`split` leaves it out:
 * code, a single sentence, not split yet) scores by its own vector alone. No sentence found: the
 * chunk hits as they are.
 */
export function blendPerChunk(chunkHits: readonly VectorHit[], sentences: SentenceHits, share: number, split: (ids: number[]) => Set<number>, k: number): VectorHit[] {
  if (sentences.hits.length === 0 || sentences.floor === null) return chunkHits.slice(0, k);
  const own = new Map(chunkHits.map((h) => [h.id, h.score]));
  const best = new Map(sentences.hits.map((h) => [h.id, h.score]));
  const chunkFloor = chunkHits.at(-1)?.score;
  const unmatched = chunkHits.filter((h) => !best.has(h.id)).map((h) => h.id);
  const withSentences = unmatched.length > 0 ? split(unmatched) : new Set<number>();
  const out: VectorHit[] = [];
  for (const [id, c] of own) {
    const s = best.get(id) ?? (withSentences.has(id) ? sentences.floor : c);
    out.push({ id, score: share * c + (1 - share) * s });
  }
  for (const [id, s] of best) {
    if (own.has(id)) continue;
    // Without a single chunk hit (an index still empty) the sentence stands alone.
    out.push({ id, score: chunkFloor === undefined ? s : share * chunkFloor + (1 - share) * s });
  }
  return out.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, k);
}

/** Each chunk once, with the better of its chunk-vector and best-sentence scores; the k best. */
export function bestPerChunk(chunkHits: readonly VectorHit[], sentenceHits: readonly VectorHit[], k: number): VectorHit[] {
  const best = new Map<number, number>();
  for (const h of [...chunkHits, ...sentenceHits]) if (!(best.get(h.id)! >= h.score)) best.set(h.id, h.score);
  return [...best].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || a.id - b.id).slice(0, k);
}
