/** Whether the quote answers: how fully one sentence holds the question's words together, and the bars a reading must clear to be answered, partial or not found. */
import type { Candidate, Weighted } from './types.ts';
import { DERIVED_TOGETHER } from './question.ts';
import { ANTECEDENT_SHARE, CONTEXT_SHARE, holdsDerived } from './selection.ts';

/** A part is answered when its best sentence reads at least this well. */
export const PART_ANSWERED = 0.5;
/**
 * When no part of the question reads at least this well, nothing quoted answers it: not found. A
 * best part between this and PART_ANSWERED, with the question's words held together, is partly
 * answered: the sentence is about the asked fact, but does not clearly state a value of its kind.
 */
export const NOT_FOUND_PART = 0.45;
/** Below this, the quote reads as no answer (half its parts' scores, half the question's words it holds): not found. */
export const NOT_FOUND_BELOW = 0.4;

/**
 * What one sentence must hold of the question's word weight (its own words fully, its note's title
 * and heading half — fully for a "Field: value" line, which states something of its note — the sentences next to it TOGETHER_NEAR_SHARE) for the notes to state the asked
 * fact: TOGETHER_BASE less TOGETHER_PER_WORD for each of the question's words, up to
 * TOGETHER_WORDS of them. Notes on the question's topic hold its words scattered over sentences;
 * the sentence that states the fact holds them together. A question of few words is held almost
 * whole by chance, so it must be held more fully. Tuned on XQuAD-en (gold passage removed against
 * present) and both fixtures.
 */
const TOGETHER_BASE = 0.64;
const TOGETHER_PER_WORD = 0.3 / 8;
const TOGETHER_WORDS = 8;
const TOGETHER_NEAR_SHARE = 0.25;
/**
 * With sentence vectors: how far the quote's cosine to the question stands above the mean of all
 * candidates' moves the bar. A sentence that states the asked fact stands out from the passages on
 * its topic (XQuAD-en with multilingual-e5-small: the best candidate's gap has a median of 0.093 with
 * the gold passage, 0.051 without it); a gap of SIMILARITY_GAP_MID leaves the bar where the words put
 * it, and each 0.01 above or below lowers or raises it by 0.01 × SIMILARITY_GAP_WEIGHT. The words and
 * the vectors must agree that nothing states the fact. Calibrated for multilingual-e5-small, whose
 * cosines crowd into a narrow band; another model's scale moves the bar less or more.
 */
export const SIMILARITY_GAP_MID = 0.058;
export const SIMILARITY_GAP_WEIGHT = 4;
/** The vectors raise the bar by at most this much: they veto a quote the words hold well only when the words hold it barely. */
export const SIMILARITY_VETO_MAX = 0.05;

/** The share of the question's word weight one sentence holds with its title and its neighbours (no other passage of its note). */
export function heldInSentence(c: Candidate, terms: readonly Weighted[], total: number): number {
  if (total <= 0) return 1;
  let got = 0;
  // A field line ("Date: 2026-03-14") states something of its note's subject: the title is part of what it says.
  const title = c.subject ? 1 : CONTEXT_SHARE;
  for (const t of terms) got += c.terms.has(t.term) ? t.w : holdsDerived(c, t) ? t.w * DERIVED_TOGETHER : c.antecedent?.has(t.term) ? t.w * ANTECEDENT_SHARE : c.context.has(t.term) ? t.w * title : c.near.has(t.term) ? t.w * TOGETHER_NEAR_SHARE : 0;
  return got / total;
}

/** The share of the question's word weight that several sentences hold between them (each word where it is held best). */
export function heldInSentences(cs: readonly Candidate[], terms: readonly Weighted[], total: number): number {
  if (total <= 0) return 1;
  let got = 0;
  for (const t of terms) got += t.w * Math.max(0, ...cs.map((c) => heldInSentence(c, [t], t.w || 1)));
  return got / total;
}

/** What one sentence must hold of a question of `words` weighed words: a question of few words must be held more fully. */
export function togetherNeeded(words: number): number {
  return TOGETHER_BASE - TOGETHER_PER_WORD * Math.min(words, TOGETHER_WORDS);
}

export const round3 = (v: number) => (Number.isFinite(v) ? Math.round(v * 1000) / 1000 : 0);
/** The best cosine among these candidates' sentence vectors, 0 when none has one. */
export function quotedSims0(indices: readonly number[], sims: readonly (number | undefined)[]): number {
  const vs = indices.map((i) => sims[i]).filter((v): v is number => v !== undefined);
  return vs.length > 0 ? Math.max(...vs) : 0;
}
