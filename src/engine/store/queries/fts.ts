/**
 * The lexical index's SQL: BM25 ranking over chunks_fts (and the trigram table), and the statistics
 * FTS5 keeps in its shadow tables, read for exact top-k pruning (search/bm25.ts has the formula).
 * The search itself (which clauses to keep, how to rescore) is search/lexical.ts's.
 */
import type { Database } from 'better-sqlite3';
import { sqliteOf, type ReadConnection } from '../connection.ts';
import { statements } from '../statements.ts';
import { CHUNK_ROW_SELECT, chunkRows, type ChunkRow } from './chunks.ts';
import { hiddenChunkIds } from './documents.ts';
import { filterSql, hasJsFilter, type ChunkFilters } from './filters.ts';

/** Column weights for bm25(): the document's title counts most, then the section heading, then the text. */
export const BM25_WEIGHTS = { title: 2.0, heading: 1.5, body: 1.0 } as const;

/** SQLite's varint (as FTS5 writes it): big-endian, 7 bits a byte, the 9th byte holds 8 bits. */
export function readVarint(buf: Uint8Array, pos: number): [value: number, next: number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const byte = buf[pos + i];
    if (byte === undefined) return [v, pos + i];
    v = v * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [v, pos + i + 1];
  }
  const last = buf[pos + 8] ?? 0;
  return [v * 256 + last, pos + 9];
}

export function readVarints(buf: Uint8Array): number[] {
  const out: number[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [v, next] = readVarint(buf, pos);
    out.push(v);
    pos = next;
  }
  return out;
}

/** Rows and average row length (tokens over all columns) of an FTS5 table, from its averages record. */
export function tableStats(db: ReadConnection, table: string): { rows: number; avgdl: number } {
  const rec = statements(sqliteOf(db)).prepare(`SELECT block FROM ${table}_data WHERE id = 1`).get() as { block: Uint8Array } | undefined;
  if (!rec) return { rows: 0, avgdl: 1 };
  const [rows, ...sizes] = readVarints(rec.block);
  const tokens = sizes.reduce((a, b) => a + b, 0);
  return { rows: rows ?? 0, avgdl: rows ? tokens / rows : 1 };
}

/** Tokens in each row (all columns together), from the table's docsize shadow table. */
export function rowLengths(db: ReadConnection, table: string, rowids: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  if (rowids.length === 0) return out;
  const rows = statements(sqliteOf(db))
    .prepare(`SELECT id, sz FROM ${table}_docsize WHERE id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(rowids)) as { id: number; sz: Uint8Array }[];
  for (const r of rows) out.set(r.id, readVarints(r.sz).reduce((a, b) => a + b, 0));
  return out;
}

/**
 * Documents (rows) holding each term, from an fts5vocab 'row' table over the FTS5 table. fts5vocab
 * counts them by walking each term's whole doclist (common terms: tens of thousands of rows), so the
 * counts are remembered until the store changes: a commit on another connection moves
 * PRAGMA data_version, one on this connection total_changes().
 */
export function documentFrequencies(db: ReadConnection, vocabTable: string, terms: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  if (terms.length === 0) return out;
  const sqlite = sqliteOf(db);
  const cache = dfCache(sqlite, vocabTable);
  const missing = [...new Set(terms.filter((t) => !cache.has(t)))];
  if (missing.length > 0) {
    const rows = statements(sqlite)
      .prepare(`SELECT term, doc FROM ${vocabTable} WHERE term IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(missing)) as { term: string; doc: number }[];
    const found = new Map(rows.map((r) => [r.term, r.doc]));
    if (cache.size + missing.length > DF_CACHE_MAX) cache.clear();
    for (const t of missing) cache.set(t, found.get(t) ?? 0);
  }
  for (const t of terms) out.set(t, cache.get(t)!);
  return out;
}

const DF_CACHE_MAX = 50_000;
const dfCaches = new WeakMap<Database, { version: string; tables: Map<string, Map<string, number>> }>();

/** The remembered document frequencies of one vocab table, emptied whenever the store has changed since. */
function dfCache(db: Database, vocabTable: string): Map<string, number> {
  return storeCaches(db)(vocabTable);
}

/** The remembered counts of the store, each map by its name: the store's version is read once for all of them. */
function storeCaches(db: Database): (name: string) => Map<string, number> {
  const v = statements(db).prepare('SELECT total_changes() AS t, (SELECT data_version FROM pragma_data_version) AS d').get() as { t: number; d: number };
  const version = `${v.t}:${v.d}`;
  let entry = dfCaches.get(db);
  if (!entry || entry.version !== version) {
    entry = { version, tables: new Map() };
    dfCaches.set(db, entry);
  }
  const { tables } = entry;
  return (name) => {
    let cache = tables.get(name);
    if (!cache) tables.set(name, (cache = new Map()));
    return cache;
  };
}

/** A count from one of storeCaches' maps, computed and kept when missing (the map emptied past DF_CACHE_MAX). */
function remembered(cache: Map<string, number>, key: string, count: () => number): number {
  const known = cache.get(key);
  if (known !== undefined) return known;
  const n = count();
  if (cache.size >= DF_CACHE_MAX) cache.clear();
  cache.set(key, n);
  return n;
}

const vocabReady = new WeakSet<Database>();

/** The connection's fts5vocab table over chunks_fts (temp.chunks_vocab), created on first use. */
export function ensureVocab(connection: ReadConnection): void {
  const db = sqliteOf(connection);
  if (!vocabReady.has(db)) {
    db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_vocab USING fts5vocab(main, chunks_fts, row)');
    vocabReady.add(db);
  }
}

/** The lexical queries of one request: ranking by BM25 and the trigram fallback, with its filters inside. */
export interface LexicalQueries {
  /** Ids and bm25 ranks of the best `limit` chunks matching an FTS5 expression that pass the filters. */
  rank(match: string, limit: number): { id: number; rank: number }[];
  /** The rows of chosen chunk ids (unordered). */
  load(ids: readonly number[]): ChunkRow[];
  /** The best `limit` rows of the trigram table matching `match` that pass the filters, with their ranks. */
  trigram(match: string, limit: number): ChunkRow[];
  /** Rows the JS-side filters dropped so far. */
  filtered(): number;
}

/**
 * Filters run inside the queries, before ranking and limiting, so a hidden chunk never takes a slot
 * of the top k. The SQL is compiled once per connection (statements.ts) and the joins only when a
 * filter needs them.
 */
export function lexicalQueries(connection: ReadConnection, f: ChunkFilters): LexicalQueries {
  const { where, params, filtered } = filterSql(connection, f);
  const sql = statements(sqliteOf(connection));
  const weights = `${BM25_WEIGHTS.title}, ${BM25_WEIGHTS.heading}, ${BM25_WEIGHTS.body}`;
  // Without path/type/tag filters only sensitivity can exclude a chunk: rank over the FTS table
  // alone and leave out the (few) hidden chunks by id, instead of joining every matched row; with
  // none hidden (the usual case) the check is left out too, as it costs a tenth of the ranking.
  let plain: { hidden: { hidden: string } | null } | null | undefined;
  const plainRanking = () => {
    if (plain === undefined) {
      const hiddenIds = hasJsFilter(f) ? null : hiddenChunkIds(connection, f);
      plain = hiddenIds === null ? null : { hidden: hiddenIds.length > 0 ? { hidden: JSON.stringify(hiddenIds) } : null };
    }
    return plain;
  };
  return {
    rank(match, limit) {
      const p = plainRanking();
      if (p) {
        const hiddenClause = p.hidden ? 'AND rowid NOT IN (SELECT value FROM json_each(@hidden))' : '';
        return sql
          .prepare(
            `SELECT rowid AS id, bm25(chunks_fts, ${weights}) AS rank
               FROM chunks_fts
              WHERE chunks_fts MATCH @match ${hiddenClause}
              ORDER BY rank LIMIT @k`,
          )
          .all({ match, ...p.hidden, k: limit }) as { id: number; rank: number }[];
      }
      // Compiled only when used (a filtered request): its joins take the longest to prepare.
      return sql
        .prepare(
          `SELECT c.id AS id, bm25(chunks_fts, ${weights}) AS rank
             FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN documents d ON d.id = c.document_id JOIN roots r ON r.id = d.root_id
            WHERE chunks_fts MATCH @match AND ${where}
            ORDER BY rank LIMIT @k`,
        )
        .all({ ...params, match, k: limit }) as { id: number; rank: number }[];
    },
    load: (ids) => chunkRows(connection, ids),
    trigram(match, limit) {
      return sql
        .prepare(
          `${CHUNK_ROW_SELECT}, bm25(chunks_tri) AS rank
             FROM chunks_tri JOIN chunks c ON c.id = chunks_tri.rowid JOIN documents d ON d.id = c.document_id JOIN roots r ON r.id = d.root_id
            WHERE chunks_tri MATCH @match AND ${where}
            ORDER BY rank LIMIT @k`,
        )
        .all({ ...params, match, k: limit }) as ChunkRow[];
    },
    filtered,
  };
}

/**
 * A language is the vault's from this share of its chunks on. Detection misreads a few chunks of
 * any large vault (names, lists, tables; `synapsis health` counts chunks by language); a language met
 * only there would read every unsure query in it too, and a query of several languages is not pruned.
 */
export const LANGUAGE_PRESENT_SHARE = 0.005;

/**
 * Which of `langs` the vault is written in: at least LANGUAGE_PRESENT_SHARE of its chunks (one
 * chunk in a vault of up to 200). One bounded count on the chunks_lang index per language, remembered
 * until the store changes (as document frequencies are): a query asks this of every list it builds.
 */
export function languagesPresent(connection: ReadConnection, langs: readonly string[]): string[] {
  try {
    const sqlite = sqliteOf(connection);
    const present = dfCache(sqlite, '#languages present');
    const missing = langs.filter((l) => !present.has(l));
    if (missing.length > 0) {
      const need = Math.max(1, Math.ceil(tableStats(connection, 'chunks_fts').rows * LANGUAGE_PRESENT_SHARE));
      const stmt = statements(sqlite).prepare('SELECT COUNT(*) AS n FROM (SELECT 1 FROM chunks WHERE lang = ? LIMIT ?)');
      for (const l of missing) present.set(l, (stmt.get(l, need) as { n: number }).n >= need ? 1 : 0);
    }
    return langs.filter((l) => present.get(l) === 1);
  } catch {
    // A store from before chunk languages (migration 008): every chunk was analyzed as English.
    return [];
  }
}

/**
 * How a phrase's matches are narrowed to a list of rows: `rowid IN (…)` makes FTS5 look the phrase up
 * once per listed row, `+rowid IN (…)` reads its matches once and SQLite keeps the listed ones, which
 * costs less while the matches are few beside the rows (a lookup costs several times a match read).
 * The phrase's hits (its count) decide; the rows and ranks are the same either way.
 */
function amongRows(hits: number, listed: number): string {
  return hits <= SCAN_PER_LISTED_ROW * listed ? '+rowid' : 'rowid';
}
const SCAN_PER_LISTED_ROW = 4;

/** The store's FTS5 tables a phrase can be scored in, with the bm25() column weights each is ranked with. */
const PHRASE_TABLES = { chunks_fts: `, ${BM25_WEIGHTS.title}, ${BM25_WEIGHTS.heading}, ${BM25_WEIGHTS.body}`, chunks_tri: '' } as const;

/**
 * One phrase (a quoted FTS5 expression, maybe a prefix) of a ranked query, for visible BM25
 * (search/bm25.ts visibleRanks): FTS5's bm25 rank of that phrase alone for each of `ids` that holds
 * it, how many rows hold it, and how many of those are among `hidden`.
 */
export function phraseStats(connection: ReadConnection, table: keyof typeof PHRASE_TABLES, phrase: string, ids: readonly number[], hidden: readonly number[]): { ranks: Map<number, number>; hits: number; hiddenHits: number } {
  const sqlite = sqliteOf(connection);
  const sql = statements(sqlite);
  const weights = PHRASE_TABLES[table];
  // The counts walk the phrase's whole doclist; a question's searches (its hops, its parts, the
  // graph's list) ask them of the same phrases again, so they are remembered until the store changes.
  const caches = storeCaches(sqlite);
  const hits = remembered(caches(`#phrase hits ${table}`), phrase, () => sql.prepare(`SELECT count(*) FROM ${table} WHERE ${table} MATCH @phrase`).pluck().get({ phrase }) as number);
  const rows =
    ids.length === 0 || hits === 0
      ? []
      : (sql
          .prepare(`SELECT rowid AS id, bm25(${table}${weights}) AS rank FROM ${table} WHERE ${table} MATCH @phrase AND ${amongRows(hits, ids.length)} IN (SELECT value FROM json_each(@ids))`)
          .all({ phrase, ids: JSON.stringify(ids) }) as { id: number; rank: number }[]);
  let hiddenHits = 0;
  if (hidden.length > 0 && hits > 0) {
    const hiddenJson = JSON.stringify(hidden);
    hiddenHits = remembered(caches(`#phrase hits ${table} among ${hiddenJson}`), phrase, () => sql.prepare(`SELECT count(*) FROM ${table} WHERE ${table} MATCH @phrase AND ${amongRows(hits, hidden.length)} IN (SELECT value FROM json_each(@hidden))`).pluck().get({ phrase, hidden: hiddenJson }) as number);
  }
  return { ranks: new Map(rows.map((r) => [r.id, r.rank])), hits, hiddenHits };
}
