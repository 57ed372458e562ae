/**
 * Writing what the indexer read: a document and its chunks (with both lexical indexes' rows) in one
 * transaction, a touch, a move, a delete, and the chunk ids they give out. What a caller may see of
 * them is read in documents.ts and chunks.ts.
 */
import type { Database, Statement } from 'better-sqlite3';
import { sqliteOf, type ReadConnection, type WriteConnection } from '../connection.ts';
import { statements } from '../statements.ts';
import type { GraphFactWriter, StoredGraph } from './graph-facts.ts';
import { getSetting, setSetting } from './settings.ts';

export interface DocumentRow {
  id: number;
  root_id: number;
  path: string;
  doc_id: string;
  type: string;
  language: string | null;
  title: string | null;
  content_hash: string | null;
  mtime_ms: number;
  size: number;
  status: 'indexed' | 'skipped' | 'failed';
  error_code: string | null;
  error: string | null;
  sensitivity: string | null;
  graph_version: number;
}

export interface DocumentWrite {
  rootId: number;
  path: string;
  docId: string;
  type: string;
  language: string | null;
  title: string | null;
  contentHash: string | null;
  mtimeMs: number;
  size: number;
  status: DocumentRow['status'];
  errorCode?: string | null;
  error?: string | null;
  sensitivity?: string | null;
  tags?: Record<string, string>;
  meta?: Record<string, unknown>;
  /** The graph facts of the document (replacing any it had) and the rules version that produced them. */
  graph?: StoredGraph;
  graphVersion?: number;
}

export interface ChunkWrite {
  ordinal: number;
  locator: string;
  sectionId: string | null;
  heading: string | null;
  startLine: number;
  endLine: number;
  text: string;
  chunkHash: string;
  textHash: string;
  /** Hash of what the embedding is made from (see embeddingInput). */
  embedHash: string;
  tags: Record<string, string>;
  tokenCount: number;
  /** The language of the text (detectLanguage: ISO 639-1 or 'und'); absent, NULL: not detected. */
  lang?: string | null;
  /** What the lexical index sees: analyzed terms of the title, heading and text. */
  fts: { title: string; heading: string; body: string };
}

const CHUNK_ID_HIGH_WATER = 'chunk_id_high_water';

/**
 * Chunk ids key the vector indexes, which are matched to the chunks table by id: an id must never
 * name another chunk later, or an edited note keeps its old vector. SQLite hands out the highest
 * rowid + 1, so deleting the newest chunks and writing new ones reused their ids (an edit of the
 * last note written left it unfindable by meaning until a rebuild). Ids are given out here above
 * the highest ever used, which every delete records first (settings chunk_id_high_water).
 *
 * Records the highest chunk id in use (before a delete) and returns the highest ever given out.
 */
export function raiseChunkHighWater(connection: WriteConnection): number {
  const top = (statements(sqliteOf(connection)).prepare('SELECT MAX(id) FROM chunks').pluck().get() as number | null) ?? 0;
  const stored = getSetting<number>(connection, CHUNK_ID_HIGH_WATER) ?? 0;
  if (top > stored) setSetting(connection, CHUNK_ID_HIGH_WATER, top);
  return Math.max(top, stored);
}

/** The lexical rows of a chunk: its analyzed terms (chunks_fts) and its text as written (chunks_tri). */
export interface LexicalRowInserts {
  insertFts: Statement;
  insertTri: Statement;
}

export function lexicalRowInserts(connection: WriteConnection): LexicalRowInserts {
  const db = sqliteOf(connection);
  return {
    insertFts: db.prepare('INSERT INTO chunks_fts (rowid, title, heading, body) VALUES (?, ?, ?, ?)'),
    insertTri: db.prepare('INSERT INTO chunks_tri (rowid, body) VALUES (?, ?)'),
  };
}

/**
 * Runs `write` as one transaction: its own, or the caller's when one is open (the indexer commits
 * a batch of files in one). Never as a savepoint inside the caller's: at every savepoint FTS5 writes
 * the rows it holds in memory out as a segment of their own, so a batch of 40 files, each written
 * in a savepoint, left 40 small segments in each lexical index for automerge to merge again and
 * again (and SQLite copied every page a file changed into a statement journal first). Inside the
 * caller's transaction a failed write is undone with it: the error must leave that transaction.
 */
export function inOneTransaction<T>(db: Database, write: () => T): T {
  return db.inTransaction ? write() : db.transaction(write)();
}

/** The writer's documents and chunks. */
export class DocumentWriter {
  private readonly db;
  /** The lexical rows of the chunks written in the open batch, by document (holdLexicalRows); null: written at once. */
  private held: Map<number, { id: number; fts: ChunkWrite['fts']; text: string }[]> | null = null;
  private readonly stmts: {
    docIdByPath: Statement;
    updateDoc: Statement;
    insertDoc: Statement;
    docByPath: Statement;
    deleteChunksOfDoc: Statement;
    insertChunk: Statement;
    setGraphVersion: Statement;
  };

  constructor(
    private readonly connection: WriteConnection,
    private readonly graph: GraphFactWriter,
    private readonly lexical: LexicalRowInserts,
  ) {
    const db = (this.db = sqliteOf(connection));
    this.stmts = {
      // A look-up, then an insert or an update, not one upsert: an upsert (and an update of a row that
      // chunks refer to) takes a statement journal, and with it a savepoint at which FTS5 writes out
      // the rows it holds (inOneTransaction). A new document's insert takes none (without RETURNING).
      docIdByPath: db.prepare('SELECT id FROM documents WHERE root_id = ? AND path = ?').pluck(),
      updateDoc: db.prepare(`
        UPDATE documents SET
          doc_id = @docId, type = @type, language = @language, title = @title, content_hash = @contentHash,
          mtime_ms = @mtimeMs, size = @size, status = @status, error_code = @errorCode, error = @error,
          sensitivity = @sensitivity, tags_json = @tags, meta_json = @meta, indexed_at = @indexedAt
        WHERE id = @id`),
      insertDoc: db.prepare(`
        INSERT INTO documents (root_id, path, doc_id, type, language, title, content_hash, mtime_ms, size, status,
                               error_code, error, sensitivity, tags_json, meta_json, indexed_at)
        VALUES (@rootId, @path, @docId, @type, @language, @title, @contentHash, @mtimeMs, @size, @status,
                @errorCode, @error, @sensitivity, @tags, @meta, @indexedAt)`),
      docByPath: db.prepare('SELECT * FROM documents WHERE root_id = ? AND path = ?'),
      deleteChunksOfDoc: db.prepare('DELETE FROM chunks WHERE document_id = ?'),
      insertChunk: db.prepare(`
        INSERT INTO chunks (id, document_id, ordinal, locator, section_id, heading, start_line, end_line, text,
                            chunk_hash, text_hash, tags_json, token_count, embed_hash, lang)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      setGraphVersion: db.prepare('UPDATE documents SET graph_version = ?, llm_graph = 0 WHERE id = ?'),
    };
  }

  documentByPath(rootId: number, relPath: string): DocumentRow | null {
    return (this.stmts.docByPath.get(rootId, relPath) as DocumentRow | undefined) ?? null;
  }

  /**
   * Inside a batch's transaction, from now until writeHeldLexicalRows, the chunks' lexical rows wait
   * here and go into both indexes together at the batch's end. FTS5 writes the rows it holds out as
   * a segment of their own at every statement that takes a statement journal (a multi-row insert of
   * graph facts, an update of a document, a delete of chunks): rows inserted note by note left one
   * segment per note in each index for automerge to merge again and again.
   */
  holdLexicalRows(): void {
    this.held = new Map();
  }

  /** Writes the held lexical rows (inside the batch's transaction) and writes at once from then on. */
  writeHeldLexicalRows(): void {
    const held = this.held;
    this.held = null;
    if (!held) return;
    for (const rows of held.values()) {
      for (const r of rows) {
        this.lexical.insertFts.run(r.id, r.fts.title, r.fts.heading, r.fts.body);
        this.lexical.insertTri.run(r.id, r.text);
      }
    }
  }

  /** Forgets the held rows (the batch's transaction was rolled back). */
  dropHeldLexicalRows(): void {
    this.held = null;
  }

  /** The held rows of documents whose chunks are deleted in the batch go with them. */
  forgetHeldRowsOf(documentIds: readonly number[]): void {
    for (const id of documentIds) this.held?.delete(id);
  }

  /** Replaces a document and all its chunks atomically: a crash leaves the old version or the new one. */
  writeDocument(doc: DocumentWrite, chunks: readonly ChunkWrite[], completeJobId?: number): number {
    return inOneTransaction(this.db, () => {
      if (completeJobId !== undefined) statements(this.db).prepare('DELETE FROM index_jobs WHERE id = ?').run(completeJobId);
      const row = {
        rootId: doc.rootId,
        path: doc.path,
        docId: doc.docId,
        type: doc.type,
        language: doc.language,
        title: doc.title,
        contentHash: doc.contentHash,
        mtimeMs: doc.mtimeMs,
        size: doc.size,
        status: doc.status,
        errorCode: doc.errorCode ?? null,
        error: doc.error ?? null,
        sensitivity: doc.sensitivity ?? null,
        tags: JSON.stringify(doc.tags ?? {}),
        meta: JSON.stringify(doc.meta ?? {}),
        indexedAt: new Date().toISOString(),
      };
      const replaced = this.stmts.docIdByPath.get(doc.rootId, doc.path) as number | undefined;
      if (replaced !== undefined) this.stmts.updateDoc.run({ ...row, id: replaced });
      const id = replaced ?? Number(this.stmts.insertDoc.run(row).lastInsertRowid);
      // One read of the high water per document: the new chunks' ids start above it.
      let nextId = raiseChunkHighWater(this.connection) + 1;
      // A new document has no chunks yet; the delete (its trigger takes a statement journal) is for a replaced one.
      if (replaced !== undefined) {
        this.stmts.deleteChunksOfDoc.run(id);
        this.held?.delete(id);
      }
      this.graph.clearFactsOf(id);
      this.stmts.setGraphVersion.run(doc.graphVersion ?? 0, id);
      this.graph.writeNoteNames(id, doc.path, doc.title, JSON.stringify(doc.meta ?? {}));
      if (doc.graph) this.graph.insertGraph(id, doc.graph, 0);
      const held: { id: number; fts: ChunkWrite['fts']; text: string }[] | null = this.held && chunks.length > 0 ? [] : null;
      for (const c of chunks) {
        const chunkId = nextId++;
        this.stmts.insertChunk.run(
          chunkId, id, c.ordinal, c.locator, c.sectionId, c.heading, c.startLine, c.endLine, c.text,
          c.chunkHash, c.textHash, JSON.stringify(c.tags), c.tokenCount, c.embedHash, c.lang ?? null,
        );
        if (held) held.push({ id: chunkId, fts: c.fts, text: c.text });
        else {
          this.lexical.insertFts.run(chunkId, c.fts.title, c.fts.heading, c.fts.body);
          this.lexical.insertTri.run(chunkId, c.text);
        }
      }
      if (held) this.held!.set(id, held);
      this.graph.writeLowerWritings(id, chunks);
      return id;
    });
  }

  /**
   * A file moved or renamed with identical content: re-point the document and its chunks without
   * re-parsing (embeddings are keyed by text hash, so they are reused as they are).
   */
  moveDocument(docId: number, newPath: string, mtimeMs: number, chunkHashOf: (locator: string, text: string, tags: Record<string, string>) => string, jobIds: readonly number[]): void {
    const db = this.db;
    inOneTransaction(db, () => {
      const old = db.prepare('SELECT path, title, meta_json FROM documents WHERE id = ?').get(docId) as { path: string; title: string | null; meta_json: string };
      db.prepare('UPDATE documents SET path = ?, doc_id = ?, mtime_ms = ?, indexed_at = ? WHERE id = ?').run(newPath, newPath, mtimeMs, new Date().toISOString(), docId);
      this.graph.writeNoteNames(docId, newPath, old.title, old.meta_json);
      this.graph.clearDegreeOf(docId);
      const chunks = db.prepare('SELECT id, locator, text, tags_json FROM chunks WHERE document_id = ?').all(docId) as { id: number; locator: string; text: string; tags_json: string }[];
      const update = db.prepare('UPDATE chunks SET locator = ?, chunk_hash = ? WHERE id = ?');
      for (const c of chunks) {
        const locator = newPath + c.locator.slice(old.path.length);
        update.run(locator, chunkHashOf(locator, c.text, JSON.parse(c.tags_json) as Record<string, string>), c.id);
      }
      const delJob = db.prepare('DELETE FROM index_jobs WHERE id = ?');
      for (const id of jobIds) delJob.run(id);
    });
  }
}

export function documentsOfRoot(connection: ReadConnection, rootId: number): Map<string, DocumentRow> {
  const rows = sqliteOf(connection).prepare('SELECT * FROM documents WHERE root_id = ?').all(rootId) as DocumentRow[];
  return new Map(rows.map((r) => [r.path, r]));
}

/** Records that an unchanged file was seen again with a new mtime (a touch), without re-chunking. */
export function touchDocument(connection: WriteConnection, id: number, mtimeMs: number, size: number): void {
  sqliteOf(connection).prepare('UPDATE documents SET mtime_ms = ?, size = ? WHERE id = ?').run(mtimeMs, size, id);
}

export function deleteDocuments(connection: WriteConnection, ids: readonly number[], completeJobId?: number): void {
  const db = sqliteOf(connection);
  const del = db.prepare('DELETE FROM documents WHERE id = ?');
  inOneTransaction(db, () => {
    if (completeJobId !== undefined) db.prepare('DELETE FROM index_jobs WHERE id = ?').run(completeJobId);
    if (ids.length > 0) raiseChunkHighWater(connection);
    for (const id of ids) del.run(id);
  });
}

/** Ordered hashes for the manifest: chunk hashes, and each indexed document's path and content hash. */
export function manifestInputs(connection: ReadConnection): { chunkHashes: string[]; documents: string[] } {
  const db = sqliteOf(connection);
  const chunkHashes = db.prepare('SELECT chunk_hash FROM chunks ORDER BY chunk_hash').pluck().all() as string[];
  const documents = db
    .prepare("SELECT d.doc_id || ':' || d.content_hash FROM documents d WHERE d.status = 'indexed' ORDER BY d.doc_id, d.content_hash")
    .pluck()
    .all() as string[];
  return { chunkHashes, documents };
}
