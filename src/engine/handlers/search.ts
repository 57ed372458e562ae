/** search/query: the hybrid retrieval pipeline behind one query; search/tags: the tags a caller may filter by. */
import { limit, RetrieveContextSchema, type RetrievalResult } from '../../shared/contract.ts';
import { runPipeline } from '../retrieve/hybrid.ts';
import { pipelineArgs, type ParsedRetrieveContext, type RetrievalServices } from '../retrieve/request.ts';
import { pathsInSeveralRoots, rootedLocator } from '../retrieve/source.ts';
import { toRetrievedChunk } from '../search/lexical.ts';
import { firstChunksFiltered } from '../store/queries/chunks.ts';
import { visibleTagCounts } from '../store/queries/tags.ts';
import type { Handlers } from './types.ts';

export interface SearchServices extends RetrievalServices {
  indexVersion: string;
}

export function createSearchHandlers(services: SearchServices) {
  const { store, config, events, dense, indexVersion } = services;
  const search = async (query: string, ctx: ParsedRetrieveContext, k: number | undefined): Promise<RetrievalResult> => {
    const started = performance.now();
    // No words but a tag: the notes tagged so (their first passages, in path order), as Obsidian's tag search lists them.
    if (!query.trim() && ctx.tags.length > 0) {
      const { req } = pipelineArgs(services, query, ctx, k);
      const chunks = firstChunksFiltered(store.db, req.filters, req.k).map((r) => toRetrievedChunk(r, [], 1));
      const latency = Math.round((performance.now() - started) * 100) / 100;
      const meta = { mode: 'tags', retrieval_mode: 'hybrid_only', terms: [], candidates: chunks.length, filtered: 0, trigram_used: false, pruned: false, hybrid_used: false, dense_models: [], graph_used: false, rerank_used: false, timings: {}, limits: [] };
      return { query, chunks, used_docs: [], used_sections: [], latency_ms: latency, index_version: indexVersion, meta };
    }
    const { deps, req, mode } = pipelineArgs(services, query, ctx, k);
    const sentencesReady = dense.map((d) => d.index.sentences?.ready ?? true);
    const result = await runPipeline(deps, req);
    if (mode === 'hybrid' && dense.length === 0) result.meta.limits.unshift(limit('no_embedding_model', 'no embedding model: lexical retrieval only'));
    dense.forEach((d, i) => {
      // A damaged sentence index found at load is rebuilt from stored embeddings; until then chunk vectors rank alone.
      const s = d.index.sentences;
      if (mode !== 'bm25' && s?.lastRebuildReason && (s.rebuilding || !sentencesReady[i])) result.meta.limits.push(limit('sentence_vectors_rebuilding', `sentence ${s.lastRebuildReason}; chunk vectors ranked alone meanwhile`));
    });
    const latency = Math.round((performance.now() - started) * 100) / 100;
    events.emit('syn.retrieve.completed', { query, results: result.chunks.length, latency_ms: latency });
    // A relative path that two roots hold is ambiguous: such results carry the locator with its root.
    const several = pathsInSeveralRoots(store.db, result.chunks.map((c) => c.path), { allowSensitivity: ctx.allow_sensitivity, sensitivityEnable: config.sensitivityEnable });
    const chunks = several.size === 0 ? result.chunks : result.chunks.map((c) => (several.has(c.path) ? { ...c, locator: rootedLocator(c.root, c.locator) } : c));
    return { query, chunks, used_docs: result.used_docs, used_sections: result.used_sections, latency_ms: latency, index_version: indexVersion, meta: result.meta };
  };
  return {
    'search/query': (req) => search(req.query, { ...(req.context ?? RetrieveContextSchema.parse({})), ...(req.mode ? { mode: req.mode } : {}) }, req.k),
    'search/tags': (req) => visibleTagCounts(store.db, { allowSensitivity: req.allow_sensitivity, sensitivityEnable: config.sensitivityEnable }, req.prefix, req.limit),
  } satisfies Handlers;
}
