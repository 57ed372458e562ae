/**
 * What a partial answer shows and says: the limit naming the parts a quote leaves open (or that no
 * sentence clearly states the asked kind of value), and an unsure quote followed by the next best
 * sentences.
 */
import { limit, type Limit } from '../../shared/contract.ts';
import type { PartReading, Reading } from './reader.ts';
import type { Snippet } from './types.ts';

/** What each kind of value is called where a limit says no sentence clearly states it. */
export const ASKED_VALUE: Record<PartReading['type'], string> = {
  duration: 'how long',
  date: 'when',
  number: 'how many or how much',
  money: 'the amount',
  person: 'who',
  reason: 'why',
  place: 'where',
  entity: 'which one',
  definition: 'what it means',
  procedure: 'the steps',
  any: 'the answer',
};

/**
 * The limit a partial answer shows: the parts of the question the quote leaves open, or, for a
 * question of one part, that no sentence clearly states the asked kind of value (the quoted ones are
 * the closest): "not found" of the whole question above a quote would contradict it.
 */
export function missingPartsLimit(parts: readonly PartReading[]): Limit | null {
  const open = parts.filter((p) => !p.answered);
  if (open.length === 0) return null;
  if (parts.length === 1) return limit('value_unstated', `not found in your notes: a sentence that clearly says ${ASKED_VALUE[open[0]!.type]}; the closest ones are quoted`);
  return limit('part_unanswered', `not found in your notes: ${open.map((p) => `"${p.part}"`).join(', ')}`);
}

/** Most sentences an unsure answer quotes besides its own quote. */
const CLOSEST_EXTRA = 2;
/** Words an unsure answer grows to with its second extra sentence, at most. */
const CLOSEST_WORDS = 45;
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * An unsure quote with the next best sentences after it: the best three sentences hold the fact far
 * more often than the best one alone, so the person reads the closest ones.
 */
export function withClosest(quote: string, runnersUp: Reading['passageBest'], snippets: readonly Snippet[]): string {
  const known = new Set(snippets.map((s) => s.n));
  const extra: Reading['passageBest'] = [];
  let words = wordCount(quote);
  for (const c of runnersUp) {
    if (extra.length >= CLOSEST_EXTRA || !known.has(c.n) || quote.includes(c.text)) continue;
    // A long quote leaves room for fewer: an answer is read at a glance.
    if (extra.length > 0 && words + wordCount(c.text) > CLOSEST_WORDS) break;
    extra.push(c);
    words += wordCount(c.text);
  }
  if (extra.length === 0) return quote;
  return [quote, ...extra.map((c) => `${/[.!?。！？:;]$/.test(c.text) ? c.text : `${c.text}.`} [${c.n}]`)].join('\n');
}
