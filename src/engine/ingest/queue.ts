/**
 * The indexing queue: one run at a time (a folder's files, a watcher's changes, the chat model's
 * graph pass), each followed by the embedding stage and the manifest of the resulting state; pause
 * and resume; and the watcher that feeds it. Queries never wait for it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { IndexProgress, IndexReport, IndexStatus, Root } from '../../shared/contract.ts';
import { createError, isSynapsisError } from '../../shared/errors.ts';
import type { Config } from '../core/config.ts';
import type { EventBus } from '../core/events.ts';
import { sha256 } from '../core/hash.ts';
import type { DenseSource } from '../retrieve/hybrid.ts';
import type { DisposableStore, Disposable } from '../core/lifecycle.ts';
import { runLlmGraphStage, type LlmGraphReport } from '../graph/llm-stage.ts';
import type { ChatModel } from '../llm/chat.ts';
import { embeddingInput } from '../llm/embedding-input.ts';
import { writeManifest, type IndexManifest } from '../health/manifest.ts';
import { visibleTo } from '../retrieve/source.ts';
import type { SemanticIndex } from '../vector/semantic.ts';
import { storeWriteError } from '../store/database.ts';
import { recordRoots } from '../store/integrity.ts';
import type { Store } from '../store/store.ts';
import { indexPaths, indexRoots, type IndexerProgress } from './indexer.ts';
import { ProgressTracker, type FolderBacklog } from './progress.ts';
import { splitSentences } from './sentences.ts';
import { createPathFilter } from './walk.ts';
import { watchRoots, type RootChange, type RootWatcher } from './watcher.ts';

/** Progress goes out at most this often (ms) with the index status. */
const PROGRESS_EMIT_MS = 500;
/** How often the per-folder counts of an embedding phase over several folders are read from the store (ms). */
const FOLDER_REFRESH_MS = 10_000;

/** The writer's progress for readers in other processes (`synapsis health` beside the app): the same numbers. */
const PROGRESS_FILE = 'progress.json';

function publishProgress(file: string, progress: IndexProgress): void {
  try {
    fs.writeFileSync(`${file}.tmp`, JSON.stringify({ pid: process.pid, progress }));
    fs.renameSync(`${file}.tmp`, file);
  } catch {
    // Only a view for other processes (a full disk must not fail a run): they compute their own.
  }
}

/** The progress a live writer published; null when there is none or its process is gone. */
function readPublishedProgress(file: string): IndexProgress | null {
  try {
    const { pid, progress } = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid: number; progress: IndexProgress };
    process.kill(pid, 0);
    return progress;
  } catch {
    return null;
  }
}

export interface WatchOptions {
  debounceMs?: number;
  onError?: (error: unknown) => void;
}

export interface IndexQueueDeps {
  store: Store;
  config: Config;
  events: EventBus;
  dataDir: string;
  paramsHash: string;
  dense: readonly DenseSource[];
  chat: ChatModel | null;
  /** The engine's disposables: watchers join them, and nothing is emitted once they are disposed. */
  disposables: DisposableStore;
  /** The manifest of the store's current state, written after each run. */
  manifest: () => IndexManifest;
  /** A reader beside the writer: it shows the progress the writer publishes (progress.json) instead of its own. */
  readOnly?: boolean;
  /** A run finished and wrote its manifest. */
  onIndexed: () => void;
}

export interface IndexQueue {
  /** Bumped whenever indexed documents may change (derived caches such as the link graph compare it). */
  readonly generation: number;
  /** Indexed documents changed outside a run (a root removed, a reader saw the writer commit). */
  invalidate(): void;
  status(): IndexStatus;
  readonly watching: boolean;
  /** Indexes these roots in the queue, then embeds what is new and writes the manifest. */
  indexRoots(roots: Root[]): Promise<IndexReport>;
  /**
   * The chat model reads notes not yet read, for at most `budgetMs` (default: the setting), in the
   * queue: never beside an index run that rewrites the same notes.
   */
  extractGraph(budgetMs?: number): Promise<LlmGraphReport>;
  /** Watches every root; pending jobs of an interrupted run are finished first. */
  watch(options?: WatchOptions): Promise<Disposable>;
  unwatch(): Promise<void>;
  /**
   * The roots changed while watching: the watcher follows (a folder added gets watched, and the run
   * that adds it indexes it; a folder removed stops being watched; the others keep their watchers, so
   * none of their changes is lost). addRoot and removeRoot let it finish in the background; index()
   * waits for it, so a file created after index() returns is seen.
   */
  rewatch(): Promise<void>;
  pause(): IndexStatus;
  resume(): IndexStatus;
  /** Stops runs between files and waits for the current one. */
  stop(): Promise<void>;
}

/** The queue's mutable state, shared by its parts. */
interface QueueState {
  stopping: boolean;
  /** Paused by the user: runs stop between files and watcher changes wait in the queue until resume. */
  paused: boolean;
  running: number;
  /**
   * Runs asked for and not started: each starts with lexical work, so the embedding stage of the
   * run before stops between batches to let it in (a new folder is searchable by words before
   * another folder's embedding goes on); the next run's embedding stage continues where it stopped.
   */
  queued: number;
  /** The roots being watched: one chokidar watcher over the current roots, swapped when the roots change. */
  watching: { roots: RootWatcher; options: WatchOptions; handle: Disposable } | null;
  /** The tail of the queue: every run and graph pass chains onto it. */
  queue: Promise<unknown>;
  generation: number;
  /** What waits in the store per folder (files queued, vectors missing): read at phase ends, pauses and folder changes. */
  backlog: Map<string, FolderBacklog> | null;
}

/** What waits in the store per folder: files queued, chunk and sentence vectors missing (for every dense model). */
export function readFolderBacklog(store: Store, dense: readonly DenseSource[]): Map<string, FolderBacklog> {
  const roots = store.listRoots();
  const jobs = store.pendingJobsByRoot();
  const passages = new Map<number, number>();
  const sentences = new Map<number, number>();
  const addTo = (into: Map<number, number>, from: Map<number, number>) => {
    for (const [id, n] of from) into.set(id, (into.get(id) ?? 0) + n);
  };
  const withSentences = dense.filter((d) => d.index.sentences);
  for (const d of dense) addTo(passages, store.pendingEmbeddingsByRoot(d.index.modelId, 'chunk'));
  for (const d of withSentences) addTo(sentences, store.pendingEmbeddingsByRoot(d.index.modelId, 'sentence'));
  if (withSentences.length > 0) {
    // A chunk not split yet counts as about one sentence per model (as health counts it).
    const unsplit = store.unsplitChunksByRoot();
    for (let i = 0; i < withSentences.length; i++) addTo(sentences, unsplit);
  }
  return new Map(
    roots.map((r) => [
      r.path,
      // A folder never scanned (added, not indexed yet) has no record of its walk.
      { scan: store.getSetting(`walk_issues:${r.id}`) === undefined ? 1 : 0, words: jobs.get(r.id) ?? 0, passages: passages.get(r.id) ?? 0, sentences: sentences.get(r.id) ?? 0 },
    ]),
  );
}

/** How the queue tells its status: the status itself, and its emission (throttled, or at once) to listeners and other processes. */
interface StatusReporter {
  status(): IndexStatus;
  /** Reads what waits again (state.backlog). */
  readBacklog(): Map<string, FolderBacklog>;
  emitStatus(): void;
  /** Progress moved: the status goes out at most every PROGRESS_EMIT_MS, the last change always. */
  progressChanged(): void;
  /** A phase began or ended: the status goes out at once. */
  emitNow(): void;
  /** A phase ended: what waits is read again, and the status goes out. */
  endPhase(): void;
  /** No status goes out after this. */
  cancelPending(): void;
}

function createStatusReporter(deps: IndexQueueDeps, state: QueueState, tracker: ProgressTracker): StatusReporter {
  const { store, events, disposables } = deps;
  const readBacklog = () => (state.backlog = readFolderBacklog(store, deps.dense));
  const progressFile = path.join(deps.dataDir, PROGRESS_FILE);
  const progress = (): IndexProgress => {
    if (deps.readOnly) {
      const published = readPublishedProgress(progressFile);
      if (published) return published;
    }
    const roots = store.listRoots().map((r) => r.path);
    const known = state.backlog && roots.every((r) => state.backlog!.has(r)) ? state.backlog : readBacklog();
    return tracker.snapshot({ roots, paused: state.paused, backlog: known });
  };
  const status = (): IndexStatus => ({
    running: state.running > 0 || state.queued > 0,
    paused: state.paused,
    watching: state.watching !== null,
    pending_jobs: store.countPendingJobs(),
    progress: progress(),
  });
  const emitStatus = () => {
    const now = status();
    if (!deps.readOnly) publishProgress(progressFile, now.progress);
    events.emit('index/status', now);
  };
  let lastEmit = 0;
  let emitTimer: ReturnType<typeof setTimeout> | null = null;
  const progressChanged = () => {
    if (disposables.isDisposed) return;
    const wait = PROGRESS_EMIT_MS - (performance.now() - lastEmit);
    if (wait <= 0) {
      lastEmit = performance.now();
      emitStatus();
      return;
    }
    emitTimer ??= setTimeout(() => {
      emitTimer = null;
      lastEmit = performance.now();
      if (!disposables.isDisposed) emitStatus();
    }, wait);
    emitTimer.unref?.();
  };
  const emitNow = () => {
    if (disposables.isDisposed) return;
    lastEmit = performance.now();
    emitStatus();
  };
  const endPhase = () => {
    tracker.end();
    readBacklog();
    emitNow();
  };
  const cancelPending = () => {
    if (emitTimer) clearTimeout(emitTimer);
  };
  return { status, readBacklog, emitStatus, progressChanged, emitNow, endPhase, cancelPending };
}

/** The lexical indexer's progress, told to the tracker and sent out as the status. */
function lexicalProgressOf(tracker: ProgressTracker, reporter: StatusReporter): IndexerProgress {
  return {
    begin(phase, total, folders) {
      tracker.begin(phase, total, folders);
      reporter.emitNow();
    },
    advance(root, done) {
      tracker.update(done);
      tracker.advanceFolder(root);
      reporter.progressChanged();
    },
    end: reporter.endPhase,
  };
}

/** The embedding stage after the lexical one: embed what is new, then match the vector index to the chunks. */
function createEmbedStage(deps: IndexQueueDeps, tracker: ProgressTracker, reporter: StatusReporter, shouldStop: () => boolean): (report: IndexReport) => Promise<IndexReport> {
  const { store, events, dataDir, dense } = deps;
  /** Begins an embedding phase with what the store says waits for it, per folder. */
  const beginEmbedPhase = (phase: 'passages' | 'sentences'): number => {
    const folders = [...reporter.readBacklog()].map(([root, b]) => [root, b[phase]] as const).filter(([, n]) => n > 0);
    const total = folders.reduce((n, [, k]) => n + k, 0);
    tracker.begin(phase, total, folders);
    reporter.emitNow();
    return total;
  };
  /** Per-folder counts of an embedding phase: exact for one folder, read again from the store every FOLDER_REFRESH_MS for several. */
  let foldersReadAt = 0;
  const updateFolders = (phase: 'passages' | 'sentences', done: number) => {
    const folders = tracker.folderTotals();
    if (folders.size === 1) {
      const [root, f] = [...folders][0]!;
      tracker.setFolder(root, Math.min(done, f.total));
    } else if (folders.size > 1 && performance.now() - foldersReadAt > FOLDER_REFRESH_MS) {
      foldersReadAt = performance.now();
      const now = reporter.readBacklog();
      for (const [root, f] of folders) tracker.setFolder(root, Math.max(0, f.total - (now.get(root)?.[phase] ?? 0)));
    }
  };
  const embedWith = async (semantic: SemanticIndex, report: IndexReport, onProgress: (done: number, total: number) => void): Promise<IndexReport> => {
    const stage = semantic.unit === 'sentence' ? 'sentences' : 'embed';
    const started = performance.now();
    try {
      const { embedded, failed } = await semantic.embedPending(
        ({ done, total }) => {
          const elapsed = (performance.now() - started) / 1000;
          const rate = elapsed > 0 ? done / elapsed : 0;
          events.emit('index/progress', { stage, files_done: done, files_total: total, rate_per_s: Math.round(rate * 10) / 10, eta_s: rate > 0 ? Math.round((total - done) / rate) : null });
          onProgress(done, total);
        },
        shouldStop,
      );
      await semantic.syncIndex();
      semantic.unavailable = null;
      return { ...report, embedded, embed_failed: failed, embed_pending: store.countPendingEmbeddings(semantic.modelId, semantic.unit) };
    } catch (error) {
      if (isSynapsisError(error) && error.code === 'E_SYN_INDEX_VERSION_MISMATCH') throw error;
      // A full disk or a locked store is not a model problem: the run fails and says so.
      const storeError = storeWriteError(dataDir, error);
      if (storeError) throw storeError;
      // The lexical index is complete; dense retrieval waits for a model that loads.
      semantic.unavailable = (error as Error).message;
      return { ...report, embed_pending: store.countPendingEmbeddings(semantic.modelId, semantic.unit) };
    }
  };
  const embedPhase = async (phase: 'passages' | 'sentences', indexes: readonly SemanticIndex[], add: (r: IndexReport) => void, report: IndexReport) => {
    beginEmbedPhase(phase);
    foldersReadAt = performance.now();
    let base = 0;
    try {
      for (const index of indexes) {
        let modelTotal = 0;
        add(
          await embedWith(index, report, (done, total) => {
            modelTotal = total;
            tracker.update(base + done);
            updateFolders(phase, base + done);
            reporter.progressChanged();
          }),
        );
        base += modelTotal;
      }
    } finally {
      reporter.endPhase();
    }
  };
  /** Splits the chunks not split yet into sentence spans, a page at a time (queries get in between). */
  const splitSentenceStage = async () => {
    const hashOf = (title: string | null, heading: string | null, text: string) => sha256(embeddingInput(title, heading, text));
    while (!shouldStop() && store.splitSentences(splitSentences, hashOf, 1000) > 0) await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return async (report) => {
    let out: IndexReport = { ...report, embedded: 0, embed_failed: 0, embed_pending: 0 };
    const add = (r: IndexReport) => {
      out = { ...out, embedded: out.embedded + r.embedded, embed_failed: out.embed_failed + r.embed_failed, embed_pending: out.embed_pending + r.embed_pending };
    };
    if (dense.length === 0) return report;
    // Every model's chunk vectors first (hybrid search works from then on), then the sentences.
    await embedPhase('passages', dense.map((d) => d.index), (r) => add(r), report);
    const withSentences = dense.filter((d) => d.index.sentences && !d.index.unavailable);
    if (withSentences.length > 0 && !shouldStop()) {
      beginEmbedPhase('sentences');
      await splitSentenceStage();
      // The report counts chunk inputs; sentence progress shows in health (models.embedders[].sentences).
      await embedPhase('sentences', withSentences.map((d) => d.index.sentences!), () => undefined, report);
    }
    return out;
  };
}

/** The chat model's pass over notes the rules have processed; restricted notes are never shown to it. */
function createLlmGraphStage(deps: IndexQueueDeps, state: QueueState, tracker: ProgressTracker, reporter: StatusReporter): (budgetMs: number) => Promise<LlmGraphReport> {
  const { store, config, events, chat } = deps;
  return async (budgetMs) => {
    if (!chat) throw createError('E_SYN_MODEL_UNAVAILABLE', 'Graph extraction with a model needs a chat model: add one with `synapsis models add <file.gguf> --role chat`.');
    const report = await runLlmGraphStage(
      {
        store,
        chat,
        visible: visibleTo({ allowSensitivity: [], sensitivityEnable: config.sensitivityEnable }),
        onProgress: (done, total, p) => {
          events.emit('index/progress', { stage: 'graph', files_done: done, files_total: total, path: p, rate_per_s: 0, eta_s: null });
          if (tracker.phase !== 'graph') tracker.begin('graph', total);
          tracker.update(done, total);
          reporter.progressChanged();
        },
      },
      { budgetMs, shouldStop: () => state.stopping },
    ).finally(() => {
      if (tracker.phase === 'graph') reporter.endPhase();
    });
    state.generation++;
    return report;
  };
}

/**
 * One indexing run at a time: each waits for the one before, then embeds what it added, runs the
 * chat model's graph pass when it is on, and ends by writing the manifest of the resulting state.
 */
function createRunner(
  deps: IndexQueueDeps,
  state: QueueState,
  tracker: ProgressTracker,
  reporter: StatusReporter,
  embedStage: (report: IndexReport) => Promise<IndexReport>,
  llmGraphStage: (budgetMs: number) => Promise<LlmGraphReport>,
): (run: () => Promise<IndexReport>) => Promise<IndexReport> {
  const { store, config, events, dataDir, chat, disposables } = deps;
  return (run) => {
    state.queued++;
    const next = state.queue.then(async () => {
      state.generation++;
      state.queued--;
      state.running++;
      reporter.emitStatus();
      // The run reads most of the store; through the memory map every page would stay resident (Store.setMemoryMapped).
      store.setMemoryMapped(false);
      store.setBulkWrites(true);
      try {
        const report = await embedStage(await run());
        if (config.graphLlm && chat) await llmGraphStage(config.graphLlmBudgetMs);
        writeManifest(dataDir, deps.manifest(), config.keepIndexVersions);
        recordRoots(dataDir, store.listRoots());
        deps.onIndexed();
        events.emit('syn.index.completed', report);
        return report;
      } catch (error) {
        if (isSynapsisError(error) && error.code === 'E_SYN_STORE_FAILED') throw error;
        const storeError = storeWriteError(dataDir, error);
        if (storeError) throw storeError;
        if (isSynapsisError(error)) throw error;
        throw createError('E_SYN_INDEX_FAILED', `Indexing failed: ${(error as Error).message}`, undefined, error);
      } finally {
        if (!disposables.isDisposed) {
          store.setMemoryMapped(true);
          store.setBulkWrites(false);
        }
        state.running--;
        // A phase a failed run left open is over; what waits is read again.
        if (tracker.phase) tracker.end();
        reporter.readBacklog();
        if (!disposables.isDisposed) reporter.emitStatus();
      }
    });
    state.queue = next.catch(() => undefined).finally(() => void state.generation++);
    return next;
  };
}

/** The jobs a watcher's change makes: files that exist and the folder's filters allow are indexed, the others' documents removed. */
export function jobsOfChange(store: Store, root: Root, change: RootChange, skipDirs: readonly string[]): { path: string; kind: 'upsert' | 'delete' }[] {
  const allowed = createPathFilter(root.path, { include: root.include, exclude: root.exclude, skipDirs: [...skipDirs] });
  const known = store.documentsOfRoot(root.id);
  const jobs = new Map<string, 'upsert' | 'delete'>();
  for (const p of change.paths) {
    if (fs.existsSync(path.join(root.path, p)) && allowed(p)) jobs.set(p, 'upsert');
    else if (known.has(p)) jobs.set(p, 'delete');
  }
  for (const dir of change.removedDirs) for (const p of known.keys()) if (p.startsWith(`${dir}/`)) jobs.set(p, 'delete');
  return [...jobs].map(([p, kind]) => ({ path: p, kind }));
}

export function createIndexQueue(deps: IndexQueueDeps): IndexQueue {
  const { store, config, events, dataDir, disposables } = deps;
  const state: QueueState = { stopping: false, paused: false, running: 0, queued: 0, watching: null, queue: Promise.resolve(), generation: 0, backlog: null };
  const tracker = new ProgressTracker();
  const reporter = createStatusReporter(deps, state, tracker);
  const { status, emitStatus } = reporter;
  /** Embedding yields to queued lexical work, as it does to a pause. */
  const embeddingShouldStop = () => state.stopping || state.paused || state.queued > 0;
  const indexerDeps = { store, config, events, paramsHash: deps.paramsHash, shouldStop: () => state.stopping || state.paused, progress: lexicalProgressOf(tracker, reporter), skipDirs: [dataDir] };
  const llmGraphStage = createLlmGraphStage(deps, state, tracker, reporter);
  const exclusive = createRunner(deps, state, tracker, reporter, createEmbedStage(deps, tracker, reporter, embeddingShouldStop), llmGraphStage);

  const applyChange = (change: RootChange): Promise<IndexReport> | undefined => {
    // A change that raced the folder's removal: nothing of that folder is indexed any more.
    const root = store.rootByPath(change.root.path);
    if (!root) return undefined;
    const jobs = jobsOfChange(store, root, change, [dataDir]);
    return exclusive(() => indexPaths(indexerDeps, root, jobs));
  };

  const watchRootsNow = async (options: WatchOptions): Promise<RootWatcher> => {
    const rootWatcher = watchRoots(store.listRoots(), {
      ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}),
      followExternalSymlinks: config.followExternalSymlinks,
      skipDirs: [dataDir],
      onChange: async (change) => void (await applyChange(change)),
      onError: options.onError ?? ((error) => console.error('[synapsis] watch:', error)),
    });
    await rootWatcher.ready;
    disposables.add(rootWatcher);
    return rootWatcher;
  };

  const indexQueue: IndexQueue = {
    get generation() {
      return state.generation;
    },
    invalidate() {
      state.generation++;
      state.backlog = null;
    },
    status,
    get watching() {
      return state.watching !== null;
    },
    indexRoots: (roots) => exclusive(() => indexRoots(indexerDeps, roots)),
    async extractGraph(budgetMs = config.graphLlmBudgetMs) {
      if (!Number.isInteger(budgetMs) || budgetMs < 1) throw createError('E_SYN_BAD_REQUEST', `budget_ms must be a positive integer (got ${budgetMs})`);
      let result: LlmGraphReport | undefined;
      const next = state.queue.then(async () => {
        result = await llmGraphStage(budgetMs);
      });
      state.queue = next.catch(() => undefined);
      await next;
      return result!;
    },
    async watch(options = {}) {
      const roots = store.listRoots();
      if (roots.length === 0) throw createError('E_SYN_BAD_REQUEST', 'Nothing to watch: add a folder first (synapsis index <folder>)');
      if (state.watching) await state.watching.handle.dispose();
      const watching: NonNullable<QueueState['watching']> = {
        roots: await watchRootsNow(options),
        options,
        handle: {
          dispose: async () => {
            if (state.watching === watching) state.watching = null;
            await watching.roots.dispose();
            if (!disposables.isDisposed) emitStatus();
          },
        },
      };
      state.watching = watching;
      emitStatus();
      // Catch up with whatever changed while nobody was watching, and finish interrupted jobs.
      await indexQueue.indexRoots(roots);
      return watching.handle;
    },
    async unwatch() {
      await state.watching?.handle.dispose();
    },
    async rewatch() {
      state.backlog = null;
      if (!state.watching) return;
      const { roots, options } = state.watching;
      await roots.setRoots(store.listRoots()).catch((error) => (options.onError ?? ((e: unknown) => console.error('[synapsis] watch:', e)))(error));
    },
    pause() {
      state.paused = true;
      // The rate after a resume is measured again, not carried over the pause.
      tracker.restartRate();
      emitStatus();
      return status();
    },
    resume() {
      if (!state.paused) return status();
      state.paused = false;
      const roots = store.listRoots();
      // A full scan (a stat per unchanged file) finds what changed while paused; queued jobs come first.
      // Queued before the status goes out, so every status from here on says a run is on its way.
      if (roots.length > 0) void indexQueue.indexRoots(roots).catch((error) => console.error('[synapsis] resume:', error));
      emitStatus();
      return status();
    },
    async stop() {
      state.stopping = true;
      reporter.cancelPending();
      await state.queue;
    },
  };
  return indexQueue;
}
