/**
 * Signals of one candidate sentence that tell the sentence holding the asked fact from one that only
 * talks about the question's subject, each a pure function of the sentence's words and the
 * question's (selection.ts SELECTION_FEATURES: value_near, number_near, asked_noun, question_verb,
 * passage_first, defines).
 *
 *   - value_near: how close a value (a number, a `code` span, a name the question does not give)
 *     stands to a question word in the sentence: "The Merkle tree uses a fan-out of 16" over
 *     "Replicas find missing operations with a Merkle tree".
 *   - number_near: the same with only numbers for values.
 *   - asked_noun: the share of the nouns a "what/which X" question asks for, or of the attribute it
 *     asks of its subject ("how many tiers", «какой движок»), that the sentence itself holds.
 *   - question_verb: the share of the question's verbs the sentence holds ("who *wrote*" — "was
 *     *written* by Silver").
 *   - passage_first: the sentence opens its passage, where a note introduces its topic.
 *   - defines: the sentence defines a question word ("File recovery is a core plugin that…",
 *     «Слайды — это основной плагин…»): the topic's introduction, which answers "what is X" and
 *     little else.
 */
import { isStopword, tokenize } from '../../search/analyzer.ts';
import { packAlternation } from '../../lang/reader-packs.ts';
import { CASELESS } from '../answer-type.ts';
import { matchForm } from './text.ts';

/** One word of a sentence: its matched form, whether it is a function word, and whether it reads as a value. */
export interface SentenceWord {
  term: string;
  stop: boolean;
  value: boolean;
  /** The word holds a digit: a number, a date, a size. */
  digit: boolean;
}

/** Words inside `code` spans. */
const CODE_SPAN = /`([^`]+)`/g;

/**
 * The sentence's words in order. A value is a word with a digit ("16", "2026-05-18", "5 MB"), a word
 * of a `code` span, or a capitalised word after the first that is no question word (a name).
 */
export function sentenceWords(text: string, lang?: string): SentenceWord[] {
  const code = new Set<string>();
  for (const m of text.matchAll(CODE_SPAN)) for (const t of tokenize(m[1]!, lang)) code.add(t.raw);
  return tokenize(text, lang).map((t, i) => ({
    term: matchForm(t.term),
    stop: isStopword(t.raw, lang),
    value: /\p{N}/u.test(t.raw) || code.has(t.raw) || (i > 0 && /^\p{Lu}/u.test(t.raw)),
    digit: /\p{N}/u.test(t.raw),
  }));
}

/**
 * 1 / (1 + the fewest words between a question word and a value the question does not state), 0
 * when the sentence lacks either: 1 for "fan-out of 16"'s neighbours, 0.25 three words apart.
 * `digitsOnly`: only a word with a digit is a value (number_near).
 */
export function valueNear(words: readonly SentenceWord[], asked: (term: string) => boolean, digitsOnly = false): number {
  const anchors: number[] = [];
  const values: number[] = [];
  words.forEach((w, i) => {
    if (w.stop) return;
    if (asked(w.term)) anchors.push(i);
    else if (digitsOnly ? w.digit : w.value) values.push(i);
  });
  let best = Infinity;
  for (const a of anchors) for (const v of values) best = Math.min(best, Math.abs(a - v) - 1);
  return Number.isFinite(best) ? 1 / (1 + best) : 0;
}

/** The sentence opens its passage: the one before it (in the candidates' order) is of another passage. */
export function opensPassage(snippetIndex: number, before: number | undefined): boolean {
  return before === undefined || before !== snippetIndex;
}

/** "X is a…", "X refers to…", «X — это…», "X ist ein…": the phrases that define what comes before them (each language pack's `defining`). */
const DEFINING = new RegExp(`^(.{1,60}?)\\s(?:${packAlternation('defining')})(?![\\p{L}])`, 'iu');

/**
 * The sentence defines a question word: what comes before its defining phrase ("is a", "— это")
 * holds a question word ("File recovery is a core plugin…" for a question about File recovery).
 */
export function definesAsked(text: string, asked: (term: string) => boolean, lang?: string): boolean {
  const m = DEFINING.exec(text);
  if (!m) return false;
  return tokenize(m[1]!, lang).some((t) => !isStopword(t.raw, lang) && asked(matchForm(t.term)));
}

/**
 * Whether the sentence names something the question does not: a value (a number, a `code` span's
 * word, a capitalised word after the first) that is no question word, nor a longer or shorter form of
 * one ("PostgreSQL" for "postgres"). "Which literalinclude option…" is not answered by "I solved this
 * with the Sphinx literalinclude directive", which only names the question's own things. Undefined
 * for a sentence in a script without capitals, where names cannot be told from words.
 */
export function namesNewTerm(text: string, words: readonly SentenceWord[], asked: readonly string[]): boolean | undefined {
  if (CASELESS.test(text)) return undefined;
  const inQuestion = (term: string) => asked.some((a) => a === term || (a.length >= 5 && term.length >= 5 && (a.startsWith(term) || term.startsWith(a))));
  return words.some((w) => w.value && !w.stop && !inQuestion(w.term));
}

/** The share of `wanted` (matched forms) the sentence's own words hold (0 when nothing is wanted). */
export function holdsShare(words: readonly SentenceWord[], wanted: ReadonlySet<string>): number {
  if (wanted.size === 0) return 0;
  const own = new Set(words.map((w) => w.term));
  return [...wanted].filter((t) => own.has(t)).length / wanted.size;
}
