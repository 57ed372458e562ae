/** What an answer checks of a cited document: where it lives now, and the relations its front matter states. */
import path from 'node:path';
import { sqliteOf, type ReadConnection } from '../connection.ts';

/** Where a document lives now and the hash it was indexed with (stale-citation checks). */
export function documentSource(connection: ReadConnection, docId: string): { absPath: string; contentHash: string | null } | null {
  const row = sqliteOf(connection)
    .prepare("SELECT r.path AS root, d.path, d.content_hash FROM documents d JOIN roots r ON r.id = d.root_id WHERE d.doc_id = ? AND d.status = 'indexed' LIMIT 1")
    .get(docId) as { root: string; path: string; content_hash: string | null } | undefined;
  return row ? { absPath: path.join(row.root, row.path), contentHash: row.content_hash } : null;
}

/**
 * The keys of a document's front matter whose values are one plain value (text or a number), as
 * indexed: which properties a question could be answered from, without reading the file.
 */
export function documentPropertyKeys(connection: ReadConnection, docId: string): string[] {
  return sqliteOf(connection)
    .prepare(
      `SELECT p.key FROM documents d, json_each(d.meta_json, '$.frontmatter') p
        WHERE d.doc_id = ? AND d.status = 'indexed' AND json_valid(d.meta_json) AND p.type IN ('text', 'integer', 'real')`,
    )
    .pluck()
    .all(docId) as string[];
}

/**
 * The typed relations a document states of itself (its front matter: decided_by, reports_to,
 * authored_by, owned_by), with the name of each entity and the line that states it, in note order.
 */
export function documentRelations(connection: ReadConnection, docId: string): { type: string; name: string; line: number }[] {
  return sqliteOf(connection)
    .prepare(
      `SELECT r.type, e.name, r.start_line AS line FROM documents d JOIN relations r ON r.document_id = d.id JOIN entities e ON e.id = r.dst_id
       WHERE d.doc_id = ? AND d.status = 'indexed' AND r.src_id IS NULL AND r.type IN ('decided_by', 'reports_to', 'authored_by', 'owned_by') ORDER BY r.seq`,
    )
    .all(docId) as { type: string; name: string; line: number }[];
}
