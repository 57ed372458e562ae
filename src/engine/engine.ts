import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type AnswerEnvelope,
  type EventMap,
  type EventName,
  type HealthReport,
  type IndexReport,
  type IndexStatus,
  type SystemInfo,
  type Method,
  type RequestOf,
  type ResponseOf,
  type RetrievalResult,
  type RetrieveContext,
  type SourceLines,
  type DocumentEntry,
  type GraphNeighbors,
  type GraphOverview,
  type GraphPath,
  type GraphView,
  type Root,
  RetrieveContextSchema,
  MAX_QUERY_CHARS,
  QUESTION_TOO_LONG,
} from '../shared/contract.ts';
import { createError, isSynapsisError } from '../shared/errors.ts';
import { parseRequest } from '../shared/validate.ts';
import { chunkingParams, loadConfig, type Config, type ConfigInput } from './config.ts';
import { EventBus, type Listener } from './events.ts';
import { sha256, stableStringify } from './hash.ts';
import { indexPaths, indexRoots, paramsHashOf } from './ingest/indexer.ts';
import { createPathFilter } from './ingest/walk.ts';
import { watchRoots, type RootChange, type RootWatcher } from './ingest/watcher.ts';
import { buildManifest, checkManifest, readManifest, writeManifest, type IndexManifest } from './manifest.ts';
import { DisposableStore, type Disposable } from './lifecycle.ts';
import { defaultDataDir } from './paths.ts';
import { ANALYZER_VERSION, analyzeForIndex } from './search/analyzer.ts';
import { hiddenDocumentPaths, noteDenied, termStats } from './search/lexical.ts';
import { runPipeline } from './hybrid.ts';
import { listDocuments, pathsInSeveralRoots, readSource, rootedLocator, visibleTo } from './retrieve/source.ts';
import { loadKnowledgeGraph, type KnowledgeGraph } from './graph/links.ts';
import { neighbors, overview, shortestPath, subgraph } from './graph/query.ts';
import { runLlmGraphStage, type LlmGraphReport } from './graph/llm-stage.ts';
import { LlamaReranker, type Reranker } from './llm/reranker.ts';
import { ChatJudgeReranker } from './llm/chat-judge.ts';
import { LlamaChatModel, type ChatModel } from './llm/chat.ts';
import { answerQuestion, type AnswerOptions } from './answer/answer.ts';
import { DEFAULT_SYSTEM_PROMPT } from './answer/prompt.ts';
import { metricsFromTraces } from './answer/metrics.ts';
import { embeddingInput } from './llm/embedding-input.ts';
import { splitSentences } from './ingest/sentences.ts';
import { ModelRegistry, type ModelInfo, type ModelRole } from './llm/registry.ts';
import { resolveEmbedModels, resolveModel, type ResolvedModel } from './llm/resolve.ts';
import { loadProfile, type RetrievalProfile } from './retrieve/profile.ts';
import { languageCovered } from './lang/detect.ts';
import { LexicalThread } from './search/lexical-thread.ts';
import { gatherLists, type DenseSource, type GatheredLists, type PipelineDeps, type PipelineRequest } from './hybrid.ts';
import { Embedder, LlamaRuntime, type EmbedderLike } from './llm/runtime.ts';
import { SemanticIndex } from './semantic.ts';
import { lockDataDir } from './store/data-dir-lock.ts';
import { storeNeedsWriterError, storeWriteError } from './store/database.ts';
import { makeReader } from './reader.ts';
import { Store, type TraceRow } from './store/store.ts';
import { assertStoreNotLost, checkStoreIntegrity, integrityLine, recordRoots, storeDamage, storeDamagedError, type IntegrityReport } from './store/integrity.ts';

export interface EngineOptions {
  /** One data dir per workspace; default: SYNAPSIS_DATA_DIR or the OS app-data folder. */
  dataDir?: string;
  /** Where imported GGUF models live; default: <dataDir>/models. */
  modelsDir?: string;
  config?: Partial<ConfigInput>;
  env?: NodeJS.ProcessEnv;
  /** A scorer to rerank with instead of a GGUF rerank model (any cross-encoder with this shape). */
  reranker?: Reranker;
  /** A chat model to answer with instead of a GGUF chat model (any model with this shape). */
  chat?: ChatModel;
  /** An embedder to use instead of a GGUF embedding model (any with this shape; benchmarks use a synthetic one). */
  embedder?: EmbedderLike;
  /**
   * Open the data dir as a reader beside its writer (search, ask, source, MCP; see reader.ts): no
   * data-dir lock, no schema or index-file writes, writer methods refused (E_SYN_BAD_REQUEST,
   * details.read_only), and each request sees what the writer committed. A data dir without a
   * store is E_SYN_NOT_FOUND naming the command that creates it.
   */
  readOnly?: boolean;
}

/** What a transport adds to a request: cancellation, and the answer's tokens as they are written. */
export interface CallContext {
  signal?: AbortSignal;
  onToken?: AnswerOptions['onToken'];
}

export interface WatchOptions {
  debounceMs?: number;
  onError?: (error: unknown) => void;
}

/** The Synapse API of DESIGN.md §4 (index, retrieve, health) plus root management and typed events. */
export interface Engine extends Disposable {
  readonly dataDir: string;
  readonly modelsDir: string;
  readonly config: Config;
  readonly indexVersion: string;
  /** Opened as a reader (EngineOptions.readOnly). */
  readonly readOnly: boolean;
  index(sources?: string[]): Promise<IndexReport>;
  retrieve(query: string, context?: RetrieveContext, k?: number): Promise<RetrievalResult>;
  /**
   * The lists a query's retrieval fuses, unfused (library API: `synapsis tune` fits profiles on
   * them), and the pipeline's request and dependencies to fuse them with.
   */
  retrievalLists(query: string, context?: RetrieveContext, k?: number, profile?: RetrievalProfile): Promise<{ lists: GatheredLists; fusion: 'rrf' | 'weighted'; rrfK?: number }>;
  /** The retrieval profile in use. */
  readonly profile: RetrievalProfile;
  /**
   * A cited answer: retrieval, synthesis with the chat model (extractive without one), citation
   * mapping, critic, one revision or an abstention. Tokens stream to `onToken` and as answer/token
   * events; `signal` cancels.
   */
  answer(query: string, options?: AnswerOptions): Promise<AnswerEnvelope>;
  /**
   * The exact lines behind a locator (`notes/a.md#L3-L9`) from an indexed document: the file's own
   * lines, or the indexed text when it changed since or is a PDF/DOCX/HTML. Restricted documents
   * need their sensitivity in `allow_sensitivity`.
   */
  source(locator: string, options?: { allow_sensitivity?: string[]; max_lines?: number }): SourceLines;
  /** The neighbourhood of a note, person, project or #tag in the link graph (wikilinks, links, tags, front matter). */
  graphNeighbors(entity: string, hops?: number, options?: { allow_sensitivity?: string[] }): GraphNeighbors;
  /** The shortest chain of links between two entities, each hop with its evidence. */
  graphPath(from: string, to: string, options?: { allow_sensitivity?: string[] }): GraphPath;
  /** The chat model reads notes not yet read and adds what it finds to the graph, for at most `budget_ms`. */
  extractGraphWithModel(options?: { budget_ms?: number }): Promise<LlmGraphReport>;
  /** Rows of the stored graph (entities, relations, mentions). */
  graphStats(): { entities: number; relations: number; mentions: number };
  /** Central entities and communities of the whole graph. */
  graphOverview(options?: { limit?: number; allow_sensitivity?: string[] }): GraphOverview;
  /** The subgraph around an entity or a result set (note paths), with the evidence of every edge. */
  graphSubgraph(request: { entity?: string; paths?: string[]; hops?: number; max_nodes?: number; allow_sensitivity?: string[] }): GraphView & { missing: string[] };
  /** Indexed documents this caller may see (restricted ones only with their sensitivity allowed). */
  documents(options?: { allow_sensitivity?: string[] }): DocumentEntry[];
  /** Answer traces, newest first. */
  traces(limit?: number, options?: { allow_sensitivity?: string[] }): TraceRow[];
  /** Counters and latency histograms of answers in Prometheus text format. */
  metrics(): string;
  health(): Promise<HealthReport>;
  addRoot(rootPath: string, options?: { include?: string[]; exclude?: string[] }): Root;
  removeRoot(rootPath: string): { removed: boolean; documents_removed: number };
  listRoots(): Root[];
  /** GGUF models imported into the models dir (synapsis models add). */
  listModels(): ModelInfo[];
  addModel(file: string, options?: { role?: ModelRole; languages?: string[] }): Promise<ModelInfo>;
  removeModel(ref: string): ModelInfo | null;
  /** The manifest of the current index version, as written after the last indexing run. */
  manifest(): IndexManifest | null;
  /**
   * Watches every root and keeps the index current (debounced, awaitWriteFinish). Pending jobs of an
   * interrupted run are finished first. Dispose the returned handle to stop watching.
   */
  watch(options?: WatchOptions): Promise<Disposable>;
  /** Stops the current indexing run between files (the queue keeps the rest); watcher changes wait until resume. */
  pause(): IndexStatus;
  /** Continues what a pause held back: the queued files and every change made meanwhile. */
  resume(): Promise<IndexStatus>;
  indexStatus(): IndexStatus;
  /** The machine as the models see it: GPU backend or CPU and why, threads, memory. Loads the runtime. */
  systemInfo(): Promise<SystemInfo>;
  /** The transport entry point: validates a request against the contract and dispatches it. */
  call<M extends Method>(method: M, request: RequestOf<M>, context?: CallContext): Promise<ResponseOf<M>>;
  on<E extends EventName>(event: E, listener: Listener<E>): Disposable;
  dispose(): Promise<void>;
}

/** The composition root: builds the store, config and event bus, and disposes them together. */
export function createEngine(options: EngineOptions = {}): Engine {
  const env = options.env ?? process.env;
  const config = loadConfig(options.config, env);
  const dataDir = path.resolve(options.dataDir ?? (env.SYNAPSIS_DATA_DIR || config.indexPath || defaultDataDir(env)));
  const modelsDir = path.resolve(options.modelsDir ?? path.join(dataDir, 'models'));
  const disposables = new DisposableStore();
  const events = disposables.add(new EventBus());
  // Another writer on this data dir is refused before the store is touched; released last on dispose.
  // A reader takes no lock: it reads beside the writer (reader.ts).
  const readOnly = options.readOnly === true;
  if (!readOnly) disposables.add(lockDataDir(dataDir));
  const params = chunkingParams(config);
  const paramsHash = paramsHashOf(params);
  const registry = new ModelRegistry(modelsDir);
  let opened: ReturnType<typeof openStore>;
  try {
    opened = openStore();
  } catch (error) {
    // Nothing of a half-built engine stays open: the lock and the store are released.
    void disposables.dispose().catch(() => undefined);
    throw storeDamage(dataDir, error) ?? error;
  }
  function openStore() {
    // A store that vanished while its index files stayed is named as lost, not started afresh.
    assertStoreNotLost(dataDir);
    const store = disposables.add(new Store(dataDir, { reader: readOnly }));
    // The lexical index is derived data: refill it from stored chunks when the analyzer changed.
    if (store.getSetting<string>('lexical_analyzer') !== ANALYZER_VERSION) {
      if (readOnly) throw storeNeedsWriterError(dataDir, 'its lexical index was built by another version of the analyzer');
      store.rebuildLexicalIndex(analyzeForIndex);
      store.setSetting('lexical_analyzer', ANALYZER_VERSION);
    }
    if (store.getSetting<boolean>('embed_hash_filled') !== true) {
      if (readOnly) throw storeNeedsWriterError(dataDir, 'its chunks have no embedding hashes yet');
      store.backfillEmbedHashes((title, heading, text) => sha256(embeddingInput(title, heading, text)));
      store.setSetting('embed_hash_filled', true);
    }
    // A model that is configured but missing is an error at start (the user named it); none at all is a degraded mode.
    const embedModels: ResolvedModel[] = options.embedder
      ? [{ id: options.embedder.modelId, name: options.embedder.modelId, path: '', languages: ['*'] }]
      : resolveEmbedModels(config.embedModels, config.embedModel, registry, store);
    const rerankModel: ResolvedModel | null = resolveModel(config.rerankModel, 'rerank', registry, store);
    const chatModel: ResolvedModel | null = resolveModel(config.chatModel, 'chat', registry, store);
    const profile = loadProfile(config.profile, dataDir);
    return { store, embedModels, rerankModel, chatModel, profile };
  }
  const { store, embedModels, rerankModel, chatModel, profile } = opened;
  /** The primary embedding model (health, manifest); the others join it per query language. */
  const embedModel: ResolvedModel | null = embedModels[0] ?? null;
  const runtime = new LlamaRuntime({ gpu: config.gpu === 'auto' ? 'auto' : false, ...(config.llmThreads ? { threads: config.llmThreads } : {}) });
  const embedModelId = embedModels.length > 0 ? embedModels.map((m) => m.id).join('+') : 'none';
  // The analyzer is part of the version (it changes what the lexical index holds), not of chunk hashes.
  const indexVersion = sha256(stableStringify({ embed_model_id: embedModelId, chunking_params: params, analyzer: ANALYZER_VERSION })).slice(0, 16);
  // One vector index per embedding model; the primary's under index/<version>/, the others' in models/<id>/ beside it.
  // Named by file (all-MiniLM-L6-v2.Q8_0), the same whether a path or the registry names the model: profiles weight models by it.
  // With sentence vectors on, each model's sentence index lives in sentences/ inside its folder.
  const dense: DenseSource[] = embedModels.map((m, i) => {
    const embedder = (i === 0 ? options.embedder : undefined) ?? new Embedder(runtime, { modelPath: m.path, modelId: m.id, modelName: m.name, idleMs: config.modelIdleMs });
    const indexDir = i === 0 ? path.join(dataDir, 'index', indexVersion) : path.join(dataDir, 'index', indexVersion, 'models', m.id);
    const sentences = config.sentenceVectors
      ? new SemanticIndex({ store, embedder, indexDir: path.join(indexDir, 'sentences'), backend: config.vectorBackend, unit: 'sentence', readOnly })
      : null;
    return {
      name: m.path ? path.basename(m.path, '.gguf') : m.name,
      languages: m.languages ?? ['*'],
      index: new SemanticIndex({ store, embedder, indexDir, backend: config.vectorBackend, sentences, readOnly }),
    };
  });
  const semantic = dense[0]?.index ?? null;
  const engineStartedAt = new Date().toISOString();
  // Started on the first hybrid query of a large vault; closed with the engine.
  const lexicalThread = config.lexicalThread && dense.length > 0 ? new LexicalThread(store.file) : null;
  if (lexicalThread) disposables.add({ dispose: () => lexicalThread.dispose() });
  /**
   * A manifest that cannot be trusted is set aside and written again from the store, the source of
   * truth, whose last committed state is the last good index (each batch is one transaction). The
   * vector index beside it checks itself when loaded and is rebuilt from stored embeddings if torn.
   * With jobs still queued (an interrupted run) the next run writes it instead.
   */
  let manifestRecovery: string | null = null;
  const storedManifest = () => {
    const inputs = store.manifestInputs();
    return buildManifest({ indexVersion, embedModelId, chunkingParams: params, chunkHashes: inputs.chunkHashes, documents: inputs.documents });
  };
  {
    const checked = checkManifest(dataDir, indexVersion);
    if (checked.status === 'corrupt' && readOnly) {
      manifestRecovery = `index manifest is corrupt (${checked.reason}): the next indexing run (synapsis index) rewrites it from the store`;
    } else if (checked.status === 'corrupt') {
      try {
        fs.renameSync(checked.file, `${checked.file}.corrupt`);
        if (store.countPendingJobs() === 0) writeManifest(dataDir, storedManifest(), config.keepIndexVersions);
        manifestRecovery = `index manifest was corrupt (${checked.reason}): set aside as manifest.json.corrupt and rebuilt from the store`;
      } catch (error) {
        manifestRecovery = `index manifest is corrupt (${checked.reason}) and could not be replaced: ${(error as Error).message}`;
      }
    }
  }
  const chat: ChatModel | null = options.chat ?? (chatModel ? new LlamaChatModel(runtime, chatModel.path, chatModel.name, { contextSize: config.contextTokens + config.synthTokens + 512, idleMs: config.modelIdleMs }) : null);
  // A cross-encoder when there is one; else, when asked (rerankWithChat), the chat model as a pointwise judge: a generation per passage.
  const reranker: Reranker | null = options.reranker ?? (rerankModel ? new LlamaReranker(runtime, rerankModel.path, rerankModel.name) : chat && config.rerankWithChat ? new ChatJudgeReranker(chat) : null);
  disposables.add({ dispose: async () => {
    await chat?.unload();
    await reranker?.unload();
    for (const d of dense) await d.index.dispose();
    await runtime.dispose();
  } });
  let stopping = false;
  /** Paused by the user: runs stop between files and watcher changes wait in the queue until resume. */
  let paused = false;
  let running = 0;
  /** The roots being watched: one chokidar watcher over the current roots, swapped when the roots change. */
  let watching: { roots: RootWatcher; options: WatchOptions; handle: Disposable } | null = null;
  const indexStatus = (): IndexStatus => ({ running: running > 0, paused, watching: watching !== null, pending_jobs: store.countPendingJobs() });
  const emitStatus = () => events.emit('index/status', indexStatus());
  /** The embedding stage after the lexical one: embed what is new, then match the vector index to the chunks. */
  const embedStage = async (report: IndexReport): Promise<IndexReport> => {
    let out: IndexReport = { ...report, embedded: 0, embed_failed: 0, embed_pending: 0 };
    const add = (r: IndexReport) => {
      out = { ...out, embedded: out.embedded + r.embedded, embed_failed: out.embed_failed + r.embed_failed, embed_pending: out.embed_pending + r.embed_pending };
    };
    // Every model's chunk vectors first (hybrid search works from then on), then the sentences.
    for (const d of dense) add(await embedWith(d.index, report));
    const withSentences = dense.filter((d) => d.index.sentences && !d.index.unavailable);
    if (withSentences.length > 0) {
      await splitSentenceStage();
      // The report counts chunk inputs; sentence progress shows in health (models.embedders[].sentences).
      for (const d of withSentences) await embedWith(d.index.sentences!, report);
    }
    return dense.length > 0 ? out : report;
  };
  /** Splits the chunks not split yet into sentence spans, a page at a time (queries get in between). */
  const splitSentenceStage = async () => {
    const hashOf = (title: string | null, heading: string | null, text: string) => sha256(embeddingInput(title, heading, text));
    while (!(stopping || paused) && store.splitSentences(splitSentences, hashOf, 1000) > 0) await new Promise<void>((resolve) => setImmediate(resolve));
  };
  const embedWith = async (semantic: SemanticIndex, report: IndexReport): Promise<IndexReport> => {
    const stage = semantic.unit === 'sentence' ? 'sentences' : 'embed';
    const started = performance.now();
    try {
      const { embedded, failed } = await semantic.embedPending(
        ({ done, total }) => {
          const elapsed = (performance.now() - started) / 1000;
          const rate = elapsed > 0 ? done / elapsed : 0;
          events.emit('index/progress', { stage, files_done: done, files_total: total, rate_per_s: Math.round(rate * 10) / 10, eta_s: rate > 0 ? Math.round((total - done) / rate) : null });
        },
        () => stopping || paused,
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
  const indexerDeps = { store, config, events, paramsHash, shouldStop: () => stopping || paused };
  /** The chat model's pass over notes the rules have processed; restricted notes are never shown to it. */
  const llmGraphStage = async (budgetMs: number): Promise<LlmGraphReport> => {
    if (!chat) throw createError('E_SYN_MODEL_UNAVAILABLE', 'Graph extraction with a model needs a chat model: add one with `synapsis models add <file.gguf> --role chat`.');
    const report = await runLlmGraphStage(
      {
        store,
        chat,
        visible: visibleTo({ allowSensitivity: [], sensitivityEnable: config.sensitivityEnable }),
        onProgress: (done, total, p) => events.emit('index/progress', { stage: 'graph', files_done: done, files_total: total, path: p, rate_per_s: 0, eta_s: null }),
      },
      { budgetMs, shouldStop: () => stopping },
    );
    indexGeneration++;
    return report;
  };
  // One indexing run at a time; each run ends by writing the manifest of the resulting state.
  let queue: Promise<unknown> = Promise.resolve();
  /** Bumped whenever indexed documents may change (derived caches such as the link graph compare it). */
  let indexGeneration = 0;
  const exclusive = (run: () => Promise<IndexReport>): Promise<IndexReport> => {
    const next = queue.then(async () => {
      indexGeneration++;
      running++;
      emitStatus();
      try {
        const report = await embedStage(await run());
        if (config.graphLlm && chat) await llmGraphStage(config.graphLlmBudgetMs);
        writeManifest(dataDir, storedManifest(), config.keepIndexVersions);
        recordRoots(dataDir, store.listRoots());
        manifestRecovery = null;
        events.emit('syn.index.completed', report);
        return report;
      } catch (error) {
        if (isSynapsisError(error) && error.code === 'E_SYN_STORE_FAILED') throw error;
        const storeError = storeWriteError(dataDir, error);
        if (storeError) throw storeError;
        if (isSynapsisError(error)) throw error;
        throw createError('E_SYN_INDEX_FAILED', `Indexing failed: ${(error as Error).message}`, undefined, error);
      } finally {
        running--;
        if (!disposables.isDisposed) emitStatus();
      }
    });
    queue = next.catch(() => undefined).finally(() => void indexGeneration++);
    return next;
  };

  const applyChange = (change: RootChange): Promise<IndexReport> | undefined => {
    // A change that raced the folder's removal: nothing of that folder is indexed any more.
    const root = store.rootByPath(change.root.path);
    if (!root) return undefined;
    const allowed = createPathFilter(root.path, { include: root.include, exclude: root.exclude });
    const known = store.documentsOfRoot(root.id);
    const jobs = new Map<string, 'upsert' | 'delete'>();
    for (const p of change.paths) {
      if (fs.existsSync(path.join(root.path, p)) && allowed(p)) jobs.set(p, 'upsert');
      else if (known.has(p)) jobs.set(p, 'delete');
    }
    for (const dir of change.removedDirs) for (const p of known.keys()) if (p.startsWith(`${dir}/`)) jobs.set(p, 'delete');
    return exclusive(() => indexPaths(indexerDeps, root, [...jobs].map(([p, kind]) => ({ path: p, kind }))));
  };

  const addRootOrFail = (folder: string, include: string[], exclude: string[]): Root => {
    try {
      return store.addRoot(folder, include, exclude);
    } catch (error) {
      throw storeWriteError(dataDir, error, `the folder ${folder} was not added`, 'add it again') ?? error;
    }
  };

  const watchRootsNow = async (options: WatchOptions): Promise<RootWatcher> => {
    const rootWatcher = watchRoots(store.listRoots(), {
      ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}),
      onChange: async (change) => void (await applyChange(change)),
      onError: options.onError ?? ((error) => console.error('[synapsis] watch:', error)),
    });
    await rootWatcher.ready;
    disposables.add(rootWatcher);
    return rootWatcher;
  };
  /**
   * The roots changed while watching: the watcher follows (a folder added gets watched, and the run
   * that adds it indexes it; a folder removed stops being watched; the others keep their watchers, so
   * none of their changes is lost). addRoot and removeRoot let it finish in the background; index()
   * waits for it, so a file created after index() returns is seen.
   */
  const rewatch = async (): Promise<void> => {
    if (!watching) return;
    const { roots, options } = watching;
    await roots.setRoots(store.listRoots()).catch((error) => (options.onError ?? ((e: unknown) => console.error('[synapsis] watch:', e)))(error));
  };

  const assertLive = () => {
    if (disposables.isDisposed) throw createError('E_SYN_BAD_REQUEST', 'The engine has been disposed');
  };
  /** The store's quick integrity check, run once per engine (health, the first index run). */
  let integrity: IntegrityReport | null = null;
  const storeIntegrity = () => (integrity ??= checkStoreIntegrity(store.db));

  const resolveFolder = (p: string): string => {
    const abs = path.resolve(p);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      throw createError('E_SYN_BAD_REQUEST', `No such folder: ${abs}`, { path: abs });
    }
    if (!st.isDirectory()) throw createError('E_SYN_BAD_REQUEST', `Not a folder: ${abs} (pass the folder that holds it)`, { path: abs });
    return fs.realpathSync(abs);
  };

  let graphCache: { generation: number; audience: string; graph: KnowledgeGraph } | null = null;
  let graphReload: NodeJS.Immediate | null = null;
  const loadGraph = (allowSensitivity: readonly string[], audience: string) => {
    graphCache = { generation: indexGeneration, audience, graph: loadKnowledgeGraph(store.db, visibleTo({ allowSensitivity, sensitivityEnable: config.sensitivityEnable })) };
    return graphCache.graph;
  };
  /**
   * The knowledge graph of what this caller may see, reloaded from the stored facts when indexing ran
   * since the last load. Retrieval (`stale`) may use the graph of the previous index state while the
   * new one loads right after the query: loading reads every relation (about 0.7 s for 5,000 notes),
   * and an edit should be searchable at once. That is safe: the graph only proposes notes, whose
   * chunks are then read under the current sensitivity and filters; a deleted note yields none.
   * Graph queries (neighbours, paths, the UI) always see the current state.
   */
  const linkGraph = (allowSensitivity: readonly string[], stale = false): KnowledgeGraph => {
    const audience = JSON.stringify(allowSensitivity.map((s) => s.toLowerCase()).sort());
    if (graphCache?.audience === audience) {
      if (graphCache.generation === indexGeneration) return graphCache.graph;
      if (stale) {
        graphReload ??= setImmediate(() => {
          graphReload = null;
          if (!disposables.isDisposed && graphCache?.audience === audience && graphCache.generation !== indexGeneration) loadGraph(allowSensitivity, audience);
        });
        return graphCache.graph;
      }
    }
    return loadGraph(allowSensitivity, audience);
  };

  /** The pipeline's dependencies and request for a query (retrieve and retrievalLists share it). */
  const pipelineArgs = (query: string, context: RetrieveContext, k: number | undefined, useProfile: RetrievalProfile = profile) => {
    const ctx = RetrieveContextSchema.parse(context);
    const topK = k ?? config.topK;
    const filters = {
      allowSensitivity: ctx.allow_sensitivity,
      sensitivityEnable: config.sensitivityEnable,
      includeGlobs: ctx.include_globs,
      excludeGlobs: ctx.exclude_globs,
      types: ctx.types,
      languages: ctx.languages,
      tags: ctx.tags,
      roots: ctx.roots.map((r) => path.resolve(r)),
    };
    noteDenied(store.db, filters, (reason) => events.emit('syn.retrieve.denied', { query, reason }));
    const denseReady = dense.some((d) => d.index.unavailable === null);
    if (ctx.mode === 'dense' && !semantic) {
      throw createError('E_SYN_MODEL_UNAVAILABLE', 'Dense retrieval needs an embedding model: synapsis models add <file.gguf> --role embed');
    }
    const mode = ctx.mode ?? (denseReady ? 'hybrid' : 'bm25');
    const deps: PipelineDeps = { db: store.db, config, dense, profile: useProfile, reranker, graph: () => linkGraph(ctx.allow_sensitivity, true), lexicalThread };
    const req: PipelineRequest = {
      query,
      k: topK,
      filters,
      mode: mode === 'hybrid' && !semantic ? 'bm25' : mode,
      retrievalMode: ctx.retrieval_mode,
      ...(ctx.max_docs !== undefined ? { maxDocs: ctx.max_docs } : {}),
      ...(ctx.max_sections !== undefined ? { maxSections: ctx.max_sections } : {}),
      ...(ctx.max_chunks !== undefined ? { maxChunks: ctx.max_chunks } : {}),
      ...(ctx.min_score !== undefined ? { minScore: ctx.min_score } : {}),
      explain: ctx.explain,
      enableRerank: ctx.enable_rerank,
      useGraph: ctx.use_graph,
      ...(ctx.rerank_top_n !== undefined ? { rerankTopN: ctx.rerank_top_n } : {}),
      fusion: ctx.fusion ?? config.fusion ?? useProfile.fusion,
    };
    return { deps, req, ctx, mode };
  };

  const engine: Engine = {
    dataDir,
    modelsDir,
    config,
    indexVersion,
    readOnly,
    profile,

    addRoot(rootPath, opts = {}) {
      assertLive();
      const root = addRootOrFail(resolveFolder(rootPath), opts.include ?? [], opts.exclude ?? []);
      void rewatch();
      return root;
    },

    removeRoot(rootPath) {
      assertLive();
      const abs = path.resolve(rootPath);
      const root = store.rootByPath(abs) ?? (fs.existsSync(abs) ? store.rootByPath(fs.realpathSync(abs)) : null);
      if (!root) return { removed: false, documents_removed: 0 };
      indexGeneration++;
      const documents_removed = store.removeRoot(root.id);
      void rewatch();
      return { removed: true, documents_removed };
    },

    listRoots() {
      assertLive();
      return store.listRoots();
    },

    manifest() {
      return readManifest(dataDir, indexVersion);
    },

    listModels() {
      return registry.list();
    },

    addModel(file, opts = {}) {
      assertLive();
      return registry.add(file, opts);
    },

    removeModel(ref) {
      assertLive();
      return registry.remove(ref);
    },

    async watch(options = {}) {
      assertLive();
      const roots = store.listRoots();
      if (roots.length === 0) throw createError('E_SYN_BAD_REQUEST', 'Nothing to watch: add a folder first (synapsis index <folder>)');
      if (watching) await watching.handle.dispose();
      const state: NonNullable<typeof watching> = {
        roots: await watchRootsNow(options),
        options,
        handle: {
          dispose: async () => {
            if (watching === state) watching = null;
            await state.roots.dispose();
            if (!disposables.isDisposed) emitStatus();
          },
        },
      };
      watching = state;
      emitStatus();
      // Catch up with whatever changed while nobody was watching, and finish interrupted jobs.
      await exclusive(() => indexRoots(indexerDeps, roots));
      return state.handle;
    },

    pause() {
      assertLive();
      paused = true;
      emitStatus();
      return indexStatus();
    },

    async resume() {
      assertLive();
      if (!paused) return indexStatus();
      paused = false;
      emitStatus();
      const roots = store.listRoots();
      // A full scan (a stat per unchanged file) finds what changed while paused; queued jobs come first.
      if (roots.length > 0) void exclusive(() => indexRoots(indexerDeps, roots)).catch((error) => console.error('[synapsis] resume:', error));
      return indexStatus();
    },

    indexStatus() {
      assertLive();
      return indexStatus();
    },

    async systemInfo() {
      assertLive();
      let runtimeError: string | null = null;
      try {
        await runtime.get();
      } catch (error) {
        runtimeError = (error as Error).message;
      }
      const rt = runtime.status();
      const gpuReason = rt.gpu
        ? null
        : config.gpu === 'off'
          ? 'The GPU is turned off in the settings (gpu: off); models run on the CPU.'
          : (rt.gpuFallbackReason ?? (runtimeError ? `The model runtime did not start: ${runtimeError}` : 'No supported GPU (CUDA, Vulkan or Metal) was found; models run on the CPU.'));
      return {
        platform: process.platform,
        arch: process.arch,
        cpus: os.availableParallelism(),
        cpu_model: os.cpus()[0]?.model.trim() ?? 'unknown',
        memory_bytes: os.totalmem(),
        gpu: rt.gpu,
        gpu_reason: gpuReason,
        threads: rt.threads,
        runtime_error: runtimeError,
      };
    },

    async index(sources = []) {
      assertLive();
      const requested = sources.length > 0 ? sources : config.sourceRoots;
      // A damaged store is not indexed into (its unchanged files would hide the damage): repair rebuilds it.
      const checked = storeIntegrity();
      if (checked.status === 'damaged') throw storeDamagedError(dataDir, checked.problems.slice(0, 3).join('; '));
      // Validate every source before touching the store: one bad path changes nothing.
      const folders = requested.map(resolveFolder);
      const added = folders.filter((folder) => !store.rootByPath(folder));
      for (const folder of added) addRootOrFail(folder, [], []);
      if (added.length > 0) await rewatch();
      const roots = folders.length > 0 ? folders.map((f) => store.rootByPath(f)!) : store.listRoots();
      if (roots.length === 0) {
        throw createError('E_SYN_BAD_REQUEST', 'Nothing to index: pass a folder, or add a root first (SYN_SOURCE_ROOTS or index/addRoot)');
      }
      events.emit('syn.index.requested', { sources: roots.map((r) => r.path) });
      return exclusive(() => indexRoots(indexerDeps, roots));
    },

    async retrieve(query, context = {}, k) {
      assertLive();
      const started = performance.now();
      const { deps, req, mode } = pipelineArgs(query, context, k);
      const sentencesReady = dense.map((d) => d.index.sentences?.ready ?? true);
      const result = await runPipeline(deps, req);
      if (mode === 'hybrid' && !semantic) result.meta.limits.unshift('no embedding model: lexical retrieval only');
      dense.forEach((d, i) => {
        // A damaged sentence index found at load is rebuilt from stored embeddings; until then chunk vectors rank alone.
        const s = d.index.sentences;
        if (mode !== 'bm25' && s?.lastRebuildReason && (s.rebuilding || !sentencesReady[i])) result.meta.limits.push(`sentence ${s.lastRebuildReason}; chunk vectors ranked alone meanwhile`);
      });
      const latency = Math.round((performance.now() - started) * 100) / 100;
      events.emit('syn.retrieve.completed', { query, results: result.chunks.length, latency_ms: latency });
      // A relative path that two roots hold is ambiguous: such results carry the locator with its root.
      const several = pathsInSeveralRoots(store.db, result.chunks.map((c) => c.path), { allowSensitivity: context.allow_sensitivity ?? [], sensitivityEnable: config.sensitivityEnable });
      const chunks = several.size === 0 ? result.chunks : result.chunks.map((c) => (several.has(c.path) ? { ...c, locator: rootedLocator(c.root, c.locator) } : c));
      return { query, chunks, used_docs: result.used_docs, used_sections: result.used_sections, latency_ms: latency, index_version: indexVersion, meta: result.meta };
    },

    async retrievalLists(query, context = {}, k, useProfile) {
      assertLive();
      const { deps, req } = pipelineArgs(query, context, k, useProfile);
      return { lists: await gatherLists(deps, req), fusion: req.fusion, ...(config.rrfK !== undefined ? { rrfK: config.rrfK } : {}) };
    },

    async answer(query, opts = {}) {
      assertLive();
      if (!query.trim()) throw createError('E_SYN_BAD_REQUEST', 'The question is empty.');
      if (query.length > MAX_QUERY_CHARS) throw createError('E_SYN_BAD_REQUEST', `Invalid question: ${QUESTION_TOO_LONG} (${query.length} given)`);
      return answerQuestion(
        {
          retrieve: (q, ctx, k) => engine.retrieve(q, ctx, k),
          chat,
          settings: {
            systemPrompt: config.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
            answerK: config.answerK,
            contextTokens: config.contextTokens,
            synthTokens: config.synthTokens,
            retrievalTimeoutMs: config.answerRetrievalTimeoutMs,
            synthTimeoutMs: config.synthTimeoutMs,
            criticTimeoutMs: config.criticTimeoutMs,
            rerankTopN: config.rerankTopN,
          },
          documentSource: (docId) => store.documentSource(docId),
          termStats: (terms, allowSensitivity) => termStats(store.db, terms, { allowSensitivity, sensitivityEnable: config.sensitivityEnable }),
          saveTrace: (trace) => store.insertTrace(trace),
          onStage: (trace_id, stage) => events.emit('answer/stage', { trace_id, stage }),
          onQuote: (trace_id, quote) => events.emit('answer/quote', { trace_id, ...quote }),
          chatSpeed: () => {
            // The median speed of the last five answers the chat model wrote since this engine started
            // (measured again on each start: another machine, a GPU or another model may be faster).
            const speeds = store.listTraces(20).flatMap((t) => (t.started_at >= engineStartedAt && t.tokens_per_s && t.tokens_out >= 16 ? [t.tokens_per_s] : [])).slice(0, 5).sort((a, b) => a - b);
            return speeds.length >= 3 ? speeds[Math.floor(speeds.length / 2)]! : null;
          },
        },
        query,
        {
          ...opts,
          onToken: (text, attempt, trace_id) => {
            events.emit('answer/token', { trace_id, text, attempt });
            opts.onToken?.(text, attempt, trace_id);
          },
        },
      ).then((envelope) => {
        events.emit('syn.answer.completed', { trace_id: envelope.trace_id, verdict: envelope.verdict, confidence: envelope.confidence, latency_ms: envelope.timings.total_ms ?? 0 });
        return envelope;
      });
    },

    source(locator, opts = {}) {
      assertLive();
      return readSource(store.db, locator, {
        allowSensitivity: opts.allow_sensitivity ?? [],
        sensitivityEnable: config.sensitivityEnable,
        onDenied: (reason) => events.emit('syn.retrieve.denied', { query: locator, reason }),
        followExternalSymlinks: config.followExternalSymlinks,
        ...(opts.max_lines ? { maxLines: opts.max_lines } : {}),
      });
    },

    graphNeighbors(entity, hops = 1, opts = {}) {
      assertLive();
      if (!entity.trim()) throw createError('E_SYN_BAD_REQUEST', 'The entity is empty.');
      if (!Number.isInteger(hops) || hops < 1 || hops > 3) throw createError('E_SYN_BAD_REQUEST', `hops must be 1, 2 or 3 (got ${hops})`);
      return neighbors(linkGraph(opts.allow_sensitivity ?? []), entity, hops, { db: store.db });
    },

    graphPath(from, to, opts = {}) {
      assertLive();
      if (!from.trim() || !to.trim()) throw createError('E_SYN_BAD_REQUEST', 'Both ends of a path must be named.');
      return shortestPath(linkGraph(opts.allow_sensitivity ?? []), from, to);
    },

    async extractGraphWithModel(opts = {}) {
      assertLive();
      const budget = opts.budget_ms ?? config.graphLlmBudgetMs;
      if (!Number.isInteger(budget) || budget < 1) throw createError('E_SYN_BAD_REQUEST', `budget_ms must be a positive integer (got ${budget})`);
      // Runs in the indexing queue: never beside an index run that rewrites the same notes.
      let result: LlmGraphReport | undefined;
      const next = queue.then(async () => {
        result = await llmGraphStage(budget);
      });
      queue = next.catch(() => undefined);
      await next;
      return result!;
    },

    graphStats() {
      assertLive();
      const count = (table: 'entities' | 'relations' | 'mentions') => store.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
      return { entities: count('entities'), relations: count('relations'), mentions: count('mentions') };
    },

    graphOverview(opts = {}) {
      assertLive();
      return overview(linkGraph(opts.allow_sensitivity ?? []), opts.limit ?? 10);
    },

    graphSubgraph(req) {
      assertLive();
      if (!req.entity && !(req.paths?.length)) throw createError('E_SYN_BAD_REQUEST', 'Give an entity or the paths of a result set.');
      const hops = req.hops ?? 1;
      if (!Number.isInteger(hops) || hops < 0 || hops > 3) throw createError('E_SYN_BAD_REQUEST', `hops must be 0 to 3 (got ${hops})`);
      return subgraph(linkGraph(req.allow_sensitivity ?? []), { ...req, hops, ...(req.max_nodes ? { maxNodes: req.max_nodes } : {}) });
    },

    documents(opts = {}) {
      assertLive();
      return listDocuments(store.db, { allowSensitivity: opts.allow_sensitivity ?? [], sensitivityEnable: config.sensitivityEnable });
    },

    traces(limit, opts = {}) {
      assertLive();
      // A trace of a question asked with --allow lists restricted passages: shown only to a caller allowing them too.
      const hidden = hiddenDocumentPaths(store.db, { allowSensitivity: opts.allow_sensitivity ?? [], sensitivityEnable: config.sensitivityEnable });
      const traces = store.listTraces(limit);
      if (hidden.size === 0) return traces;
      const visible = (locator: string) => !hidden.has(locator.slice(0, locator.includes('#') ? locator.lastIndexOf('#') : undefined));
      return traces.map((t) => ({ ...t, retrieved: t.retrieved.filter(visible), reranked: t.reranked.filter(visible) }));
    },

    metrics() {
      assertLive();
      return metricsFromTraces(store.listTraces(100_000));
    },

    async health() {
      assertLive();
      const degradations: string[] = [];
      const damaged = integrityLine(storeIntegrity(), dataDir);
      if (damaged) degradations.push(damaged);
      if (!semantic) degradations.push('no embedding model: lexical retrieval only (synapsis models add <file.gguf>)');
      const embedders = dense.map((d) => {
        const s = d.index.sentences;
        // Sentences of chunks not split yet count as waiting too (about one per chunk until split).
        const sentences = s ? { vectors: s.stats().vectors, pending: store.countPendingEmbeddings(d.index.modelId, 'sentence') + store.countUnsplitChunks() } : null;
        return { id: d.index.modelId, name: d.name, languages: [...d.languages], vectors: d.index.stats().vectors, pending: store.countPendingEmbeddings(d.index.modelId), unavailable: d.index.unavailable, sentences };
      });
      for (const d of dense) {
        const who = dense.length > 1 ? `embedding model ${d.name}` : 'embedding model';
        if (d.index.unavailable) degradations.push(`${who} unavailable${dense.length > 1 ? '' : ', lexical retrieval only'}: ${d.index.unavailable}`);
        if (d.index.lastRebuildReason) degradations.push(d.index.lastRebuildReason);
        if (d.index.sentences?.lastRebuildReason) degradations.push(`sentence ${d.index.sentences.lastRebuildReason}`);
      }
      const pendingVectors = embedders[0]?.pending ?? 0;
      // A language the vault holds that no embedding model covers is searched lexically only: say so, and what fixes it.
      const languages = store.languageCounts();
      if (dense.length > 0) {
        const total = languages.reduce((n, l) => n + l.chunks, 0);
        for (const l of languages) {
          if (l.lang === 'und' || l.chunks < Math.max(3, total * 0.01) || dense.some((d) => languageCovered(l.lang, d.languages))) continue;
          degradations.push(`${l.chunks} chunks are in ${l.lang}, which no embedding model covers (${dense.map((d) => `${d.name}: ${d.languages.join(', ')}`).join('; ')}): questions in ${l.lang} are answered lexically. Add a multilingual embedding model (for example multilingual-e5-small) for mixed vaults.`);
        }
      }
      for (const e of embedders) {
        if (e.pending > 0) degradations.push(`${e.pending} chunks wait for embeddings${dense.length > 1 ? ` of ${e.name}` : ''} (dense retrieval covers the rest)`);
        else if (e.sentences && e.sentences.pending > 0) degradations.push(`${e.sentences.pending} sentences wait for embeddings${dense.length > 1 ? ` of ${e.name}` : ''} (chunk vectors answer meanwhile)`);
      }
      if (manifestRecovery) degradations.push(manifestRecovery);
      const rt = runtime.status();
      if (rt.gpuFallbackReason) degradations.push(rt.gpuFallbackReason);
      return {
        status: degradations.length > 0 ? 'degraded' : 'ok',
        degradations,
        data_dir: dataDir,
        schema_version: store.schemaVersion,
        index_version: indexVersion,
        roots: store.listRoots(),
        documents: store.documentCounts(),
        chunks: store.chunkCount(),
        pending_jobs: store.countPendingJobs(),
        issues: store.fileIssues(),
        models: { embed: embedModel, chat: chatModel ?? (options.chat ? { id: 'custom', name: options.chat.name, path: '' } : null), rerank: rerankModel ?? (options.reranker ? { id: 'custom', name: options.reranker.name, path: '' } : null), gpu: rt.gpu, threads: rt.threads, embedders },
        profile: profile.name,
        languages,
        vectors: { count: semantic?.stats().vectors ?? 0, dimension: semantic?.stats().dimension ?? 0, backend: semantic?.stats().backend ?? null, pending: pendingVectors },
        config: { ...config },
      };
    },

    async call(method, request, context = {}) {
      assertLive();
      // A transport passes the method name through: an unknown one (or 'constructor', '__proto__') is a bad request, not a TypeError.
      if (typeof method !== 'string' || !Object.hasOwn(handlers, method)) {
        throw createError('E_SYN_BAD_REQUEST', `Unknown method ${JSON.stringify(String(method)).slice(0, 100)}`, { method: String(method).slice(0, 100) });
      }
      const handler = handlers[method] as (req: unknown, context: CallContext) => Promise<unknown>;
      try {
        return (await handler(parseRequest(method, request), context)) as ResponseOf<typeof method>;
      } catch (error) {
        // SQLite reading a damaged page: the coded error that names the repair, not a raw SqliteError.
        throw storeDamage(dataDir, error) ?? error;
      }
    },

    on(event, listener) {
      return events.on(event, listener);
    },

    async dispose() {
      stopping = true;
      if (graphReload) clearImmediate(graphReload);
      await queue;
      await disposables.dispose();
    },
  };

  const handlers: { [M in Method]: (req: ReturnType<typeof parseRequest<M>>, context: CallContext) => Promise<ResponseOf<M>> } = {
    'index/run': (req) => engine.index(req.sources),
    'index/addRoot': async (req) => engine.addRoot(req.path, { include: req.include, exclude: req.exclude }),
    'index/removeRoot': async (req) => engine.removeRoot(req.path),
    'index/roots': async () => engine.listRoots(),
    'search/query': (req) => engine.retrieve(req.query, { ...req.context, ...(req.mode ? { mode: req.mode } : {}) }, req.k),
    'health/get': () => engine.health(),
    'answer/ask': (req, { signal, onToken }) =>
      engine.answer(req.query, { ...(req.k ? { k: req.k } : {}), ...(req.mode ? { mode: req.mode } : {}), ...(req.context ? { context: req.context } : {}), critic: req.critic, ...(signal ? { signal } : {}), ...(onToken ? { onToken } : {}) }),
    'source/get': async (req) => engine.source(req.locator, { allow_sensitivity: req.allow_sensitivity }),
    'graph/neighbors': async (req) => engine.graphNeighbors(req.entity, req.hops, { allow_sensitivity: req.allow_sensitivity }),
    'graph/path': async (req) => engine.graphPath(req.from, req.to, { allow_sensitivity: req.allow_sensitivity }),
    'graph/overview': async (req) => engine.graphOverview({ limit: req.limit, allow_sensitivity: req.allow_sensitivity }),
    'graph/subgraph': async (req) => engine.graphSubgraph(req),
    'graph/extract': (req) => engine.extractGraphWithModel(req.budget_ms ? { budget_ms: req.budget_ms } : {}),
    'index/documents': async (req) => engine.documents({ allow_sensitivity: req.allow_sensitivity }),
    'index/pause': async () => engine.pause(),
    'index/resume': () => engine.resume(),
    'index/status': async () => engine.indexStatus(),
    'index/watch': async (req) => {
      if (req.enabled && !watching) await engine.watch();
      if (!req.enabled && watching) await watching.handle.dispose();
      return engine.indexStatus();
    },
    'models/list': async () => engine.listModels(),
    'models/add': (req) => engine.addModel(req.path, { ...(req.role ? { role: req.role } : {}), ...(req.languages ? { languages: req.languages } : {}) }),
    'models/remove': async (req) => {
      const model = engine.removeModel(req.ref);
      return { removed: model !== null, model };
    },
    'system/info': () => engine.systemInfo(),
  };

  if (readOnly) {
    // Follow the writer: a commit since the last request invalidates the link graph and the vector indexes.
    let seenVersion = store.dataVersion();
    makeReader(engine, () => {
      if (disposables.isDisposed) return;
      const version = store.dataVersion();
      if (version === seenVersion) return;
      seenVersion = version;
      indexGeneration++;
      for (const d of dense) d.index.markStale();
    });
  }
  return engine;
}

export type { EventMap };
