/**
 * The library API (compose/api.ts's Engine) over the handler table: each method one request,
 * validated against the contract and run by its handler (synchronous where the handler is), and
 * the few outside the contract that reach the services directly (tools, benchmarks, tests).
 */
import type { Method, RequestOf, ResponseOf } from '../../shared/contract.ts';
import { RetrieveContextSchema } from '../../shared/contract.ts';
import { createError } from '../../shared/errors.ts';
import { parseRequest } from '../../shared/validate.ts';
import { metricsFromTraces } from '../answer/metrics.ts';
import type { Config } from '../core/config.ts';
import type { EventBus } from '../core/events.ts';
import type { DisposableStore } from '../core/lifecycle.ts';
import type { GraphCache } from '../graph/cache.ts';
import type { EngineHandlers } from '../handlers/table.ts';
import type { CallContext, Handler } from '../handlers/types.ts';
import { readManifest } from '../health/manifest.ts';
import type { IndexQueue } from '../ingest/queue.ts';
import { gatherLists } from '../retrieve/hybrid.ts';
import type { RetrievalProfile } from '../retrieve/profile.ts';
import { pipelineArgs, type RetrievalServices } from '../retrieve/request.ts';
import { hiddenDocumentPaths } from '../search/lexical.ts';
import { graphRowCounts } from '../store/queries/counts.ts';
import { storeDamage } from '../store/integrity.ts';
import type { Store } from '../store/store.ts';
import type { Engine } from './api.ts';

export interface LibraryParts {
  dataDir: string;
  modelsDir: string;
  config: Config;
  indexVersion: string;
  readOnly: boolean;
  profile: RetrievalProfile;
  /** The handler table requests run through (a follower's, when read-only). */
  handlers: EngineHandlers;
  disposables: DisposableStore;
  store: Store;
  events: EventBus;
  queue: IndexQueue;
  graphs: GraphCache;
  retrieval: RetrievalServices;
  /** Settles once the idle warm-up has run (Engine.warmed). */
  warmed: () => Promise<void>;
}

export function libraryApi(parts: LibraryParts): Engine {
  const { dataDir, modelsDir, config, indexVersion, readOnly, profile, handlers, disposables, store, events, queue, graphs, retrieval, warmed } = parts;
  const assertLive = () => {
    if (disposables.isDisposed) throw createError('E_SYN_BAD_REQUEST', 'The engine has been disposed');
  };
  /** The library's way in: the request validated against the contract, then its handler (synchronous where it is). */
  const run = <M extends Method>(method: M, request: RequestOf<M>, context: CallContext = {}): ReturnType<EngineHandlers[M]> => {
    assertLive();
    return (handlers[method] as unknown as Handler<M>)(parseRequest(method, request), context) as ReturnType<EngineHandlers[M]>;
  };
  const sensitivity = (allow: readonly string[] = []) => ({ allowSensitivity: allow, sensitivityEnable: config.sensitivityEnable });

  return {
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
    warmed,
    graphStats() {
      assertLive();
      return graphRowCounts(store.db);
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
}
