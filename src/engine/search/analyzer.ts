/**
 * The lexical analyzer shared by indexing and querying: Unicode word tokens, lower-cased, ё folded
 * to е, English and Russian Snowball stemming chosen per token by its script, stopwords dropped,
 * and code identifiers (camelCase, snake_case) indexed whole and by part. FTS5 then only splits
 * on spaces (unicode61) and folds diacritics, so the index holds exactly these terms.
 */
import snowball from 'snowball-stemmers';
import { eng, rus } from 'stopword';

/** Changes whenever the terms produced for a text change: the lexical index is then rebuilt. */
export const ANALYZER_VERSION = 'snowball-en-ru-v3';

const english = snowball.newStemmer('english');
const russian = snowball.newStemmer('russian');
/**
 * Words the stopword lists drop that a person searches for: content verbs ("make relay-dev",
 * "take", "get"), words of time and order (before, after, never, now, сегодня, после, перед,
 * никогда) and nouns or adjectives (way, same, раз). Only function words stay stopwords: articles,
 * pronouns, prepositions, conjunctions, auxiliaries and particles.
 */
const SEARCHABLE = new Set(
  (
    'after before came come get got like make never now said same still take way well ' +
    'сказал сегодня теперь потом никогда всегда иногда после перед больше лучше много нельзя можно надо раз'
  ).split(' '),
);
export const STOPWORDS: ReadonlySet<string> = new Set(
  [...eng, ...rus].map((w) => w.toLowerCase().replace(/ё/g, 'е')).filter((w) => !SEARCHABLE.has(w)),
);
const WORD = /[\p{L}\p{N}_]+/gu;
const CYRILLIC = /[\u0400-\u04FF]/;
const IDENTIFIER_PARTS = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g;
/** Russian stems are cut to this length so that, e.g., настроить and настройка meet (настро-). */
const RUSSIAN_STEM_MAX = 6;
const cache = new Map<string, string>();

export function foldText(text: string): string {
  return text.normalize('NFC').replace(/[ёЁ]/g, (c) => (c === 'ё' ? 'е' : 'Е'));
}

/** The index term of one lower-cased word. */
export function stemWord(word: string): string {
  let stem = cache.get(word);
  if (stem === undefined) {
    if (CYRILLIC.test(word)) stem = russian.stem(word).slice(0, RUSSIAN_STEM_MAX);
    else if (/^[a-z]+$/.test(word) && word.length > 2) stem = english.stem(word);
    else stem = word;
    if (cache.size > 200_000) cache.clear();
    cache.set(word, stem);
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

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of foldText(text).matchAll(WORD)) {
    const raw = match[0];
    const lower = raw.toLowerCase();
    const parts: string[] = [];
    if (/[a-z][A-Z]|_|[A-Za-z]\d|\d[A-Za-z]/.test(raw)) {
      for (const p of raw.match(IDENTIFIER_PARTS) ?? []) {
        const lp = p.toLowerCase();
        if (lp.length > 1 && lp !== lower && !STOPWORDS.has(lp)) parts.push(stemWord(lp));
      }
    }
    tokens.push({ raw, term: stemWord(lower), parts });
  }
  return tokens;
}

/** The text stored in the FTS5 columns: index terms separated by spaces, stopwords dropped. */
export function analyzeForIndex(text: string): string {
  const out: string[] = [];
  for (const t of tokenize(text)) {
    if (!STOPWORDS.has(t.raw.toLowerCase().replace(/ё/g, 'е'))) out.push(t.term);
    for (const p of t.parts) out.push(p);
  }
  return out.join(' ');
}

export function isStopword(word: string): boolean {
  return STOPWORDS.has(foldText(word).toLowerCase());
}
