/**
 * The stored knowledge graph as the graph modules read it: documents (filtered by the caller's
 * policy), entities, relations and mentions; and the chunks the graph list and the model stage of
 * extraction read.
 */
import { sqliteOf, type ReadConnection, type WriteConnection } from '../connection.ts';
import { BM25_WEIGHTS } from './fts.ts';

export interface GraphDocumentRow {
  id: number;
  path: string;
  title: string | null;
  sensitivity: string | null;
  meta_json: string;
}

/** A relation row as the graph keeps it: document, source entity (null: the note), target, type, lines, fragment, origin. */
export type RelationRow = [number, number | null, number, string, number, number, string | null, 'rule' | 'llm'];

/** Indexed documents in id order, each with its sensitivity (the graph filters them with visibleTo). */
export function graphDocuments(connection: ReadConnection): GraphDocumentRow[] {
  return sqliteOf(connection).prepare("SELECT id, path, title, sensitivity, meta_json FROM documents WHERE status = 'indexed' ORDER BY id").all() as GraphDocumentRow[];
}

export function graphEntities(connection: ReadConnection): { id: number; key: string; type: string; name: string }[] {
  return sqliteOf(connection).prepare('SELECT id, key, type, name FROM entities').all() as { id: number; key: string; type: string; name: string }[];
}

/** Every relation as a raw row, by document then sequence. */
export function graphRelations(connection: ReadConnection): RelationRow[] {
  return sqliteOf(connection).prepare('SELECT document_id, src_id, dst_id, type, start_line, end_line, fragment, origin FROM relations ORDER BY document_id, seq').raw(true).all() as RelationRow[];
}

/** Entities mentioned by documents other than these (the hidden ones). */
export function entitiesMentionedOutside(connection: ReadConnection, documentIds: readonly number[]): number[] {
  return sqliteOf(connection)
    .prepare('SELECT DISTINCT entity_id FROM mentions WHERE document_id NOT IN (SELECT value FROM json_each(?))')
    .pluck()
    .all(JSON.stringify(documentIds)) as number[];
}

/**
 * Where entities are named: the lines of their relations and of their mentions, by document and
 * line. Not filtered: mentionsOf keeps the documents of the caller's (visible) graph only.
 */
export function entityMentions(connection: ReadConnection, entityIds: readonly number[]): { doc: number; line: number; fragment: string }[] {
  return sqliteOf(connection)
    .prepare(
      `SELECT document_id AS doc, start_line AS line, COALESCE(fragment, 'L' || start_line || '-L' || end_line) AS fragment
         FROM relations WHERE dst_id IN (SELECT value FROM json_each(@ids))
       UNION
       SELECT m.document_id, m.line, CASE WHEN d.type = 'pdf' THEN substr(c.locator, instr(c.locator, '#') + 1) ELSE 'L' || m.line || '-L' || m.line END
         FROM mentions m JOIN documents d ON d.id = m.document_id LEFT JOIN chunks c ON c.document_id = m.document_id AND c.ordinal = m.ordinal
        WHERE m.entity_id IN (SELECT value FROM json_each(@ids))
       ORDER BY 1, 2`,
    )
    .all({ ids: JSON.stringify(entityIds) }) as { doc: number; line: number; fragment: string }[];
}

/**
 * Chunks of the indexed documents at `paths` that match an FTS5 expression, best first. The paths
 * come from the caller's visible graph, and the chosen chunks are hydrated through the request's
 * filters (loadFilteredChunks).
 */
export function matchingChunksOf(connection: ReadConnection, match: string, paths: readonly string[]): { id: number; path: string; rank: number }[] {
  return sqliteOf(connection)
    .prepare(
      `SELECT c.id AS id, d.path AS path, bm25(chunks_fts, ${BM25_WEIGHTS.title}, ${BM25_WEIGHTS.heading}, ${BM25_WEIGHTS.body}) AS rank
         FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN documents d ON d.id = c.document_id
        WHERE chunks_fts MATCH @match AND d.status = 'indexed' AND d.path IN (SELECT value FROM json_each(@paths))
        ORDER BY rank`,
    )
    .all({ match, paths: JSON.stringify(paths) }) as { id: number; path: string; rank: number }[];
}

/** The opening chunk of each indexed document at `paths` (hydrated through the filters as above). */
export function openingChunksOf(connection: ReadConnection, paths: readonly string[]): { id: number; path: string }[] {
  return sqliteOf(connection)
    .prepare(
      `SELECT c.id AS id, d.path AS path FROM chunks c JOIN documents d ON d.id = c.document_id
        WHERE d.status = 'indexed' AND d.path IN (SELECT value FROM json_each(@paths)) AND c.ordinal = 0`,
    )
    .all({ paths: JSON.stringify(paths) }) as { id: number; path: string }[];
}

export interface LlmPendingDocument {
  id: number;
  path: string;
  title: string | null;
  content_hash: string | null;
  sensitivity: string | null;
}

/** Indexed notes (not code) the rules have processed and the model stage has not yet read, in id order. */
export function llmPendingDocuments(connection: ReadConnection): LlmPendingDocument[] {
  return sqliteOf(connection)
    .prepare("SELECT id, path, title, content_hash, sensitivity FROM documents WHERE status = 'indexed' AND graph_version > 0 AND llm_graph = 0 AND type != 'code' ORDER BY id")
    .all() as LlmPendingDocument[];
}

/** The first `limit` chunks of a document, in order. */
export function openingChunks(connection: ReadConnection, documentId: number, limit: number): { ordinal: number; locator: string; start_line: number; end_line: number; text: string }[] {
  return sqliteOf(connection)
    .prepare('SELECT ordinal, locator, start_line, end_line, text FROM chunks WHERE document_id = ? ORDER BY ordinal LIMIT ?')
    .all(documentId, limit) as { ordinal: number; locator: string; start_line: number; end_line: number; text: string }[];
}

/**
 * In one transaction: when the document is still indexed, not yet read by the model and unchanged
 * since (`contentHash`), runs `write` (the facts) and marks it read. Returns whether it did.
 */
export function markLlmGraphDone(connection: WriteConnection, documentId: number, contentHash: string | null, write: () => void): boolean {
  const db = sqliteOf(connection);
  return db.transaction(() => {
    const still = db.prepare("SELECT llm_graph, content_hash FROM documents WHERE id = ? AND status = 'indexed'").get(documentId) as { llm_graph: number; content_hash: string | null } | undefined;
    if (!still || still.llm_graph !== 0 || still.content_hash !== contentHash) return false;
    write();
    db.prepare('UPDATE documents SET llm_graph = 1 WHERE id = ?').run(documentId);
    return true;
  })();
}
