/**
 * The answer reader (docs/design.md §7): finds the sentence of the retrieved passages that states the
 * asked fact, quotes it with its citation, and decides from the evidence whether the notes answer
 * the question at all. It is the answer when there is no chat model, and the yardstick a chat
 * model's answer must meet.
 *
 * Each candidate sentence is scored with signals the engine already has (reader/selection.ts). The
 * best sentence leads; a second or third is added only when it answers a part of the question
 * the first leaves open, or brings question words the first lacks (a multi-hop question: who leads
 * the team, then what she decided), never to fill space.
 *
 * Multi-hop: two sentences of different notes are one chain when they are about the same name —
 * "Version: 1.0; Codename: Kestrel" and "Kestrel beta go date: 2026-05-18" — or when one is in the
 * note of a person the other's note names ("Decider: Maya Chen" above a decision, "Maya leads the
 * sync team" in hers). A lead is ranked with the question's word weight its best such companion
 * adds, and the companion is quoted after it, with its note's name when the sentence lacks it. A
 * sentence that links to a note ("the reasoning is in [[2026-03-14 Storage decision]]") lends its
 * words to that note's sentences, and a date inside the link is the record's, not a stated fact.
 * `hops` names what the best sentences point to, for a second search (answer.ts).
 *
 * Answerability: every part of the question needs a sentence that covers its words and holds a
 * value of its type; the question's rare words must appear in what is quoted. The outcome is
 * `answered`, `partial` (some part found, what is missing named) or `not_found` (the closest
 * sentences are offered for reading, not as an answer). A question word that no file of the vault
 * holds at all ("parental" in a vault without HR notes) counts fully against coverage.
 *
 * Pure: no store, no model, no I/O.
 *
 * readAnswer is the pipeline's spine; each stage is a module of answer/reader/: a passage's quotable
 * units (units.ts) become candidates (candidates.ts: readerCandidates, nameCandidates); the question
 * is read (question.ts: its own words, task verb, stated values, asked nouns) and weighed into its
 * parts (weights.ts: weighQuestion); every candidate is scored against every part (table.ts:
 * scoreTable, with selection.ts's SELECTION_FEATURES and coverage); the quote is picked (pick.ts:
 * chooseLead, pickSentences, stepsStart, listItems), the outcome judged (outcome.ts: judge), the
 * names for a second search found (hops.ts), the scorer's signals assembled (signals.ts, with how
 * steady the choice of lead is: stability.ts) and the
 * quote laid out (render.ts: quotedText). The stages pass small context objects (QuestionWeights,
 * Scores, PickContext, QuoteContext). Shapes are in types.ts, text helpers in text.ts, and each
 * language's words in its pack, src/engine/lang/<code>/reader.ts.
 */
import type { Candidate, ReaderOptions, Reading } from './reader/types.ts';
import { otherScript, readByMeaning } from './reader/meaning.ts';
import { weighQuestion } from './reader/weights.ts';
import { readerQuestion } from './reader/question.ts';
import { questionVectors, scoreTable, type Vectors } from './reader/table.ts';
import { chooseLead, howToTask, listItems, offeredSentences, pickSentences, stepsStart } from './reader/pick.ts';
import type { PickContext } from './reader/pick.ts';
import { namesToFollow } from './reader/hops.ts';
import { leadStability } from './reader/stability.ts';
import { judge } from './reader/outcome.ts';
import type { QuoteContext } from './reader/outcome.ts';
import { candidateRows, readingSignals } from './reader/signals.ts';
import { cited, quotedText } from './reader/render.ts';
export type { Candidate, CandidateRow, Outcome, PartReading, PassageUnit, ReaderOptions, Reading, ReadingSignals } from './reader/types.ts';
export { matchForm, plainText } from './reader/text.ts';
export { codeSentences, codeUnits, proseSentences, proseUnits } from './reader/units.ts';
export { askedNouns, derivedWords, describesSubject, directForm, misspelling, QUESTION_WORDS } from './reader/question.ts';
export { leansOnPrevious, readerCandidates, sentenceSimilarity } from './reader/candidates.ts';
export { DEFAULT_SELECTION, isMarkupFragment, SELECTION_FEATURES } from './reader/selection.ts';
export { togetherNeeded } from './reader/outcome.ts';

/**
 * The reading by meaning of a question whose passages are mostly prose in another script than it
 * (an English question over Russian notes that write "Obsidian Publish"): what a word-by-word
 * reading judged not found, by the reader or by the fitted scorer, is read again by meaning. Null
 * without sentence vectors or when the passages are in the question's script.
 */
export function readByMeaningInstead(asked: string, given: readonly Candidate[], options: ReaderOptions): Reading | null {
  const question = readerQuestion(asked, options);
  const { candidates } = weighQuestion(question, given, options);
  return meaningReading(question, candidates, questionVectors(candidates, options), candidates.filter((c) => !c.code), 1);
}

/** The reading by meaning of the candidates, when two or more have vectors and `scripted` is mostly in another script than the question (by `share`, meaning.ts otherScript). */
function meaningReading(question: string, candidates: readonly Candidate[], vectors: Vectors, scripted: readonly Candidate[], share?: number): Reading | null {
  return vectors.withVector.length >= 2 && otherScript(question, scripted, share) ? readByMeaning(candidates, vectors.sims) : null;
}

/**
 * Reads the answer to `question` from the candidate sentences of its retrieved passages: weighs the
 * question, scores every candidate against its parts, picks the quote, judges the outcome and lays
 * out the quoted text with what the reading measured. Each stage is a function of answer/reader/.
 */
export function readAnswer(asked: string, given: readonly Candidate[], options: ReaderOptions): Reading {
  const question = readerQuestion(asked, options);
  const maxSentences = Math.max(1, Math.floor(options.maxSentences ?? 3));
  // The question's words, weighed, and its parts (weights.ts).
  const weighed = weighQuestion(question, given, options);
  const { candidates, unknown, spelled, unknownAttribute } = weighed;
  // The question's cosines to the candidates (table.ts). A question in another script than its notes
  // shares no word with them: read by meaning, if vectors can (meaning.ts).
  const vectors = questionVectors(candidates, options);
  /** The reading by meaning, when vectors can read and the passages are in another script than the question (by `share`, meaning.ts). */
  const byMeaning = (scripted: readonly Candidate[], share?: number) => meaningReading(question, candidates, vectors, scripted, share);
  const meant = byMeaning(candidates);
  if (meant) return meant;
  // Every candidate against every part, best first (table.ts).
  const scores = scoreTable(question, weighed, vectors, options);
  // The quote: the lead and what completes it, steps from their start, announced items (pick.ts).
  const pick: PickContext = { question, weighed, scores, maxSentences };
  const lead = chooseLead(pick);
  const { picked, hopped } = pickSentences(pick, lead);
  const listed = listItems(pick, picked, stepsStart(pick, picked));
  const task = howToTask(pick, picked);
  // Whether it answers (outcome.ts), what a second search follows (hops.ts), what else is offered.
  const quote: QuoteContext = { question, weighed, scores, vectors, picked, options };
  const judgement = judge(quote);
  const { partReadings, missingTerms, answerability, outcome } = judgement;
  // Prose mostly in another script than the question, with more of the question's script than a note
  // naming products holds: the words found were not enough, and the meaning may be (an English
  // question over Russian notes that write "Quick switcher", "Ctrl+O" and "Windows").
  const meantInstead = outcome === 'not_found' ? byMeaning(candidates.filter((c) => !c.code), 1) : null;
  if (meantInstead) return meantInstead;
  const hops = namesToFollow(question, weighed, scores, picked);
  const open = partReadings.flatMap((p, i) => (p.answered ? [] : [i]));
  const { similarity, closest, runnersUp, passageBest } = offeredSentences(pick, vectors, picked, open);
  // What the reading measured (signals.ts) and the quoted text (render.ts).
  // How steady the lead is matters only to a quote the scorer weighs: not for "not found", nor where only the quote is wanted.
  const signals = { ...readingSignals(quote, judgement), leadStable: outcome === 'not_found' || options.quoteOnly ? 1 : leadStability(question, weighed, vectors, options, lead.lead, maxSentences) };
  const answer = quotedText(quote, listed, hopped);
  const rows = candidateRows(quote);
  if (outcome === 'not_found') {
    // No sentence is quoted, so the words the best candidate lacks would name words the passages hold.
    const anywhere = new Set(candidates.flatMap((c) => [...c.terms, ...c.context]));
    const absent = missingTerms.filter((t) => !anywhere.has(t.term));
    return { outcome, answer: '', withheld: answer, ...(answer ? { withheldCited: cited(quote) } : {}), cited: [], answerability, parts: partReadings, missing: absent.map((t) => t.raw), unknown, ...(Object.keys(spelled).length > 0 ? { spelled } : {}), unknownAttribute, closest, passageBest, runnersUp, similarity, hops, ...(task !== undefined ? { task } : {}), signals, ...rows };
  }
  return { outcome, answer, cited: cited(quote), answerability, parts: partReadings, missing: missingTerms.map((t) => t.raw), unknown, ...(Object.keys(spelled).length > 0 ? { spelled } : {}), unknownAttribute, closest, passageBest, runnersUp, similarity, hops, ...(task !== undefined ? { task } : {}), signals, ...rows };
}
