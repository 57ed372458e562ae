/**
 * The writer (`Store`): the one object the engine writes the store through. It opens the database
 * and holds the writer's state; the SQL lives in queries/, one module per concern, and each method
 * here is one call into them:
 *
 *   roots.ts         folders indexed                 jobs.ts          files waiting to be indexed
 *   indexing.ts      documents and chunks written    graph-facts.ts   entities, relations, mentions, names
 *   embeddings.ts    vectors and what is left        sentences.ts     sentences of chunks
 *   lexical-index.ts the FTS5 indexes' upkeep        counts.ts        the health report's counts
 *   citations.ts     a cited document's checks       traces.ts        answer traces
 *   settings.ts      settings by key
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import type { FileIssue, Root } from '../../shared/contract.ts';
import type { Disposable } from '../core/lifecycle.ts';
import { DB_FILE, MMAP_SIZE, isDiskFull, setMemoryMap, isReadOnlyStore, isStoreLocked, openDatabase, schemaVersion } from './database.ts';
import { asWriteConnection, type WriteConnection } from './connection.ts';
import * as roots from './queries/roots.ts';
import * as jobs from './queries/jobs.ts';
import * as indexing from './queries/indexing.ts';
import { GraphFactWriter, type StoredGraph } from './queries/graph-facts.ts';
import * as embeddings from './queries/embeddings.ts';
import * as sentences from './queries/sentences.ts';
import * as lexicalIndex from './queries/lexical-index.ts';
import * as counts from './queries/counts.ts';
import * as citations from './queries/citations.ts';
import * as traces from './queries/traces.ts';
import * as settings from './queries/settings.ts';
import type { ChunkWrite, DocumentRow, DocumentWrite } from './queries/indexing.ts';
import type { VectorUnit } from './queries/embeddings.ts';
import type { TraceRow } from './queries/traces.ts';

export type { ChunkWrite, DocumentRow, DocumentWrite } from './queries/indexing.ts';
export type { StoredGraph } from './queries/graph-facts.ts';
export type { IndexJob } from './queries/jobs.ts';
export type { TraceRow } from './queries/traces.ts';
export { CHUNK_VECTORS_BY_ID_SQL, CHUNK_VECTORS_PAGE_SQL, embeddedAboveSql, type VectorUnit } from './queries/embeddings.ts';

/** WAL pages between two checkpoints while an indexing run writes (Store.setBulkWrites): 64 MB. */
export const BULK_CHECKPOINT_PAGES = 16384;
/** SQLite's own WAL pages between two checkpoints (4 MB), outside an indexing run. */
export const DEFAULT_CHECKPOINT_PAGES = 1000;
/** The free disk space below which an indexing run keeps SQLite's checkpoint interval (1 GiB). */
export const BULK_MIN_FREE_BYTES = 1 << 30;

/** Free bytes on the file system holding `dir` for this user; Infinity when it cannot be read. */
function freeBytesOf(dir: string): number {
  try {
    const st = fs.statfsSync(dir);
    return st.bavail * st.bsize;
  } catch {
    return Infinity;
  }
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
  private readonly graph: GraphFactWriter;
  private readonly lexical: indexing.LexicalRowInserts;
  private readonly documents: indexing.DocumentWriter;

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
    this.graph = new GraphFactWriter(this.db);
    this.lexical = indexing.lexicalRowInserts(this.db);
    this.documents = new indexing.DocumentWriter(this.db, this.graph, this.lexical);
  }

  get schemaVersion(): number {
    return schemaVersion(this.sqlite);
  }

  // Roots (queries/roots.ts) ----------------------------------------------------------------------

  addRoot(rootPath: string, include: string[], exclude: string[]): Root {
    return roots.addRoot(this.db, rootPath, include, exclude);
  }
  rootByPath(rootPath: string): Root | null {
    return roots.rootByPath(this.db, rootPath);
  }
  listRoots(): Root[] {
    return roots.listRoots(this.db);
  }
  /** Removes a root with all its documents and chunks (cascade); returns how many documents went. */
  removeRoot(rootId: number): number {
    return roots.removeRoot(this.db, rootId);
  }

  // Documents and chunks (queries/indexing.ts) ----------------------------------------------------

  documentsOfRoot(rootId: number): Map<string, DocumentRow> {
    return indexing.documentsOfRoot(this.db, rootId);
  }
  documentByPath(rootId: number, relPath: string): DocumentRow | null {
    return this.documents.documentByPath(rootId, relPath);
  }
  /** Replaces a document and all its chunks atomically: a crash leaves the old version or the new one. */
  writeDocument(doc: DocumentWrite, chunks: readonly ChunkWrite[], completeJobId?: number): number {
    return this.documents.writeDocument(doc, chunks, completeJobId);
  }
  /** Records that an unchanged file was seen again with a new mtime (a touch), without re-chunking. */
  touchDocument(id: number, mtimeMs: number, size: number): void {
    indexing.touchDocument(this.db, id, mtimeMs, size);
  }
  deleteDocuments(ids: readonly number[], completeJobId?: number): void {
    this.documents.forgetHeldRowsOf(ids);
    indexing.deleteDocuments(this.db, ids, completeJobId);
  }
  /** A file moved or renamed with identical content: re-pointed without re-parsing. */
  moveDocument(docId: number, newPath: string, mtimeMs: number, chunkHashOf: (locator: string, text: string, tags: Record<string, string>) => string, jobIds: readonly number[]): void {
    this.documents.moveDocument(docId, newPath, mtimeMs, chunkHashOf, jobIds);
  }
  /** Ordered hashes for the manifest: chunk hashes, and each indexed document's path and content hash. */
  manifestInputs(): { chunkHashes: string[]; documents: string[] } {
    return indexing.manifestInputs(this.db);
  }

  // Graph facts and names (queries/graph-facts.ts) ------------------------------------------------

  uncountedNameWords(): string[] {
    return this.graph.uncountedNameWords();
  }
  countWordsByIndex(words: readonly string[]): void {
    this.graph.countWordsByIndex(words);
  }
  countWordsInChunks(words: ReadonlySet<string>, afterId: number, limit: number): number | null {
    return this.graph.countWordsInChunks(words, afterId, limit);
  }
  entityId(type: string, name: string): number {
    return this.graph.entityId(type, name);
  }
  insertGraph(documentId: number, graph: StoredGraph, firstSeq?: number): void {
    this.graph.insertGraph(documentId, graph, firstSeq);
  }
  hasGraphFacts(): boolean {
    return this.graph.hasGraphFacts();
  }
  collectOrphanEntities(): number {
    return this.graph.collectOrphanEntities();
  }

  // Index jobs (queries/jobs.ts) ------------------------------------------------------------------

  enqueueJobs(list: readonly { rootId: number; path: string; kind: 'upsert' | 'delete' }[]): void {
    jobs.enqueueJobs(this.db, list);
  }
  pendingJobs(rootIds: readonly number[]): jobs.IndexJob[] {
    return jobs.pendingJobs(this.db, rootIds);
  }
  countPendingJobs(): number {
    return jobs.countPendingJobs(this.db);
  }
  completeJob(id: number): void {
    jobs.completeJob(this.db, id);
  }
  noteJobAttempt(id: number): void {
    jobs.noteJobAttempt(this.db, id);
  }
  pendingJobsByRoot(): Map<number, number> {
    return jobs.pendingJobsByRoot(this.db);
  }

  // Health (queries/counts.ts) --------------------------------------------------------------------

  documentCounts() {
    return counts.documentCounts(this.db);
  }
  chunkCount(): number {
    return counts.chunkCount(this.db);
  }
  languageCounts(): { lang: string; chunks: number }[] {
    return counts.languageCounts(this.db);
  }
  chunkLanguages(ids: readonly number[]): Map<number, string> {
    return counts.chunkLanguages(this.db, ids);
  }
  fileIssues(limit = 500): FileIssue[] {
    return counts.fileIssues(this.db, limit);
  }

  // Lexical indexes (queries/lexical-index.ts) ----------------------------------------------------

  lexicalSegments(): number {
    return lexicalIndex.lexicalSegments(this.db);
  }
  settleLexicalTotals(): string[] {
    return lexicalIndex.settleLexicalTotals(this.db);
  }
  compactLexicalStep(pages = 500): boolean {
    return lexicalIndex.compactLexicalStep(this.db, pages);
  }
  rebuildLexicalIndex(
    analyze: (text: string, lang?: string) => string,
    languages: (texts: readonly string[]) => { doc: string; chunks: string[] },
    onProgress?: (notes: { done: number; total: number }) => void,
  ): number {
    return lexicalIndex.rebuildLexicalIndex(this.db, this.lexical, analyze, languages, onProgress);
  }

  // Embeddings (queries/embeddings.ts) ------------------------------------------------------------

  backfillEmbedHashes(hashOf: (title: string | null, heading: string | null, text: string) => string): number {
    return embeddings.backfillEmbedHashes(this.db, hashOf);
  }
  pendingEmbeddings(modelId: string, limit: number, afterId = 0, unit: VectorUnit = 'chunk'): { id: number; hash: string; title: string | null; heading: string | null; text: string }[] {
    return embeddings.pendingEmbeddings(this.db, modelId, limit, afterId, unit);
  }
  countPendingEmbeddings(modelId: string, unit: VectorUnit = 'chunk'): number {
    return embeddings.countPendingEmbeddings(this.db, modelId, unit);
  }
  pendingEmbeddingsByRoot(modelId: string, unit: VectorUnit = 'chunk'): Map<number, number> {
    return embeddings.pendingEmbeddingsByRoot(this.db, modelId, unit);
  }
  embeddedThrough(modelId: string, unit: VectorUnit): number {
    return embeddings.embeddedThrough(this.db, modelId, unit);
  }
  /** Records that every row up to `id` has a vector of the model (the embed stage, after a pass). */
  markEmbeddedThrough(modelId: string, unit: VectorUnit, id: number): void {
    if (id > this.embeddedThrough(modelId, unit)) this.setSetting(embeddings.embeddedThroughKey(modelId, unit), id);
  }
  maxUnitId(unit: VectorUnit): number {
    return embeddings.maxUnitId(this.db, unit);
  }
  writeEmbeddings(modelId: string, rows: readonly { hash: string; vector: Float32Array }[]): void {
    embeddings.writeEmbeddings(this.db, modelId, rows);
  }
  embeddingDimension(modelId: string): number | null {
    return embeddings.embeddingDimension(this.db, modelId);
  }
  countEmbeddedChunks(modelId: string, unit: VectorUnit = 'chunk'): number {
    return embeddings.countEmbeddedChunks(this.db, modelId, unit);
  }
  embeddedChunkIds(modelId: string, unit: VectorUnit = 'chunk'): Set<number> {
    return embeddings.embeddedChunkIds(this.db, modelId, unit);
  }
  chunkVectors(modelId: string, ids?: readonly number[], unit: VectorUnit = 'chunk'): Generator<{ id: number; vector: Float32Array }[]> {
    return embeddings.chunkVectors(this.db, modelId, ids, unit);
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

  // Sentences (queries/sentences.ts) --------------------------------------------------------------

  splitSentences(
    split: (text: string) => readonly { start: number; end: number }[],
    hashOf: (title: string | null, heading: string | null, text: string) => string,
    limit = 2000,
  ): number {
    return sentences.splitSentences(this.db, split, hashOf, limit);
  }
  countUnsplitChunks(): number {
    return sentences.countUnsplitChunks(this.db);
  }
  unsplitChunksByRoot(): Map<number, number> {
    return sentences.unsplitChunksByRoot(this.db);
  }
  sentenceChunks(ids: readonly number[]): Map<number, number> {
    return sentences.sentenceChunks(this.db, ids);
  }
  splitChunks(ids: readonly number[]): Set<number> {
    return sentences.splitChunks(this.db, ids);
  }
  sentenceTexts(chunkIds: readonly number[]): { id: number; chunk_id: number; text: string }[] {
    return sentences.sentenceTexts(this.db, chunkIds);
  }
  sentencesOfChunks(chunkIds: readonly number[]): number[] {
    return sentences.sentencesOfChunks(this.db, chunkIds);
  }
  sentencesWaiting(modelId: string, chunkIds: readonly number[]): number {
    return sentences.sentencesWaiting(this.db, modelId, chunkIds);
  }

  // Answers (queries/citations.ts, queries/traces.ts) ---------------------------------------------

  documentSource(docId: string): { absPath: string; contentHash: string | null } | null {
    return citations.documentSource(this.db, docId);
  }
  documentPropertyKeys(docId: string): string[] {
    return citations.documentPropertyKeys(this.db, docId);
  }
  documentRelations(docId: string): { type: string; name: string; line: number }[] {
    return citations.documentRelations(this.db, docId);
  }
  insertTrace(trace: TraceRow): void {
    if (this.reader && !this.insideTryWrite) {
      this.tryWrite(() => this.insertTrace(trace));
      return;
    }
    traces.insertTrace(this.db, trace);
  }
  /** The newest traces first. */
  listTraces(limit = 1000): TraceRow[] {
    return traces.listTraces(this.db, limit);
  }

  // Settings (queries/settings.ts) ----------------------------------------------------------------

  getSetting<T>(key: string): T | undefined {
    return settings.getSetting<T>(this.db, key);
  }
  setSetting(key: string, value: unknown): void {
    if (this.reader && !this.insideTryWrite) {
      this.tryWrite(() => this.setSetting(key, value));
      return;
    }
    settings.setSetting(this.db, key, value);
  }

  // The connection --------------------------------------------------------------------------------

  /**
   * Changes whenever another connection commits (PRAGMA data_version): a reader compares it before
   * each request to follow the writer. Costs no read of the database.
   */
  dataVersion(): number {
    return this.sqlite.pragma('data_version', { simple: true }) as number;
  }

  private insideTryWrite = false;

  /**
   * While an indexing run writes (on), SQLite copies the WAL into the store every
   * BULK_CHECKPOINT_PAGES pages instead of every 1,000 (its default, 4 MB). A run rewrites the same
   * pages commit after commit (the random keys of the chunk hash indexes, the graph's indexes, the
   * growing FTS5 segments); each checkpoint writes every page the WAL holds once, so fewer of them
   * write each such page fewer times. Off: the default again, and the run's WAL copied into the
   * store and truncated, without waiting for a reader that holds an older snapshot (then the next
   * checkpoints finish it). Crash safety is the WAL's either way: a commit is in the WAL. The WAL
   * may grow to 64 MB, so a disk with less than BULK_MIN_FREE_BYTES free keeps SQLite's default.
   */
  setBulkWrites(on: boolean, freeBytes = freeBytesOf(path.dirname(this.file))): void {
    if (this.reader) return;
    if (on) {
      // The literal is BULK_CHECKPOINT_PAGES (SQL is never built from values; store.test.ts reads it back).
      if (freeBytes >= BULK_MIN_FREE_BYTES) this.sqlite.pragma('wal_autocheckpoint = 16384');
      return;
    }
    this.sqlite.pragma('wal_autocheckpoint = 1000'); // DEFAULT_CHECKPOINT_PAGES
    this.sqlite.pragma('busy_timeout = 0');
    try {
      this.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // Only a copy: the WAL keeps every commit (a full disk, a lock), and later checkpoints copy it.
    } finally {
      this.sqlite.pragma('busy_timeout = 5000');
    }
  }

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

  /**
   * Runs `writes` (Store methods) in one transaction: all of them or none. The chunks' lexical rows
   * go in together at its end (DocumentWriter.holdLexicalRows), so the batch adds one segment to
   * each FTS5 index instead of one per document.
   */
  transaction(writes: () => void): void {
    if (this.sqlite.inTransaction) return this.sqlite.transaction(writes)();
    this.sqlite.transaction(() => {
      this.documents.holdLexicalRows();
      try {
        writes();
        this.documents.writeHeldLexicalRows();
      } finally {
        this.documents.dropHeldLexicalRows();
      }
    })();
  }

  dispose(): void {
    if (this.sqlite.open) this.sqlite.close();
  }
}
