import path from 'node:path';
import type {
  AnswerEnvelope,
  EventMap,
  EventName,
  HealthReport,
  IndexReport,
  IndexStatus,
  SystemInfo,
  Method,
  RequestOf,
  RetrievalResult,
  RetrieveContext,
  SourceLines,
  DocumentEntry,
  GraphNeighbors,
  GraphOverview,
  GraphPath,
  GraphView,
  ResponseOf,
  Root,
} from '../shared/contract.ts';
import { RetrieveContextSchema } from '../shared/contract.ts';
import { createError } from '../shared/errors.ts';
import { parseRequest } from '../shared/validate.ts';
import { chunkingParams, loadConfig, type Config, type ConfigInput } from './core/config.ts';
import { EventBus, type Listener } from './core/events.ts';
import { sha256, stableStringify } from './core/hash.ts';
import { ForegroundGate } from './ingest/foreground.ts';
import { paramsHashOf } from './ingest/indexer.ts';
import { createIndexQueue, type WatchOptions } from './ingest/queue.ts';
import { buildManifest, readManifest, type IndexManifest } from './health/manifest.ts';
import { DisposableStore, type Disposable } from './core/lifecycle.ts';
import { defaultDataDir } from './core/paths.ts';
import { ANALYZER_VERSION } from './search/analyzer.ts';
import { ANALYZER_SETTING, upgradeLexicalIndex, upgradeLexicalIndexOffThread, type UpgradeProgress } from './search/lexical-upgrade.ts';
import { hiddenDocumentPaths } from './search/lexical.ts';
import { gatherLists, type DenseSource, type GatheredLists } from './retrieve/hybrid.ts';
import { createGraphCache } from './graph/cache.ts';
import type { LlmGraphReport } from './graph/llm-stage.ts';
import { LlamaReranker, type Reranker } from './llm/reranker.ts';
import { ChatJudgeReranker } from './llm/chat-judge.ts';
import { LlamaChatModel, type ChatModel } from './llm/chat.ts';
import type { AnswerOptions } from './answer/answer.ts';
import { metricsFromTraces } from './answer/metrics.ts';
import { embeddingInput } from './llm/embedding-input.ts';
import { ModelRegistry, type ModelInfo, type ModelRole } from './llm/registry.ts';
import { resolveEmbedModels, resolveModel, type ResolvedModel } from './llm/resolve.ts';
import { loadProfile, type RetrievalProfile } from './retrieve/profile.ts';
import { pipelineArgs, type RetrievalServices } from './retrieve/request.ts';
import { LexicalThread } from './search/lexical-thread.ts';
import { Embedder, LlamaRuntime, type EmbedderLike } from './llm/runtime.ts';
import { SemanticIndex } from './vector/semantic.ts';
import { lockDataDir } from './store/data-dir-lock.ts';
import { storeNeedsWriterError } from './store/database.ts';
import { graphRowCounts } from './store/engine-queries.ts';
import { makeReader, readerHandlers } from './reader.ts';
import { Store, type TraceRow } from './store/store.ts';
import { assertStoreNotLost, checkStoreIntegrity, clearDamage, recordDamage, recordedDamage, storeDamage, type IntegrityReport } from './store/integrity.ts';
import { storeDamagedError } from './store/database.ts';
import { recoverManifest } from './health/report.ts';
import { createAnswerHandlers } from './handlers/answer.ts';
import { createGraphHandlers } from './handlers/graph.ts';
import { createIndexHandlers } from './handlers/index.ts';
import { createModelsHandlers } from './handlers/models.ts';
import { createSearchHandlers } from './handlers/search.ts';
import { createSourceHandlers } from './handlers/source.ts';
import { createThreadsHandlers } from './handlers/threads.ts';
import { createSystemHandlers } from './handlers/system.ts';
import type { CallContext, Handler, HandlerTable } from './handlers/types.ts';
import { warmLanguages, warmReader } from './answer/warm.ts';

export type { CallContext } from './handlers/types.ts';
export type { WatchOptions } from './ingest/queue.ts';

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
  /**
   * Told how far the rebuild of an older store's word index has come, while it is opened: a store
   * written by another version of the analyzer is re-read note by note (about 100 s for 50,000 notes
   * on 2 cores) before the engine answers anything.
   */
  onStoreUpgrade?: (notes: { done: number; total: number }) => void;
}

/** The library API (docs/design.md §2): the Synapse API (index, retrieve, health) plus root management and typed events. */
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
  /** What is indexed and degraded, counting only what this caller may see (restricted notes only with their sensitivity allowed). */
  health(options?: { allow_sensitivity?: string[] }): Promise<HealthReport>;
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

/**
 * The composition root: opens the store, builds the services (index queue, graph cache, models),
 * the handler table typed from the contract, and the library API as a thin layer over it; disposes
 * them together.
 */
/** The configuration and data dir an engine opened with these options uses. */
function engineSetting(options: EngineOptions) {
  const env = options.env ?? process.env;
  const config = loadConfig(options.config, env);
  const dataDir = path.resolve(options.dataDir ?? (env.SYNAPSIS_DATA_DIR || config.indexPath || defaultDataDir(env)));
  return { config, dataDir };
}

/**
 * What a host that serves the app does before createEngine: an older store's word index is rebuilt
 * on a worker thread (lexical-upgrade.ts), so the host keeps answering and reports the rebuild's
 * progress; createEngine then opens a current store at once. Nothing for a reader.
 */
export async function prepareEngineStore(options: EngineOptions, onProgress?: UpgradeProgress): Promise<'current' | 'upgraded' | 'failed'> {
  if (options.readOnly === true) return 'current';
  const { config, dataDir } = engineSetting(options);
  return upgradeLexicalIndexOffThread(dataDir, { mmapBytes: config.mmapMb * 1024 * 1024, ...(onProgress ? { onProgress } : {}) });
}

export function createEngine(options: EngineOptions = {}): Engine {
  const { config, dataDir } = engineSetting(options);
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
    const store = disposables.add(new Store(dataDir, { reader: readOnly, mmapBytes: config.mmapMb * 1024 * 1024 }));
    // The lexical index is derived data: refill it from stored chunks when the analyzer changed.
    if (readOnly && store.getSetting<string>(ANALYZER_SETTING) !== ANALYZER_VERSION) throw storeNeedsWriterError(dataDir, 'its lexical index was built by another version of the analyzer');
    if (!readOnly) {
      upgradeLexicalIndex(store, options.onStoreUpgrade);
      // A store written before BM25's totals were kept right counts every chunk it ever deleted.
      store.settleLexicalTotals();
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
  /** Questions in flight: background sentence embedding waits for them (ingest/foreground.ts). */
  const foreground = new ForegroundGate();
  const dense: DenseSource[] = embedModels.map((m, i) => {
    const embedder = (i === 0 ? options.embedder : undefined) ?? new Embedder(runtime, { modelPath: m.path, modelId: m.id, modelName: m.name, idleMs: config.modelIdleMs, maxInputChars: config.chunkSize });
    const indexDir = i === 0 ? path.join(dataDir, 'index', indexVersion) : path.join(dataDir, 'index', indexVersion, 'models', m.id);
    // Sentence vectors come after every chunk vector (ingest/queue.ts) and pause while a question is in flight.
    const sentences = config.sentenceVectors
      ? new SemanticIndex({ store, embedder, indexDir: path.join(indexDir, 'sentences'), backend: config.vectorBackend, unit: 'sentence', readOnly, yieldTo: foreground })
      : null;
    return {
      name: m.path ? path.basename(m.path, '.gguf') : m.name,
      languages: m.languages ?? ['*'],
      index: new SemanticIndex({ store, embedder, indexDir, backend: config.vectorBackend, sentences, readOnly }),
    };
  });
  const engineStartedAt = new Date().toISOString();
  // Started on the first hybrid query of a large vault; closed with the engine.
  const lexicalThread = config.lexicalThread && dense.length > 0 ? new LexicalThread(store.file, undefined, undefined, store.mmapBytes) : null;
  if (lexicalThread) disposables.add({ dispose: () => lexicalThread.dispose() });
  const storedManifest = (): IndexManifest => {
    const inputs = store.manifestInputs();
    return buildManifest({ indexVersion, embedModelId, chunkingParams: params, chunkHashes: inputs.chunkHashes, documents: inputs.documents });
  };
  /** What the manifest check at start did; cleared by the next run, which writes a new manifest. */
  let manifestRecovery = recoverManifest({ store, config, dataDir, indexVersion, readOnly, manifest: storedManifest });
  const chat: ChatModel | null = options.chat ?? (chatModel ? new LlamaChatModel(runtime, chatModel.path, chatModel.name, { contextSize: config.contextTokens + config.synthTokens + 512, idleMs: config.modelIdleMs }) : null);
  // A cross-encoder when there is one; else, when asked (rerankWithChat), the chat model as a pointwise judge: a generation per passage.
  const reranker: Reranker | null = options.reranker ?? (rerankModel ? new LlamaReranker(runtime, rerankModel.path, rerankModel.name) : chat && config.rerankWithChat ? new ChatJudgeReranker(chat) : null);
  disposables.add({ dispose: async () => {
    await chat?.unload();
    await reranker?.unload();
    for (const d of dense) await d.index.dispose();
    await runtime.dispose();
  } });

  const queue = createIndexQueue({ store, config, events, dataDir, readOnly, paramsHash, dense, chat, disposables, manifest: storedManifest, onIndexed: () => (manifestRecovery = null) });
  const graphs = createGraphCache({ store, config, generation: () => queue.generation });
  /** The store's quick integrity check, run once per engine (health, the first index run). */
  let integrity: IntegrityReport | null = null;
  /** Damage this engine knows of: found by the check, or met by a read. */
  let damage: string | null = null;
  const storeIntegrity = () => {
    if (integrity) return integrity;
    integrity = checkStoreIntegrity(store.db);
    if (integrity.status === 'damaged') recordDamage(dataDir, (damage = integrity.problems.slice(0, 3).join('; ')));
    else if (integrity.status === 'ok') clearDamage(dataDir);
    return integrity;
  };
  /**
   * Search, sources and answers refuse a store known to be damaged (by this engine, or recorded by
   * another process's health, index or read): damaged pages that read without an error still give a
   * wrong top hit, or "not found" for a note that is there. A read that meets damage records it.
   */
  const refuseDamaged = <A extends unknown[], R>(run: (...args: A) => R): ((...args: A) => R) => {
    const met = (error: unknown): unknown => {
      const found = storeDamage(dataDir, error);
      if (!found) return error;
      damage ??= String(found.details?.reason ?? found.message);
      recordDamage(dataDir, damage);
      return found;
    };
    return (...args: A): R => {
      const known = damage ?? recordedDamage(dataDir);
      if (known) throw storeDamagedError(dataDir, known);
      try {
        const result = run(...args);
        return (result instanceof Promise ? result.catch((error: unknown) => Promise.reject(met(error))) : result) as R;
      } catch (error) {
        throw met(error);
      }
    };
  };
  const retrieval: RetrievalServices = { store, config, events, dense, reranker, graphs, lexicalThread, profile };

  const table = {
    ...createIndexHandlers({ store, config, events, dataDir, queue, integrity: storeIntegrity }),
    ...createSearchHandlers({ ...retrieval, indexVersion }),
    ...createAnswerHandlers({
      store, config, events, chat,
      retrieve: (q, ctx, k) => engine.retrieve(q, ctx, k),
      startedAt: engineStartedAt,
      ...(dense[0] ? { sentenceSimilarities: (q: string, ids: readonly number[]) => dense[0]!.index.sentenceSimilarities(q, ids) } : {}),
    }),
    ...createSourceHandlers(retrieval),
    ...createGraphHandlers({ store, graphs, queue }),
    ...createModelsHandlers({
      registry,
      measureChat: async () => {
        if (!chat) return { model: null, tokens_per_s: null };
        // A short answer, as an answer is written: the speed a person will wait for on this machine.
        const started = performance.now();
        const g = await chat.generate({ system: 'You answer in one short sentence.', user: 'Count from one to twenty in words, separated by commas.', maxTokens: 32, temperature: 0 });
        const seconds = (performance.now() - started) / 1000;
        const tokensPerS = g.tokensOut > 0 ? (g.tokensPerS > 0 ? g.tokensPerS : g.tokensOut / Math.max(seconds, 1e-3)) : null;
        if (tokensPerS !== null && chatModel && !options.chat) registry.setSpeed(chatModel.id, tokensPerS);
        return { model: chat.name, tokens_per_s: tokensPerS === null ? null : Math.round(tokensPerS * 10) / 10 };
      },
    }),
    ...createThreadsHandlers({ store, config }),
    ...createSystemHandlers({
      store, config, dataDir, indexVersion, dense, runtime, profile,
      models: { embed: embedModel, chat: chatModel, rerank: rerankModel, customChat: options.chat?.name, customRerank: options.reranker?.name },
      integrity: storeIntegrity,
      manifestRecovery: () => manifestRecovery,
      progress: () => queue.status().progress,
    }),
  } satisfies HandlerTable;
  // A question (search or answer, from any transport) pauses background sentence embedding until it is answered.
  table['search/query'] = foreground.wrap(refuseDamaged(table['search/query']));
  table['answer/ask'] = foreground.wrap(refuseDamaged(table['answer/ask']));
  table['source/get'] = refuseDamaged(table['source/get']);
  // A reader follows the writer: a commit since the last request invalidates the link graph and the vector indexes.
  let seenVersion = readOnly ? store.dataVersion() : 0;
  const follow = () => {
    if (disposables.isDisposed) return;
    const version = store.dataVersion();
    if (version === seenVersion) return;
    seenVersion = version;
    queue.invalidate();
    for (const d of dense) d.index.markStale();
  };
  const handlers = readOnly ? readerHandlers(table, dataDir, follow) : table;
  // The reader's first-use cost (compiling its expressions) is paid while the engine waits, not by the first answer.
  const warm = setTimeout(() => warmReader(warmLanguages(store.languageCounts())), 0);
  warm.unref();
  disposables.add({ dispose: () => clearTimeout(warm) });

  const assertLive = () => {
    if (disposables.isDisposed) throw createError('E_SYN_BAD_REQUEST', 'The engine has been disposed');
  };
  /** The library's way in: the request validated against the contract, then its handler (synchronous where it is). */
  const run = <M extends Method>(method: M, request: RequestOf<M>, context: CallContext = {}): ReturnType<(typeof table)[M]> => {
    assertLive();
    return (handlers[method] as unknown as Handler<M>)(parseRequest(method, request), context) as ReturnType<(typeof table)[M]>;
  };
  const sensitivity = (allow: readonly string[] = []) => ({ allowSensitivity: allow, sensitivityEnable: config.sensitivityEnable });

  const engine: Engine = {
    dataDir,
    modelsDir,
    config,
    indexVersion,
    readOnly,
    profile,
    index: async (sources) => run('index/run', { ...(sources ? { sources } : {}) }),
    addRoot: (rootPath, opts = {}) => run('index/addRoot', { path: rootPath, ...opts }),
    removeRoot: (rootPath) => run('index/removeRoot', { path: rootPath }),
    listRoots: () => run('index/roots', {}),
    documents: (opts = {}) => run('index/documents', opts),
    pause: () => run('index/pause', {}),
    resume: async () => run('index/resume', {}),
    indexStatus: () => run('index/status', {}),
    retrieve: async (query, context = {}, k) => run('search/query', { query, context, ...(k !== undefined ? { k } : {}) }),
    answer: async (query, { signal, onToken, onPrompt, ...request } = {}) => run('answer/ask', { query, ...request }, { ...(signal ? { signal } : {}), ...(onToken ? { onToken } : {}), ...(onPrompt ? { onPrompt } : {}) }),
    source: (locator, { max_lines, ...opts } = {}) => {
      assertLive();
      return handlers['source/get']({ ...parseRequest('source/get', { locator, ...opts }), ...(max_lines ? { max_lines } : {}) });
    },
    graphNeighbors: (entity, hops = 1, opts = {}) => run('graph/neighbors', { entity, hops, ...opts }),
    graphPath: (from, to, opts = {}) => run('graph/path', { from, to, ...opts }),
    graphOverview: (opts = {}) => run('graph/overview', opts),
    graphSubgraph: (request) => run('graph/subgraph', request),
    listModels: () => handlers['models/list'](),
    addModel: async (file, opts = {}) => run('models/add', { path: file, ...opts }),
    removeModel: (ref) => run('models/remove', { ref }).model,
    health: async (opts = {}) => run('health/get', opts),
    systemInfo: async () => run('system/info', {}),

    async call(method, request, context = {}) {
      assertLive();
      // A transport passes the method name through: an unknown one (or 'constructor', '__proto__') is a bad request, not a TypeError.
      if (typeof method !== 'string' || !Object.hasOwn(handlers, method)) {
        throw createError('E_SYN_BAD_REQUEST', `Unknown method ${JSON.stringify(String(method)).slice(0, 100)}`, { method: String(method).slice(0, 100) });
      }
      try {
        return (await (handlers[method] as unknown as Handler<typeof method>)(parseRequest(method, request), context)) as ResponseOf<typeof method>;
      } catch (error) {
        // SQLite reading a damaged page: the coded error that names the repair, not a raw SqliteError.
        throw storeDamage(dataDir, error) ?? error;
      }
    },

    // Outside the contract: library callers (tools, benchmarks, tests) reach the services directly.
    async retrievalLists(query, context = {}, k, useProfile) {
      assertLive();
      const { deps, req } = pipelineArgs(retrieval, query, RetrieveContextSchema.parse(context), k, useProfile);
      return { lists: await gatherLists(deps, req), fusion: req.fusion, ...(config.rrfK !== undefined ? { rrfK: config.rrfK } : {}) };
    },
    async extractGraphWithModel(opts = {}) {
      assertLive();
      return queue.extractGraph(opts.budget_ms);
    },
    async watch(watchOptions = {}) {
      assertLive();
      return queue.watch(watchOptions);
    },
    graphStats() {
      assertLive();
      return graphRowCounts(store);
    },
    traces(limit, opts = {}) {
      assertLive();
      // A trace of a question asked with --allow lists restricted passages: shown only to a caller allowing them too.
      const hidden = hiddenDocumentPaths(store.db, sensitivity(opts.allow_sensitivity));
      const traces = store.listTraces(limit);
      if (hidden.size === 0) return traces;
      const visible = (locator: string) => !hidden.has(locator.slice(0, locator.includes('#') ? locator.lastIndexOf('#') : undefined));
      return traces.map((t) => ({ ...t, retrieved: t.retrieved.filter(visible), reranked: t.reranked.filter(visible) }));
    },
    metrics() {
      assertLive();
      return metricsFromTraces(store.listTraces(100_000));
    },
    manifest: () => readManifest(dataDir, indexVersion),
    on: (event, listener) => events.on(event, listener),
    async dispose() {
      graphs.dispose();
      await queue.stop();
      await disposables.dispose();
    },
  };
  if (readOnly) makeReader(engine, follow);
  return engine;
}

export type { EventMap };
