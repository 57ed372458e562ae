/** What the answer reader reads in a question: its own words (not the words that frame it), the task of a how-to, the values it states, the nouns it asks for, derived and misspelt words. */
import { compoundParts, isStopword, stemWord, tokenize } from '../../search/analyzer.ts';
import type { AskedType } from '../answer-type.ts';
import type { ReaderOptions } from './types.ts';
import { matchForm } from './text.ts';
import { STRANDED } from '../../lang/en/reader.ts';
import { packAlternation, packWords, READER_PACKS, readerPack } from '../../lang/reader-packs.ts';

/** Words that frame a question rather than say what it is about (stemmed forms too), of every language pack. */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(packWords('questionWords'));

/** Words that do not count among a question's own, as the analyzer stems them in each analysis language ("why" is "whi"): the question words, and the function words of its language's pack. */
const questionStemSets = new Map<string, ReadonlySet<string>>();
export function questionStems(lang = 'en'): ReadonlySet<string> {
  let set = questionStemSets.get(lang);
  if (!set) {
    const words = [...QUESTION_WORDS, ...(readerPack(lang)?.functionWords ?? [])];
    questionStemSets.set(lang, (set = new Set([...QUESTION_WORDS, ...words.map((w) => stemWord(w, lang))])));
  }
  return set;
}

/** How each language's how-to names its task's verb, and whether the quote must hold it. */
const TASK_VERBS = READER_PACKS.flatMap((p) => (p.taskVerb ? [p.taskVerb] : []));
/** The asked task's verb (matched form), and whether a quote must hold it (English) or it only ranks (a Russian infinitive): the first pack's pattern that matches. */
export function taskVerb(question: string, lang?: string): { form: string; required: boolean } | undefined {
  let m: RegExpExecArray | null = null;
  let required = false;
  for (const verb of TASK_VERBS) {
    m = verb.pattern.exec(question);
    if (m) {
      required = verb.required;
      break;
    }
  }
  const t = m ? tokenize(m[1]!, lang)[0] : undefined;
  return t && !isStopword(t.raw, lang) ? { form: matchForm(t.term), required } : undefined;
}


/**
 * The form a sentence states the asked value in, when the question's wording shows it: a question
 * that ends on a preposition is answered by that preposition before a name or number ("Where does
 * Tomás Herrera work from?" — "works remotely from Valencia", not "spent five years in Madrid").
 * English. Read for a question about a known subject (ReaderOptions.directForms), where it tells
 * apart that subject's sentences; over open passages it picks as often as it misses.
 */
export function directForm(part: string, type: AskedType['type']): RegExp | undefined {
  const stranded = type === 'place' || type === 'person' || type === 'entity' ? STRANDED.exec(part) : null;
  if (stranded) return new RegExp(`(?<![\\p{L}])${stranded[1]!.toLowerCase()}\\s+(?:the\\s+)?[\\p{Lu}\\p{N}]`, 'u');
  return undefined;
}

/** Numbers and capitalised words of the question: a value the question already states is no answer. */
export function questionValues(question: string, lang?: string): RegExp | null {
  // A function word capitalised as the question's first ("In which year…") names nothing: "In 1237 …" keeps its "In".
  const vals = [...new Set(question.match(/\d[\d.,:-]*\d|\d|(?<![\p{L}])[\p{Lu}][\p{L}'’-]+/gu) ?? [])].filter((v) => v.length > 0 && !isStopword(v.toLowerCase(), lang));
  if (vals.length === 0) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${vals.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\p{L}\\p{N}])`, 'gu');
}

/**
 * A word of the sentence derived from the question's word, or the other way round: the two share
 * their beginning, at least DERIVED_MIN letters and three quarters of the shorter one, and the
 * longer one goes on for at most DERIVED_REST letters after it, in any language ("scientific" and
 * "science", "percentage" and "percent", "Mongolia" and "Mongols": their stems differ). It counts
 * as holding that word, less than the word itself: a shared beginning is not always a shared
 * meaning ("pharmacies", "pharmacists").
 */
export const DERIVED_SHARE = 0.75;
/** In the check that one sentence holds the question together it counts less: a derived word from a passage on the topic must not make the notes look as if they answered. */
export const DERIVED_TOGETHER = 0.5;
const DERIVED_MIN = 5;
const DERIVED_REST = 4;

/** Verbs that give a thing its name, in the analysis languages: one counts as derived from another. */
export const NAMING_WORDS = packWords('namingWords');
const namingSets = new Map<string, ReadonlySet<string>>();
export function namingForms(lang = 'en'): ReadonlySet<string> {
  let set = namingSets.get(lang);
  if (!set) namingSets.set(lang, (set = new Set(NAMING_WORDS.flatMap((w) => tokenize(w, lang).map((t) => matchForm(t.term))))));
  return set;
}

/** Is one of two different matched forms derived from the other (see DERIVED_SHARE)? */
export function derivedWords(a: string, b: string): boolean {
  if (a === b || a.length < DERIVED_MIN || b.length < DERIVED_MIN) return false;
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k >= DERIVED_MIN && k >= 0.75 * Math.min(a.length, b.length) && Math.max(a.length, b.length) - k <= DERIVED_REST;
}

/**
 * A question word no file holds, and a word of the passages it misspells, with the same first
 * letter: two letters swapped ("cuase", "otuage"), from 6 letters one missing, added or changed
 * ("recovry", "algoritm"), from 10 letters two such slips. Shorter words one letter apart are as
 * often two words ("bogus", "bonus"). It counts as that word does when derived, and the answer
 * says which word it was read as.
 */
export function misspelling(typed: string, word: string): boolean {
  if (typed === word || typed[0] !== word[0] || typed.length < 4 || Math.abs(typed.length - word.length) > 2) return false;
  if (typed.length === word.length) {
    const diff = [...typed].flatMap((ch, i) => (ch === word[i] ? [] : [i]));
    if (diff.length === 2 && diff[1] === diff[0]! + 1 && typed[diff[0]!] === word[diff[1]!] && typed[diff[1]!] === word[diff[0]!]) return true;
  }
  const longest = Math.max(typed.length, word.length);
  const most = longest >= 10 ? 2 : longest >= 6 ? 1 : 0;
  if (most === 0) return false;
  // Damerau-Levenshtein (optimal string alignment), stopped once every cell of a row is over the bound.
  let before: number[] = [];
  let prev = Array.from({ length: word.length + 1 }, (_, j) => j);
  for (let i = 1; i <= typed.length; i++) {
    const row = [i];
    let low = i;
    for (let j = 1; j <= word.length; j++) {
      const cost = typed[i - 1] === word[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && typed[i - 1] === word[j - 2] && typed[i - 2] === word[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
      low = Math.min(low, d);
    }
    if (low > most) return false;
    before = prev;
    prev = row;
  }
  return prev[word.length]! <= most;
}

/**
 * A question word spelled in Latin letters (a pack's toLatin: «кафку» kafku, «батч» batch) and a
 * passage's Latin word it borrows: the same, or one of them the other with up to two letters more
 * (an ending: "kafk" of «кафку» and "kafka"), or misspelled by the sound ("doker", "docker"). Three
 * letters at least.
 */
export function borrowedWord(latin: string, word: string): boolean {
  if (latin.length < 3 || word.length < 3 || !/^[a-z]+$/.test(word)) return false;
  if (latin === word) return true;
  const [short, long] = latin.length <= word.length ? [latin, word] : [word, latin];
  return (long.startsWith(short) && long.length - short.length <= 2 && short.length >= (short === word ? 4 : 3)) || misspelling(latin, word);
}

/**
 * The question names its subject by a description rather than a name: a relative clause ("the
 * person who leads…", "the library that Nadia maintains", «инженер, который выбрал…») or a
 * possessive ("Lukas Becker's manager"). Its answer may take a second hop.
 */
export function describesSubject(question: string): boolean {
  const q = question.replace(/[’`]/g, "'");
  return READER_PACKS.some((p) => p.describesSubject?.(q) === true);
}

/** "What/which X", «какой X», "welcher X": the words after it, to the first word that is no noun of it. */
const ASKS_WHICH = new RegExp(`(?<![\\p{L}])(?:${packAlternation('asksWhich')})\\s+((?:[\\p{L}'’-]+\\s+){0,3})`, 'iu');
const NOT_A_HEAD = new RegExp(`^(?:${packAlternation('notAHead')})$`, 'i');
/** Demonstratives of every language pack. */
const DEMONSTRATIVES = packAlternation('demonstratives');
/** A demonstrative (or, for the asked noun, the definite article and "that") and the noun after it. */
export const POINTING = new RegExp(`(?<![\\p{L}])(?:${DEMONSTRATIVES})\\s+([\\p{L}-]+)`, 'giu');
export const POINTING_OR_THE = new RegExp(`(?<![\\p{L}])(?:${packAlternation('articles')}|${DEMONSTRATIVES})\\s+([\\p{L}-]+)`, 'giu');

/** The nouns a "what/which" question asks for (matched forms): "What device is used…" asks for a device. */
export function askedNouns(question: string, lang?: string): Set<string> {
  const out = new Set<string>();
  const m = ASKS_WHICH.exec(question.replace(/\s+/g, ' '));
  for (const w of m?.[1]?.trim().split(' ') ?? []) {
    if (w === '' || NOT_A_HEAD.test(w) || isStopword(w, lang)) break;
    const t = tokenize(w, lang)[0];
    if (t && t.term.length > 2) out.add(matchForm(t.term));
  }
  return out;
}

/** The question terms no file holds that are German compounds of terms files hold, with those parts (the word as written kept for each part). */
export function compoundSplits(terms: readonly string[], written: Map<string, string>, lang: string | undefined, termStats: ReaderOptions['termStats']): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (lang !== 'de' || terms.length === 0) return out;
  const df = (ts: readonly string[]) => new Map([...termStats(ts)].map(([t, s]) => [t, s.df]));
  const own = df(terms);
  for (const t of terms) {
    if ((own.get(t) ?? 0) > 0 || !written.has(t)) continue;
    const parts = compoundParts(written.get(t)!, lang, df);
    if (parts.length === 0) continue;
    out.set(t, parts);
    for (const p of parts) if (!written.has(p)) written.set(p, written.get(t)!);
  }
  return out;
}

/**
 * The question as the reader reads it: contractions written out, a misspelled question word as the
 * pack writes it, a phrase that only frames the question left out.
 */
export function readerQuestion(asked: string, options: Pick<ReaderOptions, 'language' | 'termStats'>): string {
  return withoutFraming(withQuestionWordsSpelled(withoutContractions(asked, options.language), options.language, options.termStats), options.language);
}

/** The question without a phrase that only frames it ("Remind me, …", «Напомни, …»: each pack's `framing`), when something is left. */
export function withoutFraming(question: string, lang = 'en'): string {
  const framing = framingOf(lang);
  if (!framing) return question;
  const rest = question.replace(framing, '');
  return /\p{L}/u.test(rest) ? rest : question;
}

/**
 * The question with a misspelled question word written as the language's pack has it («сколко дней» →
 * «сколько дней», "waht is" → "what is"; misspelling's bounds: two letters swapped, from six letters
 * one slip), where no file holds the word as written («почем», «котором» are words of their own). Read
 * as written, such a word is one "your files never mention", and the question asks for no kind of value.
 */
export function withQuestionWordsSpelled(question: string, lang: string | undefined, termStats: ReaderOptions['termStats']): string {
  const words = readerPack(lang ?? 'en')?.questionWords ?? [];
  if (words.length === 0) return question;
  const known = new Set(words);
  const meant = new Map<string, string>();
  for (const [word] of question.matchAll(/\p{L}+/gu)) {
    const lower = word.toLowerCase();
    if (lower.length < 4 || known.has(lower) || meant.has(lower) || isStopword(lower, lang)) continue;
    const w = words.find((q) => misspelling(lower, q));
    if (w !== undefined) meant.set(lower, w);
  }
  if (meant.size === 0) return question;
  const stems = new Map([...meant.keys()].map((w) => [w, tokenize(w, lang)[0]?.term ?? w] as const));
  const stats = termStats([...stems.values()]);
  for (const [w, stem] of stems) if ((stats.get(stem)?.df ?? 0) > 0) meant.delete(w);
  return meant.size === 0
    ? question
    : question.replace(/\p{L}+/gu, (word) => {
        const w = meant.get(word.toLowerCase());
        return w === undefined ? word : word[0] === word[0]!.toLowerCase() ? w : w[0]!.toUpperCase() + w.slice(1);
      });
}

/** Each language's framing phrases as one pattern anchored at the question's start (null: none), made once. */
const framingPatterns = new Map<string, RegExp | null>();
function framingOf(lang: string): RegExp | null {
  if (!framingPatterns.has(lang)) {
    const phrases = readerPack(lang)?.framing ?? [];
    framingPatterns.set(lang, phrases.length > 0 ? new RegExp(`^\\s*(?:${phrases.join('|')})(?:\\s*[,:;—–-]\\s*|\\s+)`, 'iu') : null);
  }
  return framingPatterns.get(lang)!;
}

/**
 * An English question with its contractions written out: "who's" is "who is", "we're" "we are",
 * "I've" "I have", "you'll" "you will", "I'm" "I am". Split at the apostrophe they leave words no
 * note holds ("re", "ve") weighing as the question's rarest, and "who's the general counsel" would
 * not read as "who is the general counsel" (whose asked attribute no file may name). A possessive
 * ("Kestrel's") stays: only a question word or pronoun before "'s" is read as "is". A negation
 * ("doesn't") stays too: written out, its "not" is a function word and "why doesn't the brain clear
 * its waste while awake?" would read as "why does it".
 */
export function withoutContractions(question: string, lang?: string): string {
  if (lang !== undefined && lang !== 'en') return question;
  return question
    .replace(/\b(what|who|where|when|why|how|which|that|there|here|it|he|she)['’]s\b/giu, '$1 is')
    .replace(/(\p{L})['’]re\b/giu, '$1 are')
    .replace(/(\p{L})['’]ve\b/giu, '$1 have')
    .replace(/(\p{L})['’]ll\b/giu, '$1 will')
    .replace(/\b(i)['’]m\b/giu, '$1 am');
}
