import path from 'node:path';
import type { EventMap } from '../shared/contract.ts';
import { detectorWanted, warmDetector, warmLanguages, warmReader } from './answer/warm.ts';
import type { Engine, EngineOptions } from './compose/api.ts';
import { followerHandlers, followWrites, makeFollower } from './compose/follower.ts';
import { libraryApi } from './compose/library.ts';
import { engineSetting, openEngineStore } from './compose/open.ts';
import { chunkingParams } from './core/config.ts';
import { EventBus } from './core/events.ts';
import { sha256, stableStringify } from './core/hash.ts';
import { DisposableStore } from './core/lifecycle.ts';
import { createGraphCache } from './graph/cache.ts';
import { linkWarmer } from './graph/warm.ts';
import { createHandlerTable } from './handlers/table.ts';
import { buildManifest, type IndexManifest } from './health/manifest.ts';
import { recoverManifest } from './health/report.ts';
import { ForegroundGate } from './ingest/foreground.ts';
import { paramsHashOf } from './ingest/indexer.ts';
import { createIndexQueue } from './ingest/queue.ts';
import { configuredChat, configuredReranker, measureChatSpeed } from './llm/configured.ts';
import { ModelRegistry } from './llm/registry.ts';
import type { ResolvedModel } from './llm/resolve.ts';
import { LlamaRuntime } from './llm/runtime.ts';
import type { RetrievalServices } from './retrieve/request.ts';
import { ANALYZER_VERSION } from './search/analyzer.ts';
import { LexicalThread } from './search/lexical-thread.ts';
import { createDamageGuard } from './store/damage-guard.ts';
import { lockDataDir } from './store/data-dir-lock.ts';
import { indexedPaths } from './store/queries/documents.ts';
import { denseSources } from './vector/dense-sources.ts';

export type { Engine, EngineOptions } from './compose/api.ts';
export { prepareEngineStore } from './compose/open.ts';
export type { CallContext } from './handlers/types.ts';
export type { WatchOptions } from './ingest/queue.ts';

/**
 * The composition root: opens the store (compose/open.ts), builds the services (index queue, graph
 * cache, models, vector indexes), the handler table typed from the contract (handlers/table.ts),
 * and the library API (compose/library.ts, typed in compose/api.ts) as a thin layer over it;
 * disposes them together. Opened read-only, the engine is a follower of the writer
 * (compose/follower.ts).
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

  const table = createHandlerTable({
    index: { store, config, events, dataDir, queue, integrity: storeIntegrity },
    search: { ...retrieval, indexVersion },
    answer: {
      store, config, events, chat,
      retrieve: (q, ctx, k) => engine.retrieve(q, ctx, k),
      startedAt: engineStartedAt,
      ...(dense[0] ? { sentenceSimilarities: (q: string, ids: readonly number[]) => dense[0]!.index.sentenceSimilarities(q, ids) } : {}),
      ...(dense[0] ? { sentencesPending: (ids: readonly number[]) => (dense[0]!.index.sentences ? store.sentencesWaiting(dense[0]!.index.modelId, ids) : 0) } : {}),
    },
    source: retrieval,
    graph: { store, graphs, queue },
    models: {
      registry,
      measureChat: () => measureChatSpeed(chat, (tokensPerS) => {
        if (chatModel && !options.chat) registry.setSpeed(chatModel.id, tokensPerS);
      }),
    },
    threads: { store, config },
    system: {
      store, config, dataDir, indexVersion, dense, runtime, profile,
      models: { embed: embedModel, chat: chatModel, rerank: rerankModel, customChat: options.chat?.name, customRerank: options.reranker?.name },
      integrity: storeIntegrity,
      manifestRecovery: () => manifestRecovery,
      progress: () => queue.status().progress,
    },
  });
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
  // The reader's and the language detector's first-use costs are paid while the engine waits, not by
  // the first answer; a long-lived engine reads a small vault's kept note links then too (graph/warm.ts).
  let settle = () => {};
  const warmed = new Promise<void>((resolve) => (settle = resolve));
  const warmLinks = options.warmGraph
    ? linkWarmer({ paths: (limit) => indexedPaths(store.db, limit), graph: () => graphs.reader([]), generation: () => queue.generation, disposed: () => disposables.isDisposed })
    : null;
  const warm = setTimeout(() => {
    void (async () => {
      const counts = store.languageCounts();
      warmReader(warmLanguages(counts));
      if (detectorWanted(counts)) warmDetector();
      await warmLinks?.();
    })()
      .catch(() => {
        // A warm-up that fails costs the first questions their speed, nothing else.
      })
      .finally(settle);
  }, 0);
  warm.unref();
  // An index run's end starts a new memo: its links are read again once the run has settled.
  if (warmLinks) disposables.add(events.on('syn.index.completed', () => void setTimeout(() => void warmLinks(), 0).unref()));
  disposables.add({
    dispose: () => {
      clearTimeout(warm);
      settle();
    },
  });

  const engine = libraryApi({ dataDir, modelsDir, config, indexVersion, readOnly, profile, handlers, disposables, store, events, queue, graphs, retrieval, warmed: () => {
    // Asked for, the warm-up holds the process open until it has run (the timer alone does not).
    warm.ref();
    return warmed;
  } });
  if (readOnly) makeFollower(engine, follow);
  return engine;
}

export type { EventMap };
