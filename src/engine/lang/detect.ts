/**
 * Language of a chunk or a query, and which languages an embedding model covers (issue 14): an
 * English-only embedder ranks Russian text near random (../shared/models/README.md), so retrieval
 * must know both sides.
 *
 * tinyld (n-grams, 62 languages, pure JS) alone is not enough here: it is unsure on two-word
 * queries ("relay port": no answer; "hello": Italian), one Greek letter in an English abstract
 * makes it answer Greek, "python json print tree" is Czech to it, and it costs 1–2 ms per chunk on
 * these machines, more than lexical indexing of the chunk itself. So the letters decide first
 * (script, the Russian alphabet, function words) and tinyld is asked only when they cannot, on a
 * short sample, its answer limited to languages written in the text's script.
 *
 * Tuned for English and Russian, which this app's users write: plain-ASCII text in another Latin
 * language ("waar is het station") leans English unless tinyld is sure; an unsure mix of accented
 * words is 'und', which any embedder is allowed to serve.
 */
import * as stopwords from 'stopword';
import { detectAll, tinyldModule } from './ngram-detect.ts';

// tinyld unpacks its n-gram profiles when loaded (100–300 ms here): ngram-detect.ts loads it on first
// use, which most English and Russian text never reaches, and answers as it does, faster.

export interface DetectedLanguage {
  /** ISO 639-1 code ('en', 'ru', ...), or 'und' when unknown: empty, too short, code, numbers. */
  lang: string;
  /** 1 certain, about 0.5 a lean (an unsure short query), 0 for 'und'. */
  confidence: number;
}

/** The language of a 10 MB file is the language of its start; the rest would only cost time. */
const MAX_CHARS = 2000;
/** tinyld's cost grows with its input (about 1 ms per 300 chars here); a short sample decides as well. */
const TINYLD_CHARS = 300;
/** Function words are counted in this many chars: enough words to tell, a third of the cost of 2,000. */
const WORDS_CHARS = 600;
/** Fewer letters than this say nothing ("x", "42", "🙂"). */
const MIN_LETTERS = 2;
/** Below this share of letters among non-space characters the text is code, numbers or symbols. */
const MIN_LETTER_SHARE = 0.5;
/** tinyld's "accuracy" is 1 when one of its telling n-grams hits and a few hundredths otherwise: only the former is taken. */
const TINYLD_SURE = 0.5;
const UNKNOWN: DetectedLanguage = { lang: 'und', confidence: 0 };

/** Frequent English function words that other Latin-script languages rarely use. */
const ENGLISH_WORDS = new Set(
  'the of and to is are was were be been with for that this these those what which who whom how when where why does did do from by it its have has had not or an at can will would should there their they we you our into than then'.split(' '),
);
/** Latin-script languages tinyld may answer for Latin text (not Latin, Esperanto, Klingon, Berber...). */
const LATIN_LANGS = ['en', 'fr', 'de', 'es', 'pt', 'it', 'nl', 'sv', 'da', 'no', 'fi', 'is', 'pl', 'cs', 'sk', 'hu', 'ro', 'tr', 'lt', 'lv', 'et', 'id', 'vi', 'tl', 'af', 'ga'];
/** stopword's list for each Latin-script language of LATIN_LANGS that it has. */
const STOPWORD_LISTS = {
  fr: 'fra', de: 'deu', es: 'spa', pt: 'por', it: 'ita', nl: 'nld', sv: 'swe', da: 'dan', no: 'nob', fi: 'fin', pl: 'pol', cs: 'ces', sk: 'slk',
  hu: 'hun', ro: 'ron', tr: 'tur', lt: 'lit', lv: 'lav', et: 'est', id: 'ind', vi: 'vie', tl: 'tgl', af: 'afr', ga: 'gle',
} as const;
const CYRILLIC_LANGS = ['ru', 'uk', 'be', 'bg', 'mk', 'sr', 'kk', 'tt', 'mn'];
/** Cyrillic letters outside the Russian alphabet (Ukrainian і ї є ґ, Belarusian ў, Serbian ј љ њ ћ ђ, Kazakh ә ғ қ ң ө ұ ү һ...). */
const NON_RUSSIAN_CYRILLIC = /[\u0400\u0402-\u040F\u0450\u0452-\u0482\u048A-\u052F]/;

// Lone surrogates (a chunk cut inside an emoji) and control characters other than tab and newlines.
const ILL_FORMED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
const LETTER = /\p{L}/u;
const LATIN = /\p{Script=Latin}/u;
const WORD = /\p{L}+/gu;

/** Letters by script, and non-space characters, in one pass (a regex pass per script made detection 2–3 times slower). */
function countScripts(text: string): { letters: number; latin: number; accented: number; cyrillic: number; nonSpace: number } {
  let letters = 0, latin = 0, accented = 0, cyrillic = 0, nonSpace = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c === 0x85 || c === 0xa0 || c === 0x3000 || (c >= 0x2000 && c <= 0x200a)) continue;
    nonSpace++;
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) {
      letters++;
      latin++;
    } else if (c >= 0x400 && c <= 0x52f) {
      if (c >= 0x483 && c <= 0x489) continue; // combining marks
      letters++;
      cyrillic++;
    } else if (c >= 0x80) {
      // Beyond ASCII and Cyrillic (rare in English and Russian text): ask Unicode, a surrogate pair as one character.
      const pair = c >= 0xd800 && c <= 0xdbff;
      const ch = text.slice(i, pair ? ++i + 1 : i + 1);
      if (LETTER.test(ch)) {
        letters++;
        if (LATIN.test(ch)) {
          latin++;
          accented++;
        }
      }
    }
  }
  return { letters, latin, accented, cyrillic, nonSpace };
}

/** tinyld's best ISO 639-1 answer among `only`, or null; never throws. */
function askTinyld(text: string, only?: readonly string[]): { lang: string; accuracy: number } | null {
  try {
    const best = detectAll(text.slice(0, TINYLD_CHARS), only)[0];
    return best && /^[a-z]{2}$/.test(best.lang) ? { lang: best.lang, accuracy: Math.min(1, best.accuracy) } : null;
  } catch {
    return null;
  }
}

/**
 * Function words of other Latin-script languages (stopword's lists less English words), built on
 * first use, as word → languages: one lookup per word instead of one per word and language.
 */
let foreignWords: Map<string, string[]> | null = null;
function foreignWordIndex(): Map<string, string[]> {
  if (!foreignWords) {
    const english = new Set([...stopwords.eng, ...ENGLISH_WORDS]);
    foreignWords = new Map();
    for (const [lang, key] of Object.entries(STOPWORD_LISTS)) {
      for (const w of new Set(stopwords[key])) {
        if (w.length <= 1 || english.has(w)) continue;
        const langs = foreignWords.get(w);
        if (langs) langs.push(lang);
        else foreignWords.set(w, [lang]);
      }
    }
  }
  return foreignWords;
}

function latinLanguage(text: string, latin: number, accented: number): DetectedLanguage {
  const words = text.slice(0, WORDS_CHARS).toLowerCase().match(WORD) ?? [];
  const english = words.filter((w) => ENGLISH_WORDS.has(w)).length;
  // English prose: a tenth or more of its words are English function words (two at least: "is" alone is not enough).
  if (english >= 2 && english >= words.length * 0.1) return { lang: 'en', confidence: 0.9 };
  // Another language's function words outnumber English ones: tinyld chooses among those languages and English.
  const counts = new Map<string, number>();
  const index = foreignWordIndex();
  for (const w of words) for (const lang of index.get(w) ?? []) counts.set(lang, (counts.get(lang) ?? 0) + 1);
  // Foreign prose is full of its function words; a few chance hits in long English-less text (names,
  // jargon, generated words) are not a language: at least 5% of the words, and two.
  const hits = [...counts].map(([lang, n]) => ({ lang, n })).filter((h) => h.n >= 2 && h.n > english && h.n >= words.length * 0.05);
  if (hits.length) {
    const asked = askTinyld(text, [...hits.map((h) => h.lang), 'en']);
    if (asked && asked.accuracy >= TINYLD_SURE) return { lang: asked.lang, confidence: asked.accuracy };
    // tinyld unsure: the language with most function words, if one leads clearly and the text has letters English
    // does not write. Without such letters, short code and English lists of names (go, de, ca, sa) read as foreign.
    const top = Math.max(...hits.map((h) => h.n));
    const leaders = hits.filter((h) => h.n === top);
    if (leaders.length === 1 && top >= 3 && accented >= latin * 0.01) return { lang: leaders[0]!.lang, confidence: 0.5 };
  }
  // Letters English does not write (é, ü, ą) in a short text: tinyld is right when one of its telling n-grams hits ("où est la gare").
  const asked = accented ? askTinyld(text, LATIN_LANGS) : null;
  if (asked && asked.accuracy >= TINYLD_SURE) return { lang: asked.lang, confidence: asked.accuracy };
  // Unsure. On plain ASCII words (short queries, names, code) tinyld guesses wildly ("python json print tree":
  // Czech, "hello": Italian); in this app such text is English far more often than not, a name or two (Tomás) included.
  return accented <= latin * 0.05 ? { lang: 'en', confidence: 0.5 } : UNKNOWN;
}

function cyrillicLanguage(text: string, cyrillic: number, letters: number): DetectedLanguage {
  // Russian text of some length has ы or э; without them, or with letters Russian lacks, it may be Bulgarian, Ukrainian...
  const maybeOther = NON_RUSSIAN_CYRILLIC.test(text) || (cyrillic >= 40 && !/[ыэЫЭёЁ]/.test(text));
  if (maybeOther) {
    const asked = askTinyld(text, CYRILLIC_LANGS);
    if (asked && asked.lang !== 'ru' && asked.accuracy >= TINYLD_SURE) return { lang: asked.lang, confidence: asked.accuracy };
  }
  return { lang: 'ru', confidence: Math.round((cyrillic / letters) * 100) / 100 };
}

/** The language of a text (a chunk or a query). Never throws; reads at most the first 2,000 characters. */
export function detectLanguage(text: string): DetectedLanguage {
  if (typeof text !== 'string' || text.length === 0) return UNKNOWN;
  const sample = text.slice(0, MAX_CHARS).replace(ILL_FORMED, ' ');
  const { letters, latin, accented, cyrillic, nonSpace } = countScripts(sample);
  if (letters < MIN_LETTERS || letters < nonSpace * MIN_LETTER_SHARE) return UNKNOWN;
  if (cyrillic >= latin && cyrillic * 2 >= letters) return cyrillicLanguage(sample, cyrillic, letters);
  if (latin * 2 >= letters) return latinLanguage(sample, latin, accented);
  // Another script dominates (Greek, Arabic, Hebrew, CJK, Devanagari...): tinyld knows them by their letters.
  const asked = askTinyld(sample);
  return asked ? { lang: asked.lang, confidence: asked.accuracy } : UNKNOWN;
}

/** Whether a model covering `covers` ('*' for all) serves text in `lang`; unknown text is served by any model. */
export function languageCovered(lang: string, covers: readonly string[]): boolean {
  return lang === 'und' || covers.includes('*') || covers.includes(lang);
}

/**
 * Embedding models known to cover many languages, by name (GGUF files seldom list their languages).
 * Anything else is taken as English-only: all-MiniLM-L6-v2, bge-small-en, nomic-embed-text-v1.5, gte-small...
 */
const EMBEDDER_LANGUAGES: { match: RegExp; languages: string[] }[] = [
  // multilingual-e5-*, paraphrase-multilingual-*, distiluse-base-multilingual-*, gte-multilingual-*
  { match: /multilingual/i, languages: ['*'] },
  // XLM-RoBERTa based, LaBSE, bge-m3
  { match: /xlm|labse|(^|[^a-z0-9])m3([^a-z0-9]|$)/i, languages: ['*'] },
  { match: /jina[-_ ]embeddings[-_ ]v3/i, languages: ['*'] },
  { match: /nomic[-_ ]embed[-_ ]text[-_ ]v2/i, languages: ['*'] },
  // Russian sentence encoders (rubert-tiny2, sbert_large_nlu_ru, ru-en-RoSBERTa): Russian and English
  { match: /rubert|(^|[^a-z])ru[-_]|[-_]ru([-_. ]|$)/i, languages: ['ru', 'en'] },
];
/** English WordPiece vocabularies have about 30k entries; multilingual ones 120k (mBERT) to 250k (XLM-R) and more. */
const MULTILINGUAL_VOCAB = 100_000;
/** A language code as the registry keeps it: ISO 639 (two letters, or three where there are no two), or '*' for all. */
export const LANGUAGE_CODE = /^([a-z]{2,3}|\*)$/;

function toTwoLetters(code: string): string {
  if (code.length !== 3) return code;
  try {
    const two = tinyldModule().toISO2(code);
    return /^[a-z]{2}$/.test(two) ? two : code;
  } catch {
    return code;
  }
}

/**
 * The languages an embedding model covers ('*': all): the GGUF's `general.languages` when it lists
 * any, else the table above by model and file name, else a multilingual-sized vocabulary, else English.
 * `tokenizerModel` (tokenizer.ggml.model) is informational: 'bert' and 't5' vocabularies come in both kinds.
 */
export function embedderLanguages(name: string, file?: string, meta?: { languages?: unknown; tokenizerModel?: string; vocabSize?: number }): string[] {
  const listed = Array.isArray(meta?.languages) ? meta.languages : typeof meta?.languages === 'string' ? meta.languages.split(',') : [];
  // general.languages should hold ISO 639-1 codes; a three-letter one tinyld knows ('eng') is mapped to it.
  const declared = listed.map((l) => toTwoLetters(String(l).trim().toLowerCase())).filter((l) => LANGUAGE_CODE.test(l));
  if (declared.length) return [...new Set(declared)];
  // The file's name only: a folder on the way ("~/ru-models/") says nothing about the model.
  const named = EMBEDDER_LANGUAGES.find((e) => e.match.test(`${name} ${file?.split(/[\\/]/).pop() ?? ''}`));
  if (named) return named.languages;
  return (meta?.vocabSize ?? 0) >= MULTILINGUAL_VOCAB ? ['*'] : ['en'];
}
