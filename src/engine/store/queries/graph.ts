/**
 * The stored knowledge graph as the graph modules read it: documents (filtered by the caller's
 * policy), entities, relations and mentions; and the chunks the graph list and the model stage of
 * extraction read.
 */
import { sqliteOf, type ReadConnection, type WriteConnection } from '../connection.ts';
import { statements } from '../statements.ts';
import { allowedParam, visibleSql, type VisibilityPolicy } from '../visibility.ts';
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

export function graphEntities(connection: ReadConnection): GraphEntityRow[] {
  return sqliteOf(connection).prepare('SELECT id, key, type, name, node_key FROM entities').all() as GraphEntityRow[];
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
  // The match is tested against the candidates' chunk ids as a set (the unary + keeps the full-text
  // table from looking each id up: bm25 would be set up again per id); only the chunks that pass are
  // joined to their documents and ranked. 3-4x faster than joining every matching chunk first.
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT c.id AS id, d.path AS path, bm25(chunks_fts, ${BM25_WEIGHTS.title}, ${BM25_WEIGHTS.heading}, ${BM25_WEIGHTS.body}) AS rank
         FROM chunks_fts CROSS JOIN chunks c ON c.id = chunks_fts.rowid CROSS JOIN documents d ON d.id = c.document_id
        WHERE chunks_fts MATCH @match
          AND +chunks_fts.rowid IN (SELECT pc.id FROM json_each(@paths) p CROSS JOIN documents pd ON pd.path = p.value CROSS JOIN chunks pc ON pc.document_id = pd.id
                                     WHERE pd.status = 'indexed')
        ORDER BY rank`,
    )
    .all({ match, paths: JSON.stringify(paths) }) as { id: number; path: string; rank: number }[];
}

/**
 * The chunks of the indexed documents at `paths` that hold one full-text clause, by id. The index is
 * entered at each document's chunk ids (a rowid range: FTS5 seeks in the clause's row list instead
 * of walking it), and nothing is ranked: bm25() walks the whole list to count the rows that hold it.
 */
export function chunksHoldingIn(connection: ReadConnection, match: string, paths: readonly string[]): { id: number; path: string; lang: string | null }[] {
  return statements(sqliteOf(connection))
    .prepare(
      `WITH docs AS (SELECT d.id AS doc, d.path AS path, MIN(c.id) AS lo, MAX(c.id) AS hi
                       FROM json_each(@paths) p CROSS JOIN documents d ON d.path = p.value CROSS JOIN chunks c ON c.document_id = d.id
                      WHERE d.status = 'indexed' GROUP BY d.id)
       SELECT chunks_fts.rowid AS id, docs.path AS path, c.lang AS lang FROM docs CROSS JOIN chunks_fts CROSS JOIN chunks c ON c.id = chunks_fts.rowid
        WHERE chunks_fts MATCH @match AND chunks_fts.rowid >= docs.lo AND chunks_fts.rowid <= docs.hi AND c.document_id = docs.doc
        ORDER BY 1`,
    )
    .all({ match, paths: JSON.stringify(paths) }) as { id: number; path: string; lang: string | null }[];
}

/** Chunks by id with the text their full-text row was made of (title, heading, text). */
export function chunkTextsOf(connection: ReadConnection, ids: readonly number[]): { id: number; title: string | null; heading: string | null; text: string }[] {
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT c.id AS id, d.title AS title, c.heading AS heading, c.text AS text
         FROM json_each(@ids) i CROSS JOIN chunks c ON c.id = i.value CROSS JOIN documents d ON d.id = c.document_id`,
    )
    .all({ ids: JSON.stringify(ids) }) as { id: number; title: string | null; heading: string | null; text: string }[];
}

/**
 * The chunks of the indexed documents at `paths` with the text their full-text row was made of
 * (title, heading, text), by id: a few notes' chunks ranked without walking the index's posting lists.
 */
export function chunksOfNotes(connection: ReadConnection, paths: readonly string[]): { id: number; path: string; title: string | null; heading: string | null; text: string }[] {
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT c.id AS id, d.path AS path, d.title AS title, c.heading AS heading, c.text AS text
         FROM json_each(@paths) p CROSS JOIN documents d ON d.path = p.value CROSS JOIN chunks c ON c.document_id = d.id
        WHERE d.status = 'indexed' ORDER BY c.id`,
    )
    .all({ paths: JSON.stringify(paths) }) as { id: number; path: string; title: string | null; heading: string | null; text: string }[];
}

/**
 * How many characters the chunks of the indexed documents at `paths` hold in their text and heading
 * (SQLite's length(): characters, not bytes), without reading the text out: no more than the
 * JavaScript length (UTF-16 units) of what chunksOfNotes returns.
 */
export function textCharsOfNotes(connection: ReadConnection, paths: readonly string[]): number {
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT COALESCE(SUM(length(c.text) + COALESCE(length(c.heading), 0)), 0)
         FROM json_each(@paths) p CROSS JOIN documents d ON d.path = p.value CROSS JOIN chunks c ON c.document_id = d.id
        WHERE d.status = 'indexed'`,
    )
    .pluck()
    .get({ paths: JSON.stringify(paths) }) as number;
}

/** The opening chunk of each indexed document at `paths` (hydrated through the filters as above). */
export function openingChunksOf(connection: ReadConnection, paths: readonly string[]): { id: number; path: string }[] {
  return statements(sqliteOf(connection))
    .prepare(
      // From the paths (CROSS JOIN): left to itself, SQLite walks every indexed document by status.
      `SELECT c.id AS id, d.path AS path FROM json_each(@paths) p CROSS JOIN documents d ON d.path = p.value CROSS JOIN chunks c ON c.document_id = d.id AND c.ordinal = 0
        WHERE d.status = 'indexed'`,
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

// The graph read where it is stored (migration 010): what one question touches, by entity id, for
// the documents the caller may see. The graph reader (graph/stored.ts) resolves names to nodes.

export interface GraphEntityRow {
  id: number;
  /** The folded name: which note the name names (note_names.key). */
  key: string;
  type: string;
  name: string;
  /** The key of the node it stands for where it names no note: one for the forms of one name (graph/name-forms.ts). */
  node_key: string;
}

export interface GraphNoteRow {
  id: number;
  path: string;
  title: string | null;
  meta_json: string;
}

/** A relation row of a visible document, with the document's path. */
export interface AdjacentRelationRow {
  doc: number;
  seq: number;
  src: number | null;
  dst: number;
  type: string;
  start: number;
  end: number;
  fragment: string | null;
  origin: 'rule' | 'llm';
  path: string;
}

/** An AdjacentRelationRow as the statement returns it, column by column. */
type AdjacentRelationTuple = [number, number, number | null, number, string, number, number, string | null, 'rule' | 'llm', string];

const ids = (list: readonly (number | string)[]) => JSON.stringify(list);

/** The visible indexed documents at each of these paths (a note is its path, whichever root holds it), in id order. */
export function visibleNotesAtEach(connection: ReadConnection, policy: VisibilityPolicy, paths: readonly string[]): GraphNoteRow[] {
  return statements(sqliteOf(connection))
    .prepare(
      // From the paths (CROSS JOIN): left to itself, SQLite walks every indexed document by status.
      `SELECT d.id, d.path, d.title, d.meta_json FROM json_each(@paths) p CROSS JOIN documents d ON d.path = p.value
        WHERE d.status = 'indexed' AND ${visibleSql(policy)} ORDER BY d.id`,
    )
    .all({ paths: JSON.stringify(paths), allowed: allowedParam(policy) }) as GraphNoteRow[];
}

/** The path of the first (or last) visible indexed document, by id, one of whose names folds to `key`. */
export function visibleNoteNamed(connection: ReadConnection, policy: VisibilityPolicy, key: string, order: 'first' | 'last' = 'first'): string | null {
  const row = statements(sqliteOf(connection))
    .prepare(
      `SELECT d.path FROM note_names n CROSS JOIN documents d ON d.id = n.document_id
        WHERE n.key = @key AND d.status = 'indexed' AND ${visibleSql(policy)} ORDER BY d.id ${order === 'first' ? 'ASC' : 'DESC'} LIMIT 1`,
    )
    .get({ key, allowed: allowedParam(policy) }) as { path: string } | undefined;
  return row?.path ?? null;
}

/** visibleNoteNamed for many names at once: each folded name with its note's path (null: none). */
export function visibleNotesNamed(connection: ReadConnection, policy: VisibilityPolicy, keys: readonly string[]): { key: string; path: string | null }[] {
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT k.value AS key, (SELECT d.path FROM note_names n CROSS JOIN documents d ON d.id = n.document_id
                                WHERE n.key = k.value AND d.status = 'indexed' AND ${visibleSql(policy)} ORDER BY d.id LIMIT 1) AS path
         FROM json_each(@keys) k`,
    )
    .all({ keys: JSON.stringify(keys), allowed: allowedParam(policy) }) as { key: string; path: string | null }[];
}

/** Visible indexed documents with a name of these words (how a question names a note), by id. */
export function visibleNotesByWords(connection: ReadConnection, policy: VisibilityPolicy, words: readonly string[]): { words: string; id: number; path: string }[] {
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT n.words, d.id, d.path FROM note_names n CROSS JOIN documents d ON d.id = n.document_id
        WHERE n.words IN (SELECT value FROM json_each(@words)) AND d.status = 'indexed' AND ${visibleSql(policy)} ORDER BY d.id`,
    )
    .all({ words: ids(words), allowed: allowedParam(policy) }) as { words: string; id: number; path: string }[];
}

/** Visible indexed documents with a folded name containing `fragment` (for "did you mean"), by id. */
export function visibleNotesNameContaining(connection: ReadConnection, policy: VisibilityPolicy, fragment: string, limit: number): GraphNoteRow[] {
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT d.id, d.path, d.title, d.meta_json FROM documents d
        WHERE d.id IN (SELECT document_id FROM note_names WHERE instr(key, @fragment) > 0) AND d.status = 'indexed' AND ${visibleSql(policy)}
        ORDER BY d.id LIMIT @limit`,
    )
    .all({ fragment, limit, allowed: allowedParam(policy) }) as GraphNoteRow[];
}

export function entitiesById(connection: ReadConnection, entityIds: readonly number[]): GraphEntityRow[] {
  return statements(sqliteOf(connection)).prepare('SELECT id, key, type, name, node_key FROM entities WHERE id IN (SELECT value FROM json_each(@ids))').all({ ids: ids(entityIds) }) as GraphEntityRow[];
}

/** Entities whose folded name, or (links to a path) folded file name, is one of `keys`; by id. */
export function entitiesByKeys(connection: ReadConnection, keys: readonly string[]): GraphEntityRow[] {
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT id, key, type, name, node_key FROM entities WHERE key IN (SELECT value FROM json_each(@keys))
       UNION SELECT id, key, type, name, node_key FROM entities WHERE base_key IN (SELECT value FROM json_each(@keys)) ORDER BY id`,
    )
    .all({ keys: JSON.stringify(keys) }) as GraphEntityRow[];
}

/** Entities whose node key (graph/name-forms.ts mergeKey) is one of `nodeKeys`; by id. */
export function entitiesByNodeKeys(connection: ReadConnection, nodeKeys: readonly string[]): GraphEntityRow[] {
  return statements(sqliteOf(connection))
    .prepare('SELECT id, key, type, name, node_key FROM entities WHERE node_key IN (SELECT value FROM json_each(@keys)) ORDER BY id')
    .all({ keys: JSON.stringify(nodeKeys) }) as GraphEntityRow[];
}

/** Entities named by these words (entities.words), by id. */
export function entitiesByWords(connection: ReadConnection, words: readonly string[]): GraphEntityRow[] {
  return statements(sqliteOf(connection))
    .prepare('SELECT id, key, type, name, node_key FROM entities WHERE words IN (SELECT value FROM json_each(@words)) ORDER BY id')
    .all({ words: ids(words) }) as GraphEntityRow[];
}

/** Entities whose folded name contains `fragment` (for "did you mean"), by id. */
export function entitiesNameContaining(connection: ReadConnection, fragment: string, limit: number): GraphEntityRow[] {
  return statements(sqliteOf(connection))
    .prepare('SELECT id, key, type, name, node_key FROM entities WHERE instr(key, @fragment) > 0 ORDER BY id LIMIT @limit')
    .all({ fragment, limit }) as GraphEntityRow[];
}

/** Whether a visible document states any relation (no graph list without one). */
export function visibleRelationExists(connection: ReadConnection, policy: VisibilityPolicy): boolean {
  return (
    statements(sqliteOf(connection))
      .prepare(`SELECT 1 FROM relations r JOIN documents d ON d.id = r.document_id WHERE d.status = 'indexed' AND ${visibleSql(policy)} LIMIT 1`)
      .get({ allowed: allowedParam(policy) }) !== undefined
  );
}

/**
 * visibleDocumentsNamingEach for a caller who sees every document, read from the entities_node_key
 * and relations_dst indexes alone (relations are only kept for indexed documents).
 */
export function documentsNamingEach(connection: ReadConnection, nodeKeys: readonly string[], cap: number): { key: string; n: number }[] {
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT k.value AS key, (SELECT COUNT(*) FROM (SELECT DISTINCT r.document_id FROM entities e CROSS JOIN relations r ON r.dst_id = e.id
                                                     WHERE e.node_key = k.value AND e.type = 'name' LIMIT @cap)) AS n
         FROM json_each(@keys) k`,
    )
    .all({ keys: JSON.stringify(nodeKeys), cap }) as { key: string; n: number }[];
}

/** How many visible documents (at most `cap`) state a relation to a plain name of each node key (its forms together). */
export function visibleDocumentsNamingEach(connection: ReadConnection, policy: VisibilityPolicy, nodeKeys: readonly string[], cap: number): { key: string; n: number }[] {
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT k.value AS key, (SELECT COUNT(*) FROM (SELECT DISTINCT r.document_id FROM entities e CROSS JOIN relations r ON r.dst_id = e.id CROSS JOIN documents d ON d.id = r.document_id
                                                     WHERE e.node_key = k.value AND e.type = 'name' AND d.status = 'indexed' AND ${visibleSql(policy)} LIMIT @cap)) AS n
         FROM json_each(@keys) k`,
    )
    .all({ keys: JSON.stringify(nodeKeys), cap, allowed: allowedParam(policy) }) as { key: string; n: number }[];
}

/** Those of the entities that a visible document mentions outside its relations. */
export function visibleMentioned(connection: ReadConnection, policy: VisibilityPolicy, entityIds: readonly number[]): number[] {
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT e.value FROM json_each(@ids) e WHERE EXISTS (SELECT 1 FROM mentions m CROSS JOIN documents d ON d.id = m.document_id
          WHERE m.entity_id = e.value AND d.status = 'indexed' AND ${visibleSql(policy)})`,
    )
    .pluck()
    .all({ ids: ids(entityIds), allowed: allowedParam(policy) }) as number[];
}

/**
 * The relations of visible documents that touch a node: from or to one of its entities, or stated
 * by its own documents (source NULL: the note itself); by document and sequence.
 */
export function adjacentRelations(connection: ReadConnection, policy: VisibilityPolicy, entityIds: readonly number[], documentIds: readonly number[]): AdjacentRelationRow[] {
  // Read as arrays and made objects here: better-sqlite3 builds an object per row at about twice the
  // cost (a question's bridge entities bring 200 to 2,000 relations; 4.9 -> 3.0 ms for 1,256).
  const raw = statements(sqliteOf(connection))
    .prepare(adjacencySql(policy))
    .raw(true)
    .all({ ids: ids(entityIds), docs: ids(documentIds), allowed: allowedParam(policy) }) as AdjacentRelationTuple[];
  const rows = raw.map(([doc, seq, src, dst, type, start, end, fragment, origin, path]): AdjacentRelationRow => ({ doc, seq, src, dst, type, start, end, fragment, origin, path }));
  // Two branches can find the same relation (a note's own link to one of its names): a relation is
  // its document and sequence, so once sorted by them a repeat follows its first.
  rows.sort((a, b) => a.doc - b.doc || a.seq - b.seq);
  return rows.filter((r, i) => i === 0 || r.doc !== rows[i - 1]!.doc || r.seq !== rows[i - 1]!.seq);
}

/**
 * The relations that touch a node, each branch through its index (by target, by source, by
 * document), relations first: CROSS JOIN keeps SQLite from walking every indexed document instead.
 * Their entities are not joined: the graph reader keeps the entities it has read and reads the others by id.
 * UNION ALL: the caller drops repeats by key, cheaper than SQLite comparing every column.
 */
function adjacencySql(policy: VisibilityPolicy): string {
  const branch = (where: string) =>
    `SELECT r.document_id AS doc, r.seq, r.src_id AS src, r.dst_id AS dst, r.type, r.start_line AS start, r.end_line AS "end", r.fragment, r.origin, d.path
       FROM relations r CROSS JOIN documents d ON d.id = r.document_id
      WHERE ${where} AND d.status = 'indexed' AND ${visibleSql(policy)}`;
  return [
    branch('r.dst_id IN (SELECT value FROM json_each(@ids))'),
    branch('r.src_id IN (SELECT value FROM json_each(@ids))'),
    branch('r.document_id IN (SELECT value FROM json_each(@docs)) AND r.src_id IS NULL'),
  ].join(' UNION ALL ');
}

/**
 * How many visible notes (at most `cap`) state a relation of their own (source NULL) to one of the
 * entities: each is a neighbour of the entity's node, so past `cap` its degree is too.
 */
export function visibleNotesStating(connection: ReadConnection, policy: VisibilityPolicy, entityIds: readonly number[], cap: number): number {
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT COUNT(*) FROM (SELECT DISTINCT d.path FROM relations r CROSS JOIN documents d ON d.id = r.document_id
        WHERE r.dst_id IN (SELECT value FROM json_each(@ids)) AND r.src_id IS NULL AND d.status = 'indexed' AND ${visibleSql(policy)} LIMIT @cap)`,
    )
    .pluck()
    .get({ ids: ids(entityIds), cap, allowed: allowedParam(policy) }) as number;
}

/**
 * How many documents (at most `cap`) state any relation to one of the entities, read from the
 * relations_dst index alone: a bound of visibleNotesStating for any caller (what it counts is a subset),
 * and, where every document is visible, how many notes name the entity.
 */
export function documentsStating(connection: ReadConnection, entityIds: readonly number[], cap: number): number {
  return statements(sqliteOf(connection))
    .prepare('SELECT COUNT(*) FROM (SELECT DISTINCT document_id FROM relations WHERE dst_id IN (SELECT value FROM json_each(@ids)) LIMIT @cap)')
    .pluck()
    .get({ ids: ids(entityIds), cap }) as number;
}

/** documentsStating for several groups of entities at once (key → its entities' ids), in one statement: key → count. */
export function documentsStatingEach(connection: ReadConnection, groups: ReadonlyMap<string, readonly number[]>, cap: number): Map<string, number> {
  if (groups.size === 0) return new Map();
  const rows = statements(sqliteOf(connection))
    .prepare(
      `SELECT g.key AS key, (SELECT COUNT(*) FROM (SELECT DISTINCT document_id FROM relations WHERE dst_id IN (SELECT value FROM json_each(g.value)) LIMIT @cap)) AS n
         FROM json_each(@groups) g`,
    )
    .all({ groups: JSON.stringify(Object.fromEntries(groups)), cap }) as { key: string; n: number }[];
  return new Map(rows.map((r) => [r.key, r.n]));
}

/** Where visible documents name the entities: the lines of their relations and mentions, by path order of documents and line. */
export function visibleEntityMentions(connection: ReadConnection, policy: VisibilityPolicy, entityIds: readonly number[], limit: number): { path: string; line: number; fragment: string }[] {
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT d.path, x.line, x.fragment FROM (
         SELECT document_id AS doc, start_line AS line, COALESCE(fragment, 'L' || start_line || '-L' || end_line) AS fragment
           FROM relations WHERE dst_id IN (SELECT value FROM json_each(@ids))
         UNION
         SELECT m.document_id, m.line, CASE WHEN md.type = 'pdf' THEN substr(c.locator, instr(c.locator, '#') + 1) ELSE 'L' || m.line || '-L' || m.line END
           FROM mentions m JOIN documents md ON md.id = m.document_id LEFT JOIN chunks c ON c.document_id = m.document_id AND c.ordinal = m.ordinal
          WHERE m.entity_id IN (SELECT value FROM json_each(@ids))
       ) x CROSS JOIN documents d ON d.id = x.doc
       WHERE d.status = 'indexed' AND ${visibleSql(policy)}
       ORDER BY x.doc, x.line LIMIT @limit`,
    )
    .all({ ids: ids(entityIds), limit, allowed: allowedParam(policy) }) as { path: string; line: number; fragment: string }[];
}

/** The index term's match expression: one quoted term (its own quotes doubled). */
const termMatch = (term: string) => `"${term.replace(/"/g, '""')}"`;

/**
 * A word, in the case given, as a word of prose in a chunk's text (GLOB is case-sensitive; the text
 * is padded to match at its ends): after a space or an opening mark, before a space, a closing mark
 * or a full stop that ends a sentence; not inside an address or a path ("github.com", "/sync/").
 */
export const wordGlobs = (word: string) => ({ glob: `*[ \t\n("'«“*_]${word}[ \t\n,;:!?)"'»”*_]*`, globStop: `*[ \t\n("'«“*_]${word}.[ \t\n]*` });
const WRITES = `((' ' || c.text || ' ') GLOB @glob OR (' ' || c.text || ' ') GLOB @globStop)`;

/**
 * How many visible documents write `word` exactly so (case-sensitive, as a whole word), counted up
 * to `cap`, from the writings kept with the index (migration 016); null where the word is not
 * counted there yet (graph/names.ts isCommonWord). Only the documents this caller may see count.
 */
export function visibleDocumentsWriting(connection: ReadConnection, policy: VisibilityPolicy, word: string, cap: number): number | null {
  const kept = statements(sqliteOf(connection))
    .prepare(
      `SELECT (SELECT COUNT(*) FROM counted_words WHERE word = @word) AS counted,
              (SELECT COUNT(*) FROM (SELECT 1 FROM lower_writings w CROSS JOIN documents d ON d.id = w.document_id
                                      WHERE w.word = @word AND d.status = 'indexed' AND ${visibleSql(policy)} LIMIT @cap)) AS n`,
    )
    .get({ word, cap, allowed: allowedParam(policy) }) as { counted: number; n: number };
  return kept.counted > 0 ? kept.n : null;
}

/**
 * visibleDocumentsWriting for each of `words` where the word is counted with the index (migration
 * 016), in one statement for all of them: how many visible documents write it exactly so, up to
 * `cap`. A word not counted there is left out.
 */
export function visibleDocumentsWritingEach(connection: ReadConnection, policy: VisibilityPolicy, words: readonly string[], cap: number): { word: string; n: number }[] {
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT k.value AS word,
              (SELECT COUNT(*) FROM (SELECT 1 FROM lower_writings w CROSS JOIN documents d ON d.id = w.document_id
                                      WHERE w.word = k.value AND d.status = 'indexed' AND ${visibleSql(policy)} LIMIT @cap)) AS n
         FROM json_each(@words) k WHERE EXISTS (SELECT 1 FROM counted_words WHERE word = k.value)`,
    )
    .all({ words: JSON.stringify(words), cap, allowed: allowedParam(policy) }) as { word: string; n: number }[];
}

/** The indexed documents that write `word` exactly so, as kept with the index (visibleDocumentsWriting; the caller filters them); null where the word is not counted yet. */
export function documentsWriting(connection: ReadConnection, word: string): number[] | null {
  const db = statements(sqliteOf(connection));
  if (db.prepare('SELECT 1 FROM counted_words WHERE word = ?').get(word) === undefined) return null;
  return db
    .prepare("SELECT w.document_id FROM lower_writings w CROSS JOIN documents d ON d.id = w.document_id WHERE w.word = ? AND d.status = 'indexed'")
    .pluck()
    .all(word) as number[];
}

/**
 * Counts from the chunks, into the writings kept with the index, the indexed documents that write
 * `word` exactly so (the writer's side of visibleDocumentsWriting; `term`, the word's index term, finds the candidates).
 */
export function storeDocumentsWriting(connection: WriteConnection, term: string, word: string): void {
  statements(sqliteOf(connection))
    .prepare(
      `INSERT OR IGNORE INTO lower_writings (word, document_id)
       SELECT DISTINCT @word, c.document_id FROM chunks_fts CROSS JOIN chunks c ON c.id = chunks_fts.rowid CROSS JOIN documents d ON d.id = c.document_id
        WHERE chunks_fts MATCH @match AND ${WRITES} AND d.status = 'indexed'`,
    )
    .run({ word, match: termMatch(term), ...wordGlobs(word) });
}

// How many neighbours each note has (migrations 012 and 013), kept by graph/degrees.ts after each
// index run: `degree` in the graph of every indexed document, `public_degree` in the graph of the
// documents every caller may see.

/** Who the public degrees are counted for: a caller that sees no restricted document. */
export const PUBLIC_AUDIENCE: VisibilityPolicy = { allowSensitivity: [], sensitivityEnable: true };

/**
 * The stored degree of the note at each path, where every such indexed document at that path has
 * one: in the graph of every indexed document (`all`), or of what every caller may see (`public`:
 * restricted notes are not at any path).
 */
export function storedNoteDegrees(connection: ReadConnection, paths: readonly string[], audience: 'all' | 'public'): { path: string; degree: number }[] {
  const args = { paths: JSON.stringify(paths) };
  const policy = PUBLIC_AUDIENCE;
  const rows =
    audience === 'all'
      ? statements(sqliteOf(connection))
          .prepare(
            `SELECT d.path AS path, MAX(n.degree) AS degree FROM json_each(@paths) p CROSS JOIN documents d ON d.path = p.value LEFT JOIN note_degrees n ON n.document_id = d.id
              WHERE +d.status = 'indexed' GROUP BY d.path HAVING COUNT(n.document_id) = COUNT(*)`,
          )
          .all(args)
      : statements(sqliteOf(connection))
          .prepare(
            `SELECT d.path AS path, MAX(n.public_degree) AS degree FROM json_each(@paths) p CROSS JOIN documents d ON d.path = p.value LEFT JOIN note_degrees n ON n.document_id = d.id
              WHERE +d.status = 'indexed' AND ${visibleSql(policy)} GROUP BY d.path HAVING COUNT(n.public_degree) = COUNT(*)`,
          )
          .all({ ...args, allowed: allowedParam(policy) });
  return rows as { path: string; degree: number }[];
}

/**
 * How many different things the indexed note at each path states (the entities and notes its
 * relations name; at least 1): what a note written since the degrees were last counted is taken to
 * be linked to, its own links, without reading the notes that link to it.
 */
export function statedCountsOf(connection: ReadConnection, paths: readonly string[]): { path: string; n: number }[] {
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT d.path AS path, MAX(1, (SELECT COUNT(DISTINCT r.dst_id) FROM relations r WHERE r.document_id = d.id)) AS n
         FROM json_each(@paths) p CROSS JOIN documents d ON d.path = p.value WHERE +d.status = 'indexed' GROUP BY d.path`,
    )
    .all({ paths: JSON.stringify(paths) }) as { path: string; n: number }[];
}

/** Paths of indexed documents without both stored degrees and their kept links, at most `limit`, by id. */
export function notesWithoutDegree(connection: ReadConnection, limit: number): string[] {
  return statements(sqliteOf(connection))
    .prepare(
      `SELECT DISTINCT path FROM (SELECT d.path FROM documents d WHERE d.status = 'indexed'
          AND NOT EXISTS (SELECT 1 FROM note_degrees n WHERE n.document_id = d.id AND n.public_degree IS NOT NULL AND n.links IS NOT NULL)
        ORDER BY d.id LIMIT @limit)`,
    )
    .pluck()
    .all({ limit }) as string[];
}

/** Stores both degrees of the note at each path (every indexed document there). */
export function writeNoteDegrees(connection: WriteConnection, degrees: readonly { path: string; degree: number; publicDegree: number }[]): void {
  const db = sqliteOf(connection);
  const put = db.prepare(
    `INSERT INTO note_degrees (document_id, degree, public_degree) SELECT d.id, @degree, @publicDegree FROM documents d WHERE d.path = @path AND +d.status = 'indexed'
       ON CONFLICT (document_id) DO UPDATE SET degree = excluded.degree, public_degree = excluded.public_degree`,
  );
  db.transaction(() => {
    for (const d of degrees) put.run(d);
  })();
}

/** Forgets the stored degrees of the notes at these paths (all of them with `paths` null). */
export function forgetNoteDegrees(connection: WriteConnection, paths: readonly string[] | null): void {
  const db = sqliteOf(connection);
  if (paths === null) db.prepare('DELETE FROM note_degrees').run();
  else if (paths.length > 0) db.prepare('DELETE FROM note_degrees WHERE document_id IN (SELECT d.id FROM json_each(?) p CROSS JOIN documents d ON d.path = p.value)').run(JSON.stringify(paths));
}
