/**
 * Documents as a caller sees them: which ones the sensitivity policy hides, the listing, and the
 * lookups behind a locator (retrieve/source.ts). Each takes the policy from visibility.ts.
 */
import type { DocumentEntry } from '../../../shared/contract.ts';
import { sqliteOf, type ReadConnection } from '../connection.ts';
import { statements } from '../statements.ts';
import { allowedParam, hiddenSql, visibleSql, visibleTo, type VisibilityPolicy } from '../visibility.ts';

/** Whether any indexed document is marked with a sensitivity other than public and not allowed. */
export function hidesAnyDocument(connection: ReadConnection, allowSensitivity: readonly string[]): boolean {
  return statements(sqliteOf(connection)).prepare(`SELECT 1 FROM documents WHERE ${hiddenSql('')} LIMIT 1`).get({ allowed: allowedParam({ allowSensitivity }) }) !== undefined;
}

/** How many documents the allowed labels leave hidden (marked with a sensitivity other than public and not allowed). */
export function hiddenDocumentCount(connection: ReadConnection, allowSensitivity: readonly string[]): number {
  return statements(sqliteOf(connection)).prepare(`SELECT COUNT(*) FROM documents WHERE ${hiddenSql('')}`).pluck().get({ allowed: allowedParam({ allowSensitivity }) }) as number;
}

/** Paths of the documents the policy hides from this request, relative to their root and absolute. */
export function hiddenDocumentPaths(connection: ReadConnection, policy: VisibilityPolicy): Set<string> {
  if (!policy.sensitivityEnable) return new Set();
  const rows = statements(sqliteOf(connection))
    .prepare(`SELECT r.path AS root, d.path FROM documents d JOIN roots r ON r.id = d.root_id WHERE ${hiddenSql('d')}`)
    .all({ allowed: allowedParam(policy) }) as { root: string; path: string }[];
  return new Set(rows.flatMap((r) => [r.path, `${r.root}/${r.path}`]));
}

/** Chunks the sensitivity policy hides from this request (documents marked other than public and not allowed). */
export function hiddenChunkIds(connection: ReadConnection, policy: VisibilityPolicy): number[] {
  if (!policy.sensitivityEnable) return [];
  return statements(sqliteOf(connection))
    .prepare(`SELECT c.id FROM documents d JOIN chunks c ON c.document_id = d.id WHERE ${hiddenSql('d')}`)
    .pluck()
    .all({ allowed: allowedParam(policy) }) as number[];
}

/**
 * How many documents whose path passes `matches` the policy shows and hides (for noteDenied: a
 * request that names only hidden sources); zero hidden at once when no document is marked at all.
 */
export function countVisibleAndHidden(connection: ReadConnection, policy: VisibilityPolicy, matches: (path: string) => boolean): { visible: number; hidden: number } {
  const counts = { visible: 0, hidden: 0 };
  // Nothing is hidden from anyone in a vault without marked documents (the partial index answers).
  if (!hidesAnyDocument(connection, [])) return counts;
  const isVisible = visibleTo(policy);
  for (const d of sqliteOf(connection).prepare('SELECT path, sensitivity FROM documents').iterate() as IterableIterator<{ path: string; sensitivity: string | null }>) {
    if (!matches(d.path)) continue;
    if (isVisible(d.sensitivity)) counts.visible++;
    else counts.hidden++;
  }
  return counts;
}

/** How many source folders the store holds. */
export function rootCount(connection: ReadConnection): number {
  return sqliteOf(connection).prepare('SELECT count(*) FROM roots').pluck().get() as number;
}

/** Relative paths among `paths` that each visible indexed document holding one has, once per root holding it. */
export function visiblePathsByRoot(connection: ReadConnection, paths: readonly string[], policy: VisibilityPolicy): string[] {
  const visible = visibleTo(policy);
  const rows = sqliteOf(connection)
    .prepare(
      `SELECT d.path, d.sensitivity FROM roots r CROSS JOIN json_each(@paths) j
         JOIN documents d ON d.root_id = r.id AND d.path = j.value WHERE d.status = 'indexed'`,
    )
    .all({ paths: JSON.stringify([...new Set(paths)]) }) as { path: string; sensitivity: string | null }[];
  return rows.filter((r) => visible(r.sensitivity)).map((r) => r.path);
}

/** Indexed documents the policy lets this caller see, in root then path order (uri left to the caller). */
export function visibleDocuments(connection: ReadConnection, policy: VisibilityPolicy): Omit<DocumentEntry, 'uri'>[] {
  const visible = visibleTo(policy);
  const rows = sqliteOf(connection)
    .prepare(
      `SELECT d.doc_id, r.path AS root, d.path, d.type, d.language, d.title, d.size, d.sensitivity
         FROM documents d JOIN roots r ON r.id = d.root_id WHERE d.status = 'indexed' ORDER BY r.id, d.path`,
    )
    .all() as (Omit<DocumentEntry, 'uri'> & { sensitivity: string | null })[];
  return rows.filter((r) => visible(r.sensitivity)).map(({ sensitivity: _s, ...r }) => r);
}

/** How many indexed documents this caller may see. */
export function visibleDocumentCount(connection: ReadConnection, policy: VisibilityPolicy): number {
  const stmt = statements(sqliteOf(connection))
    .prepare(`SELECT count(*) FROM documents d WHERE d.status = 'indexed' AND ${visibleSql(policy, 'd')}`)
    .pluck();
  // With enforcement off the WHERE names no parameter, and better-sqlite3 refuses unused ones.
  return (policy.sensitivityEnable ? stmt.get({ allowed: allowedParam(policy) }) : stmt.get()) as number;
}

export interface LocatedDocument {
  id: number;
  doc_id: string;
  root: string;
  path: string;
  type: string;
  language: string | null;
  content_hash: string | null;
  sensitivity: string | null;
}

/** Paths of indexed documents, each once, the first indexed first: at most `limit`. */
export function indexedPaths(connection: ReadConnection, limit: number): string[] {
  return statements(sqliteOf(connection))
    .prepare("SELECT path FROM documents WHERE status = 'indexed' GROUP BY path ORDER BY MIN(id) LIMIT @limit")
    .pluck()
    .all({ limit }) as string[];
}

/**
 * Indexed documents at a path relative to their root or absolute (root joined to it), in root
 * order, visible or not: readSource tells a hidden one apart only to report the denial, then
 * answers as for a missing one. `visible` says which of them the policy shows.
 */
export function documentsAtPath(connection: ReadConnection, rel: string, policy: VisibilityPolicy): { all: LocatedDocument[]; visible: LocatedDocument[] } {
  const all = statements(sqliteOf(connection))
    .prepare(
      `SELECT d.id, d.doc_id, r.path AS root, d.path, d.type, d.language, d.content_hash, d.sensitivity
       FROM documents d JOIN roots r ON r.id = d.root_id
      WHERE d.status = 'indexed' AND (d.path = @rel OR (r.path || '/' || d.path) = @rel)
      ORDER BY r.id`,
    )
    .all({ rel }) as LocatedDocument[];
  const isVisible = visibleTo(policy);
  return { all, visible: all.filter((d) => isVisible(d.sensitivity)) };
}

/** The paths among these whose indexed documents are marked with a sensitivity other than public (hidden from a caller allowed nothing). */
export function markedPaths(connection: ReadConnection, paths: readonly string[]): Set<string> {
  const rows = statements(sqliteOf(connection))
    .prepare(
      `SELECT DISTINCT d.path FROM json_each(@paths) p JOIN documents d ON d.path = p.value
        WHERE d.status = 'indexed' AND ${hiddenSql('d')}`,
    )
    .pluck()
    .all({ paths: JSON.stringify([...new Set(paths)]), allowed: allowedParam({ allowSensitivity: [] }) }) as string[];
  return new Set(rows);
}

/** A document's chunks as ids, line ranges and text, in order (the lines as indexed). */
export function chunkLinesOf(connection: ReadConnection, documentId: number): { id: number; start_line: number; end_line: number; text: string }[] {
  return sqliteOf(connection)
    .prepare('SELECT id, start_line, end_line, text FROM chunks WHERE document_id = ? ORDER BY ordinal')
    .all(documentId) as { id: number; start_line: number; end_line: number; text: string }[];
}

/** What the documents hidden from a caller add to the store's counts (health subtracts it). */
export interface HiddenCounts {
  documents: { status: 'indexed' | 'skipped' | 'failed'; type: string; n: number }[];
  /** Chunks per language ('und': not detected). */
  languages: Map<string, number>;
  chunks: number;
  /** Chunks not split into sentences yet. */
  unsplit: number;
  /** Per embedding model: chunks and sentences with a vector, and texts still waiting for one. */
  models: Map<string, { vectors: number; pending: number; sentenceVectors: number; sentencesPending: number }>;
}

/**
 * The counts of the documents the policy hides, read through the partial index on marked
 * documents (cheap: most vaults mark few). A waiting text that a hidden and a visible chunk share
 * counts as hidden: the visible count is then one low, never one that reveals a hidden note.
 */
export function hiddenCounts(connection: ReadConnection, policy: VisibilityPolicy, modelIds: readonly string[]): HiddenCounts {
  const none: HiddenCounts = { documents: [], languages: new Map(), chunks: 0, unsplit: 0, models: new Map(modelIds.map((id) => [id, { vectors: 0, pending: 0, sentenceVectors: 0, sentencesPending: 0 }])) };
  if (!policy.sensitivityEnable || !hidesAnyDocument(connection, policy.allowSensitivity)) return none;
  const db = statements(sqliteOf(connection));
  const allowed = allowedParam(policy);
  const documents = db
    .prepare(`SELECT d.status, d.type, COUNT(*) AS n FROM documents d WHERE ${hiddenSql('d')} GROUP BY d.status, d.type`)
    .all({ allowed }) as HiddenCounts['documents'];
  const langs = db
    .prepare(`SELECT COALESCE(c.lang, 'und') AS lang, COUNT(*) AS n, SUM(c.sentences IS NULL) AS unsplit FROM documents d JOIN chunks c ON c.document_id = d.id WHERE ${hiddenSql('d')} GROUP BY 1`)
    .all({ allowed }) as { lang: string; n: number; unsplit: number }[];
  const languages = new Map<string, number>();
  for (const l of langs) languages.set(l.lang, (languages.get(l.lang) ?? 0) + l.n);
  const models = new Map<string, { vectors: number; pending: number; sentenceVectors: number; sentencesPending: number }>();
  for (const model of modelIds) {
    const chunk = db
      .prepare(
        `SELECT COUNT(*) FILTER (WHERE e.text_hash IS NOT NULL) AS vectors, COUNT(DISTINCT c.embed_hash) FILTER (WHERE e.text_hash IS NULL) AS pending
           FROM documents d JOIN chunks c ON c.document_id = d.id
           LEFT JOIN embeddings e ON e.model_id = @model AND e.text_hash = c.embed_hash
          WHERE ${hiddenSql('d')} AND c.embed_hash IS NOT NULL`,
      )
      .get({ allowed, model }) as { vectors: number; pending: number };
    const sentence = db
      .prepare(
        `SELECT COUNT(*) FILTER (WHERE e.text_hash IS NOT NULL) AS vectors, COUNT(DISTINCT s.embed_hash) FILTER (WHERE e.text_hash IS NULL) AS pending
           FROM documents d JOIN chunks c ON c.document_id = d.id JOIN chunk_sentences s ON s.chunk_id = c.id
           LEFT JOIN embeddings e ON e.model_id = @model AND e.text_hash = s.embed_hash
          WHERE ${hiddenSql('d')} AND s.embed_hash IS NOT NULL`,
      )
      .get({ allowed, model }) as { vectors: number; pending: number };
    models.set(model, { vectors: chunk.vectors, pending: chunk.pending, sentenceVectors: sentence.vectors, sentencesPending: sentence.pending });
  }
  return { documents, languages, chunks: langs.reduce((n, l) => n + l.n, 0), unsplit: langs.reduce((n, l) => n + l.unsplit, 0), models };
}

/**
 * Paths of the indexed documents this caller may see that were cut at SYN_MAX_CHUNKS_PER_FILE (the
 * indexer records the part left out in meta.unsearchable), in root then path order.
 */
export function partlySearchable(connection: ReadConnection, policy: VisibilityPolicy): string[] {
  const visible = visibleTo(policy);
  const rows = statements(sqliteOf(connection))
    .prepare(`SELECT d.path, d.sensitivity FROM documents d WHERE d.status = 'indexed' AND d.error IS NOT NULL AND json_extract(d.meta_json, '$.unsearchable') IS NOT NULL ORDER BY d.root_id, d.path`)
    .all() as { path: string; sensitivity: string | null }[];
  return rows.filter((r) => visible(r.sensitivity)).map((r) => r.path);
}
