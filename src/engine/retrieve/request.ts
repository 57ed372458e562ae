/**
 * From a validated search request to the retrieval pipeline's request and dependencies: the
 * visibility filters, the mode (hybrid when an embedding model works, else bm25), the fusion of
 * the request, the settings or the profile. The context arrives parsed (at the engine boundary).
 */
import path from 'node:path';
import type { z } from 'zod';
import type { RetrieveContextSchema } from '../../shared/contract.ts';
import { createError } from '../../shared/errors.ts';
import type { Config } from '../core/config.ts';
import type { EventBus } from '../core/events.ts';
import type { GraphCache } from '../graph/cache.ts';
import type { DenseSource, PipelineDeps, PipelineRequest } from './hybrid.ts';
import type { Reranker } from '../llm/reranker.ts';
import type { LexicalThread } from '../search/lexical-thread.ts';
import { noteDenied } from '../search/lexical.ts';
import type { Store } from '../store/store.ts';
import type { RetrievalProfile } from './profile.ts';

/** A retrieval context after validation: every default filled in. */
export type ParsedRetrieveContext = z.output<typeof RetrieveContextSchema>;

export interface RetrievalServices {
  store: Store;
  config: Config;
  events: EventBus;
  dense: readonly DenseSource[];
  reranker: Reranker | null;
  graphs: GraphCache;
  lexicalThread: LexicalThread | null;
  profile: RetrievalProfile;
}

/** The pipeline's dependencies and request for a query (search and the unfused lists share it). */
export function pipelineArgs(services: RetrievalServices, query: string, ctx: ParsedRetrieveContext, k: number | undefined, profile: RetrievalProfile = services.profile) {
  const { store, config, events, dense } = services;
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
  const hasModel = dense.length > 0;
  const denseReady = dense.some((d) => d.index.unavailable === null);
  if (ctx.mode === 'dense' && !hasModel) {
    throw createError('E_SYN_MODEL_UNAVAILABLE', 'Dense retrieval needs an embedding model: synapsis models add <file.gguf> --role embed');
  }
  const mode = ctx.mode ?? (denseReady ? 'hybrid' : 'bm25');
  const deps: PipelineDeps = { db: store.db, config, dense, profile, reranker: services.reranker, graph: () => services.graphs.reader(ctx.allow_sensitivity), lexicalThread: services.lexicalThread };
  const req: PipelineRequest = {
    query,
    k: k ?? config.topK,
    filters,
    mode: mode === 'hybrid' && !hasModel ? 'bm25' : mode,
    retrievalMode: ctx.retrieval_mode,
    ...(ctx.max_docs !== undefined ? { maxDocs: ctx.max_docs } : {}),
    ...(ctx.max_sections !== undefined ? { maxSections: ctx.max_sections } : {}),
    ...(ctx.max_chunks !== undefined ? { maxChunks: ctx.max_chunks } : {}),
    ...(ctx.min_score !== undefined ? { minScore: ctx.min_score } : {}),
    explain: ctx.explain,
    enableRerank: ctx.enable_rerank,
    useGraph: ctx.use_graph,
    ...(ctx.rerank_top_n !== undefined ? { rerankTopN: ctx.rerank_top_n } : {}),
    fusion: ctx.fusion ?? config.fusion ?? profile.fusion,
  };
  return { deps, req, mode };
}
