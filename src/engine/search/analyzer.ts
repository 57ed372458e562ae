/**
 * The lexical analyzer shared by indexing and querying: Unicode word tokens, lower-cased, ё folded
 * to е, Snowball stemming, stopwords dropped, and code identifiers (camelCase, snake_case) indexed
 * whole and by part. FTS5 then only splits on spaces (unicode61) and folds diacritics, so the index
 * holds exactly these terms.
 *
 * The stemmer of a word is chosen by its script and by the language of its text: Cyrillic words get
 * the Russian stemmer, Latin words the stemmer of the text's language (German, French, Spanish,
 * Italian, Portuguese, Dutch, Swedish, Danish, Norwegian, Finnish; `ANALYZED_LANGUAGES`) and English
 * otherwise. That language's function words are dropped beside the English and Russian ones.
 * English and Russian text (and text of any other or unknown language) is analyzed as it always
 * was, so an English or Russian vault's index terms do not depend on language detection.
 */
import snowball from 'snowball-stemmers';
import * as stopwords from 'stopword';
import { detectLanguage } from '../lang/detect.ts';

const { eng, rus, zho, jpn, hin, tha, ara } = stopwords;

/** Changes whenever the terms produced for a text change: the lexical index is then rebuilt. */
export const ANALYZER_VERSION = 'snowball-latin-v8-korean';

const english = snowball.newStemmer('english');
const russian = snowball.newStemmer('russian');
let arabic: { stem(word: string): string } | undefined;

/** Latin-script languages with a stemmer of their own: ISO 639-1 code → Snowball algorithm and stopword list. */
const LATIN_ANALYZERS = {
  de: { algorithm: 'german', list: 'deu' },
  fr: { algorithm: 'french', list: 'fra' },
  es: { algorithm: 'spanish', list: 'spa' },
  it: { algorithm: 'italian', list: 'ita' },
  pt: { algorithm: 'portuguese', list: 'por' },
  nl: { algorithm: 'dutch', list: 'nld' },
  sv: { algorithm: 'swedish', list: 'swe' },
  da: { algorithm: 'danish', list: 'dan' },
  no: { algorithm: 'norwegian', list: 'nob' },
  fi: { algorithm: 'finnish', list: 'fin' },
} as const;
type LatinLanguage = keyof typeof LATIN_ANALYZERS;
/** The languages whose text is analyzed otherwise than English text ('en', 'ru' and unknown text share one analysis). */
export const ANALYZED_LANGUAGES: readonly string[] = Object.keys(LATIN_ANALYZERS);

/**
 * The analysis a text in `lang` gets: its own language's when it has a stemmer here, else English
 * (which also stems the Cyrillic words of any text as Russian).
 */
export function analysisLanguage(lang: string | null | undefined): string {
  return lang && Object.hasOwn(LATIN_ANALYZERS, lang) ? lang : 'en';
}
/**
 * Words the stopword lists drop that a person searches for: content verbs ("make relay-dev",
 * "take", "get"), words of time and order (before, after, never, now, сегодня, после, перед,
 * никогда) and nouns or adjectives (way, same, раз). Only function words stay stopwords: articles,
 * pronouns, prepositions, conjunctions, auxiliaries and particles.
 */
const SEARCHABLE = new Set(
  (
    'after before came come get got like make never now said same still take way well ' +
    'сказал сегодня теперь потом никогда всегда иногда после перед больше лучше много нельзя можно надо раз ' +
    // The Chinese list holds units of time and content words too: 年 (year), 日 (day), 小 (small), 说 (say).
    '年 月 日 时 分 秒 小 中 看 说 做 第 请 共 ' +
    // and the Thai list: วัน (day), ก่อน (before), หลัง (after).
    'วัน ก่อน หลัง หลังจาก ครั้ง'
  ).split(' '),
);
/** Chinese function words of more than one character that the stopword list leaves out (negation, modals, demonstratives, pronouns). */
const CHINESE_FUNCTION_WORDS = '没有 没 可以 能 能够 应该 是否 如果 因为 所以 但是 而且 还是 或者 已经 正在 一个 一些 这个 那个 这些 那些 这样 那样 我们 你们 他们 她们 它们 它 自己 以及 通过 进行'.split(' ');
/** English and Russian function words, and Chinese, Japanese, Hindi, Thai and Arabic ones (their scripts are their own, so they drop in any text). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  [...eng, ...rus, ...zho, ...CHINESE_FUNCTION_WORDS, ...jpn, ...hin, ...tha, ...ara].map((w) => w.toLowerCase().replace(/ё/g, 'е')).filter((w) => !SEARCHABLE.has(w)),
);
/**
 * Words of a language's stopword list that a person searches for or that state a fact: numbers
 * ("sieben Tage"), units of time (Tag, Jahr, Zeit, Uhr), words of time and order (heute, später,
 * nie), content nouns, adjectives and verbs (Beispiel, Ende, gut, neu, möglich, machen, gehen).
 * Only function words stay stopwords, as in English and Russian.
 */
const SEARCHABLE_IN: Partial<Record<LatinLanguage, string>> = {
  de:
    'acht achte achten achter achtes drei dritte dritten dritter drittes elf erste ersten erster erstes fünf fünfte fünften fünfter fünftes ' +
    'neun neunte neunten neunter neuntes sechs sechste sechsten sechster sechstes sieben siebente siebenten siebenter siebentes vier vierte ' +
    'vierten vierter viertes zehn zehnte zehnten zehnter zehntes zwanzig zwei zweite zweiten zweiter zweites zwölf ' +
    'jahr jahre jahren tag tage tagen zeit uhr lang lange kurz heute morgen früher später vergangenen nie zurück ' +
    'mensch menschen gott mann ordnung beispiel ende sache teil startseite suche ' +
    'gut gute guter gutes schlecht richtig recht rechte rechten rechter rechtes leicht möglich hoch groß große großen großer großes gross grosse ' +
    'grossen grosser grosses kleine kleinen kleiner kleines neue neuen offen satt ernst ehrlich besser besten lieber bekannt allgemeinen ' +
    'gehen geht ging kommen kommt kam machen macht machte gemacht sagt sagte gesagt nahm sah steht tun tat tritt wissen',
  fr: 'faire',
};

/**
 * The function words of an analysis language (analysisLanguage): English and Russian ones for 'en';
 * for a Latin-script language its stopword list (less SEARCHABLE_IN) beside them.
 */
const LATIN_STOPWORDS = new Map<string, ReadonlySet<string>>();
function stopwordsOf(lang: string): ReadonlySet<string> {
  if (lang === 'en') return STOPWORDS;
  let set = LATIN_STOPWORDS.get(lang);
  if (!set) {
    const spec = LATIN_ANALYZERS[lang as LatinLanguage];
    const keep = new Set((SEARCHABLE_IN[lang as LatinLanguage] ?? '').split(' '));
    set = new Set([...STOPWORDS, ...stopwords[spec.list].map((w) => w.toLowerCase()).filter((w) => !keep.has(w) && /^[\p{L}]+$/u.test(w))]);
    LATIN_STOPWORDS.set(lang, set);
  }
  return set;
}

/** A word: letters, their combining marks (the vowel signs of Hindi, Thai…), digits and "_". */
const WORD = /[\p{L}\p{M}\p{N}_]+/gu;
/**
 * Scripts written without spaces between words (Chinese and Japanese: Han, hiragana, katakana;
 * Thai, Lao, Khmer, Burmese): a run of them is split into words by ICU's dictionary-based word
 * breaker (Intl.Segmenter), so that "购买后七天内提供全额退款" is searched and read as 购买 | 后 | 七天 |
 * 内 | 提供 | 全额 | 退款.
 */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
let segmenter: Intl.Segmenter | undefined;
/** The words of a run of word characters that holds a script written without spaces, with their offsets in it. */
export function unspacedWords(run: string): { word: string; index: number }[] {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  const out: { word: string; index: number }[] = [];
  for (const s of segmenter.segment(run)) if (s.isWordLike) out.push({ word: s.segment, index: s.index });
  return out;
}
/**
 * The words of a Chinese or Japanese run; a word the breaker makes of function characters alone
 * ("的是", "什么": each character a function word) is read as those characters, so it drops as they do.
 */
function unspacedTerms(run: string, stops: ReadonlySet<string>): string[] {
  return unspacedWords(run).flatMap(({ word }) => (word.length > 1 && !stops.has(word) && [...word].every((c) => stops.has(c)) ? [...word] : [word]));
}
/** Whether a text holds Chinese or Japanese, written without spaces between words. */
export function hasUnspacedScript(text: string): boolean {
  return UNSPACED.test(text);
}
const CYRILLIC = /[\u0400-\u04FF]/;
/**
 * Korean writes its particles onto the word ("서버는", "서버에서", "서버를": the server). A Hangul word
 * ending in one, with two syllables or more before it, is also indexed and searched as the word
 * without it (an extra term, as an identifier's parts are): "서버" finds "서버에서", and the word as
 * written still matches exactly.
 */
const HANGUL_WORD = /^[\uAC00-\uD7A3]{3,}$/;
const KOREAN_PARTICLE = /(?:에서|에게|한테|으로|부터|까지|처럼|보다|이나|은|는|을|를|이|가|의|에|도|로|와|과|만)$/;
/** A Korean word without the particle it ends in ("서버에서": 서버), or null. */
export function withoutParticle(word: string): string | null {
  if (!HANGUL_WORD.test(word)) return null;
  const bare = word.replace(KOREAN_PARTICLE, '');
  return bare !== word && bare.length >= 2 ? bare : null;
}
/**
 * An Arabic word (Arabic letters, none that only Persian or Urdu use: پ چ ژ گ ک ی ٹ ڈ ڑ ں ے ھ): the
 * Arabic stemmer takes off the article and the affixes and the vowel marks ("الكتاب", "كِتَابٌ": كتاب).
 */
const ARABIC = /^[\u0621-\u065F\u0670]+$/;
/** A lower-case word of Latin letters (a-z, ß, the accented letters of Latin-1 and Latin Extended-A). */
const LATIN_WORD = /^[a-z\u00df-\u00f6\u00f8-\u00ff\u0100-\u017f]+$/;
const IDENTIFIER_PARTS = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g;
/** Russian stems are cut to this length so that, e.g., настроить and настройка meet (настро-). */
const RUSSIAN_STEM_MAX = 6;
const cache = new Map<string, string>();
/** Stems of Latin words in the other analyzed languages, by language. */
const latinCaches = new Map<string, { stemmer: { stem(word: string): string }; cache: Map<string, string> }>();

export function foldText(text: string): string {
  return text.normalize('NFC').replace(/[ёЁ]/g, (c) => (c === 'ё' ? 'е' : 'Е'));
}

/** The index term of one lower-cased word, in text of language `lang` (default English). */
export function stemWord(word: string, lang?: string): string {
  if (lang !== undefined && lang !== 'en' && Object.hasOwn(LATIN_ANALYZERS, lang) && LATIN_WORD.test(word)) return latinStem(word, lang);
  let stem = cache.get(word);
  if (stem === undefined) {
    if (CYRILLIC.test(word)) stem = russian.stem(word).slice(0, RUSSIAN_STEM_MAX);
    else if (ARABIC.test(word)) stem = (arabic ??= snowball.newStemmer('arabic')).stem(word);
    else if (/^[a-z]+$/.test(word) && word.length > 2) stem = english.stem(word);
    else stem = word;
    if (cache.size > 200_000) cache.clear();
    cache.set(word, stem);
  }
  return stem;
}

function latinStem(word: string, lang: string): string {
  if (word.length <= 2) return word;
  let entry = latinCaches.get(lang);
  if (!entry) latinCaches.set(lang, (entry = { stemmer: snowball.newStemmer(LATIN_ANALYZERS[lang as LatinLanguage].algorithm), cache: new Map() }));
  let stem = entry.cache.get(word);
  if (stem === undefined) {
    stem = entry.stemmer.stem(word);
    if (entry.cache.size > 200_000) entry.cache.clear();
    entry.cache.set(word, stem);
  }
  return stem;
}

export interface Token {
  /** The word as written. */
  raw: string;
  /** Its index term. */
  term: string;
  /** Parts of an identifier (retrySync -> retry, sync), as terms. */
  parts: string[];
}

/**
 * One word's token in text analyzed as `l` (analysisLanguage) with its function words `stops`. A
 * Korean word loses its particle (withoutParticle: only words of Hangul syllables have one).
 */
function tokenOf(raw: string, l: string, stops: ReadonlySet<string>): Token {
  const lower = raw.toLowerCase();
  const parts: string[] = [];
  const bare = withoutParticle(raw);
  if (bare) parts.push(bare);
  if (/[a-z][A-Z]|_|[A-Za-z]\d|\d[A-Za-z]/.test(raw)) {
    for (const p of raw.match(IDENTIFIER_PARTS) ?? []) {
      const lp = p.toLowerCase();
      if (lp.length > 1 && lp !== lower && !stops.has(lp)) parts.push(stemWord(lp, l));
    }
  }
  return { raw, term: stemWord(lower, l), parts };
}

/** Each word of a text as written (after foldText), a run of a script written without spaces cut into its words. */
function eachWord(text: string, stops: ReadonlySet<string>, visit: (raw: string) => void): void {
  const folded = foldText(text);
  const unspaced = UNSPACED.test(folded);
  for (const match of folded.matchAll(WORD)) {
    if (unspaced && UNSPACED.test(match[0])) for (const raw of unspacedTerms(match[0], stops)) visit(raw);
    else visit(match[0]);
  }
}

/** The words of a text and their index terms, for text of language `lang` (default English). */
export function tokenize(text: string, lang?: string): Token[] {
  const tokens: Token[] = [];
  const l = analysisLanguage(lang);
  const stops = stopwordsOf(l);
  eachWord(text, stops, (raw) => tokens.push(tokenOf(raw, l, stops)));
  return tokens;
}

/**
 * The index terms of each word as written, by analysis language: a word's terms depend on nothing
 * else, and indexing meets the same words in chunk after chunk (analyzing them was a tenth of an
 * index run). Forgotten all at once past ANALYZED_WORDS.
 */
const analyzedWords = new Map<string, readonly string[]>();
const ANALYZED_WORDS = 50_000;

/**
 * Words this long are not kept: V8 cuts a string of 13 characters or more out of its text without
 * copying it, so a kept word would keep its whole chunk's text alive.
 */
const KEPT_WORD_MAX = 12;

/** The terms a word stands for in the word index: its term unless it is a function word, then its parts. */
function indexTermsOf(raw: string, l: string, stops: ReadonlySet<string>): readonly string[] {
  const key = raw.length > KEPT_WORD_MAX ? null : l === 'en' ? raw : `${l}\u0000${raw}`;
  let terms = key === null ? undefined : analyzedWords.get(key);
  if (terms === undefined) {
    const t = tokenOf(raw, l, stops);
    terms = stops.has(t.raw.toLowerCase().replace(/ё/g, 'е')) ? t.parts : [t.term, ...t.parts];
    if (key !== null) {
      if (analyzedWords.size >= ANALYZED_WORDS) analyzedWords.clear();
      analyzedWords.set(key, terms);
    }
  }
  return terms;
}

/** The text stored in the FTS5 columns: index terms separated by spaces, stopwords dropped. */
export function analyzeForIndex(text: string, lang?: string): string {
  const out: string[] = [];
  const l = analysisLanguage(lang);
  const stops = stopwordsOf(l);
  eachWord(text, stops, (raw) => {
    for (const term of indexTermsOf(raw, l, stops)) out.push(term);
  });
  return out.join(' ');
}

/** Whether a word is a function word of text in `lang` (default English; English and Russian ones count in every language). */
export function isStopword(word: string, lang?: string): boolean {
  const l = analysisLanguage(lang);
  return stopwordsOf(l).has(foldText(word).toLowerCase());
}

/** A chunk's own language counts from this confidence (function words, tinyld's telling n-grams); below it the note's decides. */
const SURE_CHUNK = 0.9;

/**
 * The language of a note and of each of its chunks (in order), as stored with the chunks and used to
 * analyze them; the note's is that of most of its sure chunks. A chunk's own detection decides when it is sure; a short or unsure chunk (a list of
 * names, a table, a line of code: detection leans English) takes its note's language when that is one
 * of ANALYZED_LANGUAGES, so that a German note is stemmed as German throughout. A note in English,
 * Russian or another language leaves its chunks' detections as they are.
 */
export function detectChunkLanguages(texts: readonly string[]): { doc: string; chunks: string[] } {
  const own = texts.map((t) => detectLanguage(t));
  // The note's language: the one most of its sure chunks are in (the earliest on a tie), read from its
  // start only when no chunk is sure; a one-chunk note is its chunk.
  const sure = new Map<string, number>();
  for (const d of own) if (d.confidence >= SURE_CHUNK) sure.set(d.lang, (sure.get(d.lang) ?? 0) + 1);
  let doc = own.length === 1 ? own[0]!.lang : '';
  if (!doc && sure.size > 0) doc = [...sure].reduce((best, cur) => (cur[1] > best[1] ? cur : best))[0];
  if (!doc) doc = detectLanguage(texts.slice(0, 4).join('\n').slice(0, 2000)).lang;
  const fallback = ANALYZED_LANGUAGES.includes(doc);
  return { doc, chunks: own.map((d) => (fallback && d.confidence < SURE_CHUNK ? doc : d.lang)) };
}

/** Letters German puts between the parts of a compound (Bildung-s-rabatt, Woche-n-ende). */
const LINKS = ['', 's', 'es', 'n', 'en', 'e', 'er'];
/** Each part of a split compound has at least this many letters. */
const MIN_PART = 3;

/**
 * The index terms of the two parts of a German compound ("Bildungsrabatt" → bildung, rabatt), when
 * the word itself is unknown to the vault and both parts are known: notes write "Rabatt für
 * Bildungseinrichtungen" where a question asks for "Bildungsrabatt". `df` gives each term's document
 * frequency (0 or absent: no chunk holds it). Of the splits whose parts are both known, the most
 * balanced (its shorter part longest) is taken. Empty when the word is no such compound, or its
 * language writes none (only German is split).
 */
export function compoundParts(word: string, lang: string, df: (terms: readonly string[]) => ReadonlyMap<string, number>): string[] {
  const lower = foldText(word).toLowerCase();
  if (lang !== 'de' || !LATIN_WORD.test(lower) || lower.length < 2 * MIN_PART + 1) return [];
  const splits: { left: string; right: string; shorter: number }[] = [];
  for (let i = MIN_PART; i <= lower.length - MIN_PART; i++) {
    const right = stemWord(lower.slice(i), 'de');
    for (const link of LINKS) {
      const head = lower.slice(0, i);
      if (!head.endsWith(link) || head.length - link.length < MIN_PART) continue;
      const left = head.slice(0, head.length - link.length);
      if (isStopword(left, 'de') || isStopword(lower.slice(i), 'de')) continue;
      splits.push({ left: stemWord(left, 'de'), right, shorter: Math.min(left.length, lower.length - i) });
    }
  }
  if (splits.length === 0) return [];
  const counts = df([...new Set(splits.flatMap((s) => [s.left, s.right]))]);
  const known = splits.filter((s) => (counts.get(s.left) ?? 0) > 0 && (counts.get(s.right) ?? 0) > 0);
  if (known.length === 0) return [];
  const best = known.reduce((a, b) => (b.shorter > a.shorter ? b : a));
  return best.left === best.right ? [best.left] : [best.left, best.right];
}
