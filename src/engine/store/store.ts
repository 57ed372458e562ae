import path from 'node:path';
import type { Database, Statement } from 'better-sqlite3';
import { type FileIssue, type Limit, type Root, storedLimits } from '../../shared/contract.ts';
import type { Disposable } from '../lifecycle.ts';
import { lowerCaseForm, lowerCaseWord, noteNameKeys, normalizeName, refBaseKey, wordsKey, writtenWordsOf } from '../graph/names.ts';
import { storeDocumentsWriting } from './queries/graph.ts';
import { DB_FILE, MMAP_SIZE, isDiskFull, setMemoryMap, isReadOnlyStore, isStoreLocked, openDatabase, schemaVersion } from './database.ts';
import { asWriteConnection, type WriteConnection } from './connection.ts';
import { statements } from './statements.ts';
import { settleFtsTotals } from './fts-totals.ts';

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

/** Graph facts ready to store: entities by name and type, evidence as chunk ordinal and lines (and a PDF's locator fragment). */
export interface StoredGraph {
  relations: { src: { name: string; type: string } | null; dst: { name: string; type: string }; type: string; ordinal: number | null; line: number; endLine: number; fragment?: string | null; origin: 'rule' | 'llm' }[];
  mentions: { entity: { name: string; type: string }; line: number; ordinal: number | null; origin?: 'rule' | 'llm' }[];
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

export interface IndexJob {
  id: number;
  root_id: number;
  path: string;
  kind: 'upsert' | 'delete';
  attempts: number;
}

interface RootRow {
  id: number;
  path: string;
  include_json: string;
  exclude_json: string;
  added_at: string;
}

function toRoot(row: RootRow): Root {
  return {
    id: row.id,
    path: row.path,
    include: JSON.parse(row.include_json) as string[],
    exclude: JSON.parse(row.exclude_json) as string[],
    added_at: row.added_at,
  };
}

/** Graph rows written per INSERT statement. */
const GRAPH_BATCH = 16;

/**
 * Vectors of chunks, by id list and by id range. CROSS JOIN fixes the join order: the ids (or the id
 * range), their chunks, then each vector by primary key. Left to itself SQLite read every stored
 * vector of the model for each page: 80 s per 5,000 ids at 100k chunks, instead of 0.35 s.
 */
const vectorsByIdSql = (table: string) =>
  `SELECT c.id, e.vector FROM json_each(?) j CROSS JOIN ${table} c ON c.id = j.value CROSS JOIN embeddings e ON e.model_id = ? AND e.text_hash = c.embed_hash`;
const vectorsPageSql = (table: string) =>
  `SELECT c.id, e.vector FROM ${table} c CROSS JOIN embeddings e ON e.model_id = ? AND e.text_hash = c.embed_hash WHERE c.id > ? ORDER BY c.id LIMIT 5000`;
/**
 * Rows above the embedded mark (Store.embeddedThrough) that have a vector of the model. CROSS JOIN
 * keeps the order: the few rows above the mark, then each one's vector by key; left to itself SQLite
 * scanned every stored vector of the model and looked each row up by hash (store.test.ts checks the plan).
 */
export const embeddedAboveSql = (table: string, select: 'c.id' | 'COUNT(*)') =>
  `SELECT ${select} FROM ${table} c CROSS JOIN embeddings e ON e.model_id = ? AND e.text_hash = c.embed_hash WHERE c.id > ?`;
export const CHUNK_VECTORS_BY_ID_SQL = vectorsByIdSql('chunks');
export const CHUNK_VECTORS_PAGE_SQL = vectorsPageSql('chunks');

/**
 * What a vector stands for: a chunk (keyed by chunks.id) or one sentence of a chunk (keyed by
 * chunk_sentences.id). Both tables key their vectors by embed_hash in the embeddings table.
 */
export type VectorUnit = 'chunk' | 'sentence';
const UNIT_TABLE: Record<VectorUnit, string> = { chunk: 'chunks', sentence: 'chunk_sentences' };

const CHUNK_ID_HIGH_WATER = 'chunk_id_high_water';

export interface TraceRow {
  trace_id: string;
  started_at: string;
  finished_at: string;
  query: string;
  answer_mode: string;
  verdict: string | null;
  confidence: number;
  latencies_ms: Record<string, number>;
  /** Locators retrieved, and after reranking, in order. */
  retrieved: string[];
  reranked: string[];
  tokens_in: number;
  tokens_out: number;
  first_token_ms: number | null;
  tokens_per_s: number | null;
  limits: Limit[];
}

/** The SQLite store: the source of truth (docs/design.md §3). All SQL is parameterised. */
export class Store implements Disposable {
  /**
   * The writer's connection as the rest of the engine holds it: a handle that only the store
   * layer's queries (queries/*) run SQL on. Writes go through this class's methods.
   */
  readonly db: WriteConnection;
  private readonly sqlite: Database;
  readonly file: string;
  private readonly stmts: {
    upsertDoc: Statement;
    docByPath: Statement;
    deleteChunksOfDoc: Statement;
    insertChunk: Statement;
    insertFts: Statement;
    insertTri: Statement;
    upsertEntity: Statement;
    insertMention: Statement;
    deleteRelationsOfDoc: Statement;
    deleteNoteDegree: Statement;
    deleteMentionsOfDoc: Statement;
    setGraphVersion: Statement;
    deleteNoteNames: Statement;
    insertNoteName: Statement;
    deleteLowerWritings: Statement;
    insertLowerWriting: Statement;
  };
  /** Entity ids by type and name as written; cleared when entities are collected. */
  private entityIds = new Map<string, Map<string, number>>();

  /** Opened beside the writer (see openDatabase): its optional writes (traces, cached settings) are best-effort. */
  readonly reader: boolean;

  /** Bytes of the store read through the memory map while no indexing run is in progress. */
  readonly mmapBytes: number;

  constructor(dataDir: string, options: { reader?: boolean; mmapBytes?: number } = {}) {
    this.file = path.join(dataDir, DB_FILE);
    this.reader = options.reader === true;
    this.mmapBytes = options.mmapBytes ?? MMAP_SIZE;
    this.sqlite = openDatabase(this.file, undefined, { reader: this.reader, mmapBytes: this.mmapBytes });
    this.db = asWriteConnection(this.sqlite);
    this.stmts = {
      upsertDoc: this.sqlite.prepare(`
        INSERT INTO documents (root_id, path, doc_id, type, language, title, content_hash, mtime_ms, size, status,
                               error_code, error, sensitivity, tags_json, meta_json, indexed_at)
        VALUES (@rootId, @path, @docId, @type, @language, @title, @contentHash, @mtimeMs, @size, @status,
                @errorCode, @error, @sensitivity, @tags, @meta, @indexedAt)
        ON CONFLICT (root_id, path) DO UPDATE SET
          doc_id = excluded.doc_id, type = excluded.type, language = excluded.language, title = excluded.title,
          content_hash = excluded.content_hash, mtime_ms = excluded.mtime_ms, size = excluded.size,
          status = excluded.status, error_code = excluded.error_code, error = excluded.error,
          sensitivity = excluded.sensitivity, tags_json = excluded.tags_json, meta_json = excluded.meta_json,
          indexed_at = excluded.indexed_at
        RETURNING id`),
      docByPath: this.sqlite.prepare('SELECT * FROM documents WHERE root_id = ? AND path = ?'),
      deleteChunksOfDoc: this.sqlite.prepare('DELETE FROM chunks WHERE document_id = ?'),
      insertChunk: this.sqlite.prepare(`
        INSERT INTO chunks (id, document_id, ordinal, locator, section_id, heading, start_line, end_line, text,
                            chunk_hash, text_hash, tags_json, token_count, embed_hash, lang)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      insertFts: this.sqlite.prepare('INSERT INTO chunks_fts (rowid, title, heading, body) VALUES (?, ?, ?, ?)'),
      insertTri: this.sqlite.prepare('INSERT INTO chunks_tri (rowid, body) VALUES (?, ?)'),
      upsertEntity: this.sqlite.prepare(
        'INSERT INTO entities (key, type, name, words, base_key) VALUES (?, ?, ?, ?, ?) ON CONFLICT (key, type) DO UPDATE SET key = excluded.key RETURNING id',
      ),
      insertMention: this.sqlite.prepare('INSERT OR IGNORE INTO mentions (document_id, entity_id, ordinal, line, origin) VALUES (?, ?, ?, ?, ?)'),
      deleteRelationsOfDoc: this.sqlite.prepare('DELETE FROM relations WHERE document_id = ?'),
      deleteNoteDegree: this.sqlite.prepare('DELETE FROM note_degrees WHERE document_id = ?'),
      deleteMentionsOfDoc: this.sqlite.prepare('DELETE FROM mentions WHERE document_id = ?'),
      setGraphVersion: this.sqlite.prepare('UPDATE documents SET graph_version = ?, llm_graph = 0 WHERE id = ?'),
      deleteNoteNames: this.sqlite.prepare('DELETE FROM note_names WHERE document_id = ?'),
      insertNoteName: this.sqlite.prepare('INSERT INTO note_names (document_id, key, words) VALUES (?, ?, ?)'),
      deleteLowerWritings: this.sqlite.prepare('DELETE FROM lower_writings WHERE document_id = ?'),
      insertLowerWriting: this.sqlite.prepare('INSERT OR IGNORE INTO lower_writings (word, document_id) VALUES (?, ?)'),
    };
  }

  get schemaVersion(): number {
    return schemaVersion(this.sqlite);
  }

  // Roots -------------------------------------------------------------------------------------

  addRoot(rootPath: string, include: string[], exclude: string[]): Root {
    const row = this.sqlite
      .prepare(
        `INSERT INTO roots (path, include_json, exclude_json, added_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (path) DO UPDATE SET include_json = excluded.include_json, exclude_json = excluded.exclude_json
         RETURNING *`,
      )
      // all(), not get(): get() stops at the returned row, and an autocommit that then fails (a full
      // disk) went unreported while the row was rolled back.
      .all(rootPath, JSON.stringify(include), JSON.stringify(exclude), new Date().toISOString())[0] as RootRow;
    return toRoot(row);
  }

  rootByPath(rootPath: string): Root | null {
    const row = this.sqlite.prepare('SELECT * FROM roots WHERE path = ?').get(rootPath) as RootRow | undefined;
    return row ? toRoot(row) : null;
  }

  listRoots(): Root[] {
    return (this.sqlite.prepare('SELECT * FROM roots ORDER BY path').all() as RootRow[]).map(toRoot);
  }

  /**
   * Chunk ids key the vector indexes, which are matched to the chunks table by id: an id must never
   * name another chunk later, or an edited note keeps its old vector. SQLite hands out the highest
   * rowid + 1, so deleting the newest chunks and writing new ones reused their ids (an edit of the
   * last note written left it unfindable by meaning until a rebuild). Ids are given out here above
   * the highest ever used, which every delete records first (settings chunk_id_high_water).
   */
  /** Records the highest chunk id in use (before a delete) and returns the highest ever given out. */
  private raiseChunkHighWater(): number {
    const top = (statements(this.sqlite).prepare('SELECT MAX(id) FROM chunks').pluck().get() as number | null) ?? 0;
    const stored = this.getSetting<number>(CHUNK_ID_HIGH_WATER) ?? 0;
    if (top > stored) this.setSetting(CHUNK_ID_HIGH_WATER, top);
    return Math.max(top, stored);
  }

  /** Removes a root with all its documents and chunks (cascade); returns how many documents went. */
  removeRoot(rootId: number): number {
    return this.sqlite.transaction(() => {
      this.raiseChunkHighWater();
      const { n } = this.sqlite.prepare('SELECT COUNT(*) AS n FROM documents WHERE root_id = ?').get(rootId) as { n: number };
      this.sqlite.prepare('DELETE FROM roots WHERE id = ?').run(rootId);
      this.sqlite.prepare('DELETE FROM settings WHERE key = ?').run(`walk_issues:${rootId}`);
      return n;
    })();
  }

  // Documents and chunks ------------------------------------------------------------------------

  documentsOfRoot(rootId: number): Map<string, DocumentRow> {
    const rows = this.sqlite.prepare('SELECT * FROM documents WHERE root_id = ?').all(rootId) as DocumentRow[];
    return new Map(rows.map((r) => [r.path, r]));
  }

  documentByPath(rootId: number, relPath: string): DocumentRow | null {
    return (this.stmts.docByPath.get(rootId, relPath) as DocumentRow | undefined) ?? null;
  }

  /** Replaces a document and all its chunks atomically: a crash leaves the old version or the new one. */
  writeDocument(doc: DocumentWrite, chunks: readonly ChunkWrite[], completeJobId?: number): number {
    return this.sqlite.transaction(() => {
      if (completeJobId !== undefined) statements(this.sqlite).prepare('DELETE FROM index_jobs WHERE id = ?').run(completeJobId);
      const { id } = this.stmts.upsertDoc.get({
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
      }) as { id: number };
      // One read of the high water per document: the new chunks' ids start above it.
      let nextId = this.raiseChunkHighWater() + 1;
      this.stmts.deleteChunksOfDoc.run(id);
      // New content: the old graph facts (rules and model alike) go; the model stage sees it again.
      this.stmts.deleteRelationsOfDoc.run(id);
      this.stmts.deleteMentionsOfDoc.run(id);
      // Its links may have changed: its degree is counted again after the run (graph/degrees.ts).
      this.stmts.deleteNoteDegree.run(id);
      this.stmts.setGraphVersion.run(doc.graphVersion ?? 0, id);
      this.writeNoteNames(id, doc.path, doc.title, JSON.stringify(doc.meta ?? {}));
      if (doc.graph) this.insertGraph(id, doc.graph, 0);
      for (const c of chunks) {
        const info = this.stmts.insertChunk.run(
          nextId++, id, c.ordinal, c.locator, c.sectionId, c.heading, c.startLine, c.endLine, c.text,
          c.chunkHash, c.textHash, JSON.stringify(c.tags), c.tokenCount, c.embedHash, c.lang ?? null,
        );
        this.stmts.insertFts.run(info.lastInsertRowid, c.fts.title, c.fts.heading, c.fts.body);
        this.stmts.insertTri.run(info.lastInsertRowid, c.text);
      }
      this.writeLowerWritings(id, chunks);
      return id;
    })();
  }

  // Lower-case writings of names (migration 016) ------------------------------------------------

  /** The words whose lower-case writings are stored with each document written: counted_words, and those being counted. */
  private writtenWords: Set<string> | null = null;
  /** Whether this process has checked every stored name's word (after that, new names' words are enough). */
  private nameWordsChecked = false;
  /** The words of names created since, not yet counted. */
  private readonly newNameWords = new Set<string>();

  private trackedWords(): Set<string> {
    this.writtenWords ??= new Set(this.sqlite.prepare('SELECT word FROM counted_words').pluck().all() as string[]);
    return this.writtenWords;
  }

  /** Replaces the document's lower-case writings of counted words with those its chunks write. */
  private writeLowerWritings(documentId: number, chunks: readonly { text: string }[]): void {
    this.stmts.deleteLowerWritings.run(documentId);
    const tracked = this.trackedWords();
    if (tracked.size === 0 || chunks.length === 0) return;
    const found = new Set<string>();
    for (const c of chunks) writtenWordsOf(c.text, tracked, found);
    for (const word of found) this.stmts.insertLowerWriting.run(word, documentId);
  }

  /**
   * The words of single-word names (graph/names.ts lowerCaseWord) whose lower-case writings are not
   * counted yet: every stored name's, the first time in a process; then the names created since.
   */
  uncountedNameWords(): string[] {
    const tracked = this.trackedWords();
    const words = this.nameWordsChecked
      ? [...this.newNameWords]
      : (this.sqlite.prepare("SELECT DISTINCT name FROM entities WHERE type = 'name'").pluck().all() as string[]).map(lowerCaseWord);
    this.nameWordsChecked = true;
    this.newNameWords.clear();
    return [...new Set(words.filter((w): w is string => w !== null && !tracked.has(w)))];
  }

  /**
   * Counts the lower-case writings of these words in every indexed document, each word through the
   * full-text index (a few words: each reads only the chunks its index term matches). The words are
   * counted from then on (counted_words).
   */
  countWordsByIndex(words: readonly string[]): void {
    this.sqlite.transaction(() => {
      const mark = this.sqlite.prepare('INSERT OR IGNORE INTO counted_words (word) VALUES (?)');
      for (const word of words) {
        storeDocumentsWriting(this.db, lowerCaseForm(word)?.term ?? word, word);
        mark.run(word);
        this.trackedWords().add(word);
      }
    })();
  }

  /**
   * Counts the lower-case writings of many words in one pass over the chunks, a page at a time (each
   * a transaction): the chunks after `afterId`, at most `limit`. Returns the last chunk id read, or
   * null at the end, where the words are marked counted. The documents written meanwhile store their
   * writings of these words already (they are tracked from the first page on).
   */
  countWordsInChunks(words: ReadonlySet<string>, afterId: number, limit: number): number | null {
    return this.sqlite.transaction(() => {
      for (const w of words) this.trackedWords().add(w);
      const rows = this.sqlite
        .prepare("SELECT c.id, c.document_id, c.text FROM chunks c CROSS JOIN documents d ON d.id = c.document_id WHERE c.id > ? AND d.status = 'indexed' ORDER BY c.id LIMIT ?")
        .raw(true)
        .all(afterId, limit) as [number, number, string][];
      for (const [, doc, text] of rows) for (const word of writtenWordsOf(text, words)) this.stmts.insertLowerWriting.run(word, doc);
      if (rows.length < limit) {
        const mark = this.sqlite.prepare('INSERT OR IGNORE INTO counted_words (word) VALUES (?)');
        for (const w of words) mark.run(w);
        return null;
      }
      return rows.at(-1)![0];
    })();
  }

  /** The id of an entity, created on first use. Keys fold case, accents and spacing (normalizeName). */
  entityId(type: string, name: string): number {
    // Cached by the name as written: most names recur spelled the same way.
    let byName = this.entityIds.get(type);
    if (!byName) this.entityIds.set(type, (byName = new Map()));
    let id = byName.get(name);
    if (id === undefined) {
      const key = normalizeName(name);
      id = (this.stmts.upsertEntity.get(key, type, name, wordsKey(key), refBaseKey(type, name)) as { id: number }).id;
      byName.set(name, id);
      if (type === 'name') {
        const word = lowerCaseWord(name);
        if (word !== null && !this.trackedWords().has(word)) this.newNameWords.add(word);
      }
    }
    return id;
  }

  /** The names a note answers to (migration 010's note_names), replaced with its title, path or aliases. */
  private writeNoteNames(documentId: number, notePath: string, title: string | null, metaJson: string): void {
    this.stmts.deleteNoteNames.run(documentId);
    for (const n of noteNameKeys(notePath, title, metaJson)) this.stmts.insertNoteName.run(documentId, n.key, n.words);
  }

  /**
   * Adds graph facts to a document (inside the caller's transaction), after the ones it has: a
   * mention in a chunk that one of its relations already cites is not stored twice.
   */
  insertGraph(documentId: number, graph: StoredGraph, firstSeq?: number): void {
    const idOf = (e: { name: string; type: string }) => this.entityId(e.type, e.name);
    let seq = firstSeq ?? (this.sqlite.prepare('SELECT COALESCE(MAX(seq), -1) FROM relations WHERE document_id = ?').pluck().get(documentId) as number) + 1;
    const cited = new Set<number>();
    const COLS = 10;
    // Rows go in groups of GRAPH_BATCH per statement: one statement per row cost as much as extraction itself.
    let rows: unknown[] = [];
    for (const r of graph.relations) {
      const dst = idOf(r.dst);
      rows.push(documentId, seq++, r.src ? idOf(r.src) : null, dst, r.type, r.ordinal, r.line, r.endLine, r.fragment ?? null, r.origin);
      cited.add(dst * 100_000 + (r.ordinal ?? 99_999));
      if (rows.length === GRAPH_BATCH * COLS) {
        this.relationInsert(GRAPH_BATCH).run(rows);
        rows = [];
      }
    }
    if (rows.length > 0) this.relationInsert(rows.length / COLS).run(rows);
    for (const m of graph.mentions) {
      if (m.ordinal === null) continue;
      const id = idOf(m.entity);
      if (!cited.has(id * 100_000 + m.ordinal)) this.stmts.insertMention.run(documentId, id, m.ordinal, m.line, m.origin ?? 'rule');
    }
  }

  /** INSERT statements for 1..GRAPH_BATCH relation rows, prepared on first use. */
  private readonly relationInserts = new Map<number, Statement>();
  private relationInsert(rows: number): Statement {
    let stmt = this.relationInserts.get(rows);
    if (!stmt) {
      stmt = this.sqlite.prepare(
        `INSERT INTO relations (document_id, seq, src_id, dst_id, type, ordinal, start_line, end_line, fragment, origin) VALUES ${Array(rows).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      );
      this.relationInserts.set(rows, stmt);
    }
    return stmt;
  }

  /** True when some document has graph facts stored. */
  hasGraphFacts(): boolean {
    return this.sqlite.prepare('SELECT 1 FROM relations LIMIT 1').get() !== undefined;
  }

  /** Deletes entities no relation or mention refers to any more (one pass over both); returns how many went. */
  collectOrphanEntities(): number {
    const { changes } = this.sqlite
      .prepare(
        `DELETE FROM entities WHERE id NOT IN (
           SELECT dst_id FROM relations UNION SELECT src_id FROM relations WHERE src_id IS NOT NULL UNION SELECT entity_id FROM mentions)`,
      )
      .run();
    if (changes > 0) this.entityIds.clear();
    return changes;
  }

  /** Records that an unchanged file was seen again with a new mtime (a touch), without re-chunking. */
  touchDocument(id: number, mtimeMs: number, size: number): void {
    this.sqlite.prepare('UPDATE documents SET mtime_ms = ?, size = ? WHERE id = ?').run(mtimeMs, size, id);
  }

  deleteDocuments(ids: readonly number[], completeJobId?: number): void {
    const del = this.sqlite.prepare('DELETE FROM documents WHERE id = ?');
    this.sqlite.transaction(() => {
      if (completeJobId !== undefined) this.sqlite.prepare('DELETE FROM index_jobs WHERE id = ?').run(completeJobId);
      if (ids.length > 0) this.raiseChunkHighWater();
      for (const id of ids) del.run(id);
    })();
  }

  /**
   * A file moved or renamed with identical content: re-point the document and its chunks without
   * re-parsing (embeddings are keyed by text hash, so they are reused as they are).
   */
  moveDocument(docId: number, newPath: string, mtimeMs: number, chunkHashOf: (locator: string, text: string, tags: Record<string, string>) => string, jobIds: readonly number[]): void {
    this.sqlite.transaction(() => {
      const old = this.sqlite.prepare('SELECT path, title, meta_json FROM documents WHERE id = ?').get(docId) as { path: string; title: string | null; meta_json: string };
      this.sqlite.prepare('UPDATE documents SET path = ?, doc_id = ?, mtime_ms = ?, indexed_at = ? WHERE id = ?').run(newPath, newPath, mtimeMs, new Date().toISOString(), docId);
      this.writeNoteNames(docId, newPath, old.title, old.meta_json);
      this.stmts.deleteNoteDegree.run(docId);
      const chunks = this.sqlite.prepare('SELECT id, locator, text, tags_json FROM chunks WHERE document_id = ?').all(docId) as { id: number; locator: string; text: string; tags_json: string }[];
      const update = this.sqlite.prepare('UPDATE chunks SET locator = ?, chunk_hash = ? WHERE id = ?');
      for (const c of chunks) {
        const locator = newPath + c.locator.slice(old.path.length);
        update.run(locator, chunkHashOf(locator, c.text, JSON.parse(c.tags_json) as Record<string, string>), c.id);
      }
      const delJob = this.sqlite.prepare('DELETE FROM index_jobs WHERE id = ?');
      for (const id of jobIds) delJob.run(id);
    })();
  }

  // Index jobs --------------------------------------------------------------------------------------

  /** Persists work to do in one transaction; an existing job for the same file is replaced. */
  enqueueJobs(jobs: readonly { rootId: number; path: string; kind: 'upsert' | 'delete' }[]): void {
    if (jobs.length === 0) return;
    const insert = this.sqlite.prepare(
      `INSERT INTO index_jobs (root_id, path, kind, enqueued_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (root_id, path) DO UPDATE SET kind = excluded.kind, enqueued_at = excluded.enqueued_at`,
    );
    const now = new Date().toISOString();
    this.sqlite.transaction(() => {
      for (const j of jobs) insert.run(j.rootId, j.path, j.kind, now);
    })();
  }

  /** Pending jobs of the given roots: upserts first (so a move is seen before its delete), oldest first. */
  pendingJobs(rootIds: readonly number[]): IndexJob[] {
    if (rootIds.length === 0) return [];
    return this.sqlite
      .prepare(
        `SELECT id, root_id, path, kind, attempts FROM index_jobs
          WHERE root_id IN (SELECT value FROM json_each(?)) ORDER BY kind = 'delete', id`,
      )
      .all(JSON.stringify(rootIds)) as IndexJob[];
  }

  countPendingJobs(): number {
    return (this.sqlite.prepare('SELECT COUNT(*) AS n FROM index_jobs').get() as { n: number }).n;
  }

  completeJob(id: number): void {
    this.sqlite.prepare('DELETE FROM index_jobs WHERE id = ?').run(id);
  }

  noteJobAttempt(id: number): void {
    this.sqlite.prepare('UPDATE index_jobs SET attempts = attempts + 1 WHERE id = ?').run(id);
  }

  /** Ordered hashes for the manifest: chunk hashes, and each indexed document's path and content hash. */
  manifestInputs(): { chunkHashes: string[]; documents: string[] } {
    const chunkHashes = (this.sqlite.prepare('SELECT chunk_hash FROM chunks ORDER BY chunk_hash').pluck().all() as string[]);
    const documents = (this.sqlite
      .prepare("SELECT d.doc_id || ':' || d.content_hash FROM documents d WHERE d.status = 'indexed' ORDER BY d.doc_id, d.content_hash")
      .pluck()
      .all() as string[]);
    return { chunkHashes, documents };
  }

  // Health ----------------------------------------------------------------------------------------

  documentCounts() {
    const rows = this.sqlite.prepare('SELECT status, type, COUNT(*) AS n FROM documents GROUP BY status, type').all() as {
      status: DocumentRow['status'];
      type: string;
      n: number;
    }[];
    const counts = { total: 0, indexed: 0, skipped: 0, failed: 0, by_type: {} as Record<string, number> };
    for (const r of rows) {
      counts.total += r.n;
      counts[r.status] += r.n;
      if (r.status === 'indexed') counts.by_type[r.type] = (counts.by_type[r.type] ?? 0) + r.n;
    }
    return counts;
  }

  chunkCount(): number {
    return (this.sqlite.prepare('SELECT COUNT(*) AS n FROM chunks').get() as { n: number }).n;
  }

  /** Chunks per language, most first; chunks written before languages were detected count as 'und'. */
  languageCounts(): { lang: string; chunks: number }[] {
    // Grouped on the bare column, so SQLite reads the chunks_lang index only (not every chunk's text).
    const rows = this.sqlite.prepare('SELECT lang, COUNT(*) AS n FROM chunks GROUP BY lang').all() as { lang: string | null; n: number }[];
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(r.lang ?? 'und', (counts.get(r.lang ?? 'und') ?? 0) + r.n);
    return [...counts].map(([lang, chunks]) => ({ lang, chunks })).sort((a, b) => b.chunks - a.chunks || a.lang.localeCompare(b.lang));
  }

  /** The language of each of these chunks ('und' when not detected); ids not in the store are left out. */
  chunkLanguages(ids: readonly number[]): Map<number, string> {
    if (ids.length === 0) return new Map();
    const rows = this.sqlite
      .prepare("SELECT c.id, COALESCE(c.lang, 'und') AS lang FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value")
      .all(JSON.stringify(ids)) as { id: number; lang: string }[];
    return new Map(rows.map((r) => [r.id, r.lang]));
  }

  fileIssues(limit = 500): FileIssue[] {
    const rows = this.sqlite
      .prepare(
        `SELECT r.path AS root, d.path, d.status, d.error, d.error_code FROM documents d JOIN roots r ON r.id = d.root_id
         WHERE d.status != 'indexed' OR d.error IS NOT NULL ORDER BY r.path, d.path LIMIT ?`,
      )
      .all(limit) as { root: string; path: string; status: 'indexed' | 'skipped' | 'failed'; error: string | null; error_code: string | null }[];
    const issues: FileIssue[] = rows.map((r) => ({
      path: path.join(r.root, r.path),
      // An indexed document with an error was indexed with a warning (front matter ignored, text cut).
      status: r.status === 'indexed' ? 'warning' : r.status,
      reason: r.error ?? 'unknown',
      ...(r.error_code ? { code: r.error_code } : {}),
    }));
    for (const root of this.listRoots()) {
      for (const w of this.getSetting<{ relPath: string; reason: string }[]>(`walk_issues:${root.id}`) ?? []) {
        issues.push({ path: path.join(root.path, w.relPath), status: 'skipped', reason: w.reason });
      }
    }
    return issues;
  }

  /** B-trees (segments) the BM25 index is stored in: every batch commit adds one, automerge keeps a few levels of them. */
  lexicalSegments(): number {
    return (this.sqlite.prepare('SELECT count(DISTINCT segid) AS n FROM chunks_fts_idx').get() as { n: number }).n;
  }

  /**
   * Puts right the row count and token totals BM25 reads (FTS5's "averages" record) of both lexical
   * indexes when they count deleted chunks. A contentless-delete FTS5 table never subtracts a deleted
   * row from them: every re-indexed note and removed folder added to the count for good, the idf of
   * every word drifted up, and a store re-filled from another copy of the same folder ranked and
   * answered otherwise than a fresh one. The live rows' sizes are summed from the table's docsize
   * table and written back. Outside a transaction only: FTS5 re-reads the record in the next one.
   * Returns the tables it put right.
   */
  settleLexicalTotals(): string[] {
    if (this.sqlite.inTransaction) return [];
    const settled: string[] = [];
    if (settleFtsTotals(this.sqlite, 'chunks_fts', 3)) settled.push('chunks_fts');
    if (settleFtsTotals(this.sqlite, 'chunks_tri', 1)) settled.push('chunks_tri');
    return settled;
  }

  /**
   * One step of compacting the BM25 index into a single b-tree (FTS5's incremental form of
   * 'optimize': a negative 'merge' writes about `pages` pages, each step its own transaction).
   * Returns false once there was nothing left to merge. A query then walks one doclist per term
   * instead of one per segment.
   */
  compactLexicalStep(pages = 500): boolean {
    const before = this.sqlite.prepare('SELECT total_changes() AS t').pluck();
    const t = before.get() as number;
    this.sqlite.prepare("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('merge', ?)").run(-Math.abs(pages));
    // FTS5's documented test: fewer than two changes means the index is one b-tree.
    return (before.get() as number) - t >= 2;
  }

  /**
   * Refills both lexical indexes from the chunks table with `analyze` (after an analyzer change);
   * nothing is re-read from disk. With `languages` (the note's and each chunk's, in order), each
   * note's chunks are analyzed in their language, which is stored with them as the indexer would.
   */
  rebuildLexicalIndex(
    analyze: (text: string, lang?: string) => string,
    languages: (texts: readonly string[]) => { doc: string; chunks: string[] },
    onProgress?: (notes: { done: number; total: number }) => void,
  ): number {
    return this.sqlite.transaction(() => {
      const total = (this.sqlite.prepare('SELECT COUNT(*) AS n FROM documents').get() as { n: number }).n;
      let done = 0;
      this.sqlite.exec("INSERT INTO chunks_fts (chunks_fts) VALUES ('delete-all'); INSERT INTO chunks_tri (chunks_tri) VALUES ('delete-all');");
      // Paged by note: a statement that is being iterated cannot share the connection with writes.
      const page = this.sqlite.prepare('SELECT id, title FROM documents WHERE id > ? ORDER BY id LIMIT 500');
      const chunksOf = this.sqlite.prepare('SELECT id, text, heading, lang FROM chunks WHERE document_id = ? ORDER BY ordinal');
      const setLang = this.sqlite.prepare('UPDATE chunks SET lang = ? WHERE id = ?');
      let n = 0;
      let last = 0;
      for (;;) {
        const docs = page.all(last) as { id: number; title: string | null }[];
        if (docs.length === 0) break;
        for (const d of docs) {
          const rows = chunksOf.all(d.id) as { id: number; text: string; heading: string | null; lang: string | null }[];
          if (rows.length === 0) continue;
          const langs = languages(rows.map((r) => r.text));
          const title = analyze(d.title ?? '', langs.doc);
          rows.forEach((r, i) => {
            const lang = langs.chunks[i];
            if (lang !== undefined && lang !== r.lang) setLang.run(lang, r.id);
            this.stmts.insertFts.run(r.id, title, analyze(r.heading ?? '', lang), analyze(r.text, lang));
            this.stmts.insertTri.run(r.id, r.text);
            n++;
          });
        }
        last = docs[docs.length - 1]!.id;
        done += docs.length;
        onProgress?.({ done, total });
      }
      return n;
    })();
  }

  // Embeddings ------------------------------------------------------------------------------------

  /** Fills embed_hash for chunks written before migration 004 (paged; nothing is re-read from disk). */
  backfillEmbedHashes(hashOf: (title: string | null, heading: string | null, text: string) => string): number {
    const page = this.sqlite.prepare(
      'SELECT c.id, c.text, c.heading, d.title FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.embed_hash IS NULL ORDER BY c.id LIMIT 2000',
    );
    const update = this.sqlite.prepare('UPDATE chunks SET embed_hash = ? WHERE id = ?');
    let n = 0;
    for (;;) {
      const rows = page.all() as { id: number; text: string; heading: string | null; title: string | null }[];
      if (rows.length === 0) return n;
      this.sqlite.transaction(() => {
        for (const r of rows) update.run(hashOf(r.title, r.heading, r.text), r.id);
      })();
      n += rows.length;
    }
  }

  /**
   * Chunks after `afterId` (and above embeddedThrough) whose embedding input has no vector for this
   * model yet, in id order (the caller pages with the last id and skips hashes it has already taken). A page costs its own rows:
   * grouping the whole table by hash on every batch made embedding 100k chunks quadratic (0.85 s of
   * query per batch of 32 at 100k chunks).
   */
  pendingEmbeddings(modelId: string, limit: number, afterId = 0, unit: VectorUnit = 'chunk'): { id: number; hash: string; title: string | null; heading: string | null; text: string }[] {
    afterId = Math.max(afterId, this.embeddedThrough(modelId, unit));
    if (unit === 'sentence') {
      const rows = this.sqlite
        .prepare(
          `SELECT s.id, s.embed_hash AS hash, d.title, c.heading, c.text, s.start, s.end
             FROM chunk_sentences s JOIN chunks c ON c.id = s.chunk_id JOIN documents d ON d.id = c.document_id
            WHERE s.id > @after
              AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model_id = @model AND e.text_hash = s.embed_hash)
            ORDER BY s.id LIMIT @limit`,
        )
        .all({ model: modelId, limit, after: afterId }) as { id: number; hash: string; title: string | null; heading: string | null; text: string; start: number; end: number }[];
      return rows.map((r) => ({ id: r.id, hash: r.hash, title: r.title, heading: r.heading, text: r.text.slice(r.start, r.end) }));
    }
    return this.sqlite
      .prepare(
        `SELECT c.id, c.embed_hash AS hash, d.title, c.heading, c.text
           FROM chunks c JOIN documents d ON d.id = c.document_id
          WHERE c.id > @after AND c.embed_hash IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model_id = @model AND e.text_hash = c.embed_hash)
          ORDER BY c.id LIMIT @limit`,
      )
      .all({ model: modelId, limit, after: afterId }) as { id: number; hash: string; title: string | null; heading: string | null; text: string }[];
  }

  countPendingEmbeddings(modelId: string, unit: VectorUnit = 'chunk'): number {
    return (
      this.sqlite
        .prepare(
          `SELECT COUNT(DISTINCT c.embed_hash) AS n FROM ${UNIT_TABLE[unit]} c
            WHERE c.id > ? AND c.embed_hash IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model_id = ? AND e.text_hash = c.embed_hash)`,
        )
        .get(this.embeddedThrough(modelId, unit), modelId) as { n: number }
    ).n;
  }

  /**
   * Whether pages are read through the memory map. An indexing run reads the whole store (every
   * b-tree it inserts into, the FTS5 segments it merges): mapped, each page it touched stayed in
   * the resident set, 1.67 GB peak for 50,000 notes whose store is 1.5 GB. Unmapped, they are read
   * into the OS page cache, which the process does not hold; queries map them again after the run.
   */
  setMemoryMapped(on: boolean): void {
    setMemoryMap(this.sqlite, on ? this.mmapBytes : 0);
  }

  /** countPendingEmbeddings per root id (a text shared by two roots counts in each). */
  pendingEmbeddingsByRoot(modelId: string, unit: VectorUnit = 'chunk'): Map<number, number> {
    const rows = this.sqlite
      .prepare(
        unit === 'chunk'
          ? `SELECT d.root_id AS root, COUNT(DISTINCT c.embed_hash) AS n FROM chunks c JOIN documents d ON d.id = c.document_id
              WHERE c.id > ? AND c.embed_hash IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model_id = ? AND e.text_hash = c.embed_hash)
              GROUP BY d.root_id`
          : `SELECT d.root_id AS root, COUNT(DISTINCT s.embed_hash) AS n FROM chunk_sentences s JOIN chunks c ON c.id = s.chunk_id JOIN documents d ON d.id = c.document_id
              WHERE s.id > ? AND s.embed_hash IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model_id = ? AND e.text_hash = s.embed_hash)
              GROUP BY d.root_id`,
      )
      .all(this.embeddedThrough(modelId, unit), modelId) as { root: number; n: number }[];
    return new Map(rows.map((r) => [r.root, r.n]));
  }

  /** Files queued per root id. */
  pendingJobsByRoot(): Map<number, number> {
    const rows = this.sqlite.prepare('SELECT root_id AS root, COUNT(*) AS n FROM index_jobs GROUP BY root_id').all() as { root: number; n: number }[];
    return new Map(rows.map((r) => [r.root, r.n]));
  }

  /** countUnsplitChunks per root id. */
  unsplitChunksByRoot(): Map<number, number> {
    const rows = this.sqlite
      .prepare('SELECT d.root_id AS root, COUNT(*) AS n FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.sentences IS NULL GROUP BY d.root_id')
      .all() as { root: number; n: number }[];
    return new Map(rows.map((r) => [r.root, r.n]));
  }

  /**
   * Every row of the unit's table (chunks or sentences) up to this id has a vector of the model. Rows
   * are never rewritten (an edit writes new rows, with ids above every id used before) and vectors
   * are never deleted, so once the embed stage has found every row up to an id embedded, that stays
   * true, and the pending and embedded queries only look up the rows above it. Without it each
   * index run looked up the vector of every row, several times: a run that changed nothing took
   * 56 s at 117k chunks with 740k sentences, 32 s of it counting pending sentences. A change that
   * breaks either premise (a migration that recreates chunks or chunk_sentences so ids start again,
   * or deleting vectors) must delete the `embedded_through:` settings with it.
   */
  embeddedThrough(modelId: string, unit: VectorUnit): number {
    return this.getSetting<number>(`embedded_through:${unit}:${modelId}`) ?? 0;
  }

  /** Records that every row up to `id` has a vector of the model (the embed stage, after a pass). */
  markEmbeddedThrough(modelId: string, unit: VectorUnit, id: number): void {
    if (id > this.embeddedThrough(modelId, unit)) this.setSetting(`embedded_through:${unit}:${modelId}`, id);
  }

  /** The highest id in the unit's table now (0 when empty). */
  maxUnitId(unit: VectorUnit): number {
    return (this.sqlite.prepare(`SELECT MAX(id) FROM ${UNIT_TABLE[unit]}`).pluck().get() as number | null) ?? 0;
  }

  writeEmbeddings(modelId: string, rows: readonly { hash: string; vector: Float32Array }[]): void {
    const insert = this.sqlite.prepare(
      'INSERT OR REPLACE INTO embeddings (model_id, text_hash, dim, vector, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    const now = new Date().toISOString();
    this.sqlite.transaction(() => {
      for (const r of rows) insert.run(modelId, r.hash, r.vector.length, Buffer.from(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength), now);
    })();
  }

  /**
   * The dimension of the model's stored vectors, null before the first. One row answers: every
   * write goes through the embed stage's dimension check (SemanticIndex), so a model's vectors share
   * one dimension; reading them all to be sure took 3 s at 850k vectors.
   */
  embeddingDimension(modelId: string): number | null {
    return (this.sqlite.prepare('SELECT dim FROM embeddings WHERE model_id = ? LIMIT 1').pluck().get(modelId) as number | undefined) ?? null;
  }

  /** How many chunks (or sentences) have a vector for this model (health counts them without loading the ids). */
  countEmbeddedChunks(modelId: string, unit: VectorUnit = 'chunk'): number {
    const through = this.embeddedThrough(modelId, unit);
    const below = this.sqlite.prepare(`SELECT COUNT(*) FROM ${UNIT_TABLE[unit]} WHERE id <= ? AND embed_hash IS NOT NULL`).pluck().get(through) as number;
    const above = this.sqlite
      .prepare(embeddedAboveSql(UNIT_TABLE[unit], 'COUNT(*)'))
      .pluck()
      .get(modelId, through) as number;
    return below + above;
  }

  /** Ids of chunks (or sentences) that have a vector for this model. */
  embeddedChunkIds(modelId: string, unit: VectorUnit = 'chunk'): Set<number> {
    const through = this.embeddedThrough(modelId, unit);
    const ids = new Set(this.sqlite.prepare(`SELECT id FROM ${UNIT_TABLE[unit]} WHERE id <= ? AND embed_hash IS NOT NULL`).pluck().all(through) as number[]);
    const above = this.sqlite
      .prepare(embeddedAboveSql(UNIT_TABLE[unit], 'c.id'))
      .pluck()
      .all(modelId, through) as number[];
    for (const id of above) ids.add(id);
    return ids;
  }

  /** (chunk id, vector) for the given chunks, or for every embedded chunk, in pages (sentences: by sentence id). */
  *chunkVectors(modelId: string, ids?: readonly number[], unit: VectorUnit = 'chunk'): Generator<{ id: number; vector: Float32Array }[]> {
    const toVector = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    if (ids) {
      const stmt = this.sqlite.prepare(unit === 'chunk' ? CHUNK_VECTORS_BY_ID_SQL : vectorsByIdSql(UNIT_TABLE[unit]));
      for (let i = 0; i < ids.length; i += 5000) {
        const rows = stmt.all(JSON.stringify(ids.slice(i, i + 5000)), modelId) as { id: number; vector: Buffer }[];
        yield rows.map((r) => ({ id: r.id, vector: toVector(r.vector) }));
      }
      return;
    }
    const page = this.sqlite.prepare(unit === 'chunk' ? CHUNK_VECTORS_PAGE_SQL : vectorsPageSql(UNIT_TABLE[unit]));
    let last = 0;
    for (;;) {
      const rows = page.all(modelId, last) as { id: number; vector: Buffer }[];
      if (rows.length === 0) return;
      yield rows.map((r) => ({ id: r.id, vector: toVector(r.vector) }));
      last = rows[rows.length - 1]!.id;
    }
  }

  // Sentences -------------------------------------------------------------------------------------

  /**
   * Splits up to `limit` chunks that have not been split into sentences yet (chunks.sentences IS
   * NULL), in id order: prose through `split`, code documents into none. Returns how many chunks
   * it split (0: none left). Each page is one transaction.
   */
  splitSentences(
    split: (text: string) => readonly { start: number; end: number }[],
    hashOf: (title: string | null, heading: string | null, text: string) => string,
    limit = 2000,
  ): number {
    const rows = this.sqlite
      .prepare(
        `SELECT c.id, c.text, c.heading, d.title, d.type FROM chunks c JOIN documents d ON d.id = c.document_id
          WHERE c.sentences IS NULL ORDER BY c.id LIMIT ?`,
      )
      .all(limit) as { id: number; text: string; heading: string | null; title: string | null; type: string }[];
    const insert = this.sqlite.prepare('INSERT INTO chunk_sentences (chunk_id, ordinal, start, end, embed_hash) VALUES (?, ?, ?, ?, ?)');
    const mark = this.sqlite.prepare('UPDATE chunks SET sentences = ? WHERE id = ?');
    this.sqlite.transaction(() => {
      for (const r of rows) {
        const spans = r.type === 'code' ? [] : split(r.text);
        spans.forEach((s, i) => insert.run(r.id, i, s.start, s.end, hashOf(r.title, r.heading, r.text.slice(s.start, s.end))));
        mark.run(spans.length, r.id);
      }
    })();
    return rows.length;
  }

  /** Chunks not split into sentences yet. */
  countUnsplitChunks(): number {
    return this.sqlite.prepare('SELECT COUNT(*) FROM chunks WHERE sentences IS NULL').pluck().get() as number;
  }

  /** The chunk of each sentence id (ids not found are left out). */
  sentenceChunks(ids: readonly number[]): Map<number, number> {
    const rows = statements(this.sqlite)
      .prepare('SELECT s.id, s.chunk_id FROM json_each(?) j CROSS JOIN chunk_sentences s ON s.id = j.value')
      .all(JSON.stringify(ids)) as { id: number; chunk_id: number }[];
    return new Map(rows.map((r) => [r.id, r.chunk_id]));
  }

  /** The given chunks that have sentence vectors of their own (split into two sentences or more). */
  splitChunks(ids: readonly number[]): Set<number> {
    const rows = statements(this.sqlite)
      .prepare('SELECT c.id FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value WHERE c.sentences > 0')
      .pluck()
      .all(JSON.stringify(ids)) as number[];
    return new Set(rows);
  }

  /** The sentences of the given chunks with their text (the chunk's text at the sentence's span), in order. */
  sentenceTexts(chunkIds: readonly number[]): { id: number; chunk_id: number; text: string }[] {
    const rows = statements(this.sqlite)
      .prepare('SELECT s.id, s.chunk_id, s.start, s.end, c.text FROM json_each(?) j CROSS JOIN chunk_sentences s ON s.chunk_id = j.value JOIN chunks c ON c.id = s.chunk_id ORDER BY s.id')
      .all(JSON.stringify(chunkIds)) as { id: number; chunk_id: number; start: number; end: number; text: string }[];
    return rows.map((r) => ({ id: r.id, chunk_id: r.chunk_id, text: r.text.slice(r.start, r.end) }));
  }

  /** Sentence ids of the given chunks. */
  sentencesOfChunks(chunkIds: readonly number[]): number[] {
    return this.sqlite
      .prepare('SELECT s.id FROM json_each(?) j CROSS JOIN chunk_sentences s ON s.chunk_id = j.value')
      .pluck()
      .all(JSON.stringify(chunkIds)) as number[];
  }

  // Answers ---------------------------------------------------------------------------------------

  /** Where a document lives now and the hash it was indexed with (stale-citation checks). */
  documentSource(docId: string): { absPath: string; contentHash: string | null } | null {
    const row = this.sqlite
      .prepare("SELECT r.path AS root, d.path, d.content_hash FROM documents d JOIN roots r ON r.id = d.root_id WHERE d.doc_id = ? AND d.status = 'indexed' LIMIT 1")
      .get(docId) as { root: string; path: string; content_hash: string | null } | undefined;
    return row ? { absPath: path.join(row.root, row.path), contentHash: row.content_hash } : null;
  }

  /**
   * The typed relations a document states of itself (its front matter: decided_by, reports_to,
   * authored_by, owned_by), with the name of each entity and the line that states it, in note order.
   */
  documentRelations(docId: string): { type: string; name: string; line: number }[] {
    return this.sqlite
      .prepare(
        `SELECT r.type, e.name, r.start_line AS line FROM documents d JOIN relations r ON r.document_id = d.id JOIN entities e ON e.id = r.dst_id
         WHERE d.doc_id = ? AND d.status = 'indexed' AND r.src_id IS NULL AND r.type IN ('decided_by', 'reports_to', 'authored_by', 'owned_by') ORDER BY r.seq`,
      )
      .all(docId) as { type: string; name: string; line: number }[];
  }

  insertTrace(trace: TraceRow): void {
    if (this.reader && !this.insideTryWrite) {
      this.tryWrite(() => this.insertTrace(trace));
      return;
    }
    this.sqlite
      .prepare(
        `INSERT INTO traces (trace_id, started_at, finished_at, query, answer_mode, verdict, confidence, latencies_json, retrieved_json, reranked_json,
           tokens_in, tokens_out, first_token_ms, tokens_per_s, limits_json)
         VALUES (@trace_id, @started_at, @finished_at, @query, @answer_mode, @verdict, @confidence, @latencies_json, @retrieved_json, @reranked_json,
           @tokens_in, @tokens_out, @first_token_ms, @tokens_per_s, @limits_json)`,
      )
      .run({
        ...trace,
        latencies_json: JSON.stringify(trace.latencies_ms),
        retrieved_json: JSON.stringify(trace.retrieved),
        reranked_json: JSON.stringify(trace.reranked),
        limits_json: JSON.stringify(trace.limits),
        latencies_ms: undefined,
        retrieved: undefined,
        reranked: undefined,
        limits: undefined,
      });
  }

  /** The newest traces first. */
  listTraces(limit = 1000): TraceRow[] {
    const rows = this.sqlite.prepare('SELECT * FROM traces ORDER BY started_at DESC, rowid DESC LIMIT ?').all(limit) as Record<string, unknown>[];
    return rows.map((r) => ({
      trace_id: r.trace_id as string,
      started_at: r.started_at as string,
      finished_at: r.finished_at as string,
      query: r.query as string,
      answer_mode: r.answer_mode as string,
      verdict: (r.verdict as string | null) ?? null,
      confidence: r.confidence as number,
      latencies_ms: JSON.parse(r.latencies_json as string) as Record<string, number>,
      retrieved: JSON.parse(r.retrieved_json as string) as string[],
      reranked: JSON.parse(r.reranked_json as string) as string[],
      tokens_in: r.tokens_in as number,
      tokens_out: r.tokens_out as number,
      first_token_ms: (r.first_token_ms as number | null) ?? null,
      tokens_per_s: (r.tokens_per_s as number | null) ?? null,
      // Older versions stored each limit as its text.
      limits: storedLimits(JSON.parse(r.limits_json as string)),
    }));
  }

  // Settings --------------------------------------------------------------------------------------

  getSetting<T>(key: string): T | undefined {
    const row = statements(this.sqlite).prepare('SELECT value_json FROM settings WHERE key = ?').get(key) as { value_json: string } | undefined;
    return row ? (JSON.parse(row.value_json) as T) : undefined;
  }

  setSetting(key: string, value: unknown): void {
    if (this.reader && !this.insideTryWrite) {
      this.tryWrite(() => this.setSetting(key, value));
      return;
    }
    statements(this.sqlite)
      .prepare('INSERT INTO settings (key, value_json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json')
      .run(key, JSON.stringify(value));
  }

  /**
   * Changes whenever another connection commits (PRAGMA data_version): a reader compares it before
   * each request to follow the writer. Costs no read of the database.
   */
  dataVersion(): number {
    return this.sqlite.pragma('data_version', { simple: true }) as number;
  }

  private insideTryWrite = false;

  /**
   * A reader's optional write (an answer's trace, a cached model hash): it waits at most 250 ms for
   * the writer's transaction and is skipped (false) when the writer holds the store longer, the
   * file is read-only or the disk is full; a query never fails for it.
   */
  tryWrite(write: () => void): boolean {
    this.sqlite.pragma('busy_timeout = 250');
    this.insideTryWrite = true;
    try {
      write();
      return true;
    } catch (error) {
      if (isStoreLocked(error) || isReadOnlyStore(error) || isDiskFull(error)) return false;
      throw error;
    } finally {
      this.insideTryWrite = false;
      if (this.sqlite.open) this.sqlite.pragma('busy_timeout = 5000');
    }
  }

  /** Runs `writes` (Store methods) in one transaction: all of them or none. */
  transaction(writes: () => void): void {
    this.sqlite.transaction(writes)();
  }

  dispose(): void {
    if (this.sqlite.open) this.sqlite.close();
  }
}
