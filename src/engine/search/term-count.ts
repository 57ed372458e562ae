/**
 * Counting a question's terms in stored text without analysing each word: what a stem's word begins
 * with, and the counters and tallies that rescore pruned or linked candidates (search/lexical.ts).
 */
import { ftsTokens } from './bm25.ts';
import { ASCII_KIND, DIGIT, isNonAsciiWord, LOWER, OTHER_WORD, stepOver, UNDERSCORE, UPPER } from './word-chars.ts';
import { analyzeForIndex } from './analyzer.ts';

/**
 * A Porter2 stem (English) is its word's beginning, but for its last letter (a final y made i, an
 * e added, a suffix replaced: crying → cri, using → use, relational → relat) and the exceptional
 * forms dying, lying, tying → die, lie, tie (lexical.test.ts checks every word of the sample vault). So a word can only become a term of three letters or more if its first
 * three are the term's, or those of the forms below, where the third letter of a short stem differs
 * from the word's (crying, using, skies). Each is a word's beginning a stem may come from, besides its own.
 */
const OTHER_HEADS: Record<string, string> = { die: 'dy', lie: 'ly', tie: 'ty', sky: 'ski' };
/**
 * The letters a stem may end in where its word has another letter there: a final y made i, an e
 * added or a suffix replaced (happy → happi, hoping → hope, relational → relate, probably → probabl),
 * and skies → sky; dying, lying and tying (OTHER_HEADS) aside, no other (lexical.test.ts checks
 * every word of the sample vault, docs/ and README.md).
 */
const REPLACED_LAST = new Set(['e', 'i', 'l', 'y']);
/** What a word that stems to `term` begins with (case aside): all of it, or all but a last letter the stemmer may have put there. */
export const stemBeginning = (term: string) => (REPLACED_LAST.has(term.at(-1)!) ? term.slice(0, -1) : term);
function wordHeads(term: string): string[] {
  const out = [term.slice(0, 3)];
  if (term.length >= 3 && term[2] === 'i') out.push(`${term.slice(0, 2)}y`);
  if (term.length >= 3 && term[2] === 'e') out.push(`${term.slice(0, 2)}i`);
  const other = OTHER_HEADS[term];
  if (other) out.push(other);
  return out;
}
const lowerAscii = (c: number) => (c >= 65 && c <= 90 ? c | 32 : c);
/** Slot of a word head in a head table: two ASCII code units, or one for a one-letter word. */
const headSlot = (a: number, b: number) => (b < 0 ? 16384 + a : a * 128 + b);
const OPEN = 2;
const THIRD = 1;

/**
 * Whether the word text[start, end) may begin with `rest` (lower case) once analyzed: its ASCII
 * letters from the fourth on match, case aside; a letter above ASCII may fold to anything (é → e).
 */
function beginsWith(text: string, start: number, end: number, rest: string): boolean {
  if (end - start < rest.length) return false;
  for (let k = 3; k < rest.length; k++) {
    const c = text.charCodeAt(start + k);
    if (c >= 128) return true;
    if (lowerAscii(c) !== rest.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * Counts the occurrences of the wanted index terms in texts, exactly as the indexer analyzed them
 * into FTS5 tokens. Only words that can become a wanted term go through the analyzer: a stem keeps
 * its word's first three letters but for the forms OTHER_HEADS lists, so a word whose first three
 * code units are ASCII and begin no wanted term (case aside) is skipped unless it is an identifier
 * (whose parts are indexed too); a word or term of one or two letters is matched on those. The text
 * is scanned code unit by code unit with no regular expression or string per word: each word is
 * hashed as it is read and found in a table of the words already analyzed by comparing it in place,
 * so a word seen before costs no allocation (the graph list reads every word of 24 notes per query).
 *
 * A text whose words are all ASCII (asciiWords) is not read code unit by code unit: a regular
 * expression finds where a wanted term's beginning (the same heads, and where the head table asks
 * for more, the same beginnings) starts a word, or one of an identifier's parts (indexed too), and
 * only those words are looked up: every word the scan would analyze, and a few more.
 */
export function termCounter(wanted: ReadonlySet<string>): (text: string) => Map<string, number> {
  const terms = [...wanted];
  const tally = termTally(terms);
  return (text) => {
    const f = new Float64Array(terms.length);
    const counts = new Map<string, number>();
    if (tally(text, 1, f)) terms.forEach((t, i) => f[i]! > 0 && counts.set(t, f[i]!));
    return counts;
  };
}

/** A mark that may compose with the letter before it (a decomposed "é"). */
const COMBINING_MARK = /\p{M}/u;

/**
 * termCounter for a scorer: adds `weight` to `into[i]` for each occurrence of `terms[i]`, and says
 * whether the text holds any of them (no map per text).
 */
export function termTally(terms: readonly string[]): (text: string, weight: number, into: Float64Array) => boolean {
  const wanted = new Set(terms);
  const index = new Map(terms.map((t, i) => [t, i]));
  // By a word's first two code units: OPEN, any word may hold a wanted term; THIRD, only words whose
  // first three (as a number: the key of `third`) begin one, and of those, where a wanted term is
  // longer, only words that begin as it does (stemBeginning; null: any word).
  const heads = new Uint8Array(16384 + 128);
  const third = new Map<number, string[] | null>();
  for (const t of wanted) {
    for (const h of wordHeads(t)) {
      const a = h.charCodeAt(0);
      const b = h.length > 1 ? h.charCodeAt(1) : -1;
      if (a >= 128 || b >= 128) continue;
      const slot = headSlot(a, b);
      const c = h.length > 2 ? h.charCodeAt(2) : -1;
      if (c < 0 || c >= 128) heads[slot] = OPEN;
      else {
        if (heads[slot] !== OPEN) heads[slot] = THIRD;
        const key = slot * 128 + c;
        const known = third.get(key);
        const rest = h === t.slice(0, 3) && stemBeginning(t).length > 3 ? stemBeginning(t) : null;
        if (rest === null) third.set(key, null);
        else if (known !== null) third.set(key, [...(known ?? []), rest]);
      }
    }
  }
  const beginnings = new Set<string>();
  for (const t of wanted) {
    for (const h of wordHeads(t)) {
      // As the head table reads them: a head above ASCII begins no ASCII word, one whose third code
      // unit is above ASCII is matched on its first two, a longer term on its stemBeginning.
      if (h.charCodeAt(0) >= 128 || (h.length > 1 && h.charCodeAt(1) >= 128)) continue;
      if (h.length > 2 && h.charCodeAt(2) >= 128) beginnings.add(h.slice(0, 2));
      else beginnings.add(h.length > 2 && h === t.slice(0, 3) && stemBeginning(t).length > 3 ? stemBeginning(t) : h);
    }
  }
  // Anywhere in a word, case aside: a part of an identifier may begin inside it.
  const escaped = [...beginnings].map((b) => b.replace(/[^a-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  const begins = beginnings.size === 0 ? null : new RegExp(escaped.join('|'), 'gi');
  const mixed = mixedPattern(terms, escaped);
  const stamp = ++counterStamp;
  /** The word's wanted terms (their indexes in `terms`), worked out once per counter. */
  const hitsOf = (e: WordEntry): readonly number[] => {
    if (e.stamp !== stamp) {
      e.stamp = stamp;
      e.hits = e.terms.some((t) => wanted.has(t)) ? e.terms.filter((t) => wanted.has(t)).map((t) => index.get(t)!) : NONE;
    }
    return e.hits;
  };
  let into: Float64Array = new Float64Array(0);
  let weight = 0;
  let any = false;
  const add = (e: WordEntry) => {
    for (const i of hitsOf(e)) {
      into[i]! += weight;
      any = true;
    }
  };
  /**
   * An ASCII-word text: each word in which a beginning is found, where it begins the word or the
   * word is an identifier (the first beginning found in a word is its leftmost, so one found inside
   * a plain word means none begins it).
   */
  const byPattern = (text: string): void => {
    if (begins === null) return;
    begins.lastIndex = 0;
    for (let m = begins.exec(text); m !== null; m = begins.exec(text)) {
      let start = m.index;
      while (start > 0 && ASCII_KIND[text.charCodeAt(start - 1)]) start--;
      let end = m.index + m[0].length;
      while (end < text.length && ASCII_KIND[text.charCodeAt(end)]) end++;
      begins.lastIndex = end;
      if (start === m.index || isIdentifier(text, start, end)) add(entryOf(text, start, end));
    }
  };
  const scan = (text: string): void => {
    const n = text.length;
    let i = 0;
    while (i < n) {
      const start = i;
      let identifier = false;
      let above = false;
      let prev = 0;
      let hash = 0;
      while (i < n) {
        const c = text.charCodeAt(i);
        let kind: number;
        let width = 1;
        if (c < 128) kind = ASCII_KIND[c]!;
        else {
          above = true;
          const cp = text.codePointAt(i)!;
          kind = isNonAsciiWord(cp) ? OTHER_WORD : 0;
          if (cp > 0xffff) width = 2;
        }
        if (kind === 0) break;
        // The analyzer's identifier test (analyzer.ts tokenize: [a-z][A-Z] | _ | [A-Za-z]\d | \d[A-Za-z]),
        // made as the word is read; the property test holds the two together.
        if (kind === UNDERSCORE || (kind === UPPER && prev === LOWER) || (kind === DIGIT && (prev === LOWER || prev === UPPER)) || (prev === DIGIT && (kind === LOWER || kind === UPPER))) identifier = true;
        prev = kind;
        hash = (Math.imul(hash, 31) + c) | 0;
        i += width;
      }
      if (i === start) {
        // Not a word character: step over it (both halves of a surrogate pair at once).
        i += stepOver(text, i);
        continue;
      }
      const a = text.charCodeAt(start);
      const b = i - start > 1 ? text.charCodeAt(start + 1) : -1;
      // A word with a letter above ASCII is analyzed whole: a run of an unspaced script is cut into
      // words by the analyzer ("ObsidianのSync": obsidian, sync), and an accent may fold to anything.
      if (!identifier && !above && a < 128 && b < 128) {
        const slot = headSlot(lowerAscii(a), b < 0 ? b : lowerAscii(b));
        const head = heads[slot];
        if (head === 0) continue;
        if (head === THIRD) {
          // A word of two letters is its own term; a third code unit above ASCII may fold to anything.
          if (i - start < 3) continue;
          const c = text.charCodeAt(start + 2);
          if (c < 128) {
            const rests = third.get(slot * 128 + lowerAscii(c));
            if (rests === undefined || (rests !== null && !rests.some((r) => beginsWith(text, start, i, r)))) continue;
          }
        }
      }
      add(entryAt(text, start, i, hash));
    }
  };
  const byMixed = mixed === null ? null : mixedReader(mixed, add);
  return (text, w, out) => {
    into = out;
    weight = w;
    any = false;
    if (asciiWords(text)) byPattern(text);
    // The analyzer reads text composed (foldText: NFC): "cafe" + a combining acute is "café", one word.
    else if (byMixed !== null) byMixed(COMBINING_MARK.test(text) ? text.normalize('NFC') : text);
    else scan(COMBINING_MARK.test(text) ? text.normalize('NFC') : text);
    return any;
  };
}

/** Cyrillic as the analyzer tells it (analyzer.ts CYRILLIC): a word holding one is stemmed as Russian. */
const CYRILLIC_TERM = /^[\u0400-\u04ff]+$/;
const ASCII_TERM = /^[\x00-\x7f]+$/;

/**
 * The pattern of byMixed, or null where a wanted term is neither ASCII nor Cyrillic. A word with a
 * Cyrillic letter is stemmed as Russian, which only cuts its ending: its term begins the word, as
 * written but for case and ё (foldText makes it е). So the pattern finds the ASCII beginnings (as
 * byPattern), the Cyrillic terms themselves, any word character above ASCII that is not Cyrillic
 * (an accent may fold to anything), and where ASCII word characters and Cyrillic letters meet.
 */
function mixedPattern(terms: readonly string[], asciiBeginnings: readonly string[]): RegExp | null {
  const cyrillic: string[] = [];
  for (const t of terms) {
    if (CYRILLIC_TERM.test(t)) cyrillic.push(t.replace(/[её]/g, '[её]'));
    else if (!ASCII_TERM.test(t)) return null;
  }
  const parts = [...asciiBeginnings, ...cyrillic, '(?![\\u0400-\\u04ff])[^\\x00-\\x7f]', '[A-Za-z0-9_][\\u0400-\\u04ff]', '[\\u0400-\\u04ff][A-Za-z0-9_]'];
  return new RegExp(parts.join('|'), 'giu');
}

/**
 * A text with words above ASCII, where every wanted term is ASCII or Cyrillic (mixedPattern): each
 * word in which the pattern finds something, where that begins the word, the word is an identifier,
 * or the word holds more than ASCII word characters alone or Cyrillic letters alone (another script,
 * an accent, both). Every word the scan would analyze for these terms, and a few more.
 */
function mixedReader(re: RegExp, add: (e: WordEntry) => void): (text: string) => void {
  return (text) => {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      let start = m.index;
      for (let w = wordCharBefore(text, start); w > 0; w = wordCharBefore(text, start)) start -= w;
      let end = m.index;
      for (let w = wordCharAt(text, end); w > 0; w = wordCharAt(text, end)) end += w;
      if (end === m.index) {
        // A character the pattern found that is no word character: none to read here.
        re.lastIndex = m.index + stepOver(text, m.index);
        continue;
      }
      re.lastIndex = end;
      if (foreignWord(text, start, end)) continue;
      if (start === m.index || isIdentifier(text, start, end) || !singleScript(text, start, end)) add(entryOf(text, start, end));
    }
  };
}

/** The width (1 or 2 code units) of the word character at text[i], 0 where there is none. */
function wordCharAt(text: string, i: number): number {
  if (i >= text.length) return 0;
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_KIND[c] ? 1 : 0;
  const cp = text.codePointAt(i)!;
  return isNonAsciiWord(cp) ? (cp > 0xffff ? 2 : 1) : 0;
}

/** The width of the word character that ends before text[i], 0 where there is none. */
function wordCharBefore(text: string, i: number): number {
  if (i <= 0) return 0;
  const c = text.charCodeAt(i - 1);
  if (c >= 0xdc00 && c <= 0xdfff && i >= 2) {
    const h = text.charCodeAt(i - 2);
    if (h >= 0xd800 && h <= 0xdbff) return isNonAsciiWord(text.codePointAt(i - 2)!) ? 2 : 0;
  }
  return wordCharAt(text, i - 1) === 1 ? 1 : 0;
}

/** Per BMP code unit: 0 not asked yet, 1 a letter of the Latin script, 2 not. */
const latinLetter = new Uint8Array(65536);
const LATIN = /\p{Script=Latin}/u;

/**
 * Whether the word text[start, end) holds neither an ASCII character, a Cyrillic letter nor a Latin
 * one (a run of Japanese, Thai, Greek...): none of its terms is ASCII or Cyrillic (an accent folds
 * only a Latin letter to ASCII), so a text's such words are not analyzed (the unspaced ones are cut
 * into words by ICU's segmenter, the costliest words to analyze).
 */
function foreignWord(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 || (c >= 0x400 && c <= 0x4ff)) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const cp = text.codePointAt(i)!;
      if (LATIN.test(String.fromCodePoint(cp))) return false;
      i++;
      continue;
    }
    let v = latinLetter[c]!;
    if (v === 0) latinLetter[c] = v = LATIN.test(String.fromCharCode(c)) ? 1 : 2;
    if (v === 1) return false;
  }
  return true;
}

/** Whether the word text[start, end) is ASCII word characters alone or Cyrillic letters alone. */
function singleScript(text: string, start: number, end: number): boolean {
  let ascii = false;
  let cyrillic = false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) ascii = true;
    else if (c >= 0x400 && c <= 0x4ff) cyrillic = true;
    else return false;
  }
  return !(ascii && cyrillic);
}

/** The analyzer's identifier test (analyzer.ts tokenize: [a-z][A-Z] | _ | [A-Za-z]\d | \d[A-Za-z]) on the ASCII word text[start, end). */
function isIdentifier(text: string, start: number, end: number): boolean {
  let prev = 0;
  for (let i = start; i < end; i++) {
    const kind = ASCII_KIND[text.charCodeAt(i)]!;
    if (kind === UNDERSCORE || (kind === UPPER && prev === LOWER) || (kind === DIGIT && (prev === LOWER || prev === UPPER)) || (prev === DIGIT && (kind === LOWER || kind === UPPER))) return true;
    prev = kind;
  }
  return false;
}
const NON_ASCII = /[^\x00-\x7f]/g;
/** Per BMP code unit above ASCII: 0 not asked yet, 1 a separator everywhere, 2 not. */
const separator = new Uint8Array(65536);
/**
 * A code point above ASCII that every reader of the text takes as a separator: not a letter, digit
 * or mark (a mark joins the letter before it once the analyzer's NFC composes them), and left as it
 * is by NFC.
 */
const isSeparator = (ch: string) => !/[\p{L}\p{N}\p{M}]/u.test(ch) && ch.normalize('NFC') === ch;

/**
 * Whether every word of the text is ASCII: each code unit above ASCII is a separator (dashes,
 * quotes, emoji), so the analyzer's words are the text's runs of [A-Za-z0-9_], the \w of a regular
 * expression, and its identifier test and stems see them as they are.
 */
function asciiWords(text: string): boolean {
  NON_ASCII.lastIndex = 0;
  for (let m = NON_ASCII.exec(text); m !== null; m = NON_ASCII.exec(text)) {
    const i = m.index;
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        if (!isSeparator(text.slice(i, i + 2))) return false;
        NON_ASCII.lastIndex = i + 2;
        continue;
      }
    }
    let v = separator[c]!;
    if (v === 0) separator[c] = v = c >= 0xd800 && c <= 0xdfff ? 1 : isSeparator(String.fromCharCode(c)) ? 1 : 2;
    if (v === 2) return false;
  }
  return true;
}

/** The analyzed entry of the word text[start, end), of that hash; compared in place, a string made only for a new word. */
function entryAt(text: string, start: number, end: number, hash: number): WordEntry {
  const length = end - start;
  let e = wordTable.get(hash);
  while (e !== undefined && !(e.word.length === length && text.startsWith(e.word, start))) e = e.next;
  return e ?? rememberWord(hash, text.slice(start, end));
}

/** entryAt for an ASCII word, hashed as the scan hashes it. */
function entryOf(text: string, start: number, end: number): WordEntry {
  let hash = 0;
  for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return entryAt(text, start, end, hash);
}

const NONE: readonly number[] = [];
/** A word already analyzed: its index terms, and which of them the counter stamped last wants (their indexes). */
interface WordEntry {
  word: string;
  terms: readonly string[];
  stamp: number;
  hits: readonly number[];
  /** The next word of the same hash. */
  next: WordEntry | undefined;
}
let counterStamp = 0;
/** Words analyzed so far by hash (the candidates of one query share most of their words). */
const wordTable = new Map<number, WordEntry>();
let wordsRemembered = 0;
const WORD_TABLE_MAX = 100_000;

/** Analyzes a word (analyzer, then unicode61: the FTS5 tokens the indexer makes of it) and remembers it. */
function rememberWord(hash: number, word: string): WordEntry {
  if (wordsRemembered >= WORD_TABLE_MAX) {
    wordTable.clear();
    wordsRemembered = 0;
  }
  const e: WordEntry = { word, terms: ftsTokens(analyzeForIndex(word)), stamp: 0, hits: NONE, next: wordTable.get(hash) };
  wordTable.set(hash, e);
  wordsRemembered++;
  return e;
}
