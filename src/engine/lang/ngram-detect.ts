/**
 * tinyld's `detectAll`, the same answers at a fraction of the cost: indexing asks it for many
 * chunks (every note of a vault in German, French, Ukrainian...), and tinyld's own code builds a set
 * of its 62 languages and a set of each n-gram's languages for every word it looks at, and joins
 * every n-gram of the text from an array of characters. Here the same arithmetic runs in the same
 * order over tinyld's own n-gram tables, with the work a word costs done once per word and set of
 * languages (words recur). The tables are tinyld's, read from its module as it is installed; when
 * they cannot be read (another build of tinyld), tinyld itself answers.
 *
 * Kept equal to tinyld by lang/ngram-detect.test.ts, which compares both on texts of many languages.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';

type Tinyld = typeof import('tinyld');
export interface NgramAnswer {
  lang: string;
  accuracy: number;
}

/** tinyld's tables: a telling n-gram's language, each other n-gram's languages with their weights, its languages in order. */
interface Tables {
  uniques: Record<string, string>;
  multiples: Record<string, Record<string, number>>;
  uniqueGrams: Set<string>;
  languages: string[];
  gramSizes: number[];
  toISO2: (code: string) => string;
  /** tinyld's text cleaning, its split into pieces (at punctuation) and into words, its removal of accents and its rounding. */
  clean: (text: string) => string;
  pieces: (text: string) => string[];
  words: (piece: string) => string[];
  strip: (gram: string) => string;
  round: (x: number) => number;
}

/** What tinyld's normal build defines, by its minified names, added to its exports. */
const EXPOSE = ';module.exports.__tables = { uniques: r0.uniques, multiples: r0.multiples, uniqueGrams: B0, languages: [...g], gramSizes: h, clean: V, pieces: i0, words: n0, strip: R, round: k };';

let loaded: { tinyld: Tinyld; tables: Tables | null } | null = null;

/** tinyld as installed, and its tables when its code is the build they were read from (else null: tinyld answers). */
function load(): { tinyld: Tinyld; tables: Tables | null } {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  try {
    const file = require.resolve('tinyld');
    const source = fs.readFileSync(file, 'utf8');
    const module = { exports: {} as Record<string, unknown> };
    const run = vm.runInThisContext(`(function (module, exports, require) {${source}\n${EXPOSE}\n})`, { filename: file }) as (m: unknown, e: unknown, r: unknown) => void;
    run(module, module.exports, require);
    const tinyld = module.exports as unknown as Tinyld & { __tables?: Omit<Tables, 'toISO2'> };
    const t = tinyld.__tables;
    const valid =
      t &&
      t.uniqueGrams instanceof Set &&
      Array.isArray(t.languages) &&
      t.languages.length > 0 &&
      Array.isArray(t.gramSizes) &&
      [t.clean, t.pieces, t.words, t.strip, t.round, tinyld.detectAll].every((f) => typeof f === 'function');
    loaded = { tinyld, tables: valid ? { ...t, toISO2: tinyld.toISO2 } : null };
  } catch {
    loaded = { tinyld: require('tinyld') as Tinyld, tables: null };
  }
  return loaded;
}

/** Loads tinyld and reads its tables now (100–300 ms, once per thread) instead of on first use. */
export function loadDetector(): void {
  load();
}

/** Whether tinyld is loaded on this thread. */
export function detectorLoaded(): boolean {
  return loaded !== null;
}

/** tinyld's module (its toISO2 and the rest). */
export function tinyldModule(): Tinyld {
  return load().tinyld;
}

/**
 * Whether tinyld reads a window of n characters of a text padded with n - 1 spaces on each side as
 * an n-gram: it joins the window's characters less every space after a space, and keeps the windows
 * still n long and not all blank.
 */
const isGram = (w: string, n: number) => w.length === n && !w.includes('  ') && w.trim().length > 0;

/** The languages a call may answer: their places in tinyld's order of languages. */
interface Only {
  /** No restriction (tinyld's empty `only`). */
  any: boolean;
  only: Set<string>;
  /** The allowed languages' places in tinyld's list, in its order. */
  places: number[];
}

/** Words whose scores are kept (then forgotten all at once); a word's scores are 62 numbers. */
const WORD_CACHE = 20_000;
/** N-grams whose accent-free form is kept. */
const GRAM_CACHE = 50_000;
const onlyCache = new Map<string, Only>();
const stripped = new Map<string, string>();
/** Each word's score in every language (the sums tinyld adds up for the languages it is allowed). */
const wordScores = new Map<string, Float64Array>();
/** The weights of tinyld's n-grams met so far, as (language's place, weight) pairs: at most the size of its table. */
const gramWeights = new Map<string, number[]>();
let places: Map<string, number> | null = null;
let iso2Codes: string[] = [];

function onlyOf(tables: Tables, only: readonly string[]): Only {
  const key = only.join(',');
  let o = onlyCache.get(key);
  if (!o) {
    if (!places) {
      places = new Map(tables.languages.map((l, i) => [l, i]));
      iso2Codes = tables.languages.map((l) => tables.toISO2(l));
    }
    const allowed = tables.languages.flatMap((l, i) => ((only.length > 0 ? only.includes(l) || only.includes(iso2Codes[i]!) : true) ? [i] : []));
    o = { any: only.length === 0, only: new Set(only), places: allowed };
    if (onlyCache.size > 1000) onlyCache.clear();
    onlyCache.set(key, o);
  }
  return o;
}

/** tinyld's detectUniqueGrams: the language of the first telling n-gram (smallest first) among `only`, or ''. */
function uniqueLanguage(tables: Tables, a: string, o: Only): string {
  for (const n of tables.gramSizes) {
    const pad = ' '.repeat(n - 1);
    const t = pad + a + pad;
    for (let b = 0; b < t.length - (n - 1); b++) {
      // The table first (one lookup), then whether tinyld reads this window as an n-gram at all.
      const r = t.slice(b, b + n);
      if (!tables.uniqueGrams.has(r) || !isGram(r, n)) continue;
      const s = iso2Codes[places!.get(tables.uniques[r]!) ?? -1] ?? tables.toISO2(tables.uniques[r]!);
      if (o.any || o.only.has(s)) return s;
    }
  }
  return '';
}

/**
 * A word's score in each of tinyld's languages: the weights of its n-grams (each n-gram's length a
 * quarter of its weight's factor), added up in tinyld's order. A language's sum does not depend on
 * which others are allowed.
 */
function scoresOf(tables: Tables, a: string): Float64Array {
  let scores = wordScores.get(a);
  if (scores) return scores;
  scores = new Float64Array(tables.languages.length);
  for (const n of tables.gramSizes) {
    const pad = ' '.repeat(n - 1);
    const t = pad + a + pad;
    for (let b = 0; b < t.length - (n - 1); b++) {
      const i = t.slice(b, b + n);
      if (!isGram(i, n)) continue;
      // tinyld takes the accents off each n-gram (NFD, marks removed): nothing to take off plain ASCII.
      const l = NON_ASCII.test(i) ? stripOf(tables, i) : i;
      const weights = weightsOf(tables, l);
      if (!weights) continue;
      for (let k = 0; k < weights.length; k += 2) {
        const at = weights[k]!;
        scores[at] = scores[at]! + (weights[k + 1]! * l.length) / 4;
      }
    }
  }
  if (wordScores.size >= WORD_CACHE) wordScores.clear();
  wordScores.set(a, scores);
  return scores;
}

/** tinyld's detectPotentialGrams for one word: its eight best allowed languages, by score. */
function wordLanguages(tables: Tables, a: string, o: Only): NgramAnswer[] {
  const scores = scoresOf(tables, a);
  // Sorted by score, ties in tinyld's order of languages (a stable sort of them, as tinyld's).
  const ranked = o.places.map((place) => ({ score: scores[place]!, place }));
  ranked.sort((x, y) => y.score - x.score);
  const s = Math.max(...ranked.map((x) => x.score)) || 1;
  return ranked.slice(0, 8).map((x) => ({ lang: iso2Codes[x.place]!, accuracy: 1 - tables.round((s - x.score) / s) }));
}

const NON_ASCII = /[^\u0000-\u007f]/;

function stripOf(tables: Tables, gram: string): string {
  let l = stripped.get(gram);
  if (l === undefined) {
    l = tables.strip(gram);
    if (stripped.size >= GRAM_CACHE) stripped.clear();
    stripped.set(gram, l);
  }
  return l;
}

function weightsOf(tables: Tables, gram: string): number[] | null {
  if (!Object.hasOwn(tables.multiples, gram)) return null;
  let weights = gramWeights.get(gram);
  if (weights === undefined) {
    weights = [];
    for (const [lang, weight] of Object.entries(tables.multiples[gram]!)) {
      const at = places!.get(lang);
      if (at !== undefined) weights.push(at, weight);
    }
    gramWeights.set(gram, weights);
  }
  return weights;
}

function detectAllFast(tables: Tables, text: string, only: readonly string[]): NgramAnswer[] {
  const o = onlyOf(tables, only);
  let pieces = tables.pieces(text).map((i) => tables.clean(i)).filter((i) => !!i);
  pieces.sort((i, l) => l.length - i.length);
  pieces = pieces.slice(0, 7);
  let total = 0;
  const r: Record<string, number> = {};
  for (const i of pieces) {
    const l = uniqueLanguage(tables, i, o);
    if (l) {
      r[l] = (r[l] || 0) + 1 * i.length;
      total += i.length;
      continue;
    }
    for (const d of tables.words(i)) {
      for (const L of wordLanguages(tables, d, o)) r[L.lang] = (r[L.lang] || 0) + L.accuracy;
      total += d.length;
    }
  }
  const s = Object.entries(r).filter((i) => i[1] > 0);
  s.sort((i, l) => l[1] - i[1]);
  return s.map((i) => ({ lang: i[0], accuracy: i[1] / total }));
}

/** tinyld's `detectAll(text, { only })`: its languages for the text, best first, with their accuracies. */
export function detectAll(text: string, only: readonly string[] = []): NgramAnswer[] {
  const { tinyld, tables } = load();
  if (!tables) return tinyld.detectAll(text, only.length ? { only: [...only] } : undefined);
  return detectAllFast(tables, text, only);
}

/** tinyld's own answer (the reference the fast path is tested against). */
export function detectAllByTinyld(text: string, only: readonly string[] = []): NgramAnswer[] {
  return load().tinyld.detectAll(text, only.length ? { only: [...only] } : undefined);
}

/** Whether the fast path is in use (tinyld's tables were read). */
export function fastPathAvailable(): boolean {
  return load().tables !== null;
}
