import path from 'node:path';
import type { EventMap, Method, RequestOf, ResponseOf } from '../shared/contract.ts';
import { RetrieveContextSchema } from '../shared/contract.ts';
import { createError } from '../shared/errors.ts';
import { parseRequest } from '../shared/validate.ts';
import { metricsFromTraces } from './answer/metrics.ts';
import { warmLanguages, warmReader } from './answer/warm.ts';
import type { Engine, EngineOptions } from './compose/api.ts';
import { followerHandlers, followWrites, makeFollower } from './compose/follower.ts';
import { engineSetting, openEngineStore } from './compose/open.ts';
import { chunkingParams } from './core/config.ts';
import { EventBus } from './core/events.ts';
import { sha256, stableStringify } from './core/hash.ts';
import { DisposableStore } from './core/lifecycle.ts';
import { createGraphCache } from './graph/cache.ts';
import { createAnswerHandlers } from './handlers/answer.ts';
import { createGraphHandlers } from './handlers/graph.ts';
import { createIndexHandlers } from './handlers/index.ts';
import { createModelsHandlers } from './handlers/models.ts';
import { createSearchHandlers } from './handlers/search.ts';
import { createSourceHandlers } from './handlers/source.ts';
import { createSystemHandlers } from './handlers/system.ts';
import { createThreadsHandlers } from './handlers/threads.ts';
import type { CallContext, Handler, HandlerTable } from './handlers/types.ts';
import { buildManifest, readManifest, type IndexManifest } from './health/manifest.ts';
import { recoverManifest } from './health/report.ts';
import { ForegroundGate } from './ingest/foreground.ts';
import { paramsHashOf } from './ingest/indexer.ts';
import { createIndexQueue } from './ingest/queue.ts';
import { configuredChat, configuredReranker, measureChatSpeed } from './llm/configured.ts';
import { ModelRegistry } from './llm/registry.ts';
import type { ResolvedModel } from './llm/resolve.ts';
import { LlamaRuntime } from './llm/runtime.ts';
import { gatherLists } from './retrieve/hybrid.ts';
import { pipelineArgs, type RetrievalServices } from './retrieve/request.ts';
import { ANALYZER_VERSION } from './search/analyzer.ts';
import { LexicalThread } from './search/lexical-thread.ts';
import { hiddenDocumentPaths } from './search/lexical.ts';
import { createDamageGuard } from './store/damage-guard.ts';
import { lockDataDir } from './store/data-dir-lock.ts';
import { storeDamage } from './store/integrity.ts';
import { graphRowCounts } from './store/engine-queries.ts';
import { denseSources } from './vector/dense-sources.ts';

export type { Engine, EngineOptions } from './compose/api.ts';
export { prepareEngineStore } from './compose/open.ts';
export type { CallContext } from './handlers/types.ts';
export type { WatchOptions } from './ingest/queue.ts';

/**
 * The composition root: opens the store (compose/open.ts), builds the services (index queue, graph
 * cache, models, vector indexes), the handler table typed from the contract, and the library API
 * (compose/api.ts) as a thin layer over it; disposes them together. Opened read-only, the engine
 * is a follower of the writer (compose/follower.ts).
 */
export function createEngine(options: EngineOptions = {}): Engine {
  const { config, dataDir } = engineSetting(options);
  const modelsDir = path.resolve(options.modelsDir ?? path.join(dataDir, 'models'));
  const disposables = new DisposableStore();
  const events = disposables.add(new EventBus());
  // Another writer on this data dir is refused before the store is touched; released last on dispose.
  // A follower takes no lock: it reads beside the writer (compose/follower.ts).
  const readOnly = options.readOnly === true;
  if (!readOnly) disposables.add(lockDataDir(dataDir));
  const params = chunkingParams(config);
  const paramsHash = paramsHashOf(params);
  const registry = new ModelRegistry(modelsDir);
  const { store, embedModels, rerankModel, chatModel, profile } = openEngineStore(options, { config, dataDir, readOnly, registry, disposables });
  /** The primary embedding model (health, manifest); the others join it per query language. */
  const embedModel: ResolvedModel | null = embedModels[0] ?? null;
  const runtime = new LlamaRuntime({ gpu: config.gpu === 'auto' ? 'auto' : false, ...(config.llmThreads ? { threads: config.llmThreads } : {}) });
  const embedModelId = embedModels.length > 0 ? embedModels.map((m) => m.id).join('+') : 'none';
  // The analyzer is part of the version (it changes what the lexical index holds), not of chunk hashes.
  const indexVersion = sha256(stableStringify({ embed_model_id: embedModelId, chunking_params: params, analyzer: ANALYZER_VERSION })).slice(0, 16);
  /** Questions in flight: background sentence embedding waits for them (ingest/foreground.ts). */
  const foreground = new ForegroundGate();
  // One vector index per embedding model (vector/dense-sources.ts).
  const dense = denseSources({ store, config, dataDir, indexVersion, embedModels, runtime, ...(options.embedder ? { embedder: options.embedder } : {}), readOnly, foreground });
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
  const chat = configuredChat(options.chat, chatModel, runtime, config);
  const reranker = configuredReranker(options.reranker, rerankModel, runtime, chat, config);
  disposables.add({ dispose: async () => {
    await chat?.unload();
    await reranker?.unload();
    for (const d of dense) await d.index.dispose();
    await runtime.dispose();
  } });

  const queue = createIndexQueue({ store, config, events, dataDir, readOnly, paramsHash, dense, chat, disposables, manifest: storedManifest, onIndexed: () => (manifestRecovery = null) });
  const graphs = createGraphCache({ store, config, generation: () => queue.generation });
  // The store's integrity check, and the guard that refuses reads of a store known to be damaged.
  const { storeIntegrity, refuseDamaged } = createDamageGuard(store, dataDir);
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
      measureChat: () => measureChatSpeed(chat, (tokensPerS) => {
        if (chatModel && !options.chat) registry.setSpeed(chatModel.id, tokensPerS);
      }),
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
  // A follower follows the writer: a commit since the last request invalidates the link graph and the vector indexes.
  const follow = followWrites(store, () => disposables.isDisposed, () => {
    queue.invalidate();
    for (const d of dense) d.index.markStale();
  });
  const handlers = readOnly ? followerHandlers(table, dataDir, follow) : table;
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
  if (readOnly) makeFollower(engine, follow);
  return engine;
}

export type { EventMap };
