/**
 * The retrieval pipeline: lexical ∥ dense → fusion → retrieval mode → rerank. The dense list is
 * started first (embedding the query runs off the main thread) and awaited with its own timeout
 * while the lexical list is computed; a list that fails or times out is named in `limits` and the
 * other one answers alone.
 */
import type { Database } from 'better-sqlite3';
import type { RetrievalResult, RetrievedChunk } from '../shared/contract.ts';
import type { Config } from './config.ts';
import type { Reranker } from './llm/reranker.ts';
import { withTimeout } from './llm/reranker.ts';
import { fuseReciprocalRank, fuseWeighted } from './retrieve/fusion.ts';
import { applyRetrievalMode } from './retrieve/modes.ts';
import type { SemanticIndex } from './semantic.ts';
import { allowedChunkIds, loadFilteredChunks, searchLexical, toRetrievedChunk, type LexicalFilters } from './search/lexical.ts';
import { buildFtsQuery } from './search/fts-query.ts';
import type { KnowledgeGraph } from './graph/links.ts';
import { graphList } from './retrieve/graph-list.ts';
import { highlightSnippet } from './search/snippet.ts';

/** Slots at the end of the top k that linked notes may take. */
export const GRAPH_SLOTS = 2;

export interface PipelineRequest {
  query: string;
  k: number;
  filters: LexicalFilters;
  mode: 'bm25' | 'dense' | 'hybrid';
  retrievalMode: 'doc_first' | 'section_first' | 'chunk_priority' | 'hybrid_only';
  maxDocs?: number;
  maxSections?: number;
  maxChunks?: number;
  minScore?: number;
  explain: boolean;
  enableRerank: boolean;
  /** Add the graph list to a hybrid fusion (default true). */
  useGraph?: boolean;
  /** How many of the fused candidates the reranker scores (default: config rerankTopN). */
  rerankTopN?: number;
  fusion: 'rrf' | 'weighted';
}

export interface PipelineDeps {
  db: Database;
  config: Config;
  semantic: SemanticIndex | null;
  reranker: Reranker | null;
  /** The link graph for this request's visibility, or null when there is none (graph list skipped). */
  graph?: (() => KnowledgeGraph | null) | undefined;
}

type Meta = RetrievalResult['meta'];

const ms = (t: number) => Math.round((performance.now() - t) * 100) / 100;

/** Candidates each list contributes to fusion: enough for the grouping modes and reranking to choose from. */
function poolSize(req: PipelineRequest, config: Config): number {
  return Math.min(1000, Math.max(req.k * 4, req.maxChunks ?? 0, req.rerankTopN ?? config.rerankTopN, 50));
}

async function denseList(deps: PipelineDeps, req: PipelineRequest, pool: number): Promise<RetrievedChunk[]> {
  const semantic = deps.semantic!;
  // A few more than the pool, for the ones filters hide; reading each row costs more than the search.
  const fetch = pool + Math.max(10, Math.ceil(pool / 5));
  const wait = { waitForRebuild: req.mode === 'dense' };
  const hits = await semantic.search(req.query, fetch, undefined, wait);
  let rows = loadFilteredChunks(deps.db, hits.map((h) => h.id), req.filters);
  let ranked = hits.filter((h) => rows.has(h.id));
  // Filters hid too many of the nearest: search again among the allowed chunks only.
  if (ranked.length < Math.min(pool, hits.length) && hits.length >= fetch) {
    const allowed = allowedChunkIds(deps.db, req.filters);
    const again = await semantic.search(req.query, pool, allowed, wait);
    rows = loadFilteredChunks(deps.db, again.map((h) => h.id), req.filters);
    ranked = again.filter((h) => rows.has(h.id));
  }
  const terms = buildFtsQuery(req.query).terms;
  return ranked.slice(0, pool).map((h) => toRetrievedChunk(rows.get(h.id)!, terms, Math.round(h.score * 1e4) / 1e4, false));
}

export async function runPipeline(deps: PipelineDeps, req: PipelineRequest): Promise<{ chunks: RetrievedChunk[]; meta: Meta; used_docs: RetrievalResult['used_docs']; used_sections: RetrievalResult['used_sections'] }> {
  const limits: string[] = [];
  const timings: Record<string, number> = {};
  const useDense = req.mode !== 'bm25';
  const useLexical = req.mode !== 'dense';
  const pool = req.mode === 'bm25' && !deps.reranker ? req.k : poolSize(req, deps.config);

  const t0 = performance.now();
  const densePromise = useDense
    ? withTimeout(denseList(deps, req, pool), deps.config.denseTimeoutMs).catch((error: unknown) => ({ error: error as Error }))
    : null;
  const tl = performance.now();
  const lexical = useLexical
    ? searchLexical(deps.db, req.query, { ...req.filters, k: pool, explain: req.explain, prune: deps.config.lexicalPruning, snippets: false })
    : null;
  if (lexical) timings.lexical_ms = ms(tl);
  let dense: RetrievedChunk[] | null = null;
  if (densePromise) {
    const outcome = await densePromise;
    timings.dense_ms = ms(t0);
    if ('value' in outcome) dense = outcome.value;
    else if ('timedOut' in outcome) limits.push(`dense retrieval timed out after ${deps.config.denseTimeoutMs} ms: lexical results only`);
    else limits.push(`dense retrieval failed: ${outcome.error.message}`);
  }

  const tf = performance.now();
  // Chunks are keyed by id: a locator repeats when the chunker splits one very long line.
  const keyOf = (c: RetrievedChunk) => (c.chunk_id !== undefined ? `#${c.chunk_id}` : c.locator);
  const byKey = new Map<string, RetrievedChunk>();
  const lexicalRanks = new Map<string, number>();
  const denseRanks = new Map<string, number>();
  lexical?.chunks.forEach((c, i) => {
    byKey.set(keyOf(c), c);
    lexicalRanks.set(keyOf(c), i + 1);
  });
  dense?.forEach((c, i) => {
    if (!byKey.has(keyOf(c))) byKey.set(keyOf(c), c);
    denseRanks.set(keyOf(c), i + 1);
  });
  const lists = [
    ...(lexical ? [{ name: 'lexical', items: lexical.chunks.map((c) => ({ id: keyOf(c), score: c.score })) }] : []),
    ...(dense ? [{ name: 'dense', items: dense.map((c) => ({ id: keyOf(c), score: c.score })) }] : []),
  ];
  const hybridUsed = lists.length > 1;
  let fused: { id: string; score: number }[];
  if (!hybridUsed) fused = lists[0]?.items ?? [];
  else if (req.fusion === 'weighted') fused = fuseWeighted(lists.find((l) => l.name === 'dense')!.items, lists.find((l) => l.name === 'lexical')!.items);
  else fused = fuseReciprocalRank(lists, deps.config.rrfK);
  let chunks = fused.map((f) => {
    const c = byKey.get(String(f.id))!;
    const ranks: NonNullable<RetrievedChunk['ranks']> = {};
    if (lexicalRanks.has(keyOf(c))) ranks.lexical = lexicalRanks.get(keyOf(c))!;
    if (denseRanks.has(keyOf(c))) ranks.dense = denseRanks.get(keyOf(c))!;
    return { ...c, score: hybridUsed ? Math.round(f.score * 1e6) / 1e6 : c.score, ranks };
  });
  if (hybridUsed) timings.fusion_ms = ms(tf);

  // The graph list: notes linked to the best documents so far, for questions that need two notes.
  // Its best candidates take the last slots of the top k (a fused third list would let chunks that
  // every list found weakly outrank the best answer); the ranking above them is untouched.
  let graphUsed = false;
  const graph = req.useGraph !== false && chunks.length > 0 ? deps.graph?.() : null;
  if (graph && graph.graph.size > 0) {
    const tg = performance.now();
    const slots = Math.min(GRAPH_SLOTS, Math.max(1, req.k - 2));
    const keep = Math.min(chunks.length, Math.max(0, req.k - slots));
    const present = new Set(chunks.slice(0, keep).map((c) => c.path));
    const linked = graphList(deps.db, graph, req.query, chunks, req.filters)
      .filter((c) => !present.has(c.path))
      .slice(0, slots);
    if (linked.length > 0) {
      const keys = new Set(linked.map(keyOf));
      const rest = chunks.filter((c) => !keys.has(keyOf(c)));
      // Scored between the chunks around their slot, so every later sort by score keeps them there.
      const above = rest[keep - 1]?.score;
      const below = rest[keep]?.score;
      const slotScore = above === undefined ? (below ?? 0) + 1e-9 : below === undefined ? above : above > below ? (above + below) / 2 : above + 1e-9;
      const inserted = linked.map((c, i) => ({ ...c, score: slotScore, ranks: { ...chunks.find((x) => keyOf(x) === keyOf(c))?.ranks, graph: i + 1 } }));
      chunks = [...rest.slice(0, keep), ...inserted, ...rest.slice(keep)];
      graphUsed = true;
    }
    timings.graph_ms = ms(tg);
  }

  let rerankUsed = false;
  if (req.enableRerank && deps.reranker && chunks.length > 1) {
    const tr = performance.now();
    const top = chunks.slice(0, req.rerankTopN ?? deps.config.rerankTopN);
    const outcome = await withTimeout(deps.reranker.rank(req.query, top.map((c) => c.text)), deps.config.rerankTimeoutMs).catch((error: unknown) => ({ error: error as Error }));
    timings.rerank_ms = ms(tr);
    if ('value' in outcome) {
      const order = top.map((c, i) => ({ c, s: outcome.value[i] ?? 0, i })).sort((a, b) => b.s - a.s || a.i - b.i);
      chunks = [...order.map(({ c, s }, i) => ({ ...c, score: Math.round(s * 1e6) / 1e6, ranks: { ...c.ranks, rerank: i + 1 } })), ...chunks.slice(top.length)];
      rerankUsed = true;
    } else if ('timedOut' in outcome) limits.push(`rerank timed out after ${deps.config.rerankTimeoutMs} ms: fused order kept`);
    else limits.push(`rerank failed: ${outcome.error.message}`);
  } else if (req.enableRerank && !deps.reranker && req.mode !== 'bm25') {
    limits.push('rerank: no rerank model configured');
  }

  if (req.minScore !== undefined) chunks = chunks.filter((c) => c.score >= req.minScore!);
  const shaped = applyRetrievalMode(chunks, {
    mode: req.retrievalMode,
    max_docs: req.maxDocs ?? Math.max(req.k, 20),
    max_sections: req.maxSections ?? Math.max(req.k, 50),
    max_chunks: Math.min(req.k, req.maxChunks ?? req.k),
  });
  // Snippets are built for the chunks returned only: 0.1 ms each, for pools of 50 from two lists.
  const marks = lexical?.query.terms ?? buildFtsQuery(req.query).terms;
  const finalChunks = shaped.chunks.map((c) => (c.snippet || c.chunk_id === undefined ? c : { ...c, snippet: highlightSnippet(c.text, lexical?.highlight.get(c.chunk_id) ?? marks) }));
  return {
    chunks: finalChunks,
    used_docs: shaped.used_docs,
    used_sections: shaped.used_sections,
    meta: {
      mode: req.mode,
      retrieval_mode: req.retrievalMode,
      terms: lexical?.query.terms ?? buildFtsQuery(req.query).terms,
      candidates: lexical?.candidates ?? dense?.length ?? 0,
      filtered: lexical?.filtered ?? 0,
      trigram_used: lexical?.trigramUsed ?? false,
      pruned: lexical?.pruned ?? false,
      hybrid_used: hybridUsed,
      graph_used: graphUsed,
      rerank_used: rerankUsed,
      timings,
      limits,
    },
  };
}
