/**
 * Citation markers in a model's answer: finding them, dropping the ones that point at no snippet,
 * and splitting the answer into sentences without tearing a marker away from its sentence.
 *
 * Small models cite snippets that do not exist ([7] when five were given) and write markers in
 * several styles ([1, 2], [1][2], [1-3]). A marker that opens nothing is worse than none: the user
 * clicks it and trusts the answer more than it deserves. So unknown numbers are removed from the
 * text (and reported, so the trace shows the model invented them) rather than left dangling.
 *
 * Pure string functions: no store, no model, no I/O.
 */
import fs from 'node:fs';
import { sha256 } from '../core/hash.ts';
import type { Citation, Snippet } from './types.ts';

/** A range such as [3-40] expands to at most this many numbers: a year range is not 2,000 citations. */
const MAX_RANGE = 20;

/**
 * One bracketed citation marker: numbers separated by commas or semicolons, or joined by a dash
 * into a range. Only spaces and tabs inside, so a marker never spans lines.
 */
const MARKER_SOURCE = String.raw`\[[ \t]*\d{1,9}(?:[ \t]*(?:[,;]|[-–—])[ \t]*\d{1,9})*[ \t]*\]`;
const markerRegex = () => new RegExp(MARKER_SOURCE, 'g');

/** The numbers one marker names, in the order written, ranges expanded (capped), duplicates kept. */
function markerNumbers(marker: string): number[] {
  const out: number[] = [];
  for (const part of marker.slice(1, -1).split(/[,;]/)) {
    const ends = part.split(/[-–—]/).map((s) => Number(s.trim()));
    const first = ends[0]!;
    const last = ends[ends.length - 1]!;
    if (ends.length === 1) {
      out.push(first);
      continue;
    }
    // A reversed range ([5-3]) names the same snippets; a long one is cut after MAX_RANGE numbers.
    const step = first <= last ? 1 : -1;
    const count = Math.min(Math.abs(last - first) + 1, MAX_RANGE);
    for (let i = 0; i < count; i++) out.push(first + i * step);
  }
  return out;
}

/** Every number named by a citation marker in `text`, in order of appearance (ranges expanded). */
export function citationNumbers(text: string): number[] {
  return [...text.matchAll(markerRegex())].flatMap((m) => markerNumbers(m[0]));
}

/** `text` without its citation markers, spaces tidied where a marker was removed. */
export function stripCitationMarkers(text: string): string {
  return removeMarkers(text, () => null);
}

const unique = (xs: readonly number[]) => [...new Set(xs)];

/**
 * Replaces each marker by what `rewrite` returns (null: remove it) and tidies the text around the
 * removed ones: no space left before punctuation, no double space, no empty "()" left behind.
 */
function removeMarkers(text: string, rewrite: (marker: string) => string | null): string {
  // Removed markers become a placeholder first so that a run such as "[8][9]" or "([9])" is
  // cleaned up as one piece; the placeholder is a private-use character absent from the text.
  let code = 0xe000;
  while (text.includes(String.fromCharCode(code))) code++;
  const hole = String.fromCharCode(code);
  let removed = false;
  let out = text.replace(markerRegex(), (marker) => {
    const replacement = rewrite(marker);
    if (replacement !== null) return replacement;
    removed = true;
    return hole;
  });
  if (!removed) return out;
  // A run is removed markers with only spaces or list commas between them: "[8], [9]".
  const run = `${hole}(?:[ \\t]*[,;]?[ \\t]*${hole})*`;
  // "[1], [9]" keeps [1] without the comma that separated it from [9].
  out = out.replace(new RegExp(`(\\])[ \\t]*[,;][ \\t]*(?=${hole})`, 'g'), '$1 ');
  out = out.replace(new RegExp(`\\([ \\t]*${run}[ \\t]*\\)`, 'g'), hole);
  out = out.replace(new RegExp(`([ \\t]*)${run}([ \\t]*)`, 'g'), (match: string, before: string, after: string, offset: number, whole: string) => {
    const prev = offset === 0 ? '\n' : whole[offset - 1]!;
    const next = whole[offset + match.length];
    if (prev === '\n' || prev === '\r') return before; // keep the indentation, drop the gap after
    if (next === undefined || /[\n\r.,;:!?…)\]}»"'”’]/.test(next)) return '';
    return before || after;
  });
  return out;
}

export interface ExtractedCitations {
  /** The answer with every unknown number removed from its markers. */
  text: string;
  /** Valid snippet numbers, unique, in order of first appearance. */
  cited: number[];
  /** Numbers cited that are no snippet's n: unique, ascending. */
  unknown: number[];
}

/**
 * Finds the citation markers of an answer ([1], [1, 2], [1][2], [1-3]) and keeps only the numbers
 * that name a snippet: a marker with no valid number is removed, a mixed one is rewritten to its
 * valid numbers ([1, 9] -> [1] when there is no snippet 9), a fully valid one is left as written.
 */
export function extractCitations(answer: string, snippets: readonly Snippet[]): ExtractedCitations {
  const known = new Set(snippets.map((s) => s.n));
  const unknown = new Set<number>();
  let text = answer;
  // Removing a marker can join the text around it into a new one ("[[9]1]" -> "[1]"), so repeat
  // until a pass removes nothing; each pass removes at least one marker, so this ends.
  for (;;) {
    let changed = false;
    text = removeMarkers(text, (marker) => {
      const numbers = unique(markerNumbers(marker));
      const valid = numbers.filter((n) => known.has(n));
      if (valid.length === numbers.length) return marker;
      changed = true;
      for (const n of numbers) if (!known.has(n)) unknown.add(n);
      return valid.length === 0 ? null : `[${valid.join(', ')}]`;
    });
    if (!changed) break;
  }
  return { text, cited: unique(citationNumbers(text)), unknown: [...unknown].sort((a, b) => a - b) };
}

/** The citations for the cited numbers, in the same order; numbers with no snippet are skipped. */
export function citationsFor(cited: readonly number[], snippets: readonly Snippet[]): Citation[] {
  const byNumber = new Map(snippets.map((s) => [s.n, s] as const));
  const out: Citation[] = [];
  for (const n of unique(cited)) {
    const s = byNumber.get(n);
    if (s) out.push({ n, locator: s.locator, path: s.path, start_line: s.start_line, end_line: s.end_line, doc_id: s.doc_id });
  }
  return out;
}

/**
 * Words whose full stop does not end a sentence (lower-case, without the final dot). Dotted
 * abbreviations (e.g., i.e., т.е.) and single lower-case letters ("p. 5", "2026 г.") are caught by
 * rule instead; a single capital is not, since "X is Y. Z…" ends a sentence more often than an
 * initial does.
 */
const ABBREVIATIONS = new Set([
  'approx', 'cf', 'dr', 'eg', 'esp', 'al', 'fig', 'figs', 'ie', 'incl', 'jr', 'mr', 'mrs', 'ms', 'prof', 'sr', 'st', 'vs', 'viz', 'eq', 'ca',
  'др', 'см', 'стр', 'напр', 'тыс', 'млн', 'млрд', 'руб', 'ул', 'им', 'рис', 'табл', 'гг', 'вв', 'пр', 'ср', 'проф', 'акад', 'т.е', 'т.к', 'т.д', 'т.п', 'т.н',
  // Languages a term is borrowed from: «(от англ. "mark-and-sweep")», "(lat. …)", «букв.» (literally).
  'англ', 'нем', 'франц', 'фр', 'лат', 'греч', 'итал', 'исп', 'яп', 'кит', 'букв', 'сокр', 'engl', 'lat', 'franz', 'griech', 'wörtl',
  'bzw', 'usw', 'nr', 'vgl', 'ggf', 'inkl', 'evtl', 'zzgl', 'abs', 'bspw', 'sog', 'u.a', 'z.b', 'd.h', 'mio', 'mrd', 'tsd',
]);
/** A German date writes its day as an ordinal: "am 3. März 2026" is one sentence. */
const ORDINAL_DAY = /(?<![\p{L}\p{N}.])\d{1,2}$/u;
const MONTH_NEXT = /^(?:Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember)(?![\p{L}])/u;
/**
 * What ends a sentence: . ! ? …, the Chinese and Japanese 。！？, the danda (।, ॥), the Arabic
 * question mark, the Burmese and Khmer stops; after those but the Latin ones no space comes.
 */
const STOPS = '.!?…。！？।॥؟။។';
const TERMINATORS = new RegExp(`[${STOPS}]+`, 'g');
const FULL_STOP = /[。！？।॥။។]/;
const CLOSERS = /^["'”’»)」』）]*/;
/** Thai and Lao end a sentence with a space between two of their letters, not a stop. */
const UNPUNCTUATED = /[\u0E00-\u0EFF]/;
const UNPUNCTUATED_END = /(?<=[\u0E00-\u0EFF])\s+(?=[\u0E00-\u0EFF])/;
const ENDS_SENTENCE = new RegExp(`[${STOPS}]["'”’»)\`」』）]*$|[\u0E00-\u0EFF]$`, 'u');

/** Whether a quoted sentence already ends as a sentence does (a stop and its closing quotes, or Thai or Lao text), or needs a period. */
export function endsSentence(text: string): boolean {
  return ENDS_SENTENCE.test(text);
}
const TRAILING_MARKERS = new RegExp(`^(?:[ \\t]*${MARKER_SOURCE})*`);
/** Bullets, numbered items, quotes and headings at the start of a line. */
const LINE_PREFIX = /^\s*(?:[-*+•‣◦>]|\d{1,3}[.)]|#{1,6})(?:\s+|$)/;

/** True when the single full stop at index `stop` belongs to an abbreviation. */
function isAbbreviation(line: string, stop: number): boolean {
  const word = /(?<![\p{L}\p{N}.])([\p{L}.]+)$/u.exec(line.slice(0, stop))?.[1];
  if (!word) return false;
  const lower = word.toLowerCase();
  // A single capital after a name is an initial ("William E. Simon", "Александр С. Пушкин"), not the end of a sentence.
  const initial = /^\p{Lu}$/u.test(word) && /(?:^|\s)\p{Lu}[\p{L}'’-]*\.?\s+$/u.test(line.slice(0, stop - 1));
  return ABBREVIATIONS.has(lower) || /^\p{Ll}$/u.test(word) || initial || /^(?:\p{L}\.)+\p{L}$/u.test(word);
}

/** Splits one line at sentence ends; markers and closing quotes after the stop stay in front. */
function splitLine(line: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  const terminators = new RegExp(TERMINATORS.source, 'g');
  for (let m = terminators.exec(line); m; m = terminators.exec(line)) {
    let end = m.index + m[0].length;
    end += CLOSERS.exec(line.slice(end))![0].length;
    end += TRAILING_MARKERS.exec(line.slice(end))![0].length;
    // A stop followed by a non-space is inside a token: 3.5, v0.9.2, e.g, notes/a.md. Chinese and
    // Japanese put no space after their full stops (。！？); Hindi's danda (।) ends a sentence as they do.
    const full = FULL_STOP.test(m[0]);
    if (!full && end < line.length && !/\s/.test(line[end]!)) continue;
    const rest = line.slice(end).trimStart();
    // A lower-case word after the stop continues the sentence ("approx. three", "e.g. the").
    if (!full && rest !== '' && /^\p{Ll}/u.test(rest)) continue;
    if (m[0] === '.' && isAbbreviation(line, m.index)) continue;
    if (m[0] === '.' && ORDINAL_DAY.test(line.slice(0, m.index)) && MONTH_NEXT.test(rest)) continue;
    // A number opening a quoted title is its item number: the chapter "25. Avoid default in switch".
    if (m[0] === '.' && /["“«‘(]\d{1,3}$/u.test(line.slice(0, m.index))) continue;
    pieces.push(line.slice(start, end));
    start = end;
    terminators.lastIndex = end;
  }
  pieces.push(line.slice(start));
  return pieces.flatMap((p) => (UNPUNCTUATED.test(p) ? p.split(UNPUNCTUATED_END) : [p]));
}

/**
 * Splits an answer into sentences. Line breaks and list items are boundaries; so are . ! ? … when
 * followed by a space and not a lower-case word, except after abbreviations and inside numbers
 * (3.5, v0.9.2). Citation markers right after the stop belong to the sentence before it
 * ("X is Y. [1]"), and a line of markers alone joins the sentence above. Bullet and heading marks
 * are dropped; pieces with no letter, digit or marker are dropped.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(LINE_PREFIX, '');
    for (const raw of splitLine(line)) {
      const piece = raw.trim();
      const hasMarker = markerRegex().test(piece);
      const hasWords = /[\p{L}\p{N}]/u.test(piece.replace(markerRegex(), ''));
      if (!hasWords && !hasMarker) continue;
      if (!hasWords && out.length > 0) out[out.length - 1] += ` ${piece}`;
      else out.push(piece);
    }
  }
  return out;
}

/** A sentence's words for finding it in a file: lower-case letters and digits, markdown and markers gone. */
const wordsOf = (text: string): string[] => stripCitationMarkers(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The longest window of lines a narrowed citation may span: past it, the whole passage is cited. */
const MAX_NARROW_LINES = 8;

/**
 * Narrows each citation to the lines that hold the sentences citing it: a one-line sentence cites its
 * line, not the 30 lines of the passage it was read in. A sentence is found in the passage's lines
 * (as the file holds them, `linesOf`; null when the file changed or cannot be read) as the shortest
 * window holding its words in order (a quote), else holding at least 80% of its distinct words of
 * four letters or more, by their first five letters (a paraphrase). A sentence not found, or found only across more than
 * MAX_NARROW_LINES lines, leaves the citation as it was.
 */
export function narrowCitations(citations: readonly Citation[], answer: string, linesOf: (docId: string) => readonly string[] | null): Citation[] {
  const sentences = splitSentences(answer);
  return citations.map((c) => {
    const citing = sentences.filter((s) => citationNumbers(s).includes(c.n));
    const lines = linesOf(c.doc_id)?.slice(c.start_line - 1, c.end_line);
    if (citing.length === 0 || !lines || lines.length !== c.end_line - c.start_line + 1 || lines.length <= 1) return c;
    const lineWords = lines.map(wordsOf);
    let lo = Infinity;
    let hi = -Infinity;
    for (const sentence of citing) {
      const found = findWindow(wordsOf(sentence), lineWords);
      if (!found) return c;
      lo = Math.min(lo, found[0]);
      hi = Math.max(hi, found[1]);
    }
    if (hi - lo + 1 > MAX_NARROW_LINES) return c;
    const start_line = c.start_line + lo;
    const end_line = c.start_line + hi;
    return { ...c, start_line, end_line, locator: `${c.path}#L${start_line}-L${end_line}` };
  });
}

/** The shortest window [first, last] of lines holding the sentence (see narrowCitations), or null. */
function findWindow(sentence: readonly string[], lineWords: readonly (readonly string[])[]): [number, number] | null {
  if (sentence.length === 0) return null;
  const quote = ` ${sentence.join(' ')} `;
  // A paraphrase's words of four letters or more, matched by their first five ("hosting" for "host").
  const stem = (w: string) => w.slice(0, 5);
  const content = [...new Set(sentence.filter((w) => w.length >= 4).map(stem))];
  let best: [number, number] | null = null;
  let bestQuote = false;
  for (let i = 0; i < lineWords.length; i++) {
    const seen = new Set<string>();
    const joined: string[] = [];
    for (let j = i; j < Math.min(lineWords.length, i + MAX_NARROW_LINES); j++) {
      joined.push(...lineWords[j]!);
      for (const w of lineWords[j]!) seen.add(stem(w));
      const isQuote = ` ${joined.join(' ')} `.includes(quote);
      const covered = content.length >= 3 && content.filter((w) => seen.has(w)).length >= 0.8 * content.length;
      if (!isQuote && !covered) continue;
      // A quote found verbatim beats a paraphrase's words; then the shorter window.
      if (!best || (isQuote && !bestQuote) || (isQuote === bestQuote && j - i < best[1] - best[0])) {
        best = [i, j];
        bestQuote = isQuote;
      }
      break;
    }
  }
  return best;
}

/** Marks citations whose file changed or vanished since it was indexed. */
export function staleCitations(citations: ReturnType<typeof citationsFor>, documentSource: (docId: string) => { absPath: string; contentHash: string | null } | null): Map<number, boolean> {
  const stale = new Map<number, boolean>();
  const byDoc = new Map<string, boolean>();
  for (const c of citations) {
    if (!byDoc.has(c.doc_id)) {
      const source = documentSource(c.doc_id);
      let changed = true;
      if (source?.contentHash) {
        try {
          changed = sha256(fs.readFileSync(source.absPath)) !== source.contentHash;
        } catch {
          changed = true;
        }
      }
      byDoc.set(c.doc_id, changed);
    }
    stale.set(c.n, byDoc.get(c.doc_id)!);
  }
  return stale;
}
