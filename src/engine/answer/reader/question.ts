/** What the answer reader reads in a question: its own words (not the words that frame it), the task of a how-to, the values it states, the nouns it asks for, derived and misspelt words. */
import { compoundParts, isStopword, stemWord, tokenize } from '../../search/analyzer.ts';
import type { AskedType } from '../answer-type.ts';
import type { ReaderOptions } from './types.ts';
import { matchForm } from './text.ts';

/** Words that frame a question rather than say what it is about (stemmed forms too). */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(
  (
    'what which who whom whose when where why how does doe did do long often many much kind sort tell explain describe mean ' +
    'что чего чему чем чём какой какая какое какие какую какого какому каким каком каких какими каков какова каково каковы кто кого кому кем ком когда где куда откуда почему зачем как сколько скольк скольких ли ' +
    'который которая которое которые которого которой которому которым чей чья чьё чье чьи ' +
    'wie wann wo woher wohin warum weshalb wieso weswegen wozu wer wen wem wessen was welche welcher welches welchen welchem ' +
    'womit wofür woraus worauf wodurch worin wovon lange oft häufig viele viel wieviel wieviele gibt ' +
    'quand où pourquoi combien quel quelle quels quelles qui que quoi lequel laquelle ' +
    'cuándo cuando dónde donde por qué cómo cuánto cuánta cuántos cuántas quién quiénes cuál cuáles ' +
    // Chinese and Japanese, as the word breaker splits them (什么时候: 什么 | 时候; どのくらい: どの | くらい).
    '什么 什么样 时候 哪 哪个 哪些 哪里 哪儿 哪种 哪家 哪天 哪年 谁 多少 几 多久 多长 多大 多高 多远 为什么 为何 怎么 怎样 如何 吗 呢 何时 请问 可以 能 能够 是否 ' +
    '何 なに なん いつ 誰 だれ どこ なぜ どうして どの どれ どんな いくら いくつ くらい ぐらい ですか ますか できます できますか ' +
    // Hindi and Thai
    'कितने कितनी कितना कब कौन किसने किसका किसकी क्यों कहाँ कहां क्या किस समय तक ' +
    'เท่าไร เท่าไหร่ เมื่อไร เมื่อไหร่ ใคร ทำไม ที่ไหน อะไร ไหน กี่ นาน แค่ไหน ' +
    // Arabic
    'ما ماذا متى أين اين من كم لماذا كيف أي هل ' +
    // Korean
    '얼마나 언제 누가 누구 왜 어디 어디에 무엇 무슨 어떤 어느 몇 얼마'
  ).split(' '),
);

/**
 * English function words the index's stopword list keeps ("its", "somewhere", "else", "anyone"): no
 * question's asked content rests on them, yet in a small vault their idf is high, and a quote without
 * "else" read as missing the question's most specific word ("…in my vault folder or somewhere
 * else?"), nor on "will" ("…the largest file Sync Plus will sync"). "own" stays a content word: "on their own" is what some questions ask.
 */
export const ENGLISH_FUNCTION_WORDS = 'its itself she hers herself ours ourselves yours yourself yourselves myself theirs themselves else somewhere anywhere everywhere nowhere someone somebody anyone anybody everyone everybody something anything everything just will'.split(' ');
/**
 * Russian modal verbs the stopword list lacks (it keeps "может", not "могло", "смогу", "нужно"): in
 * "…могло быть удалено" the asked content is «удалено», and no answer repeats the modal.
 */
export const RUSSIAN_FUNCTION_WORDS = 'могу можешь можем можете могут мог могла могло могли смогу сможешь сможет сможем сможете смогут смог смогла смогло смогли нужно надо должен должна должно должны'.split(' ');
export const FUNCTION_WORDS: Record<string, readonly string[]> = { en: ENGLISH_FUNCTION_WORDS, ru: RUSSIAN_FUNCTION_WORDS };
/** Words that do not count among a question's own, as the analyzer stems them in each analysis language ("why" is "whi"): the question words, and in English and Russian the function words above. */
export const questionStemSets = new Map<string, ReadonlySet<string>>();
export function questionStems(lang = 'en'): ReadonlySet<string> {
  let set = questionStemSets.get(lang);
  if (!set) {
    const words = [...QUESTION_WORDS, ...(FUNCTION_WORDS[lang] ?? [])];
    questionStemSets.set(lang, (set = new Set([...QUESTION_WORDS, ...words.map((w) => stemWord(w, lang))])));
  }
  return set;
}

/**
 * The verb of the task an English how-to question asks ("How can I *export* a note to PDF?"), which its quote must hold. English
 * only: a Russian step says «Поднимите» for «поднять», forms no stem joins.
 */
export const TASK_VERB = /(?<![\p{L}])(?:how (?:do|can|could|should|would|will|must) (?:i|we|you|one)|how to)\s+([\p{L}-]+)/iu;
/** «Как разделить слайды?»: a Russian how-to names its task by an infinitive. Its steps say it otherwise as often («Поднимите» for «поднять»), so it only ranks. */
export const TASK_INFINITIVE = /(?<![\p{L}])как (?:мне |нам |можно |нужно |надо )?(\p{L}+(?:ть|ти|чь)(?:ся|сь)?)(?![\p{L}])/iu;
/** The asked task's verb (matched form), and whether a quote must hold it (English) or it only ranks (a Russian infinitive). */
export function taskVerb(question: string, lang?: string): { form: string; required: boolean } | undefined {
  const english = TASK_VERB.exec(question);
  const m = english ?? TASK_INFINITIVE.exec(question);
  const t = m ? tokenize(m[1]!, lang)[0] : undefined;
  return t && !isStopword(t.raw, lang) ? { form: matchForm(t.term), required: english !== null } : undefined;
}

/** Prepositions a question may end on ("Where does she work *from*?", "Who does he report *to*?"). */
export const STRANDED = /(?<![\p{L}])(from|to|in|at|for|with|on|under|after)\s*[?,.!]*\s*$/iu;

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
export const DERIVED_MIN = 5;
export const DERIVED_REST = 4;

/** Verbs that give a thing its name, in the analysis languages: one counts as derived from another. */
export const NAMING_WORDS = 'called named known termed dubbed referred называется называются называют называли назван названа названо названы зовут именуется именуют heißt heißen genannt nennt nennen bezeichnet namens'.split(' ');
export const namingSets = new Map<string, ReadonlySet<string>>();
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
 * The question names its subject by a description rather than a name: a relative clause ("the
 * person who leads…", "the library that Nadia maintains", «инженер, который выбрал…») or a
 * possessive ("Lukas Becker's manager"). Its answer may take a second hop.
 */
export function describesSubject(question: string): boolean {
  const q = question.replace(/[’`]/g, "'");
  return /\S\s+(?:who|whom|whose|that|which)\s/i.test(q) || /[\p{L}]'s\s/u.test(q) || /(?<![\p{L}])(?:котор\p{L}*|чей|чья|чьё|чьи)(?![\p{L}])/iu.test(q.slice(q.indexOf(' ') + 1)) || /,\s*(?:кто|где|что)(?![\p{L}])/iu.test(q);
}

/** "What/which X", «какой X», "welcher X": the words after it, to the first word that is no noun of it. */
export const ASKS_WHICH = /(?<![\p{L}])(?:what|which|как(?:ой|ая|ое|ие|ую|им|ом|ого|ому|их)|welche[rsmn]?)\s+((?:[\p{L}'’-]+\s+){0,3})/iu;
export const NOT_A_HEAD = /^(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|may|might|must|of|in|on|at|for|to|from|by|with|the|a|an)$/i;
/** Demonstratives in English, Russian and German. */
export const DEMONSTRATIVES = 'this|these|those|such|этот|эта|это|эти|этого|этой|этих|этим|этом|эту|такой|такая|такие|dieser|diese|dieses|diesen|diesem';
/** A demonstrative (or, for the asked noun, the definite article and "that") and the noun after it. */
export const POINTING = new RegExp(`(?<![\\p{L}])(?:${DEMONSTRATIVES})\\s+([\\p{L}-]+)`, 'giu');
export const POINTING_OR_THE = new RegExp(`(?<![\\p{L}])(?:the|that|${DEMONSTRATIVES})\\s+([\\p{L}-]+)`, 'giu');

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
