/** Whether the quote answers: how fully one sentence holds the question's words together, and the bars a reading must clear to be answered, partial or not found. */
import { asksLimit, boundSaid, hasRelativeClause, holdsType, saysWhere, valuesStated } from '../answer-type.ts';
import type { Candidate, Outcome, Part, PartReading, ReaderOptions, Weighted } from './types.ts';
import type { Scores, Vectors } from './table.ts';
import type { QuestionWeights } from './weights.ts';
import { DERIVED_TOGETHER } from './question.ts';
import { ANTECEDENT_SHARE, CONTEXT_SHARE, holdsDerived, holdsWord } from './selection.ts';
import { packAlternation } from '../../lang/reader-packs.ts';

/** The question asks for a command, setting or piece of syntax (each language's pack: codeAsked). */
const CODE_ASKED = new RegExp(`(?<![\\p{L}])(?:${packAlternation('codeAsked')})(?![\\p{L}])`, 'iu');

/**
 * Whether a line of code can be the answer: to a how-to (a command is a step) or a question that asks
 * for a command, setting or syntax. A prose question ("what encryption does Sync use", "what does
 * Standard cost") is never answered by a code line that merely holds its words.
 */
export function codeAnswers(question: string, asked: Part['asked'] | undefined): boolean {
  return asked?.type === 'procedure' || CODE_ASKED.test(question);
}

/**
 * The kinds of asked value a quote must hold to answer its part clearly (otherwise the part is partly
 * answered): a date, a span of time, a number or an amount has a form to look for, and a how-to's steps
 * or instruction (holdsType's 'procedure'). Who does not ("available to users with a Catalyst
 * licence" answers it). Where is said in many forms, a place name only one of them: a quote answers it
 * by any phrase of place or settings path (saysWhere: "in the global settings folder", "Settings >
 * Files and links"), not by a line that only names a role («Роль: руководитель платформенной команды»).
 */
const TYPED_TYPES: ReadonlySet<string> = new Set(['date', 'duration', 'number', 'money', 'procedure']);

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
  for (const t of terms) got += holdsWord(c.terms, t) ? t.w : holdsDerived(c, t) ? t.w * DERIVED_TOGETHER : c.antecedent?.has(t.term) ? t.w * ANTECEDENT_SHARE : c.context.has(t.term) ? t.w * title : c.near.has(t.term) ? t.w * TOGETHER_NEAR_SHARE : 0;
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

/**
 * The reasons a reading is not found, each 0 or 1 (several may hold): nothing quoted, an attribute no
 * file names, the question's words only scattered over sentences, no part read well enough, the quote
 * reading as no answer, and a single part whose asked bound or value the quote does not state.
 */
export interface NotFoundCauses {
  nothing: number;
  unknownAttribute: number;
  scattered: number;
  partLow: number;
  evidenceLow: number;
  unstated: number;
}

/** What the outcome is judged on: the question, its weighed words and parts, the score table, the cosines, the quoted sentences and the reader's options. */
export interface QuoteContext {
  question: string;
  weighed: QuestionWeights;
  scores: Scores;
  vectors: Vectors;
  picked: readonly number[];
  options: ReaderOptions;
}

/** The reading of the quote: each part's, the question's words it lacks (heaviest first), the evidence measured and the outcome they earn. */
export interface Judgement {
  partReadings: PartReading[];
  missingTerms: Weighted[];
  heldShare: number;
  partScore: number;
  bestPart: number;
  quoteEvidence: number;
  togetherMargin: number;
  answerability: number;
  outcome: Outcome;
  /** Why the outcome is not found (each 1 when it holds), for the scorer's second look at the withheld quote. */
  causes: NotFoundCauses;
  /** The mean cosine of all candidates and the quoted sentences' cosines. */
  meanSim: number;
  quoteSims: number[];
}

/**
 * Parts that ask a value of the same form ("How long is a work cycle, and how long is the cooldown?")
 * are answered by as many such values: a quote stating one ("we spend two weeks cooling down")
 * answers the part it reads best, and the others stay unanswered.
 */
export function onePerValue(readings: PartReading[], quoted: readonly string[]): void {
  const byType = new Map<PartReading['type'], number[]>();
  readings.forEach((r, i) => {
    if (r.answered) byType.set(r.type, [...(byType.get(r.type) ?? []), i]);
  });
  for (const [type, at] of byType) {
    if (at.length < 2) continue;
    const counts = quoted.map((text) => valuesStated(text, type));
    if (counts.some((c) => c === undefined)) continue;
    const values = counts.reduce<number>((sum, c) => sum + c!, 0);
    if (values >= at.length) continue;
    const order = [...at].sort((a, b) => readings[b]!.score - readings[a]!.score);
    for (const i of order.slice(Math.max(1, values))) readings[i] = { ...readings[i]!, answered: false };
  }
}

/**
 * Judges whether the quote answers: each part by its best quoted sentence (and a stated bound or
 * value where the part asks one), the question's words the quote holds, and whether one sentence of
 * the notes holds the question together; `answered`, `partial` or `not_found`.
 */
export function judge(ctx: QuoteContext): Judgement {
  const { question, picked, options } = ctx;
  const { candidates, all, allTotal, unknownAttribute, parts } = ctx.weighed;
  const { table } = ctx.scores;
  const { sims, withVector } = ctx.vectors;
  // A part that asks a limit ("the largest attachment I can email") is answered only by a quote that
  // states a bound or says the superlative: "Attach the log file to your support email" is not.
  // A limit is a quantity: "Максимальный размер файла зависит от вашего плана" says the superlative and states no limit.
  const boundUnstated = (p: Part) =>
    asksLimit(p.text) &&
    (!picked.some((i) => holdsType(candidates[i]!.text, { type: 'number' })) ||
      p.terms.some((t) => {
        const said = t.w > 0 ? boundSaid(t.raw) : undefined;
        return said !== undefined && !picked.some((i) => candidates[i]!.terms.has(t.term) || holdsDerived(candidates[i]!, t) || said.test(candidates[i]!.text));
      }));
  // A part that names the form of its value ("How much does it cost", "In what year…") is answered only
  // by a quote holding such a value: "Sync Standard: 1 Monat" states no price, "Das Jahr des Datums" no year.
  const valueUnstated = (p: Part, pi: number) => p.asked.strict === true && !picked.some((i) => table[i]![pi]!.typed);
  const unstated = (p: Part, pi: number) => boundUnstated(p) || valueUnstated(p, pi);
  const partReadings: PartReading[] = parts.map((p, pi) => {
    const score = Math.max(0, ...picked.map((i) => table[i]![pi]!.answers));
    const rounded = Math.round(score * 1000) / 1000;
    // "How do I…" is answered only by steps or an instruction, and only of the asked task: its verb
    // ("export" in "How can I export a note to PDF?") is in the quote or its title or heading.
    // (Where the verb only ranks, a Russian infinitive, a quote without it may still answer.)
    // A part that asks for a value of a form (when, how long, how many, how much) is clearly answered
    // only by a quote that holds one: "Snapshots are taken every 5 minutes" is about how long they are
    // kept, but does not say it. So is a how-to, by steps or an instruction, and a "where", by a place.
    const typed = p.asked.type === 'place' ? picked.some((i) => saysWhere(candidates[i]!.text)) : !TYPED_TYPES.has(p.asked.type) || picked.some((i) => table[i]![pi]!.typed);
    const task = p.asked.type !== 'procedure' || !p.taskRequired || picked.some((i) => table[i]![pi]!.doesTask);
    const stated = typed && task && !unstated(p, pi);
    return { part: p.text, type: p.asked.type, score: rounded, answered: rounded >= PART_ANSWERED && stated };
  });
  onePerValue(partReadings, picked.map((i) => candidates[i]!.text));
  // What the quoted sentences and their notes' titles hold of the question's words.
  const held = new Set<string>();
  for (const i of picked) for (const t of [...candidates[i]!.terms, ...candidates[i]!.context]) held.add(t);
  const missingTerms = all.filter((t) => !holdsWord(held, t)).sort((a, b) => b.w - a.w);
  const heldShare = allTotal > 0 ? 1 - missingTerms.reduce((s, t) => s + t.w, 0) / allTotal : 1;
  const partScore = partReadings.length > 0 ? partReadings.reduce((s, p) => s + p.score, 0) / partReadings.length : 0;
  const bestPart = partReadings.length > 0 ? Math.max(...partReadings.map((p) => p.score)) : 0;
  // How well the quote reads as an answer: its parts, and the question's words it holds.
  const quoteEvidence = Math.min(1, 0.5 * partScore + 0.5 * heldShare);
  // Does one sentence hold the question's words together, or are they only scattered over the passages?
  // A question of two parts or hops ("the library that Nadia maintains", "…и сколько длится пилот") is
  // answered by a sentence per part or hop: the quoted sentences count together.
  const twoFacts = parts.length > 1 || hasRelativeClause(question);
  const together = Math.max(
    candidates.reduce((best, c) => Math.max(best, heldInSentence(c, all, allTotal)), 0),
    twoFacts && picked.length > 1 ? heldInSentences(picked.map((i) => candidates[i]!), all, allTotal) : 0,
  );
  const meanSim = withVector.length > 0 ? withVector.reduce((sum, v) => sum + v, 0) / withVector.length : 0;
  const quoteSims = picked.map((i) => sims[i]).filter((v): v is number => v !== undefined);
  const gapLift = withVector.length >= 2 && quoteSims.length > 0 ? SIMILARITY_GAP_WEIGHT * (Math.max(...quoteSims) - meanSim - SIMILARITY_GAP_MID) : 0;
  // A sentence of one hop answers only part of the question, and a line of code reads unlike any
  // question: a low cosine is expected of them, so there the vectors may lift the bar, never raise it.
  const vectorLift = Math.max(twoFacts || picked.some((i) => candidates[i]!.code) ? 0 : -SIMILARITY_VETO_MAX, gapLift);
  const togetherMargin = together + vectorLift - togetherNeeded(all.filter((t) => t.w > 0).length);
  const scattered = options.together !== false && togetherMargin < 0;
  // The evidence that the notes state the fact: the quote's, and (on the notes themselves) how
  // clearly one sentence holds the question together, 0.5 at the bar.
  const answerability =
    Math.round((options.together === false ? quoteEvidence : 0.5 * quoteEvidence + 0.5 * Math.min(1, Math.max(0, 0.5 + togetherMargin))) * 1000) / 1000;

  const flag = (v: boolean) => (v ? 1 : 0);
  const causes: NotFoundCauses = {
    nothing: flag(picked.length === 0),
    unknownAttribute: flag(unknownAttribute),
    scattered: flag(scattered),
    partLow: flag(bestPart < NOT_FOUND_PART),
    evidenceLow: flag(quoteEvidence < NOT_FOUND_BELOW),
    unstated: flag(picked.length > 0 && parts.length === 1 && unstated(parts[0]!, 0)),
  };
  let outcome: Outcome;
  if (Object.values(causes).some((v) => v === 1)) outcome = 'not_found';
  // A line of code quoted for a prose question is at most partly an answer: the person reads it.
  else if (partReadings.every((p) => p.answered) && !(candidates[picked[0]!]!.code && !codeAnswers(question, parts[0]?.asked))) outcome = 'answered';
  else outcome = 'partial';
  return { partReadings, missingTerms, heldShare, partScore, bestPart, quoteEvidence, togetherMargin, answerability, outcome, causes, meanSim, quoteSims };
}
