import type { Database } from 'better-sqlite3';
import picomatch from 'picomatch';
import type { MatchExplanation, RetrievedChunk } from '../../shared/contract.ts';
import { analyzeForIndex, tokenize } from './analyzer.ts';
import { documentFrequencies, ftsTokens, idf, rowLengths, tableStats, termScore } from './bm25.ts';
import { buildFtsQuery, type FtsQuery } from './fts-query.ts';
import { highlightSnippet } from './snippet.ts';
import { statements } from '../store/statements.ts';
import { ASCII_KIND, DIGIT, isNonAsciiWord, LOWER, OTHER_WORD, stepOver, UNDERSCORE, UPPER } from './word-chars.ts';

export interface LexicalFilters {
  allowSensitivity: readonly string[];
  sensitivityEnable: boolean;
  includeGlobs: readonly string[];
  excludeGlobs: readonly string[];
  types: readonly string[];
  languages: readonly string[];
  tags: readonly string[];
  roots: readonly string[];
}

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

/** Column weights for bm25(): the document's title counts most, then the section heading, then the text. */
export const BM25_WEIGHTS = { title: 2.0, heading: 1.5, body: 1.0 } as const;

export interface Row {
  id: number;
  locator: string;
  start_line: number;
  end_line: number;
  text: string;
  heading: string | null;
  tags_json: string;
  doc_id: string;
  path: string;
  title: string | null;
  root: string;
  rank: number;
}

const SELECT = `SELECT c.id, c.locator, c.start_line, c.end_line, c.text, c.heading, c.tags_json, d.doc_id, d.path, d.title,
                       r.path AS root`;

/** Below this many chunks the full OR query is fast (SciFact's 8.6k: p95 15 ms); pruning would only cost recall. */
const PRUNE_MIN_ROWS = 50_000;
/** Pruning serves interactive top-k; deeper requests (evaluation, fusion pools) run the full query. */
const PRUNE_MAX_K = 50;
/** The clauses kept in the MATCH may together hit at most this share of chunks (at least two are kept). */
const PRUNE_BUDGET_SHARE = 0.1;
/** Extra candidates rescored beyond k, at most (6k below that). */
const PRUNE_MAX_MARGIN = 100;
const vocabReady = new WeakSet<Database>();

function ensureVocab(db: Database): void {
  if (!vocabReady.has(db)) {
    db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_vocab USING fts5vocab(main, chunks_fts, row)');
    vocabReady.add(db);
  }
}

/**
 * How rare each analyzed term is in the index (BM25's idf; a term no chunk holds gets the highest
 * value). Cited answers use it to tell whether the sources mention what a question is about.
 *
 * With `visibility`, a term that only documents hidden from the caller hold counts as held by none:
 * "your files never mention X" must not tell whether a restricted note mentions X.
 */
export function termStats(
  db: Database,
  terms: readonly string[],
  visibility?: Pick<LexicalFilters, 'allowSensitivity' | 'sensitivityEnable'>,
): Map<string, { idf: number; df: number }> {
  ensureVocab(db);
  const { rows } = tableStats(db, 'chunks_fts');
  const tokens = [...new Set(terms.flatMap((t) => ftsTokens(t)))];
  const df = documentFrequencies(db, 'temp.chunks_vocab', tokens);
  if (visibility?.sensitivityEnable && hidesAnyDocument(db, visibility.allowSensitivity)) {
    const allowed = JSON.stringify(visibility.allowSensitivity.map((s) => s.toLowerCase()));
    const visibleHolds = statements(db).prepare(
      `SELECT 1 FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN documents d ON d.id = c.document_id
        WHERE chunks_fts MATCH @match AND (d.sensitivity IS NULL OR d.sensitivity = 'public' OR d.sensitivity IN (SELECT value FROM json_each(@allowed)))
        LIMIT 1`,
    );
    for (const token of tokens) {
      if ((df.get(token) ?? 0) > 0 && !visibleHolds.get({ match: `"${token.replace(/"/g, '""')}"`, allowed })) df.set(token, 0);
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
 * OR-ed queries with common terms are the slow case of FTS5: it scores every row that holds any
 * term. For interactive k this keeps the common plain terms out of the MATCH: the selective clauses
 * (rarest first, within a posting budget) find k + margin candidates, then the left-out terms' BM25
 * contributions are added to each candidate with FTS5's own formula, so candidate scores equal the
 * full query's. Approximate only in recall: a row that holds none of the kept clauses cannot be a
 * candidate. `synapsis bench search` prints how often the top 10 equals the full query's, and
 * `synapsis eval` measures quality with it on or off. Returns null when pruning does not apply.
 */
function searchPruned(db: Database, fts: FtsQuery, k: number, minRows: number, run: (match: string, limit: number) => Row[]): Row[] | null {
  if (k > PRUNE_MAX_K || fts.clauses.length < 3) return null;
  const stats = tableStats(db, 'chunks_fts');
  if (stats.rows < minRows) return null;
  ensureVocab(db);
  const plain = fts.clauses.filter((c) => c.term !== null && /^[a-z0-9]+$/.test(c.term));
  const df = documentFrequencies(db, 'temp.chunks_vocab', plain.map((c) => c.term!));
  // Phrases, prefixes and non-ASCII terms always stay; plain terms join rarest first within the budget.
  const kept = new Set(fts.clauses.filter((c) => !plain.includes(c)));
  let hits = 0;
  for (const c of [...plain].sort((a, b) => df.get(a.term!)! - df.get(b.term!)!)) {
    const n = df.get(c.term!)!;
    if (kept.size >= 2 && hits + n > stats.rows * PRUNE_BUDGET_SHARE) break;
    kept.add(c);
    hits += n;
  }
  const left = plain.filter((c) => !kept.has(c));
  if (left.length === 0) return null;
  const match = fts.clauses.filter((c) => kept.has(c)).map((c) => c.expr).join(' OR ');
  // The margin grows with k up to PRUNE_MAX_MARGIN: a fusion pool of 50 needs its head right more than
  // its tail, and rescoring 350 candidates cost more than the pruning saved.
  const candidates = run(match, k + Math.max(30, Math.min(6 * k, PRUNE_MAX_MARGIN)));
  if (candidates.length < k) return null;
  const out = left.map((c) => ({ term: c.term!, idf: idf(stats.rows, df.get(c.term!)!) }));
  const lengths = rowLengths(db, 'chunks_fts', candidates.map((r) => r.id));
  const countTerms = termCounter(new Set(out.map((t) => t.term)));
  const rescored = candidates.map((r) => {
    const title = countTerms(r.title ?? '');
    const heading = countTerms(r.heading ?? '');
    const body = countTerms(r.text);
    let extra = 0;
    for (const t of out) {
      const f = BM25_WEIGHTS.title * (title.get(t.term) ?? 0) + BM25_WEIGHTS.heading * (heading.get(t.term) ?? 0) + BM25_WEIGHTS.body * (body.get(t.term) ?? 0);
      extra += termScore(t.idf, f, lengths.get(r.id) ?? stats.avgdl, stats.avgdl);
    }
    return { ...r, rank: r.rank - extra };
  });
  rescored.sort((a, b) => a.rank - b.rank || a.id - b.id);
  return rescored.slice(0, k);
}

/** Porter2's exceptional forms whose stem starts otherwise than the word: dying, lying, tying. */
const OTHER_HEADS: Record<string, string> = { die: 'dy', lie: 'ly', tie: 'ty' };
const lowerAscii = (c: number) => (c >= 65 && c <= 90 ? c | 32 : c);
/** Slot of a word head in a head table: two ASCII code units, or one for a one-letter word. */
const headSlot = (a: number, b: number) => (b < 0 ? 16384 + a : a * 128 + b);

/**
 * Counts the occurrences of the wanted index terms in texts, exactly as the indexer analyzed them
 * into FTS5 tokens. Only words that can become a wanted term go through the analyzer: a stem keeps
 * its word's first two letters, so a word whose first two code units are ASCII and match no wanted
 * term's (case aside) is skipped unless it is an identifier (whose parts are indexed too). The text
 * is scanned code unit by code unit with no regular expression or string per skipped word: the
 * rescoring of a pruned fusion pool reads every word of its 150 candidates.
 */
export function termCounter(wanted: ReadonlySet<string>): (text: string) => Map<string, number> {
  const heads = new Uint8Array(16384 + 128);
  for (const t of [...wanted, ...[...wanted].flatMap((w) => OTHER_HEADS[w] ?? [])]) {
    const a = t.charCodeAt(0);
    const b = t.length > 1 ? t.charCodeAt(1) : -1;
    if (a < 128 && b < 128) heads[headSlot(lowerAscii(a), b < 0 ? b : lowerAscii(b))] = 1;
  }
  return (text) => {
    const counts = new Map<string, number>();
    const n = text.length;
    let i = 0;
    while (i < n) {
      const start = i;
      let identifier = false;
      let prev = 0;
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
        i += width;
      }
      if (i === start) {
        // Not a word character: step over it (both halves of a surrogate pair at once).
        i += stepOver(text, i);
        continue;
      }
      const a = text.charCodeAt(start);
      const b = i - start > 1 ? text.charCodeAt(start + 1) : -1;
      const candidate = identifier || a >= 128 || b >= 128 || heads[headSlot(lowerAscii(a), b < 0 ? b : lowerAscii(b))] === 1;
      if (!candidate) continue;
      for (const t of wordTerms(text.slice(start, i))) if (wanted.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    return counts;
  };
}

/** Index terms of single words, remembered: the candidates of one query share most of their words. */
const wordTermCache = new Map<string, readonly string[]>();
const WORD_TERM_CACHE_MAX = 100_000;

/** The FTS5 tokens the indexer makes of one word (analyzer, then unicode61), as termCounter needs them. */
function wordTerms(word: string): readonly string[] {
  let terms = wordTermCache.get(word);
  if (terms === undefined) {
    terms = ftsTokens(analyzeForIndex(word));
    if (wordTermCache.size >= WORD_TERM_CACHE_MAX) wordTermCache.clear();
    wordTermCache.set(word, terms);
  }
  return terms;
}

function hasJsFilter(f: LexicalFilters): boolean {
  return f.includeGlobs.length + f.excludeGlobs.length + f.types.length + f.languages.length + f.tags.length + f.roots.length > 0;
}

/** Whether any indexed document is marked with a sensitivity other than public and not allowed. */
function hidesAnyDocument(db: Database, allowSensitivity: readonly string[]): boolean {
  return (
    statements(db)
      .prepare("SELECT 1 FROM documents WHERE sensitivity IS NOT NULL AND sensitivity != 'public' AND sensitivity NOT IN (SELECT value FROM json_each(@allowed)) LIMIT 1")
      .get({ allowed: JSON.stringify(allowSensitivity.map((s) => s.toLowerCase())) }) !== undefined
  );
}

/** Paths of the documents the policy hides from this request, relative to their root and absolute. */
export function hiddenDocumentPaths(db: Database, f: Pick<LexicalFilters, 'allowSensitivity' | 'sensitivityEnable'>): Set<string> {
  if (!f.sensitivityEnable) return new Set();
  const rows = statements(db)
    .prepare(
      `SELECT r.path AS root, d.path FROM documents d JOIN roots r ON r.id = d.root_id
        WHERE d.sensitivity IS NOT NULL AND d.sensitivity != 'public' AND d.sensitivity NOT IN (SELECT value FROM json_each(@allowed))`,
    )
    .all({ allowed: JSON.stringify(f.allowSensitivity.map((s) => s.toLowerCase())) }) as { root: string; path: string }[];
  return new Set(rows.flatMap((r) => [r.path, `${r.root}/${r.path}`]));
}

/** Chunks the sensitivity policy hides from this request (documents marked other than public and not allowed). */
function hiddenChunkIds(db: Database, f: LexicalFilters): number[] {
  if (!f.sensitivityEnable) return [];
  return statements(db)
    .prepare(
      `SELECT c.id FROM documents d JOIN chunks c ON c.document_id = d.id
        WHERE d.sensitivity IS NOT NULL AND d.sensitivity != 'public' AND d.sensitivity NOT IN (SELECT value FROM json_each(@allowed))`,
    )
    .pluck()
    .all({ allowed: JSON.stringify(f.allowSensitivity.map((s) => s.toLowerCase())) }) as number[];
}

/** The JS side of the filters that SQL cannot express (globs, tag lists); null when none is set. */
function buildFilter(f: LexicalFilters) {
  const include = f.includeGlobs.length > 0 ? picomatch([...f.includeGlobs], { dot: true }) : null;
  const exclude = f.excludeGlobs.length > 0 ? picomatch([...f.excludeGlobs], { dot: true }) : null;
  const types = f.types.length > 0 ? new Set(f.types.map((t) => t.toLowerCase())) : null;
  const languages = f.languages.length > 0 ? new Set(f.languages.map((t) => t.toLowerCase())) : null;
  const tags = f.tags.length > 0 ? new Set(f.tags.map((t) => t.toLowerCase().replace(/^#/, ''))) : null;
  const roots = f.roots.length > 0 ? new Set(f.roots) : null;
  if (!include && !exclude && !types && !languages && !tags && !roots) return null;
  return (p: string, type: string, language: string | null, tagsJson: string, root: string): boolean => {
    if (include && !include(p)) return false;
    if (exclude && exclude(p)) return false;
    if (types && !types.has(type)) return false;
    if (roots && !roots.has(root)) return false;
    if (languages || tags) {
      const t = JSON.parse(tagsJson) as Record<string, string>;
      if (languages && !languages.has((language ?? '').toLowerCase()) && !languages.has((t.lang ?? '').toLowerCase())) return false;
      if (tags && !(t.tags ?? '').split(',').some((x) => tags.has(x.toLowerCase()))) return false;
    }
    return true;
  };
}

/** The WHERE clause (over c, d, r) for sensitivity and the JS-side filters, and a count of rows the filters dropped. */
export function filterSql(db: Database, f: LexicalFilters): { where: string; params: { allowed: string }; filtered: () => number } {
  const filter = buildFilter(f);
  let filtered = 0;
  if (filter) {
    db.function('syn_filter', { deterministic: true }, (p: unknown, type: unknown, language: unknown, tagsJson: unknown, root: unknown) => {
      const ok = filter(String(p), String(type), language === null ? null : String(language), String(tagsJson), String(root));
      if (!ok) filtered++;
      return ok ? 1 : 0;
    });
  }
  const where = [
    f.sensitivityEnable ? `(d.sensitivity IS NULL OR d.sensitivity = 'public' OR d.sensitivity IN (SELECT value FROM json_each(@allowed)))` : '1',
    filter ? 'syn_filter(d.path, d.type, d.language, d.tags_json, r.path) = 1' : '1',
  ].join(' AND ');
  return { where, params: { allowed: JSON.stringify(f.allowSensitivity.map((s) => s.toLowerCase())) }, filtered: () => filtered };
}

/** A stored row as a result; `withSnippet` false leaves the snippet to be built once the final top k is known. */
export function toRetrievedChunk(r: Row, highlightTerms: readonly string[], score: number, withSnippet = true): RetrievedChunk {
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
    snippet: withSnippet ? highlightSnippet(r.text, highlightTerms) : '',
    score,
    tags: JSON.parse(r.tags_json) as Record<string, string>,
  };
}

/** The chunks with these ids that pass the filters, in the order given (for the dense list). */
export function loadFilteredChunks(db: Database, ids: readonly number[], f: LexicalFilters): Map<number, Row> {
  const { where, params } = filterSql(db, f);
  const rows = statements(db)
    .prepare(
      `${SELECT}, 0 AS rank FROM chunks c JOIN documents d ON d.id = c.document_id JOIN roots r ON r.id = d.root_id
        WHERE c.id IN (SELECT value FROM json_each(@ids)) AND ${where}`,
    )
    .all({ ...params, ids: JSON.stringify(ids) }) as Row[];
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Chunks of the documents that pass `where` (filterSql's fragments), documents first: CROSS JOIN
 * keeps the order, so the filter, a JS function of the document, runs once per document instead of
 * once per chunk (with the shortcut in assertNotOnlyDenied, `synapsis bench hybrid --include
 * 'd001/**'` at 117k chunks went from p50 340 to 232 ms).
 */
export const allowedChunksSql = (where: string) =>
  `SELECT c.id FROM documents d CROSS JOIN roots r ON r.id = d.root_id CROSS JOIN chunks c ON c.document_id = d.id WHERE ${where}`;

/** Ids of every chunk the filters allow (for an exact vector search when over-fetching was not enough). */
export function allowedChunkIds(db: Database, f: LexicalFilters): Set<number> {
  const { where, params } = filterSql(db, f);
  const ids = db
    .prepare(allowedChunksSql(where))
    .pluck()
    .all(params) as number[];
  return new Set(ids);
}

/**
 * A request that names only sources the policy hides (say --include hr/** where every note is
 * restricted) is answered like one that names nothing: empty results, and a `syn.retrieve.denied`
 * event for the engine's own listeners (logs, metrics). An error would tell the caller that
 * restricted notes match the glob.
 */
export function noteDenied(db: Database, f: LexicalFilters, onDenied: (reason: string) => void): void {
  if (!f.sensitivityEnable || f.includeGlobs.length === 0) return;
  // Nothing is hidden from anyone in a vault without marked documents (the partial index answers).
  if (!statements(db).prepare("SELECT 1 FROM documents WHERE sensitivity IS NOT NULL AND sensitivity != 'public' LIMIT 1").get()) return;
  const include = picomatch([...f.includeGlobs], { dot: true });
  const allowed = new Set(f.allowSensitivity.map((s) => s.toLowerCase()));
  let visible = 0;
  let hidden = 0;
  for (const d of db.prepare('SELECT path, sensitivity FROM documents').iterate() as IterableIterator<{ path: string; sensitivity: string | null }>) {
    if (!include(d.path)) continue;
    if (d.sensitivity && d.sensitivity !== 'public' && !allowed.has(d.sensitivity)) hidden++;
    else visible++;
  }
  if (hidden > 0 && visible === 0) onDenied(`every document matching ${f.includeGlobs.join(', ')} is hidden by its sensitivity`);
}

/**
 * BM25 over the analyzed chunks_fts, with a trigram fallback for identifiers and substrings when
 * BM25 finds fewer than k. Filters run inside the query, before ranking and limiting, so a hidden
 * chunk never takes a slot of the top k.
 */
export function searchLexical(db: Database, query: string, options: LexicalOptions): LexicalResult {
  const fts = buildFtsQuery(query);
  const result: LexicalResult = { chunks: [], query: fts, candidates: 0, filtered: 0, trigramUsed: false, pruned: false, highlight: new Map() };
  const { where, params: filterParams, filtered: countFiltered } = filterSql(db, options);
  const params = { ...filterParams, k: options.k };
  const seen = new Set<number>();
  const rows: (Row & { via: 'bm25' | 'trigram' })[] = [];

  if (fts.match) {
    // Rank first with ids only, then load the winners' rows: the sorter then carries two numbers per
    // matched row instead of its text, and the text (often in overflow pages) is read for k rows only.
    const sql = statements(db);
    // Compiled only when used (a filtered request): its joins take the longest to prepare.
    const rank = () =>
      sql.prepare(
        `SELECT c.id AS id, bm25(chunks_fts, ${BM25_WEIGHTS.title}, ${BM25_WEIGHTS.heading}, ${BM25_WEIGHTS.body}) AS rank
           FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN documents d ON d.id = c.document_id JOIN roots r ON r.id = d.root_id
          WHERE chunks_fts MATCH @match AND ${where}
          ORDER BY rank LIMIT @k`,
      );
    const load = sql.prepare(
      `${SELECT}, 0 AS rank FROM chunks c JOIN documents d ON d.id = c.document_id JOIN roots r ON r.id = d.root_id
        WHERE c.id IN (SELECT value FROM json_each(@ids))`,
    );
    // Without path/type/tag filters only sensitivity can exclude a chunk: rank over the FTS table
    // alone and leave out the (few) hidden chunks by id, instead of joining every matched row; with
    // none hidden (the usual case) the check is left out too, as it costs a tenth of the ranking.
    const hiddenIds = hasJsFilter(options) ? null : hiddenChunkIds(db, options);
    const hidden = hiddenIds && hiddenIds.length > 0 ? { hidden: JSON.stringify(hiddenIds) } : null;
    const hiddenClause = hidden ? 'AND rowid NOT IN (SELECT value FROM json_each(@hidden))' : '';
    const plainRank =
      hiddenIds === null
        ? null
        : sql.prepare(
            `SELECT rowid AS id, bm25(chunks_fts, ${BM25_WEIGHTS.title}, ${BM25_WEIGHTS.heading}, ${BM25_WEIGHTS.body}) AS rank
               FROM chunks_fts
              WHERE chunks_fts MATCH @match ${hiddenClause}
              ORDER BY rank LIMIT @k`,
          );
    const run = (match: string, limit: number): Row[] => {
      const ranked = (plainRank ? plainRank.all({ match, ...hidden, k: limit }) : rank().all({ ...params, match, k: limit })) as { id: number; rank: number }[];
      if (ranked.length === 0) return [];
      const byId = new Map((load.all({ ids: JSON.stringify(ranked.map((r) => r.id)) }) as Row[]).map((r) => [r.id, r]));
      return ranked.flatMap((r) => {
        const row = byId.get(r.id);
        return row ? [{ ...row, rank: r.rank }] : [];
      });
    };
    const pruned = options.prune === false ? null : searchPruned(db, fts, options.k, options.pruneMinRows ?? PRUNE_MIN_ROWS, run);
    result.pruned = pruned !== null;
    for (const r of pruned ?? run(fts.match, options.k)) {
      seen.add(r.id);
      rows.push({ ...r, via: 'bm25' });
    }
  }
  const trigramTerms = [...new Set([...fts.literals, ...fts.fragments])];
  if (rows.length < options.k && trigramTerms.length > 0) {
    result.trigramUsed = true;
    const match = trigramTerms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
    const stmt = statements(db).prepare(
      `${SELECT}, bm25(chunks_tri) AS rank
         FROM chunks_tri JOIN chunks c ON c.id = chunks_tri.rowid JOIN documents d ON d.id = c.document_id JOIN roots r ON r.id = d.root_id
        WHERE chunks_tri MATCH @match AND ${where}
        ORDER BY rank LIMIT @k`,
    );
    for (const r of stmt.all({ ...params, match, k: options.k + seen.size }) as Row[]) {
      if (seen.has(r.id) || rows.length >= options.k) continue;
      seen.add(r.id);
      rows.push({ ...r, via: 'trigram' });
    }
  }

  const terms = fts.terms;
  result.chunks = rows
    .map((r, i) => {
      const marks = r.via === 'trigram' ? [...terms, ...trigramTerms.map((t) => `${t.toLowerCase()}*`)] : terms;
      const withSnippet = options.snippets !== false || options.explain === true;
      const chunk = toRetrievedChunk(r, marks, Math.round(-r.rank * 1e4) / 1e4, withSnippet);
      if (!withSnippet) result.highlight.set(r.id, marks);
      if (options.explain) chunk.explain = explainMatch(chunk, terms, r.via, i + 1);
      return chunk;
    })
    .filter((c) => options.minScore === undefined || c.score >= options.minScore);
  result.candidates = rows.length + countFiltered();
  result.filtered = countFiltered();
  return result;
}

function termsIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of tokenize(text)) {
    out.add(t.term);
    for (const p of t.parts) out.add(p);
  }
  return out;
}

export function explainMatch(chunk: RetrievedChunk, terms: readonly string[], via: 'bm25' | 'trigram', rank: number): MatchExplanation {
  const fields = { title: termsIn(chunk.title), heading: termsIn(chunk.heading ?? ''), body: termsIn(chunk.text) };
  const has = (set: Set<string>, term: string) => (term.endsWith('*') ? [...set].some((x) => x.startsWith(term.slice(0, -1))) : set.has(term));
  const pick = (set: Set<string>) => terms.filter((t) => has(set, t));
  const found = { title: pick(fields.title), heading: pick(fields.heading), body: pick(fields.body) };
  const any = new Set([...found.title, ...found.heading, ...found.body]);
  return { via, fields: found, missing: terms.filter((t) => !any.has(t)), rank };
}
