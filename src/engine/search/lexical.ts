import picomatch from 'picomatch';
import type { MatchExplanation, RetrievedChunk } from '../../shared/contract.ts';
import type { ReadConnection } from '../store/connection.ts';
import type { ChunkRow } from '../store/queries/chunks.ts';
import { countVisibleAndHidden, hiddenChunkIds } from '../store/queries/documents.ts';
import type { ChunkFilters } from '../store/queries/filters.ts';
import { BM25_WEIGHTS, documentFrequencies, ensureVocab, languagesPresent, lexicalQueries, phraseStats, rowLengths, tableStats } from '../store/queries/fts.ts';
import { chunksOfNotes, matchingChunksOf } from '../store/queries/graph.ts';
import type { VisibilityPolicy } from '../store/visibility.ts';
import { detectLanguage } from '../lang/detect.ts';
import { ANALYZED_LANGUAGES, analysisLanguage, analyzeForIndex, compoundParts, isStopword, tokenize } from './analyzer.ts';
import { ftsTokens, idf, termScore, visibleRanks } from './bm25.ts';
import { buildFtsQuery, type FtsQuery, withTerms } from './fts-query.ts';
import { highlightSnippet } from './snippet.ts';
import { ASCII_KIND, DIGIT, isNonAsciiWord, LOWER, OTHER_WORD, stepOver, UNDERSCORE, UPPER } from './word-chars.ts';

/** A request's filters (the store layer applies them inside its queries). */
export type LexicalFilters = ChunkFilters;

// The hydration of hits and the filters are the store layer's; re-exported for the lists that use them.
export { allowedChunkIds, allowedChunksSql, loadFilteredChunks } from '../store/queries/chunks.ts';
export { hiddenDocumentPaths } from '../store/queries/documents.ts';
export { BM25_WEIGHTS };

export interface LexicalOptions extends LexicalFilters {
  k: number;
  minScore?: number;
  explain?: boolean;
  /** Allow exact MaxScore pruning of common terms (default true; false runs the plain OR query). */
  prune?: boolean;
  /** Prune only over at least this many chunks (default PRUNE_MIN_ROWS; tests lower it). */
  pruneMinRows?: number;
  /**
   * False: leave `snippet` empty and say in `highlight` which terms each chunk's snippet should
   * mark, for a caller that keeps only some chunks (hybrid fusion pools) to build snippets for those.
   */
  snippets?: boolean;
}

export interface LexicalResult {
  chunks: RetrievedChunk[];
  query: FtsQuery;
  candidates: number;
  filtered: number;
  trigramUsed: boolean;
  /** Whether common terms were kept out of the MATCH and scored on the candidates (exact top-k). */
  pruned: boolean;
  /** With `snippets: false`: the terms to mark in each chunk's snippet, by chunk id. */
  highlight: Map<number, string[]>;
}

export type Row = ChunkRow;

/** Below this many chunks the full OR query is fast (SciFact's 8.6k: p95 15 ms); pruning would only cost recall. */
const PRUNE_MIN_ROWS = 50_000;
/** Pruning serves interactive top-k; deeper requests (evaluation, fusion pools) run the full query. */
const PRUNE_MAX_K = 50;
/** The clauses kept in the MATCH may together hit at most this share of chunks (at least two are kept). */
const PRUNE_BUDGET_SHARE = 0.1;
/** Extra candidates rescored beyond k, at most (6k below that). */
const PRUNE_MAX_MARGIN = 100;

/**
 * How rare each analyzed term is in the index (BM25's idf; a term no chunk holds gets the highest
 * value). Cited answers use it to tell whether the sources mention what a question is about.
 *
 * With `visibility`, a term that only documents hidden from the caller hold counts as held by none:
 * "your files never mention X" must not tell whether a restricted note mentions X.
 */
export function termStats(db: ReadConnection, terms: readonly string[], visibility?: VisibilityPolicy): Map<string, { idf: number; df: number }> {
  ensureVocab(db);
  let { rows } = tableStats(db, 'chunks_fts');
  const tokens = [...new Set(terms.flatMap((t) => ftsTokens(t)))];
  const df = new Map(documentFrequencies(db, 'temp.chunks_vocab', tokens));
  const hidden = visibility ? hiddenChunkIds(db, visibility) : [];
  if (hidden.length > 0) {
    // As far as the caller may see: rows and hits of the hidden chunks left out, so that a word only
    // they hold counts as held by none and a word they share reads as rare as the visible rows make it.
    rows -= rowLengths(db, 'chunks_fts', hidden).size;
    for (const token of tokens) {
      const n = df.get(token) ?? 0;
      if (n > 0) df.set(token, n - phraseStats(db, 'chunks_fts', `"${token.replace(/"/g, '""')}"`, [], hidden).hiddenHits);
    }
  }
  const out = new Map<string, { idf: number; df: number }>();
  for (const t of terms) {
    const parts = ftsTokens(t);
    if (parts.length === 0) {
      out.set(t, { idf: 0, df: 0 });
      continue;
    }
    // A term the analyzer splits (rare) counts as its rarest part.
    const rarest = Math.min(...parts.map((p) => df.get(p) ?? 0));
    out.set(t, { idf: idf(Math.max(rows, 1), rarest), df: rarest });
  }
  return out;
}

/**
 * The languages a query's words are stemmed in, so that they meet the index terms of the vault's
 * text: English alone while no chunk is written in another analyzed language (an English or Russian
 * vault reads every query as it always did). Otherwise the question's own language when detection
 * is sure of it; when it is not (two words, names, a lean), English and every analyzed language of
 * the vault, whose stems are then OR-ed. The first language is the one the question is read in
 * (the answer reader's): when detection is unsure, the vault's language whose function words the
 * question holds more of than English ones ("Wann beginnt die Testphase?": wann, die), else its lean.
 */
export function queryLanguages(db: ReadConnection, query: string): string[] {
  const present = languagesPresent(db, ANALYZED_LANGUAGES);
  if (present.length === 0) return ['en'];
  const detected = detectLanguage(query);
  const own = analysisLanguage(detected.lang);
  const langs = detected.confidence >= SURE_LANGUAGE ? [own] : [leaningLanguage(query, present) ?? own, 'en', ...present];
  const out = [...new Set(langs)].filter((l) => l === 'en' || present.includes(l));
  return out.length > 0 ? out : ['en'];
}

/** Of `langs`, the one whose own function words (not English or Russian ones) the text holds most of, when more than English ones. */
function leaningLanguage(text: string, langs: readonly string[]): string | null {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const english = words.filter((w) => isStopword(w)).length;
  let best: string | null = null;
  let most = english;
  for (const l of langs) {
    const n = words.filter((w) => isStopword(w, l) && !isStopword(w)).length;
    if (n > most) {
      best = l;
      most = n;
    }
  }
  return best;
}

/** detectLanguage's confidence from which a query's language is taken alone (function words, or tinyld's telling n-grams). */
const SURE_LANGUAGE = 0.9;

/**
 * The FTS5 query of a search: its words analyzed in the query's languages (queryLanguages), and in a
 * German query the parts of each compound no chunk holds whole (analyzer.ts compoundParts).
 */
export function ftsQueryFor(db: ReadConnection, query: string, visibility?: VisibilityPolicy): FtsQuery {
  const langs = queryLanguages(db, query);
  const fts = buildFtsQuery(query, langs);
  if (!langs.includes('de') || fts.match === null) return fts;
  // Whether a compound is held whole, as far as the caller may see (a word only hidden notes hold must not change the query).
  const df = (terms: readonly string[]) => new Map([...termStats(db, terms, visibility)].map(([t, s]) => [t, s.df]));
  const words = tokenize(query, 'de').filter((t) => !isStopword(t.raw, 'de') && /^\p{L}+$/u.test(t.raw));
  const whole = df(words.map((w) => w.term));
  return withTerms(fts, words.flatMap((w) => ((whole.get(w.term) ?? 0) > 0 ? [] : compoundParts(w.raw, 'de', df))));
}

/** Pruning counts left-out terms in the rows' text with the English analysis (termTally); other languages run the full query. */
const prunable = (fts: FtsQuery) => fts.languages.every((l) => l === 'en');

/**
 * The query's plain terms split by how many chunks hold them: phrases, prefixes and non-ASCII terms
 * stay matched through the index, plain terms join them rarest first while their rows together stay
 * within `budgetShare` of all chunks (at least `minKept` clauses kept); the rest are `left`, with
 * their idf, to be counted in the rows' text (`textScores`).
 */
function splitByFrequency(db: ReadConnection, fts: FtsQuery, budgetShare: number, minKept: number) {
  const stats = tableStats(db, 'chunks_fts');
  ensureVocab(db);
  const plain = fts.clauses.filter((c) => c.term !== null && /^[a-z0-9]+$/.test(c.term));
  const df = documentFrequencies(db, 'temp.chunks_vocab', plain.map((c) => c.term!));
  const kept = new Set(fts.clauses.filter((c) => !plain.includes(c)));
  let hits = 0;
  for (const c of [...plain].sort((a, b) => df.get(a.term!)! - df.get(b.term!)!)) {
    const n = df.get(c.term!)!;
    if (kept.size >= minKept && hits + n > stats.rows * budgetShare) break;
    kept.add(c);
    hits += n;
  }
  const left = plain.filter((c) => !kept.has(c)).map((c) => ({ term: c.term!, idf: idf(stats.rows, df.get(c.term!)!) }));
  const match = fts.clauses.filter((c) => kept.has(c)).map((c) => c.expr).join(' OR ');
  /** Rows the left terms hold together: what matching them through the index would walk. */
  const leftRows = plain.filter((c) => !kept.has(c)).reduce((n, c) => n + df.get(c.term!)!, 0);
  return { stats, match, left, leftRows };
}

/**
 * Each row's bm25 contribution of the `left` terms, counted in its title, heading and text and scored
 * with FTS5's formula and the index's statistics; `held` says whether the row holds any of them.
 */
function textScores(db: ReadConnection, rows: readonly { id: number; title?: string | null; heading?: string | null; text: string }[], left: readonly { term: string; idf: number }[], avgdl: number): Map<number, { extra: number; held: boolean }> {
  const tally = termTally(left.map((t) => t.term));
  /** Each title's weighted counts, once per title (null: it holds none). */
  const titles = new Map<string, Float64Array | null>();
  const out = new Map<number, { extra: number; held: boolean }>();
  /** Each row's weighted count of each left term, for the rows that hold one (most hold none). */
  const held: { id: number; f: Float64Array }[] = [];
  let f = new Float64Array(left.length);
  for (const r of rows) {
    let title = titles.get(r.title ?? '');
    if (title === undefined) {
      const t = new Float64Array(left.length);
      titles.set(r.title ?? '', (title = tally(r.title ?? '', BM25_WEIGHTS.title, t) ? t : null));
    }
    out.set(r.id, { extra: 0, held: false });
    // Weights and counts are small multiples of 0.5: the sums are exact in any order.
    let any = tally(r.heading ?? '', BM25_WEIGHTS.heading, f);
    if (tally(r.text, BM25_WEIGHTS.body, f)) any = true;
    if (title !== null) {
      for (let i = 0; i < f.length; i++) f[i]! += title[i]!;
      any = true;
    }
    if (!any) continue;
    held.push({ id: r.id, f });
    f = new Float64Array(left.length);
  }
  // A row's length weighs only the terms it holds: read for those rows alone.
  const lengths = rowLengths(db, 'chunks_fts', held.map((r) => r.id));
  for (const { id, f } of held) {
    let extra = 0;
    left.forEach((t, i) => (extra += termScore(t.idf, f[i]!, lengths.get(id) ?? avgdl, avgdl)));
    out.set(id, { extra, held: true });
  }
  return out;
}

/**
 * OR-ed queries with common terms are the slow case of FTS5: it scores every row that holds any
 * term. For interactive k this keeps the common plain terms out of the MATCH: the selective clauses
 * (rarest first, within a posting budget) find k + margin candidates, then the left-out terms' BM25
 * contributions are added to each candidate with FTS5's own formula, so candidate scores equal the
 * full query's. Approximate only in recall: a row that holds none of the kept clauses cannot be a
 * candidate. `synapsis bench search` prints how often the top 10 equals the full query's, and
 * `synapsis eval` measures quality with it on or off. Returns null when pruning does not apply.
 */
function searchPruned(db: ReadConnection, fts: FtsQuery, k: number, minRows: number, run: (match: string, limit: number) => Row[]): Row[] | null {
  if (k > PRUNE_MAX_K || fts.clauses.length < 3 || !prunable(fts)) return null;
  if (tableStats(db, 'chunks_fts').rows < minRows) return null;
  const { stats, match, left } = splitByFrequency(db, fts, PRUNE_BUDGET_SHARE, 2);
  if (left.length === 0) return null;
  // The margin grows with k up to PRUNE_MAX_MARGIN: a fusion pool of 50 needs its head right more than
  // its tail, and rescoring 350 candidates cost more than the pruning saved.
  const candidates = run(match, k + Math.max(30, Math.min(6 * k, PRUNE_MAX_MARGIN)));
  if (candidates.length < k) return null;
  const extra = textScores(db, candidates, left, stats.avgdl);
  const rescored = candidates.map((r) => ({ ...r, rank: r.rank - extra.get(r.id)!.extra }));
  rescored.sort((a, b) => a.rank - b.rank || a.id - b.id);
  return rescored.slice(0, k);
}

/** Characters of the chunks' headings and text: what counting terms in them reads. */
const textLength = (rows: readonly { heading: string | null; text: string }[]) => rows.reduce((n, r) => n + r.text.length + (r.heading?.length ?? 0), 0);

/**
 * The chunks of the indexed documents at `paths` that match the query, with FTS5's bm25 rank, best
 * first: what `MATCH` restricted to those chunks gives. FTS5's bm25 walks every query term's whole
 * posting list to count its rows, and a MATCH walks the lists to find the rows: over a large index
 * (PRUNE_MIN_ROWS) that costs more than reading the few notes (24 linked notes are about 200 chunks;
 * a term in 8% of 442k chunks has 35k rows). There, for a query read in English only (the counter
 * analyzes as English: `prunable`), the plain terms are counted in the chunks' text and scored with
 * FTS5's formula and the index's statistics, as the pruned search rescores; only phrases, prefixes
 * and non-ASCII terms are matched through the index, unless the notes hold more characters than
 * the counted terms have rows (`textChars`: another bound, tests). The ranks are FTS5's either way.
 * `minRows` moves the size from which counting applies (tests).
 */
export function rankChunksOfNotes(db: ReadConnection, fts: FtsQuery, paths: readonly string[], minRows = PRUNE_MIN_ROWS, hidden: readonly number[] = [], textChars?: number): { id: number; path: string; rank: number }[] {
  if (!fts.match || paths.length === 0) return [];
  if (hidden.length > 0) {
    // Chunks hidden from the caller: every match, ranked by the statistics of what it may see (visibleRanks).
    const matched = matchingChunksOf(db, fts.match, paths);
    const ranks = visibleRanks(db, 'chunks_fts', fts.clauses.map((c) => c.expr), matched.map((r) => r.id), hidden);
    return matched.map((r) => ({ ...r, rank: ranks.get(r.id) ?? r.rank })).sort((a, b) => a.rank - b.rank || a.id - b.id);
  }
  const hasPlain = fts.clauses.some((c) => c.term !== null && /^[a-z0-9]+$/.test(c.term));
  if (tableStats(db, 'chunks_fts').rows < minRows || !hasPlain || !prunable(fts)) return matchingChunksOf(db, fts.match, paths);
  // A budget of no rows: the plain terms held by any chunk are all left to the text.
  const { stats, match, left, leftRows } = splitByFrequency(db, fts, 0, 0);
  if (left.length === 0) return match === '' ? [] : matchingChunksOf(db, match, paths);
  const rows = chunksOfNotes(db, paths);
  // Counting the left terms reads every character of the notes; matching them through the index walks
  // their rows (twice: bm25 counts each term's rows again). About as costly per character as per row
  // here, so long notes (reference pages of hundreds of chunks) are matched through the index: the
  // ranks are FTS5's either way.
  if (textLength(rows) > (textChars ?? leftRows)) return matchingChunksOf(db, fts.match, paths);
  const matched = match === '' ? [] : matchingChunksOf(db, match, paths);
  const rank = new Map(matched.map((r) => [r.id, r.rank]));
  const scores = textScores(db, rows, left, stats.avgdl);
  const out: { id: number; path: string; rank: number }[] = [];
  for (const r of rows) {
    const { extra, held } = scores.get(r.id)!;
    if (held || rank.has(r.id)) out.push({ id: r.id, path: r.path, rank: (rank.get(r.id) ?? 0) - extra });
  }
  return out.sort((a, b) => a.rank - b.rank || a.id - b.id);
}

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
  const begins = beginnings.size === 0 ? null : new RegExp([...beginnings].map((b) => b.replace(/[^a-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)).join('|'), 'gi');
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
      let prev = 0;
      let hash = 0;
      while (i < n) {
        const c = text.charCodeAt(i);
        let kind: number;
        let width = 1;
        if (c < 128) kind = ASCII_KIND[c]!;
        else {
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
      if (!identifier && a < 128 && b < 128) {
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
  return (text, w, out) => {
    into = out;
    weight = w;
    any = false;
    if (asciiWords(text)) byPattern(text);
    // The analyzer reads text composed (foldText: NFC): "cafe" + a combining acute is "café", one word.
    else scan(COMBINING_MARK.test(text) ? text.normalize('NFC') : text);
    return any;
  };
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

/** A stored row as a result; `withSnippet` false leaves the snippet to be built once the final top k is known. */
export function toRetrievedChunk(r: Row, highlightTerms: readonly string[], score: number, withSnippet = true, languages: readonly string[] = []): RetrievedChunk {
  return {
    chunk_id: r.id,
    doc_id: r.doc_id,
    locator: r.locator,
    path: r.path,
    root: r.root,
    title: r.title ?? r.path,
    heading: r.heading,
    start_line: r.start_line,
    end_line: r.end_line,
    text: r.text,
    snippet: withSnippet ? highlightSnippet(r.text, highlightTerms, undefined, languages) : '',
    score,
    tags: JSON.parse(r.tags_json) as Record<string, string>,
  };
}

/**
 * A request that names only sources the policy hides (say --include hr/** where every note is
 * restricted) is answered like one that names nothing: empty results, and a `syn.retrieve.denied`
 * event for the engine's own listeners (logs, metrics). An error would tell the caller that
 * restricted notes match the glob.
 */
export function noteDenied(db: ReadConnection, f: LexicalFilters, onDenied: (reason: string) => void): void {
  if (!f.sensitivityEnable || f.includeGlobs.length === 0) return;
  const { visible, hidden } = countVisibleAndHidden(db, f, picomatch([...f.includeGlobs], { dot: true }));
  if (hidden > 0 && visible === 0) onDenied(`every document matching ${f.includeGlobs.join(', ')} is hidden by its sensitivity`);
}

/**
 * BM25 over the analyzed chunks_fts, with a trigram fallback for identifiers and substrings when
 * BM25 finds fewer than k. Filters run inside the query, before ranking and limiting, so a hidden
 * chunk never takes a slot of the top k.
 */
export function searchLexical(db: ReadConnection, query: string, options: LexicalOptions): LexicalResult {
  const fts = ftsQueryFor(db, query, options);
  const result: LexicalResult = { chunks: [], query: fts, candidates: 0, filtered: 0, trigramUsed: false, pruned: false, highlight: new Map() };
  const queries = lexicalQueries(db, options);
  const seen = new Set<number>();
  const rows: (Row & { via: 'bm25' | 'trigram' })[] = [];
  // Chunks hidden from this caller: the ranks are then those of the chunks it may see alone
  // (visibleRanks), from a deeper pool so that the new order's head is in it. None (the usual case):
  // FTS5's ranks as they are.
  const hidden = hiddenChunkIds(db, options);
  /** The best `limit` of `candidates` by their visible ranks in `table`, for the query's `phrases`. */
  const reranked = <R extends Row>(table: 'chunks_fts' | 'chunks_tri', phrases: readonly string[], candidates: readonly R[], limit: number): R[] => {
    const ranks = visibleRanks(db, table, phrases, candidates.map((r) => r.id), hidden);
    return candidates
      .map((r) => ({ ...r, rank: ranks.get(r.id) ?? r.rank }))
      .sort((a, b) => a.rank - b.rank || a.id - b.id)
      .slice(0, limit);
  };
  const pool = (k: number) => 2 * k + 20;

  if (fts.match) {
    // Rank first with ids only, then load the winners' rows: the sorter then carries two numbers per
    // matched row instead of its text, and the text (often in overflow pages) is read for k rows only.
    const run = (match: string, limit: number): Row[] => {
      const ranked = queries.rank(match, limit);
      if (ranked.length === 0) return [];
      const byId = new Map(queries.load(ranked.map((r) => r.id)).map((r) => [r.id, r]));
      return ranked.flatMap((r) => {
        const row = byId.get(r.id);
        return row ? [{ ...row, rank: r.rank }] : [];
      });
    };
    const pruned = options.prune === false || hidden.length > 0 ? null : searchPruned(db, fts, options.k, options.pruneMinRows ?? PRUNE_MIN_ROWS, run);
    result.pruned = pruned !== null;
    const ranked =
      pruned ??
      (hidden.length > 0
        ? reranked(
            'chunks_fts',
            fts.clauses.map((c) => c.expr),
            run(fts.match, pool(options.k)),
            options.k,
          )
        : run(fts.match, options.k));
    for (const r of ranked) {
      seen.add(r.id);
      rows.push({ ...r, via: 'bm25' });
    }
  }
  const trigramTerms = [...new Set([...fts.literals, ...fts.fragments])];
  if (rows.length < options.k && trigramTerms.length > 0) {
    result.trigramUsed = true;
    const phrases = trigramTerms.map((t) => `"${t.replace(/"/g, '""')}"`);
    const match = phrases.join(' OR ');
    const limit = options.k + seen.size;
    const found = hidden.length > 0 ? reranked('chunks_tri', phrases, queries.trigram(match, pool(limit)), limit) : queries.trigram(match, limit);
    for (const r of found) {
      if (seen.has(r.id) || rows.length >= options.k) continue;
      seen.add(r.id);
      rows.push({ ...r, via: 'trigram' });
    }
  }

  // Highlighted and explained: the plain terms and the words of the phrases.
  const terms = fts.shown;
  result.chunks = rows
    .map((r, i) => {
      const marks = r.via === 'trigram' ? [...terms, ...trigramTerms.map((t) => `${t.toLowerCase()}*`)] : terms;
      const withSnippet = options.snippets !== false || options.explain === true;
      const chunk = toRetrievedChunk(r, marks, Math.round(-r.rank * 1e4) / 1e4, withSnippet, fts.languages);
      if (!withSnippet) result.highlight.set(r.id, marks);
      if (options.explain) chunk.explain = explainMatch(chunk, terms, r.via, i + 1, fts.languages, fts.words);
      return chunk;
    })
    .filter((c) => options.minScore === undefined || c.score >= options.minScore);
  result.candidates = rows.length + queries.filtered();
  result.filtered = queries.filtered();
  return result;
}

function termsIn(text: string, languages: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const l of languages) {
    for (const t of tokenize(text, l)) {
      out.add(t.term);
      for (const p of t.parts) out.add(p);
    }
  }
  return out;
}

/**
 * Which of the query's terms each field of the chunk holds, and which words it lacks: a word analyzed
 * in several languages (`words`, FtsQuery.words) is missing only when none of its terms is there, so
 * an English chunk does not "lack" the German stem of an English word.
 */
export function explainMatch(chunk: RetrievedChunk, terms: readonly string[], via: 'bm25' | 'trigram', rank: number, languages: readonly string[] = ['en'], words: readonly (readonly string[])[] = terms.map((t) => [t])): MatchExplanation {
  const fields = { title: termsIn(chunk.title, languages), heading: termsIn(chunk.heading ?? '', languages), body: termsIn(chunk.text, languages) };
  const has = (set: Set<string>, term: string) => (term.endsWith('*') ? [...set].some((x) => x.startsWith(term.slice(0, -1))) : set.has(term));
  const pick = (set: Set<string>) => terms.filter((t) => has(set, t));
  const found = { title: pick(fields.title), heading: pick(fields.heading), body: pick(fields.body) };
  const any = new Set([...found.title, ...found.heading, ...found.body]);
  const grouped = new Set(words.flat());
  const missing = [...words.filter((w) => w.length > 0 && !w.some((t) => any.has(t))).map((w) => w[0]!), ...terms.filter((t) => !grouped.has(t) && !any.has(t))];
  return { via, fields: found, missing, rank };
}
