/**
 * One number that tells the user how far to trust an answer, from what the pipeline knows about
 * it. The formula is deliberately simple and monotone, so that it can be explained in a tooltip and
 * never rewards a worse run: a worse verdict, a missing model, a skipped stage, a weaker top hit or
 * fewer supported claims can only lower it.
 *
 *   quality    = base(verdict) × (synthesized ? 1 : 0.9)
 *                base: APPROVE 0.85, critic skipped 0.6, REVISE 0.5, REJECT 0.1
 *   evidence   = 0.2 + 0.6 × answerability + 0.1 × topScore + 0.1 × supportedShare   (topScore unknown: 0.5)
 *   confidence = clamp(quality × evidence − 0.1 × degradations, 0, 1), rounded to 3 decimals
 *
 * The verdict dominates (the critic read the answer; the scores did not), so a rejected answer
 * stays below 0.1 however good the retrieval was. Within a verdict, the answer reader's
 * answerability (does one sentence hold the question's words together, does the quote cover them and
 * hold a value of the asked type; reader.ts) moves it most: retrieval scores alone do not tell an answered question from
 * one the notes cannot answer. Each degradation (a stage skipped or timed out, a fallback taken)
 * costs a flat 0.1.
 */
import type { Verdict } from './types.ts';

export interface ConfidenceInput {
  /** False for an extractive answer or when synthesis failed. */
  synthesized: boolean;
  /** Stages skipped, timed out or replaced by a fallback. */
  degradations: number;
  /** Null when the critic was skipped. */
  verdict: Verdict | null;
  /** The top hit's score in [0, 1], or null when unknown. */
  topScore: number | null;
  /** Supported claims / claims, 1 when there are no claims. */
  supportedShare: number;
  /** 0..1: the answer reader's evidence that the answer answers the question (1 when unknown). */
  answerability?: number;
}

/** Below this the UI marks the answer as low confidence. */
export const LOW_CONFIDENCE = 0.3;

const VERDICT_BASE: Record<Verdict | 'SKIPPED', number> = { APPROVE: 0.85, SKIPPED: 0.6, REVISE: 0.5, REJECT: 0.1 };
const NOT_SYNTHESIZED = 0.9;
const DEGRADATION_COST = 0.1;
const UNKNOWN_TOP_SCORE = 0.5;

/** Clamps into [0, 1]; NaN becomes `fallback`, so bad input cannot poison the number. */
const unit = (x: number, fallback: number) => (Number.isNaN(x) ? fallback : Math.min(1, Math.max(0, x)));

export function answerConfidence(input: ConfidenceInput): { confidence: number; low: boolean } {
  const base = VERDICT_BASE[input.verdict ?? 'SKIPPED'];
  const quality = base * (input.synthesized ? 1 : NOT_SYNTHESIZED);
  const top = input.topScore === null ? UNKNOWN_TOP_SCORE : unit(input.topScore, UNKNOWN_TOP_SCORE);
  const evidence = 0.2 + 0.6 * unit(input.answerability ?? 1, 1) + 0.1 * top + 0.1 * unit(input.supportedShare, 0);
  const degradations = Number.isNaN(input.degradations) ? 0 : Math.max(0, input.degradations);
  const confidence = Math.round(unit(quality * evidence - DEGRADATION_COST * degradations, 0) * 1000) / 1000;
  return { confidence, low: confidence < LOW_CONFIDENCE };
}
