import { foldText, hasUnspacedScript, stemWord, unspacedWords, withoutParticle } from './analyzer.ts';
import { stepOver, wordEnd } from './word-chars.ts';

/**
 * Does this written word match one of the query terms (exact term, or prefix* term)? Stemmed as
 * English and in each other analysis language the query was stemmed in (`languages`).
 */
export function wordMatches(word: string, terms: ReadonlySet<string>, prefixes: readonly string[], languages: readonly string[] = []): boolean {
  const lower = ASCII.test(word) ? word.toLowerCase() : foldText(word).toLowerCase();
  if (terms.has(lower)) return true;
  const stem = stemWord(lower);
  if (terms.has(stem)) return true;
  for (const l of languages) if (l !== 'en' && terms.has(stemWord(lower, l))) return true;
  const bare = withoutParticle(lower);
  if (bare !== null && terms.has(bare)) return true;
  return prefixes.some((p) => lower.startsWith(p) || stem.startsWith(p));
}

const ASCII = /^[\x00-\x7f]*$/;

export interface SnippetWord {
  start: number;
  end: number;
  /** Whether the word matches a query term (see wordMatches). */
  hit: boolean;
}

/**
 * The words of a text (runs of [\p{L}\p{M}\p{N}_], as the analyzer reads them) and which match the query
 * terms. Read code unit by code unit, with no regular expression or string per word that cannot
 * match: snippets are made for every result.
 */
export function snippetWords(text: string, queryTerms: readonly string[], languages: readonly string[] = []): SnippetWord[] {
  const terms = new Set(queryTerms.filter((t) => !t.endsWith('*')));
  const prefixes = queryTerms.filter((t) => t.endsWith('*')).map((t) => t.slice(0, -1));
  // Stemming keeps a word's first letter, so only words starting like a term can match (cheap test first).
  const initials = new Set([...terms, ...prefixes].map((t) => t.charAt(0)));
  // Whether a first code unit can start a term: ASCII ones in a table, others remembered as met.
  const asciiInitial = new Uint8Array(128);
  for (let c = 0; c < 128; c++) asciiInitial[c] = initials.has(String.fromCharCode(c).toLowerCase()) ? 1 : 0;
  const otherInitial = new Map<number, boolean>();
  const startsLikeTerm = (code: number, c: string) => {
    if (code < 128) return asciiInitial[code] === 1;
    let ok = otherInitial.get(code);
    if (ok === undefined) otherInitial.set(code, (ok = initials.has(c.toLowerCase()) || initials.has(foldText(c).toLowerCase())));
    return ok;
  };
  const memo = new Map<string, boolean>();
  const hit = (start: number, end: number) => {
    if (!startsLikeTerm(text.charCodeAt(start), text.charAt(start))) return false;
    const w = text.slice(start, end);
    let v = memo.get(w);
    if (v === undefined) memo.set(w, (v = wordMatches(w, terms, prefixes, languages)));
    return v;
  };
  const nonAscii = (t: string, from: number, to: number) => {
    for (let k = from; k < to; k++) if (t.charCodeAt(k) >= 128) return true;
    return false;
  };
  const words: SnippetWord[] = [];
  for (let i = 0; i < text.length; ) {
    const end = wordEnd(text, i);
    if (end === i) {
      i += stepOver(text, i);
      continue;
    }
    // A run of Chinese or Japanese is several words, each highlighted on its own, also after a digit or a
    // Latin letter ("7日以内"), as the analyzer reads it.
    if (end - i > 1 && nonAscii(text, i, end) && hasUnspacedScript(text.slice(i, end))) for (const w of unspacedWords(text.slice(i, end))) words.push({ start: i + w.index, end: i + w.index + w.word.length, hit: hit(i + w.index, i + w.index + w.word.length) });
    else words.push({ start: i, end, hit: hit(i, end) });
    i = end;
  }
  return words;
}

/**
 * A highlighted excerpt of the original text around the densest run of matching words; matches are
 * wrapped in «». Pure: it only looks at the text, the terms and the languages they were stemmed in.
 */
export function highlightSnippet(text: string, queryTerms: readonly string[], maxChars = 240, languages: readonly string[] = []): string {
  const words = snippetWords(text, queryTerms, languages);
  if (words.length === 0) return text.slice(0, maxChars).replace(/\s+/g, ' ').trim();
  // Best window start: the word index whose following maxChars hold the most hits.
  let best = 0;
  let bestHits = -1;
  let hits = 0;
  let j = 0;
  for (let i = 0; i < words.length; i++) {
    while (j < words.length && words[j]!.end - words[i]!.start <= maxChars) {
      if (words[j]!.hit) hits++;
      j++;
    }
    if (hits > bestHits) {
      bestHits = hits;
      best = i;
    }
    if (words[i]!.hit) hits--;
  }
  const from = best > 0 ? words[best]!.start : 0;
  let to = Math.min(text.length, from + maxChars);
  const last = words.findLast((w) => w.end <= to);
  if (last && to < text.length) to = last.end;
  let out = '';
  let cursor = from;
  for (const w of words) {
    if (w.start < from || w.end > to || !w.hit) continue;
    out += `${text.slice(cursor, w.start)}«${text.slice(w.start, w.end)}»`;
    cursor = w.end;
  }
  out += text.slice(cursor, to);
  return `${from > 0 ? '…' : ''}${out.replace(/\s+/g, ' ').trim()}${to < text.length ? '…' : ''}`;
}
