/**
 * How an answer reads to a person, the same in the app and in what it copies or exports: the
 * numbers its sources are shown under, and its outcome in words.
 */
import type { AnswerEnvelope } from './contract/answer.ts';
import type { Limit, LimitCode } from './contract/limits.ts';

/**
 * The numbers a reader sees for an answer's sources: 1, 2, 3 in the order the answer first cites
 * them, then the uncited passages in their own order. The engine numbers passages by retrieval
 * rank, so an answer could read "… [6] … [1]".
 */
export function citationNumbers(text: string, sources: readonly number[]): Map<number, number> {
  const order: number[] = [];
  for (const m of text.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    for (const n of m[1]!.split(',').map((x) => Number(x.trim()))) if (sources.includes(n) && !order.includes(n)) order.push(n);
  }
  for (const n of sources) if (!order.includes(n)) order.push(n);
  return new Map(order.map((n, i) => [n, i + 1]));
}

/** The answer's text with each marker's numbers as citationNumbers shows them ("[6]" -> "[1]"). */
export function relabelCitations(text: string, numbers: ReadonlyMap<number, number>): string {
  return text.replace(/\[(\d+(?:\s*,\s*\d+)*)\]/g, (_, list: string) => `[${list.split(',').map((x) => numbers.get(Number(x.trim())) ?? Number(x.trim())).join(', ')}]`);
}

/** Does the answer answer? One of the outcomes a person tells apart at a glance (the critic's verdict decides with the reader's outcome). */
export function outcomeLabel(verdict: string | null, outcome: string): 'Not checked' | 'Not in your notes' | 'Partly answered' | 'Answered' | 'Partly supported' {
  return verdict === null ? 'Not checked'
    : outcome === 'not_found' || verdict === 'REJECT' ? 'Not in your notes'
    : outcome === 'partial' ? 'Partly answered'
    : verdict === 'APPROVE' ? 'Answered'
    : 'Partly supported';
}

/** Limits that change what the answer means: shown with it, never folded away. */
const MEANING: ReadonlySet<LimitCode> = new Set([
  'terms_never_mentioned',
  'value_unstated',
  'part_unanswered',
  'unsure_quote',
  'read_by_meaning',
  'chat_too_slow',
  'critic_rejected',
  'chat_answer_cut',
  'chat_answer_less',
  'invented_attribute',
  'synthesis_timed_out',
  'cancelled',
]);

/**
 * Does this limit change what the answer means (read with it), or only say what was limited? Of an
 * answered question, a word no file uses is a paraphrase the reader got past: it folds away with the rest.
 */
export const changesMeaning = (limit: Limit, outcome: string): boolean => MEANING.has(limit.code) && !(outcome === 'answered' && limit.code === 'terms_never_mentioned');

/**
 * An unsure quote and the closest sentences shown after it (the engine's withClosest,
 * answer/partial.ts): the reader's quote, and each further line on its own, for the app and the CLI
 * to set apart from the quote; null when the answer is no such quote.
 */
export function quoteAndClosest(answer: Pick<AnswerEnvelope, 'answer' | 'answer_mode' | 'outcome' | 'reader'>): { quote: string; closest: string[] } | null {
  const quote = answer.reader?.quote;
  if (answer.answer_mode !== 'extractive' || answer.outcome !== 'partial' || !quote || !answer.answer.startsWith(quote)) return null;
  const closest = answer.answer.slice(quote.length).split('\n').map((l) => l.trim()).filter(Boolean);
  return closest.length > 0 ? { quote, closest } : null;
}
