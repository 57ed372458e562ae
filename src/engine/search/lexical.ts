import picomatch from 'picomatch';
import type { MatchExplanation, RetrievedChunk } from '../../shared/contract.ts';
import type { ReadConnection } from '../store/connection.ts';
import type { ChunkRow } from '../store/queries/chunks.ts';
import { countVisibleAndHidden, hiddenChunkIds } from '../store/queries/documents.ts';
import type { ChunkFilters } from '../store/queries/filters.ts';
import { BM25_WEIGHTS, documentFrequencies, ensureVocab, languagesPresent, lexicalQueries, phraseStats, rowLengths, tableStats } from '../store/queries/fts.ts';
import { chunksHoldingIn, chunksOfNotes, chunkTextsOf, matchingChunksOf, textCharsOfNotes } from '../store/queries/graph.ts';
import type { VisibilityPolicy } from '../store/visibility.ts';
import { detectLanguage } from '../lang/detect.ts';
import { ANALYZED_LANGUAGES, analysisLanguage, compoundParts, isStopword, tokenize } from './analyzer.ts';
import { ftsRank, ftsTokens, idf, K1, termScore, visibleRanks } from './bm25.ts';
import { buildFtsQuery, type FtsQuery, withTerms } from './fts-query.ts';
import { highlightSnippet } from './snippet.ts';
import { termTally } from './term-count.ts';

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
 * the vault, whose stems are then OR-ed. The first is the one the question is stemmed in (and, but for
 * readerLanguage's exception, read in): when detection is unsure, the vault's language whose function
 * words the question holds more of than English ones ("Wann beginnt die Testphase?": wann, die), else its lean.
 * `detected`: the question's language where the caller detected it already (else detected here, only when needed).
 */
export function queryLanguages(db: ReadConnection, query: string, detected?: ReturnType<typeof detectLanguage>): string[] {
  const present = languagesPresent(db, ANALYZED_LANGUAGES);
  if (present.length === 0) return ['en'];
  const { lang, confidence } = detected ?? detectLanguage(query);
  const own = analysisLanguage(lang);
  const langs = confidence >= SURE_LANGUAGE ? [own] : [leaningLanguage(query, present) ?? own, 'en', ...present];
  const out = [...new Set(langs)].filter((l) => l === 'en' || present.includes(l));
  return out.length > 0 ? out : ['en'];
}

/**
 * The language the answer reader reads a question in: the first it is searched in (queryLanguages),
 * or the question's own where detection is sure of it and the search reads it with another's
 * analysis. A Russian question is searched with English's (which stems Cyrillic as Russian), but
 * its reader pack is Russian's: its framing («Напомни, …»), function words («нужно») and question words.
 */
export function readerLanguage(db: ReadConnection, query: string, hasPack: (lang: string) => boolean): string {
  const own = detectLanguage(query);
  const searched = queryLanguages(db, query, own)[0]!;
  return own.confidence >= SURE_LANGUAGE && own.lang !== searched && analysisLanguage(own.lang) === searched && hasPack(own.lang) ? own.lang : searched;
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
  // Counting the left terms reads every character of the notes; matching them through the index walks
  // their rows (twice: bm25 counts each term's rows again). About as costly per character as per row
  // here, so long notes (reference pages of hundreds of chunks) are matched through the index: the
  // ranks are FTS5's either way. Notes past the limit by their characters are past it by their UTF-16
  // length too (never shorter): told so without reading their text out.
  const limit = textChars ?? leftRows;
  if (textCharsOfNotes(db, paths) > limit) return matchingChunksOf(db, fts.match, paths);
  const rows = chunksOfNotes(db, paths);
  if (textLength(rows) > limit) return matchingChunksOf(db, fts.match, paths);
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
 * The best chunk of each note at `paths` for the query, with its bm25 rank (FTS5's sign: lower is
 * better; ties to the lower id): what the first chunk of each note in rankChunksOfNotes gives, up to
 * the last bit of a rank. Over a large index, for a query of single terms read as English (Russian
 * and unknown text share its analysis), the notes' chunks are not all ranked through the index
 * (bm25() walks each term's whole row list twice: 40% of the graph list's time on 359,340 chunks):
 * which chunk holds which term is read from the index at those chunks (a seek per term and note),
 * and a chunk is scored (its terms counted in its text, FTS5's formula and the index's statistics)
 * only while it may still beat its note's best: a chunk's score is less than idf × (k1 + 1) summed
 * over the terms it holds. Where the terms hold fewer rows than `countFrom` together, the index is as
 * fast, and ranks them. The count must agree with the index on which terms each chunk holds,
 * and the chunk be analyzed as English, else the notes are ranked through the index after all.
 */
export function bestChunkOfEachNote(db: ReadConnection, fts: FtsQuery, paths: readonly string[], hidden: readonly number[] = [], minRows = PRUNE_MIN_ROWS, countFrom = COUNT_FROM_ROWS): Map<string, { id: number; rank: number }> {
  const byIndex = () => {
    const best = new Map<string, { id: number; rank: number }>();
    for (const r of rankChunksOfNotes(db, fts, paths, minRows, hidden)) if (!best.has(r.path)) best.set(r.path, { id: r.id, rank: r.rank });
    return best;
  };
  if (!fts.match || paths.length === 0) return new Map();
  const terms = fts.clauses.map((c) => c.term);
  if (hidden.length > 0 || !prunable(fts) || tableStats(db, 'chunks_fts').rows < minRows) return byIndex();
  if (terms.some((t) => t === null || ftsTokens(t).join(' ') !== t) || new Set(terms).size !== terms.length) return byIndex();
  // Few rows to walk: the index ranks the notes as fast as their chunks are counted.
  ensureVocab(db);
  const df = documentFrequencies(db, 'temp.chunks_vocab', terms as string[]);
  if ([...df.values()].reduce((a, b) => a + b, 0) < countFrom) return byIndex();
  return bestByCounting(db, fts, terms as string[], paths) ?? byIndex();
}

/**
 * The rows a question's terms hold together from which bestChunkOfEachNote counts instead of asking
 * the index. Ranking 16 linked notes of each bench question (`bench real`'s corpora), summed by the
 * terms' rows: below 10,000 the index took 37-43 ms of Obsidian's help's questions where counting
 * took 49-76, from 20,000 to 40,000 both 106 ms; on the Russian docs from 20,000 on the index took
 * 194-533 ms a bucket, counting 74-159.
 */
const COUNT_FROM_ROWS = 20_000;

/** A chunk that holds some of the query's terms: its note, which terms (by index), and the most it may score. */
interface Holder {
  path: string;
  holds: boolean[];
  bound: number;
}

/** bestChunkOfEachNote by counting the terms in the chunks that may win; null where the count disagrees with the index. */
function bestByCounting(db: ReadConnection, fts: FtsQuery, terms: readonly string[], paths: readonly string[]): Map<string, { id: number; rank: number }> | null {
  ensureVocab(db);
  const df = documentFrequencies(db, 'temp.chunks_vocab', terms);
  const { rows: total, avgdl } = tableStats(db, 'chunks_fts');
  const idfs = terms.map((t) => idf(total, df.get(t)!));
  const found = holders(db, fts, paths, idfs);
  if (found === null) return null;
  const { chunks, byNote } = found;
  const best = new Map<string, { id: number; rank: number }>();
  const tally = termTally(terms);
  const next = new Map<string, number>();
  /** Whether the chunk's bound (a little widened: it is a sum of doubles) may still reach its note's best. */
  const mayBeat = (path: string, id: number) => {
    const b = best.get(path);
    return b === undefined || chunks.get(id)!.bound * (1 + 1e-9) >= -b.rank;
  };
  for (let round = 0; ; round++) {
    // Each note's most promising chunk first, then four a round, while they may beat its best (on
    // the Russian docs corpus about four chunks are scored a note).
    const batch: number[] = [];
    for (const [path, list] of byNote) {
      let i = next.get(path) ?? 0;
      const stop = i + (round === 0 ? 1 : 4);
      while (i < list.length && i < stop && mayBeat(path, list[i]!)) batch.push(list[i++]!);
      next.set(path, i < list.length && mayBeat(path, list[i]!) ? i : list.length);
    }
    if (batch.length === 0) return best;
    const lengths = rowLengths(db, 'chunks_fts', batch);
    for (const r of chunkTextsOf(db, batch)) {
      const f = new Float64Array(terms.length);
      tally(r.title ?? '', BM25_WEIGHTS.title, f);
      tally(r.heading ?? '', BM25_WEIGHTS.heading, f);
      tally(r.text, BM25_WEIGHTS.body, f);
      const ch = chunks.get(r.id)!;
      if (ch.holds.some((h, i) => h !== f[i]! > 0)) return null;
      const rank = ftsRank(idfs, f, lengths.get(r.id) ?? avgdl, avgdl);
      const b = best.get(ch.path);
      if (b === undefined || rank < b.rank || (rank === b.rank && r.id < b.id)) best.set(ch.path, { id: r.id, rank });
    }
  }
}

/**
 * The notes' chunks that hold each term (read at those chunks), and each note's chunks, the highest
 * bound first; null where one of them is analyzed otherwise than as English (its terms are not counted).
 */
function holders(db: ReadConnection, fts: FtsQuery, paths: readonly string[], idfs: readonly number[]): { chunks: Map<number, Holder>; byNote: Map<string, number[]> } | null {
  const chunks = new Map<number, Holder>();
  for (const [i, c] of fts.clauses.entries()) {
    for (const r of chunksHoldingIn(db, c.expr, paths)) {
      if (analysisLanguage(r.lang) !== 'en') return null;
      let ch = chunks.get(r.id);
      if (!ch) chunks.set(r.id, (ch = { path: r.path, holds: idfs.map(() => false), bound: 0 }));
      ch.holds[i] = true;
    }
  }
  const byNote = new Map<string, number[]>();
  for (const [id, ch] of chunks) {
    // Each term adds less than idf × (k1 + 1) to a chunk's score, however often it occurs.
    ch.bound = ch.holds.reduce((sum, h, i) => (h ? sum + idfs[i]! * (K1 + 1) : sum), 0);
    const list = byNote.get(ch.path);
    if (list) list.push(id);
    else byNote.set(ch.path, [id]);
  }
  for (const list of byNote.values()) list.sort((a, b) => chunks.get(b)!.bound - chunks.get(a)!.bound || a - b);
  return { chunks, byNote };
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
