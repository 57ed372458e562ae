/**
 * How steady the reader's choice is: the question is read again with each of its heaviest words left
 * out in turn, and the share of those readings that choose the same lead sentence is returned. A
 * sentence that states the asked fact is chosen whichever word is missing; one chosen for a single
 * word the others do not back loses its place as soon as that word goes. A plain number for the
 * calibrated scorer (features.ts `lead_stable`), never a rule of its own.
 */
import type { Part, Weighted } from './types.ts';
import type { QuestionWeights } from './weights.ts';
import { scoreTable, type Vectors } from './table.ts';
import { chooseLead } from './pick.ts';
import type { ReaderOptions } from './types.ts';

/** At most this many words are left out (the heaviest): each costs a scoring of every candidate. */
export const STABILITY_WORDS = 6;

const without = (terms: readonly Weighted[], term: string): Weighted[] => terms.map((t) => (t.term === term ? { ...t, w: 0 } : t));
const weightOf = (terms: readonly Weighted[]) => terms.reduce((sum, t) => sum + t.w, 0);

/** The question's weights with one word's weight set to 0, every total kept consistent. */
export function leaveOut(weighed: QuestionWeights, term: string): QuestionWeights {
  const all = without(weighed.all, term);
  const parts: Part[] = weighed.parts.map((p) => {
    const terms = without(p.terms, term);
    const own = without(p.own, term);
    return { ...p, terms, total: weightOf(terms), own, ownTotal: weightOf(own), ...(p.task && p.task.term === term ? { task: { ...p.task, w: 0 } } : {}) };
  });
  return { ...weighed, all, allTotal: weightOf(all), parts };
}

/**
 * The share of the readings without one of the question's heaviest words (up to STABILITY_WORDS)
 * that choose `lead` again; 1 when the question has fewer than two weighed words or nothing led.
 */
export function leadStability(question: string, weighed: QuestionWeights, vectors: Vectors, options: ReaderOptions, lead: number | undefined, maxSentences: number): number {
  const words = weighed.all.filter((t) => t.w > 0).sort((a, b) => b.w - a.w).slice(0, STABILITY_WORDS);
  if (lead === undefined || words.length < 2) return 1;
  let same = 0;
  for (const t of words) {
    const w = leaveOut(weighed, t.term);
    const scores = scoreTable(question, w, vectors, options);
    if (chooseLead({ question, weighed: w, scores, maxSentences }).lead === lead) same++;
  }
  return Math.round((same / words.length) * 1000) / 1000;
}
