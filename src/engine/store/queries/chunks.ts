/**
 * Chunks as results: the row a search hit becomes (hydration), for the lexical list, the dense
 * lists (a vector index knows ids only) and the graph list alike, always through the request's
 * filters (filters.ts).
 */
import { sqliteOf, type ReadConnection } from '../connection.ts';
import { statements } from '../statements.ts';
import { filterSql, type ChunkFilters } from './filters.ts';

export interface ChunkRow {
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

/** The column list of a ChunkRow (over c, d, r); `rank` is the caller's. */
export const CHUNK_ROW_SELECT = `SELECT c.id, c.locator, c.start_line, c.end_line, c.text, c.heading, c.tags_json, d.doc_id, d.path, d.title,
                       r.path AS root`;

/** The rows of these chunks, unfiltered (ids a filtered ranking already chose), in no particular order. */
export function chunkRows(connection: ReadConnection, ids: readonly number[]): ChunkRow[] {
  return statements(sqliteOf(connection))
    .prepare(
      `${CHUNK_ROW_SELECT}, 0 AS rank FROM chunks c JOIN documents d ON d.id = c.document_id JOIN roots r ON r.id = d.root_id
        WHERE c.id IN (SELECT value FROM json_each(@ids))`,
    )
    .all({ ids: JSON.stringify(ids) }) as ChunkRow[];
}

/** The chunks with these ids that pass the filters (hydration of dense and graph hits), by id. */
export function loadFilteredChunks(connection: ReadConnection, ids: readonly number[], f: ChunkFilters): Map<number, ChunkRow> {
  const { where, params } = filterSql(connection, f);
  const rows = statements(sqliteOf(connection))
    .prepare(
      `${CHUNK_ROW_SELECT}, 0 AS rank FROM chunks c JOIN documents d ON d.id = c.document_id JOIN roots r ON r.id = d.root_id
        WHERE c.id IN (SELECT value FROM json_each(@ids)) AND ${where}`,
    )
    .all({ ...params, ids: JSON.stringify(ids) }) as ChunkRow[];
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
export function allowedChunkIds(connection: ReadConnection, f: ChunkFilters): Set<number> {
  const { where, params } = filterSql(connection, f);
  const ids = sqliteOf(connection).prepare(allowedChunksSql(where)).pluck().all(params) as number[];
  return new Set(ids);
}

/**
 * The first passage of each document that passes the filters, in path order, at most `k`: what a
 * search with no words but a tag lists (the notes tagged so, as Obsidian's tag search does).
 */
export function firstChunksFiltered(connection: ReadConnection, f: ChunkFilters, k: number): ChunkRow[] {
  const { where, params } = filterSql(connection, f);
  return statements(sqliteOf(connection))
    .prepare(
      `${CHUNK_ROW_SELECT}, 0 AS rank FROM documents d JOIN roots r ON r.id = d.root_id
         JOIN chunks c ON c.id = (SELECT min(c2.id) FROM chunks c2 WHERE c2.document_id = d.id)
        WHERE d.status = 'indexed' AND ${where}
        ORDER BY r.id, d.path LIMIT @k`,
    )
    .all({ ...params, k }) as ChunkRow[];
}
