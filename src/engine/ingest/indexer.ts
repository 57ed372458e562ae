import fs from 'node:fs';
import path from 'node:path';
import type { EventMap, FileIssue, IndexReport, Root } from '../../shared/contract.ts';
import type { Config } from '../core/config.ts';
import type { EventBus } from '../core/events.ts';
import { chunkHash, sha256, stableStringify } from '../core/hash.ts';
import type { DocumentRow, IndexJob, Store } from '../store/store.ts';
import { detectFileKind, type FileKind } from './file-types.ts';
import { GRAPH_RULES_VERSION } from '../graph/extract.ts';
import { createMemoryValve } from '../core/memory-valve.ts';
import { createDegreeMemos, DEGREE_NEIGHBOURHOODS_MAX, notesAround, refreshNoteDegrees, type Bridges } from '../graph/degrees.ts';
import { countNameWords } from '../graph/name-words.ts';
import { EXTERNAL_SYMLINK_REASON, isInside, walkRoot, type WalkEntry } from './walk.ts';

/** Whether a file resolves (symlinks followed) inside its root; a file that cannot be resolved counts as inside (the read reports it). */
function resolvesInside(root: string, absPath: string): boolean {
  try {
    return isInside(fs.realpathSync(root), fs.realpathSync(absPath));
  } catch {
    return true;
  }
}

export interface IndexerDeps {
  store: Store;
  config: Config;
  events: EventBus;
  paramsHash: string;
  /** Checked between files: pausing or disposing stops a run cleanly, the queue keeps the rest. */
  shouldStop?: () => boolean;
  /** The progress model (ingest/progress.ts): told what the run works on, per folder. */
  progress?: IndexerProgress;
  /** Chunks a run must add before it compacts the BM25 index, at the least (default COMPACT_MIN_CHUNKS; tests lower it). */
  compactMinChunks?: number;
  /** Folders never indexed wherever they lie (the data dir); see WalkOptions.skipDirs. */
  skipDirs?: readonly string[];
  /** Whether a run prepares its files on threads of their own (prepare-pool.ts); default: a run of PREPARE_THREADS_MIN_FILES files or more. */
  prepareThreads?: boolean;
}

/** What the indexer tells the progress model: the phase, its units (files) per folder, each one done. */
export interface IndexerProgress {
  begin(phase: 'scan' | 'words', total: number, folders: readonly (readonly [string, number])[]): void;
  /** One more unit of the folder done; `done` units of the phase in all. */
  advance(root: string, done: number): void;
  end(): void;
}

const BATCH_FILES = 40;
/** A run of at least this many files prepares them on threads of their own (prepare-pool.ts): starting one costs tens of milliseconds. */
const PREPARE_THREADS_MIN_FILES = 64;
/** Files prepared ahead of the one being written, at most: more than a batch (BATCH_FILES), so the threads stay busy while one commits; a few MB of rows. */
const PREPARE_AHEAD = 64;
const BATCH_MS = 250;
/** The longest the indexer runs before it lets queries in (a yield costs microseconds). */
const SLICE_MS = 12;
/**
 * Between batches a long run collects its garbage once its heap is past a soft bound
 * (core/memory-valve.ts). One valve for the process: where what it keeps is past the bound (a
 * loaded graph overview), the back-off holds from one run to the next, and a watcher's small runs
 * do not each pay for a full collection.
 */
const valve = createMemoryValve();
/**
 * A run that added at least this many chunks, and at least COMPACT_MIN_SHARE of the index, leaves
 * the BM25 index compacted into one b-tree: a bulk import leaves it in many segments, and an OR
 * query walks each term's doclist in every one of them. Smaller runs leave it to FTS5's automerge,
 * since compacting rewrites the whole index (a few thousand notes added to a million-chunk vault
 * should not rewrite all of it).
 */
const COMPACT_MIN_CHUNKS = 5000;
const COMPACT_MIN_SHARE = 0.1;

/** The indexer's dependencies while processing a queue: store writes go through `write`, batched. */
interface JobDeps extends IndexerDeps {
  write(op: () => void): void;
  /** The file prepared for writing (prepare.ts): on a thread of the run's pool, started ahead when it could be. */
  prepared(job: IndexJob, request: PrepareRequest): Promise<Prepared>;
}

type FileOutcome = 'indexed' | 'unchanged' | 'moved' | 'removed' | 'skipped' | 'failed';

import { prepareFile, UNSEARCHABLE_META, type Prepared, type PrepareRequest } from './prepare.ts';
import { PreparePool } from './prepare-pool.ts';

export { UNSEARCHABLE_META, unsearchablePart } from './prepare.ts';

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`;
}

function emptyReport(roots: readonly Root[]): IndexReport {
  return {
    roots: roots.map((r) => r.path),
    embedded: 0,
    embed_failed: 0,
    embed_pending: 0,
    files_seen: 0,
    indexed: 0,
    unchanged: 0,
    removed: 0,
    skipped: 0,
    failed: 0,
    chunks_added: 0,
    chunks_total: 0,
    duration_ms: 0,
    issues: [],
  };
}

/**
 * Full scan of the given roots: finds what changed (an unchanged file costs a stat), persists the
 * work as jobs, then processes the queue, including jobs left by an interrupted earlier run.
 */
export async function indexRoots(deps: IndexerDeps, roots: readonly Root[]): Promise<IndexReport> {
  const started = performance.now();
  const report = emptyReport(roots);
  const jobs: { rootId: number; path: string; kind: 'upsert' | 'delete' }[] = [];
  deps.progress?.begin('scan', roots.length, roots.map((r) => [r.path, 1] as const));
  let scanned = 0;
  for (const root of roots) {
    const { files, issues } = walkRoot(root.path, { include: root.include, exclude: root.exclude, followExternalSymlinks: deps.config.followExternalSymlinks, skipDirs: deps.skipDirs ?? [] });
    deps.store.setSetting(`walk_issues:${root.id}`, issues);
    for (const w of issues) report.issues.push({ path: path.join(root.path, w.relPath), status: 'skipped', reason: w.reason });
    const known = deps.store.documentsOfRoot(root.id);
    const seen = new Set<string>();
    for (const entry of files) {
      seen.add(entry.relPath);
      report.files_seen++;
      const existing = known.get(entry.relPath);
      if (existing && existing.mtime_ms === entry.mtimeMs && existing.size === entry.size && !needsGraph(deps.config, existing)) report.unchanged++;
      else jobs.push({ rootId: root.id, path: entry.relPath, kind: 'upsert' });
    }
    for (const doc of known.values()) if (!seen.has(doc.path)) jobs.push({ rootId: root.id, path: doc.path, kind: 'delete' });
    deps.progress?.advance(root.path, ++scanned);
  }
  deps.store.enqueueJobs(jobs);
  deps.progress?.end();
  await processQueue(deps, roots, report, started);
  return report;
}

/** Targeted update of some files of one root (from the watcher), with the work already decided. */
export async function indexPaths(deps: IndexerDeps, root: Root, jobs: readonly { path: string; kind: 'upsert' | 'delete' }[]): Promise<IndexReport> {
  const started = performance.now();
  const report = emptyReport([root]);
  deps.store.enqueueJobs(jobs.map((j) => ({ rootId: root.id, ...j })));
  await processQueue(deps, [root], report, started);
  return report;
}

/**
 * How a run prepares its files (prepare.ts). A run of many files prepares them on threads of their
 * own, up to PREPARE_AHEAD files ahead of the one it writes (prepare-pool.ts); a small run (a
 * watcher's) prepares each on this thread when it comes to it.
 */
function createPreparer(deps: IndexerDeps, queue: readonly IndexJob[], byId: ReadonlyMap<number, Root>, claimed: ReadonlySet<number>) {
  const pool = (deps.prepareThreads ?? queue.length >= PREPARE_THREADS_MIN_FILES) ? new PreparePool() : null;
  const started = new Map<number, { key: string; result: Promise<Prepared> }>();
  const keyOf = (r: PrepareRequest) => `${r.absPath}\u0000${r.unchangedHash ?? ''}`;
  const prepared = (job: IndexJob, request: PrepareRequest): Promise<Prepared> => {
    const early = started.get(job.id);
    started.delete(job.id);
    if (early && early.key === keyOf(request)) return early.result;
    return pool ? pool.submit(request) : prepareFile(request);
  };
  /** Starts preparing the files of the jobs from `from` on, as far as they will be read: not a deletion, a move's, a file over the size cap or outside its folder. */
  const ahead = (from: number) => {
    if (!pool) return;
    for (let i = from; i < Math.min(queue.length, from + PREPARE_AHEAD); i++) {
      const job = queue[i]!;
      if (job.kind !== 'upsert' || claimed.has(job.id) || started.has(job.id)) continue;
      const root = byId.get(job.root_id)!;
      const absPath = path.join(root.path, job.path);
      let size: number;
      try {
        size = fs.statSync(absPath).size;
      } catch {
        continue;
      }
      if (size > deps.config.maxFileBytes || (!deps.config.followExternalSymlinks && !resolvesInside(root.path, absPath))) continue;
      const kind = detectFileKind(job.path) ?? { type: 'text' as const, language: null };
      const request = requestOf(deps, { absPath, relPath: job.path }, kind, deps.store.documentByPath(root.id, job.path) ?? undefined);
      started.set(job.id, { key: keyOf(request), result: pool.submit(request) });
    }
  };
  return { prepared, ahead, dispose: async () => pool?.dispose() };
}

async function processQueue(deps: IndexerDeps, roots: readonly Root[], report: IndexReport, started: number): Promise<void> {
  const byId = new Map(roots.map((r) => [r.id, r]));
  const queue = deps.store.pendingJobs(roots.map((r) => r.id));
  const total = queue.length;
  let done = 0;
  let lastEmit = 0;
  const soleRoot = roots.length === 1 ? roots[0]!.path : undefined;
  const progress = (stage: EventMap['index/progress']['stage'], current?: string, rootPath = soleRoot) => {
    const now = performance.now();
    if (stage === 'lexical' && now - lastEmit < 100 && done < total) return;
    lastEmit = now;
    const elapsed = (now - started) / 1000;
    const rate = elapsed > 0 ? done / elapsed : 0;
    deps.events.emit('index/progress', {
      stage,
      ...(rootPath ? { root: rootPath } : {}),
      files_done: done,
      files_total: total,
      ...(current ? { path: current } : {}),
      rate_per_s: Math.round(rate * 10) / 10,
      eta_s: rate > 0 ? Math.round((total - done) / rate) : null,
    });
  };
  progress('scan');
  const perRoot = new Map<string, number>();
  for (const job of queue) {
    const p = byId.get(job.root_id)!.path;
    perRoot.set(p, (perRoot.get(p) ?? 0) + 1);
  }
  deps.progress?.begin('words', total, [...perRoot]);
  const graphBefore = deps.store.hasGraphFacts();

  // Documents that will be deleted in this run, by content hash, so a renamed file can take one over.
  const pendingDeletes = new Map<string, { doc: DocumentRow; job: IndexJob }>();
  for (const job of queue) {
    if (job.kind !== 'delete') continue;
    const doc = deps.store.documentByPath(job.root_id, job.path);
    if (doc?.content_hash && doc.status === 'indexed') pendingDeletes.set(`${job.root_id}:${doc.content_hash}`, { doc, job });
  }

  // Writes are batched: one transaction per BATCH_FILES files or BATCH_MS, since a commit per file
  // (each an FTS5 segment) made indexing 5x slower. A job leaves the queue in the transaction that
  // writes its file, so a crash loses at most the uncommitted batch, which the next run redoes.
  // The batch is small enough that committing it keeps queries waiting well under 100 ms: 200
  // files took 150-270 ms to commit, the p95 of queries during a 5,000-file run.
  const batch: (() => void)[] = [];
  let batchStarted = performance.now();
  const write = (op: () => void) => void batch.push(op);
  const flush = () => {
    if (batch.length > 0) deps.store.transaction(() => batch.splice(0).forEach((op) => op()));
    valve.check();
    batchStarted = performance.now();
  };

  // Which notes' stored degrees the run changes (graph/degrees.ts): the notes it touches and the
  // notes linked to them before it; past DEGREE_NEIGHBOURHOODS_MAX notes, every degree is counted again.
  const countAll = queue.length > DEGREE_NEIGHBOURHOODS_MAX;
  const touched = new Set<string>();
  // The bridge entities the notes name before the run: the notes that share one are recounted only
  // where the run changes it (graph/degrees.ts notesAround).
  const bridgesBefore: Bridges = new Map();
  const staleDegrees = countAll
    ? new Set<string>()
    : notesAround(
        deps.store.db,
        queue.flatMap((job) => (deps.store.documentByPath(job.root_id, job.path)?.status === 'indexed' ? [job.path] : [])),
        undefined,
        { record: bridgesBefore },
      );

  // Delete jobs taken over by a move; they were completed in the move's transaction.
  const claimed = new Set<number>();

  const preparer = createPreparer(deps, queue, byId, claimed);
  const { prepared } = preparer;
  try {
    let sliceStarted = performance.now();
    for (const [at, job] of queue.entries()) {
      if (batch.length >= BATCH_FILES || performance.now() - batchStarted > BATCH_MS) flush();
      if (deps.shouldStop?.()) break;
      const root = byId.get(job.root_id)!;
      if (claimed.has(job.id)) {
        touched.add(job.path);
        done++;
        deps.progress?.advance(root.path, done);
        continue;
      }
      preparer.ahead(at);
      const { outcome, chunks, issue } = await processJob({ ...deps, write, prepared }, root, job, pendingDeletes, claimed);
      if (outcome === 'moved' || outcome === 'indexed' || outcome === 'removed') touched.add(job.path);
      if (outcome === 'moved' || outcome === 'indexed') report.indexed++;
      else if (outcome === 'unchanged') report.unchanged++;
      else if (outcome === 'removed') report.removed++;
      else if (outcome === 'skipped') report.skipped++;
      else report.failed++;
      report.chunks_added += chunks;
      if (issue) report.issues.push(issue);
      done++;
      deps.progress?.advance(root.path, done);
      progress('lexical', job.path, root.path);
      // Yield to the event loop so queries interleave with a long indexing run.
      if (performance.now() - sliceStarted > SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
    }
    flush();
  } finally {
    await preparer.dispose();
  }
  deps.progress?.end();
  const compactAt = deps.compactMinChunks ?? COMPACT_MIN_CHUNKS;
  if (report.chunks_added >= compactAt && report.chunks_added >= deps.store.chunkCount() * COMPACT_MIN_SHARE) {
    // Only an optimization: each step is a transaction of its own, so a failed one (a full disk)
    // leaves the index as it was, searchable; the run's own work is committed, and the next large
    // run compacts again.
    await compactLexicalIndex(deps).catch(() => 0);
  }
  // Replaced and removed chunks stay counted in BM25's totals until they are put right.
  if (report.indexed + report.removed > 0) deps.store.settleLexicalTotals();
  // Entities only become orphans when stored facts were replaced or removed: not on a first index.
  if (graphBefore && report.indexed + report.removed > 0) deps.store.collectOrphanEntities();
  // Degrees are counted after the facts are final; a stopped run leaves them to the next one (a note
  // without a stored degree is counted from its links when a question needs it).
  if ((deps.config.graphExtract || graphBefore) && !deps.shouldStop?.()) {
    // Which names are common words is read from the counts (graph/name-words.ts): counted first.
    await countNameWords(deps.store, () => new Promise<void>((resolve) => setImmediate(resolve)));
    // The notes read around the touched ones are counted from what was read (one read of each).
    const memos = createDegreeMemos();
    const stale = countAll || touched.size > DEGREE_NEIGHBOURHOODS_MAX ? 'all' : new Set([...staleDegrees, ...notesAround(deps.store.db, touched, memos, { before: bridgesBefore })]);
    const between = () =>
      new Promise<void>((resolve) => {
        valve.check();
        setImmediate(resolve);
      });
    await refreshNoteDegrees(deps.store.db, stale, between, memos);
  }
  report.chunks_total = deps.store.chunkCount();
  report.duration_ms = Math.round(performance.now() - started);
  progress('done');
}

/**
 * Merges the BM25 index's segments into one, a few hundred pages per transaction with the event
 * loop free in between (queries go on meanwhile; an interrupted compaction is simply partial).
 * Returns the steps taken.
 */
export async function compactLexicalIndex(deps: Pick<IndexerDeps, 'store' | 'shouldStop'>): Promise<number> {
  if (deps.store.lexicalSegments() <= 1) return 0;
  let steps = 0;
  while (!deps.shouldStop?.()) {
    steps++;
    if (!deps.store.compactLexicalStep()) break;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return steps;
}

async function processJob(
  deps: JobDeps,
  root: Root,
  job: IndexJob,
  pendingDeletes: Map<string, { doc: DocumentRow; job: IndexJob }>,
  claimed: Set<number>,
): Promise<{ outcome: FileOutcome; chunks: number; issue?: FileIssue }> {
  const { store, write } = deps;
  const existing = store.documentByPath(root.id, job.path) ?? undefined;
  if (job.kind === 'delete') {
    if (existing) {
      write(() => store.deleteDocuments([existing.id], job.id));
      return { outcome: 'removed', chunks: 0 };
    }
    write(() => store.completeJob(job.id));
    return { outcome: 'unchanged', chunks: 0 };
  }
  const absPath = path.join(root.path, job.path);
  let st: fs.Stats;
  try {
    st = fs.statSync(absPath);
  } catch {
    // Deleted between the scan and now: it is simply gone.
    if (existing) write(() => store.deleteDocuments([existing.id], job.id));
    else write(() => store.completeJob(job.id));
    return { outcome: existing ? 'removed' : 'unchanged', chunks: 0 };
  }
  const entry: WalkEntry = { relPath: job.path, absPath, size: st.size, mtimeMs: Math.trunc(st.mtimeMs) };
  return indexFile(deps, root, entry, existing, job, pendingDeletes, claimed);
}

async function indexFile(
  deps: JobDeps,
  root: Root,
  entry: WalkEntry,
  existing: DocumentRow | undefined,
  job: IndexJob,
  pendingDeletes: Map<string, { doc: DocumentRow; job: IndexJob }>,
  claimed: Set<number>,
): Promise<{ outcome: FileOutcome; chunks: number; issue?: FileIssue }> {
  const { store, config, write } = deps;
  const absPath = entry.absPath;
  const kind: FileKind = detectFileKind(entry.relPath) ?? { type: 'text', language: null };
  const base = {
    rootId: root.id,
    path: entry.relPath,
    docId: entry.relPath,
    type: kind.type,
    language: kind.language,
    title: null,
    mtimeMs: entry.mtimeMs,
    size: entry.size,
  };
  const skip = (reason: string, contentHash: string | null = null) => {
    write(() => store.writeDocument({ ...base, contentHash, status: 'skipped', error: reason }, [], job.id));
    return { outcome: 'skipped' as const, chunks: 0, issue: { path: absPath, status: 'skipped' as const, reason } };
  };

  // A file the watcher reports may be a symlink (or sit under one) that leaves the root: the walker's rule.
  if (!config.followExternalSymlinks && !resolvesInside(root.path, absPath)) {
    if (existing) {
      write(() => store.deleteDocuments([existing.id], job.id));
      return { outcome: 'removed', chunks: 0, issue: { path: absPath, status: 'skipped', reason: EXTERNAL_SYMLINK_REASON } };
    }
    return skip(EXTERNAL_SYMLINK_REASON);
  }
  if (entry.size > config.maxFileBytes) {
    return skip(`file is ${formatBytes(entry.size)}, over the ${formatBytes(config.maxFileBytes)} size cap`);
  }
  const prepared = await deps.prepared(job, requestOf(deps, entry, kind, existing));
  if (prepared.status === 'gone') {
    if (existing) write(() => store.deleteDocuments([existing.id], job.id));
    else write(() => store.completeJob(job.id));
    return { outcome: existing ? 'removed' : 'unchanged', chunks: 0 };
  }
  if (prepared.status === 'unreadable') {
    const reason = prepared.reason;
    write(() => store.writeDocument({ ...base, contentHash: null, status: 'failed', errorCode: 'E_SYN_INDEX_FAILED', error: reason }, [], job.id));
    return { outcome: 'failed', chunks: 0, issue: { path: absPath, status: 'failed', reason, code: 'E_SYN_INDEX_FAILED' } };
  }
  const contentHash = prepared.contentHash;
  if (prepared.status === 'unchanged' && existing) {
    write(() => {
      store.touchDocument(existing.id, entry.mtimeMs, entry.size);
      store.completeJob(job.id);
    });
    return { outcome: 'unchanged', chunks: 0 };
  }
  if (!existing) {
    const moved = pendingDeletes.get(`${root.id}:${contentHash}`);
    if (moved && !claimed.has(moved.job.id)) {
      claimed.add(moved.job.id);
      write(() =>
        store.moveDocument(
          moved.doc.id,
          entry.relPath,
          entry.mtimeMs,
          (locator, text, tags) => chunkHash(entry.relPath, locator, text, tags, deps.paramsHash),
          [job.id, moved.job.id],
        ),
      );
      return { outcome: 'moved', chunks: 0 };
    }
  }
  if (prepared.status === 'binary') return skip('binary content', contentHash);
  if (prepared.status !== 'parsed') {
    const { code, reason } = prepared.status === 'failed' ? prepared : { code: 'E_SYN_CHUNK_PARSE_FAILED', reason: 'the file was not parsed' };
    write(() => store.writeDocument({ ...base, contentHash, status: 'failed', errorCode: code, error: reason }, [], job.id));
    return { outcome: 'failed', chunks: 0, issue: { path: absPath, status: 'failed', reason, code } };
  }
  const { doc } = prepared;
  const warnings = [...doc.warnings];
  if (doc.unsearchable) warnings.push(`only the first ${config.maxChunksPerFile} chunks were indexed: ${doc.unsearchable} (split the file, or raise SYN_MAX_CHUNKS_PER_FILE)`);
  write(() =>
    store.writeDocument(
      {
        ...base,
        title: doc.title,
        contentHash,
        status: 'indexed',
        sensitivity: doc.tags.sensitivity ?? null,
        tags: doc.tags,
        meta: { ...doc.meta, ...(warnings.length ? { warnings } : {}), ...(doc.unsearchable ? { [UNSEARCHABLE_META]: doc.unsearchable } : {}) },
        error: warnings.length ? warnings.join('; ') : null,
        graph: doc.graph,
        graphVersion: config.graphExtract ? GRAPH_RULES_VERSION : 0,
      },
      doc.rows,
      job.id,
    ),
  );
  // Indexed, but not all of it as written: the run reports it, so nothing is partial in silence.
  const issue: FileIssue | undefined = warnings.length ? { path: absPath, status: 'warning', reason: warnings.join('; ') } : undefined;
  return { outcome: 'indexed', chunks: doc.rows.length, ...(issue ? { issue } : {}) };
}

/** What preparing a file needs (prepare.ts): its contents are not parsed again when its hash is the one the store holds and nothing else is due. */
function requestOf(deps: Pick<IndexerDeps, 'config' | 'paramsHash'>, entry: Pick<WalkEntry, 'absPath' | 'relPath'>, kind: FileKind, existing: DocumentRow | undefined): PrepareRequest {
  const { config } = deps;
  return {
    absPath: entry.absPath,
    relPath: entry.relPath,
    kind,
    unchangedHash: existing && existing.status === 'indexed' && !needsGraph(config, existing) ? existing.content_hash : null,
    chunk: { size: config.chunkSize, overlap: config.chunkOverlap, maxChunks: config.maxChunksPerFile },
    graphExtract: config.graphExtract,
    paramsHash: deps.paramsHash,
  };
}

/** An indexed document whose graph facts come from older rules (or none) is processed again. */
function needsGraph(config: Config, doc: DocumentRow): boolean {
  return config.graphExtract && doc.status === 'indexed' && doc.graph_version !== GRAPH_RULES_VERSION;
}

/** Hash of the chunking parameters; part of every chunk_hash and of the index_version. */
export function paramsHashOf(params: Record<string, unknown>): string {
  return sha256(stableStringify(params)).slice(0, 16);
}
