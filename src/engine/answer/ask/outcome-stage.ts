/**
 * What the answer comes to: the reader's outcome for its own quote (a chat model's answer that
 * stood is read the same way), an abstention with the closest sentences when nothing answers, the
 * verdict lowered for a partial or cut answer, and the parts of the question left open.
 */
import { type AnswerEnvelope, limit } from '../../../shared/contract.ts';
import { ASKED_VALUE, missingPartsLimit } from '../partial.ts';
import { ABSTAIN_TEXT } from '../prompt.ts';
import type { Reading } from '../reader.ts';
import type { Snippet, Verdict } from '../types.ts';
import type { Read } from './read-stage.ts';
import type { AskRun } from './run.ts';
import type { Synthesis } from './synthesis-stage.ts';

export interface Settled {
  isCancelled: boolean;
  answerMode: AnswerEnvelope['answer_mode'];
  text: string;
  verdict: Verdict | null;
  outcome: AnswerEnvelope['outcome'];
  /** The reading of the answer shown: the chat model's answer read as a quote, else the reader's own. */
  finalReading: Reading;
  missingParts: string[];
}

/** Settles the answer's outcome and verdict, abstaining (with the closest sentences in `searched`) when nothing answers. */
export function outcomeStage(run: AskRun, read: Read, synthesis: Synthesis, searched: AnswerEnvelope['searched']): Settled {
  const { limits } = run;
  const { reading, quoteOutcome } = read;
  const { removed, verdictInfo } = synthesis;
  let { answerMode, text } = synthesis;
  if (removed.length > 0) limits.push(limit('citations_removed', `removed citations to snippets that do not exist: [${removed.join(', ')}]`));
  const isCancelled = run.cancelled();
  if (isCancelled) limits.push(limit('cancelled', 'cancelled'));
  let verdict: Verdict | null = verdictInfo?.critic.verdict ?? null;
  const { outcome: readOutcome, finalReading } = answerOutcome(isCancelled, answerMode, text, verdict, read, synthesis.readModelAnswer);
  let outcome = readOutcome;
  // A chat model may state what the reader could not find in other words, but not an attribute no
  // file of the vault ever names ("per-seat price" in notes without prices): that answer is invented.
  const impossible = answerMode === 'generative' && reading.unknownAttribute;
  if (impossible) limits.push(limit('invented_attribute', `the chat model answered, but no file mentions ${reading.unknown.join(', ')}: not shown`));
  if (!isCancelled && (verdict === 'REJECT' || !text || impossible || (answerMode !== 'generative' && quoteOutcome === 'not_found'))) {
    answerMode = 'abstained';
    text = ABSTAIN_TEXT;
    verdict = 'REJECT';
    outcome = 'not_found';
    searched.closest = closestQuoted(reading, synthesis.snippets);
  }
  // "Supported" means the answer answers: a partial answer is badged as such, a cut one never approved.
  if (!isCancelled && verdict === 'APPROVE' && (outcome === 'partial' || synthesis.generationCut)) verdict = 'REVISE';
  const missingParts = openParts(run, read, outcome, answerMode, finalReading);
  return { isCancelled, answerMode, text, verdict, outcome, finalReading, missingParts };
}

/**
 * Does the answer answer? The reader's outcome for its own quote; a chat model's answer that stood
 * is read the same way, so a fluent answer that leaves a part open is "partial" too.
 */
function answerOutcome(
  isCancelled: boolean,
  answerMode: AnswerEnvelope['answer_mode'],
  text: string,
  verdict: Verdict | null,
  read: Read,
  readModelAnswer: (answer: string) => Reading,
): { outcome: AnswerEnvelope['outcome']; finalReading: Reading } {
  const { reading, quoteOutcome } = read;
  if (isCancelled || !text || verdict === 'REJECT') return { outcome: 'not_found', finalReading: reading };
  const finalReading = answerMode === 'generative' ? readModelAnswer(text) : reading;
  // A model paraphrases: when its words do not let the reader see the answer, the checks that
  // approved each sentence against its sources decide, and the reader's own outcome if it has one.
  let outcome: AnswerEnvelope['outcome'] = answerMode === 'generative' && finalReading.outcome === 'not_found' ? (reading.outcome === 'not_found' ? 'answered' : reading.outcome) : finalReading.outcome;
  if (answerMode === 'extractive') outcome = quoteOutcome;
  return { outcome, finalReading };
}

/** Not an answer, but what a person would want to look at next: the nearest sentences, quoted. */
function closestQuoted(reading: Reading, snippets: readonly Snippet[]): AnswerEnvelope['searched']['closest'] {
  const byN = new Map(snippets.map((s) => [s.n, s.locator] as const));
  return reading.closest.map((c) => ({ text: c.text, locator: byN.get(c.n)! }));
}

/**
 * The parts of the question a partial answer leaves open, named in a limit. A quote the scorer is
 * unsure of leaves the whole question open: "not clearly stated".
 */
function openParts(run: AskRun, read: Read, outcome: AnswerEnvelope['outcome'], answerMode: AnswerEnvelope['answer_mode'], finalReading: Reading): string[] {
  const unsureHere = outcome === 'partial' && answerMode === 'extractive' && read.unsure;
  const missingParts = outcome === 'partial' ? (unsureHere ? [run.query] : finalReading.parts.filter((p) => !p.answered).map((p) => p.part)) : [];
  const missingLimit = outcome === 'partial' ? (unsureHere ? limit('unsure_quote', `not sure the quote states ${ASKED_VALUE[finalReading.parts[0]?.type ?? 'any']} (${percent(read.probability ?? 0)}${barNote(read)}): the closest passages are quoted`) : missingPartsLimit(finalReading.parts)) : null;
  if (missingLimit) run.limits.push(missingLimit);
  return missingParts;
}

const percent = (p: number) => `${Math.round(p * 100)}%`;

/**
 * Where the Answered badge starts, beside an unsure quote's probability: "62%; Answered from 83%".
 * A profile may have no bar for a kind of reading (its answers never right 9 times in 10 where it was
 * chosen): a quote at 93% is still not badged, and the note says why, and, where an embedding model
 * is still making the sentence vectors of the passages read (`sentencesWaiting`), that they are on their way;
 * where the passages have them but too few of the sentences read do (`sentenceVectors`), that this is why.
 */
function barNote(read: Pick<Read, 'bar' | 'vectorsBar' | 'sentencesWaiting' | 'sentenceVectors'>): string {
  if (read.bar === null) return '';
  if (read.bar < 1) return `; Answered from ${percent(read.bar)}`;
  if (read.vectorsBar !== null && read.vectorsBar < 1) {
    if (read.sentenceVectors) return '; too few of the sentences read have vectors to compare them by, and without them no quote is badged Answered';
    const waiting = read.sentencesWaiting;
    return `; without sentence vectors no quote is badged Answered${waiting > 0 ? `, and ${waiting.toLocaleString('en-US')} sentences of your notes are still waiting for theirs` : ''}`;
  }
  return '; no quote is badged Answered';
}
