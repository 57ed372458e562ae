/**
 * The retrieval pipeline: lexical ∥ dense → fusion → retrieval mode → rerank. The dense list is
 * started first (embedding the query runs off the main thread) and awaited with its own timeout
 * while the lexical list is computed (on large vaults by the lexical thread, search/lexical-thread.ts,
 * so that it overlaps the vector searches too); a list that fails or times out is named in `limits`
 * and the other one answers alone.
 */
import { limit, type Limit, type RetrievalResult, type RetrievedChunk } from '../../shared/contract.ts';
import type { Config } from '../core/config.ts';
import type { Reranker } from '../llm/reranker.ts';
import { withTimeout } from '../llm/reranker.ts';
import { DEFAULT_FUSION_WEIGHTS, effectiveNormalization, fuseReciprocalRank, fuseWeightedLists, normalizeZScore, type RankedList } from './fusion.ts';
import { aggregateScores } from './modes.ts';
import { denseWeight, type RetrievalProfile } from './profile.ts';
import { detectLanguage, languageCovered } from '../lang/detect.ts';
import { expansionTerms } from '../search/prf.ts';
import { isStopword, tokenize } from '../search/analyzer.ts';
import { queryLanguages, termStats } from '../search/lexical.ts';
import { tableStats } from '../search/bm25.ts';
import type { ReadConnection } from '../store/connection.ts';
import type { LexicalThread } from '../search/lexical-thread.ts';
import { applyRetrievalMode } from './modes.ts';
import type { SemanticIndex } from '../vector/semantic.ts';
import { allowedChunkIds, ftsQueryFor, loadFilteredChunks, searchLexical, toRetrievedChunk, type LexicalFilters } from '../search/lexical.ts';
import type { LinkGraph } from '../graph/stored.ts';
import { graphList } from './graph-list.ts';
import { highlightSnippet } from '../search/snippet.ts';

/** Chunks are keyed by id: a locator repeats when the chunker splits one very long line. */
const keyOf = (c: RetrievedChunk) => (c.chunk_id !== undefined ? `#${c.chunk_id}` : c.locator);

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

/** One embedding model's list: its vector index and the languages it covers. */
export interface DenseSource {
  /** The model's name: profiles weight models by name, and meta names the ones used. */
  name: string;
  /** ISO 639-1 codes the model covers; '*' for all. */
  languages: readonly string[];
  index: SemanticIndex;
}

export interface PipelineDeps {
  db: ReadConnection;
  config: Config;
  /** Every embedding model's list; a query uses those covering its language. */
  dense: readonly DenseSource[];
  /** Fusion weights, depths and query techniques. */
  profile: RetrievalProfile;
  reranker: Reranker | null;
  /** The link graph for this request's visibility, read where it is stored; null: the graph list is skipped. */
  graph?: (() => LinkGraph | null) | undefined;
  /** The worker thread for the lexical list of large vaults; absent: always computed here. */
  lexicalThread?: LexicalThread | null;
}

type Meta = RetrievalResult['meta'];

const ms = (t: number) => Math.round((performance.now() - t) * 100) / 100;

/** Candidates each list contributes to fusion: enough for the grouping modes and reranking to choose from. */
function poolSize(req: PipelineRequest, config: Config): number {
  return Math.min(1000, Math.max(req.k * 4, req.maxChunks ?? 0, req.rerankTopN ?? config.rerankTopN, 50));
}

async function denseList(deps: PipelineDeps, semantic: SemanticIndex, req: PipelineRequest, pool: number): Promise<RetrievedChunk[]> {
  // A few more than the pool, for the ones filters hide; reading each row costs more than the search.
  const fetch = pool + Math.max(10, Math.ceil(pool / 5));
  const prf = deps.profile.techniques.dense_prf;
  const wait = { waitForRebuild: req.mode === 'dense', chunkShare: deps.profile.chunk_share, ...(prf ? { feedback: prf } : {}) };
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
  // No snippet here: the fused result's snippets are built once, for the chunks returned (query.shown below).
  return ranked.slice(0, pool).map((h) => toRetrievedChunk(rows.get(h.id)!, [], Math.round(h.score * 1e4) / 1e4, false));
}

/** The lists of one query before fusion: lexical, its expansion, and each routed dense list. */
export interface GatheredLists {
  lexical: ReturnType<typeof searchLexical> | null;
  /** The text the lexical list searched for (the query, or the query without its common words). */
  lexicalQuery: string;
  expansion: RetrievedChunk[] | null;
  denseLists: { source: DenseSource; chunks: RetrievedChunk[] }[];
  language: string | null;
  useLexical: boolean;
  limits: Limit[];
  timings: Record<string, number>;
}

/** Runs the retrievers of a request (lexical ∥ dense, then feedback) without fusing them. */
export async function gatherLists(deps: PipelineDeps, req: PipelineRequest): Promise<GatheredLists> {
  const limits: Limit[] = [];
  const timings: Record<string, number> = {};
  const profile = deps.profile;
  const wantDense = req.mode !== 'bm25';
  const useLexical = req.mode !== 'dense';
  const base = req.mode === 'bm25' && !deps.reranker ? req.k : poolSize(req, deps.config);
  const lexicalPool = req.mode === 'bm25' ? base : Math.min(1000, Math.max(base, profile.depth.lexical));
  const densePool = Math.min(1000, Math.max(base, profile.depth.dense));

  // Language routing: each embedding model answers only queries in a language it covers (an
  // English-only model ranks a Russian query near randomly and would drag the fusion down).
  const language = wantDense && deps.dense.length > 0 ? detectLanguage(req.query).lang : null;
  const routed = language === null ? [] : deps.dense.filter((d) => languageCovered(language, d.languages));
  if (language !== null && routed.length < deps.dense.length) {
    const left = deps.dense.filter((d) => !routed.includes(d));
    limits.push(
      routed.length === 0
        ? limit('language_uncovered', `no embedding model covers the query's language (${language}): ${left.map((d) => `${d.name} covers ${d.languages.join(', ')}`).join('; ')}; lexical results only`)
        : limit('language_model_left_out', `${left.map((d) => d.name).join(', ')} left out: not trained on the query's language (${language})`),
    );
  }
  // Dense-only requests with no covering model still run (the caller asked for them), flagged above.
  const sources = req.mode === 'dense' && routed.length === 0 ? deps.dense : routed;

  const longQuery = profile.techniques.long_query;
  const lexicalQuery = longQuery ? withoutCommonWords(deps.db, req.query, longQuery.min_terms, longQuery.min_idf) : req.query;
  const wantLexical = useLexical || (req.mode === 'dense' && sources.length === 0);
  const lexicalOptions = { ...req.filters, k: lexicalPool, explain: req.explain, prune: deps.config.lexicalPruning, snippets: false };
  // On a large vault the lexical list is computed on its worker thread while this one searches the
  // vector indexes; a request the worker cannot answer runs here afterwards.
  const thread = wantLexical && sources.length > 0 && deps.lexicalThread && tableStats(deps.db, 'chunks_fts').rows >= deps.config.lexicalThreadMinChunks ? deps.lexicalThread : null;
  const threaded = thread?.ready() ? thread.search(lexicalQuery, lexicalOptions).catch(() => null) : null;

  const t0 = performance.now();
  const densePromises = sources.map((source) =>
    withTimeout(denseList(deps, source.index, req, densePool), deps.config.denseTimeoutMs).catch((error: unknown) => ({ error: error as Error })),
  );
  let lexical: ReturnType<typeof searchLexical> | null = null;
  const runHere = () => {
    const tl = performance.now();
    lexical = searchLexical(deps.db, lexicalQuery, lexicalOptions);
    timings.lexical_ms = ms(tl);
  };
  if (wantLexical && !threaded) runHere();
  const denseLists: { source: DenseSource; chunks: RetrievedChunk[] }[] = [];
  if (densePromises.length > 0) {
    const outcomes = await Promise.all(densePromises);
    timings.dense_ms = ms(t0);
    outcomes.forEach((outcome, i) => {
      const source = sources[i]!;
      const label = sources.length > 1 ? `dense retrieval (${source.name})` : 'dense retrieval';
      if ('value' in outcome) denseLists.push({ source, chunks: outcome.value });
      else if ('timedOut' in outcome) limits.push(limit('dense_timed_out', `${label} timed out after ${deps.config.denseTimeoutMs} ms: ${sources.length > 1 ? 'left out' : 'lexical results only'}`));
      else limits.push(limit('dense_failed', `${label} failed: ${outcome.error.message}`));
    });
  }

  if (threaded) {
    const tw = performance.now();
    const answer = await threaded;
    timings.lexical_wait_ms = ms(tw);
    if (answer) {
      lexical = answer.result;
      timings.lexical_ms = answer.ms;
    } else runHere();
  }
  // Pseudo-relevance feedback, lexical side: terms typical of the best chunks, searched as a list of their own.
  let expansion: RetrievedChunk[] | null = null;
  const lexicalPrf = profile.techniques.lexical_prf;
  if (lexical && lexicalPrf && req.mode !== 'bm25' && lexical.chunks.length > 0) {
    const tp = performance.now();
    const terms = expansionTerms(deps.db, lexical.chunks.slice(0, lexicalPrf.docs), lexical.query.terms, lexicalPrf.terms, lexical.query.languages[0]);
    if (terms.length > 0) expansion = searchLexical(deps.db, terms.join(' '), { ...req.filters, k: lexicalPool, prune: deps.config.lexicalPruning, snippets: false }).chunks;
    timings.prf_ms = ms(tp);
  }
  return { lexical, expansion, denseLists, language, useLexical, limits, timings, lexicalQuery };
}

export async function runPipeline(deps: PipelineDeps, req: PipelineRequest): Promise<{ chunks: RetrievedChunk[]; meta: Meta; used_docs: RetrievalResult['used_docs']; used_sections: RetrievalResult['used_sections'] }> {
  const { lexical, expansion, denseLists, language, useLexical, limits, timings, lexicalQuery } = await gatherLists(deps, req);
  const profile = deps.profile;
  const tf = performance.now();
  const { chunks: fusedChunks, hybridUsed, fusedScores, scoreScale } = fuseLists({ lexical, expansion, denseLists, useLexical }, profile, { fusion: req.fusion, ...(deps.config.rrfK !== undefined ? { rrfK: deps.config.rrfK } : {}) });
  let chunks = fusedChunks;
  if (fusedScores) timings.fusion_ms = ms(tf);

  // The graph list: notes linked to the best documents so far, for questions that need two notes.
  // Its best candidates take the last slots of the top k (a fused third list would let chunks that
  // every list found weakly outrank the best answer); the ranking above them is untouched.
  let graphUsed = false;
  const graph = req.useGraph !== false && chunks.length > 0 ? deps.graph?.() : null;
  if (graph?.hasRelations()) {
    const tg = performance.now();
    const slots = Math.min(GRAPH_SLOTS, Math.max(1, req.k - 2));
    const keep = Math.min(chunks.length, Math.max(0, req.k - slots));
    const present = new Set(chunks.slice(0, keep).map((c) => c.path));
    // The question as the lexical list parsed it, where it searched the question itself.
    const parsed = lexical && lexicalQuery === req.query ? lexical.query : undefined;
    const linked = graphList(deps.db, graph, req.query, chunks, req.filters, {}, parsed)
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
    } else if ('timedOut' in outcome) limits.push(limit('rerank_timed_out', `rerank timed out after ${deps.config.rerankTimeoutMs} ms: fused order kept`));
    else limits.push(limit('rerank_failed', `rerank failed: ${outcome.error.message}`));
  } else if (req.enableRerank && !deps.reranker && req.mode !== 'bm25') {
    limits.push(limit('no_rerank_model', 'rerank: no rerank model configured'));
  }

  if (req.minScore !== undefined) chunks = chunks.filter((c) => c.score >= req.minScore!);
  const shaped = applyRetrievalMode(chunks, {
    mode: req.retrievalMode,
    max_docs: req.maxDocs ?? Math.max(req.k, 20),
    max_sections: req.maxSections ?? Math.max(req.k, 50),
    max_chunks: Math.min(req.k, req.maxChunks ?? req.k),
  });
  // Snippets are built for the chunks returned only: 0.1 ms each, for pools of 50 from two lists.
  const query = lexical?.query ?? ftsQueryFor(deps.db, req.query, req.filters);
  const marks = query.shown;
  const finalChunks = shaped.chunks.map((c) => (c.snippet || c.chunk_id === undefined ? c : { ...c, snippet: highlightSnippet(c.text, lexical?.highlight.get(c.chunk_id) ?? marks, undefined, query.languages) }));
  return {
    chunks: finalChunks,
    used_docs: shaped.used_docs,
    used_sections: shaped.used_sections,
    meta: {
      mode: req.mode,
      retrieval_mode: req.retrievalMode,
      terms: marks,
      candidates: lexical?.candidates ?? denseLists[0]?.chunks.length ?? 0,
      filtered: lexical?.filtered ?? 0,
      trigram_used: lexical?.trigramUsed ?? false,
      pruned: lexical?.pruned ?? false,
      hybrid_used: hybridUsed,
      ...(language !== null ? { query_language: language } : {}),
      dense_models: denseLists.map((d) => d.source.name),
      ...(scoreScale ? { score_scale: Math.round(scoreScale * 1e6) / 1e6 } : {}),
      profile: profile.name,
      graph_used: graphUsed,
      rerank_used: rerankUsed,
      timings,
      limits,
    },
  };
}

/**
 * Fuses gathered lists as a profile says (weights, RRF k or weighted sum, the expansion list,
 * document scoring). Pure: `synapsis tune` calls it with many profiles over lists gathered once.
 */
export function fuseLists(
  g: Pick<GatheredLists, 'lexical' | 'expansion' | 'denseLists' | 'useLexical'>,
  profile: RetrievalProfile,
  options: { fusion: 'rrf' | 'weighted'; rrfK?: number },
): { chunks: (RetrievedChunk & { ranks: NonNullable<RetrievedChunk['ranks']> })[]; hybridUsed: boolean; fusedScores: boolean; scoreScale: number | null } {
  const { lexical, expansion, denseLists, useLexical } = g;
  const lexicalPrf = profile.techniques.lexical_prf;
  // Fusion counts each list's best `depth` candidates only, however deep the request fetched: the
  // same query then fuses the same way for an interactive k of 8 and for an evaluation's 150.
  // A single list (no fusion) keeps all it found.
  const single = (lexical && (useLexical || denseLists.length === 0) ? 1 : 0) + denseLists.length === 1 && !(expansion && lexicalPrf && lexicalPrf.weight > 0);
  const deep = (depth: number) => (single ? Infinity : depth);
  const byKey = new Map<string, RetrievedChunk>();
  const lexicalRanks = new Map<string, number>();
  const denseRanks = new Map<string, number>();
  lexical?.chunks.forEach((c, i) => {
    byKey.set(keyOf(c), c);
    lexicalRanks.set(keyOf(c), i + 1);
  });
  for (const { chunks: list } of denseLists) {
    list.forEach((c, i) => {
      if (!byKey.has(keyOf(c))) byKey.set(keyOf(c), c);
      if (!(denseRanks.get(keyOf(c))! <= i + 1)) denseRanks.set(keyOf(c), i + 1);
    });
  }
  expansion?.forEach((c) => {
    if (!byKey.has(keyOf(c))) byKey.set(keyOf(c), c);
  });
  const weighted = options.fusion === 'weighted';
  // The request's fusion kind wins; without a fitted weighted profile, weighted fusion keeps 0.7 dense / 0.3 lexical.
  const legacyWeights = weighted && profile.fusion !== 'weighted';
  const lists: RankedList<string>[] = [
    ...(lexical && (useLexical || denseLists.length === 0)
      ? [{ name: 'lexical', weight: legacyWeights ? DEFAULT_FUSION_WEIGHTS.sparse : profile.weights.lexical, items: lexical.chunks.slice(0, deep(profile.depth.lexical)).map((c) => ({ id: keyOf(c), score: c.score })) }]
      : []),
    ...denseLists.map(({ source, chunks: list }) => ({
      name: `dense:${source.name}`,
      weight: legacyWeights ? DEFAULT_FUSION_WEIGHTS.dense / denseLists.length : denseWeight(profile, source.name),
      items: list.slice(0, deep(profile.depth.dense)).map((c) => ({ id: keyOf(c), score: c.score })),
    })),
    ...(expansion && lexicalPrf && lexicalPrf.weight > 0 ? [{ name: 'lexical_prf', weight: lexicalPrf.weight, items: expansion.slice(0, deep(profile.depth.lexical)).map((c) => ({ id: keyOf(c), score: c.score })) }] : []),
  ];
  const hybridUsed = lists.length > 1 && denseLists.length > 0;
  const fuse = (input: RankedList<string>[]): { id: string; score: number }[] =>
    input.length === 1 ? [...input[0]!.items] : weighted ? fuseWeightedLists(input, legacyWeights ? 'minmax' : profile.normalize) : fuseReciprocalRank(input, options.rrfK ?? profile.rrf_k);
  const fused = fuse(lists);
  const fusedScores = lists.length > 1;
  // The fused score of a chunk first in every list: what a confidence in [0, 1] divides by.
  const normalize = effectiveNormalization(lists, legacyWeights ? 'minmax' : profile.normalize);
  const scoreScale = !fusedScores
    ? null
    : lists.reduce((sum, l) => {
        const w = l.weight ?? 1;
        if (!weighted) return sum + w / ((options.rrfK ?? profile.rrf_k) + 1);
        if (normalize === 'minmax') return sum + w;
        return sum + w * Math.max(0, ...normalizeZScore(l.items).values());
      }, 0);
  const chunks = fused.map((f) => {
    const c = byKey.get(String(f.id))!;
    const ranks: NonNullable<RetrievedChunk['ranks']> = {};
    if (lexicalRanks.has(keyOf(c))) ranks.lexical = lexicalRanks.get(keyOf(c))!;
    if (denseRanks.has(keyOf(c))) ranks.dense = denseRanks.get(keyOf(c))!;
    return { ...c, score: fusedScores ? Math.round(f.score * 1e6) / 1e6 : c.score, ranks };
  });
  // A document's passages vouch for each other: ordered by their document's aggregate score (sum),
  // or by fusing the lists at document level (fuse: a document's best chunk in each list stands for
  // it there, so a document the lexical list finds by one passage and a dense list by another gets
  // both lists' credit, which chunk-level fusion splits between two chunks).
  const docScore = profile.techniques.doc_score;
  let ordered = chunks;
  if (docScore?.kind === 'sum' && chunks.length > 1) ordered = orderByDocument(chunks, docScore.tail);
  else if (docScore?.kind === 'fuse' && fusedScores) {
    const docOf = (id: string) => byKey.get(id)!.doc_id;
    const docLists = lists.map((l) => {
      const seen = new Set<string>();
      return { ...l, items: l.items.flatMap((item) => (seen.has(docOf(item.id)) ? [] : (seen.add(docOf(item.id)), [{ id: docOf(item.id), score: item.score }]))) };
    });
    const byDoc = new Map(fuse(docLists).map((d) => [d.id, d.score]));
    ordered = orderByDocument(chunks, 0, (doc) => byDoc.get(doc) ?? -Infinity);
  }

  return { chunks: ordered, hybridUsed, fusedScores, scoreScale };
}

/**
 * Chunks reordered by their document's score (best chunk plus `tail` times each of the next two),
 * each document's chunks together in their own order; documents that tie keep the order in which
 * they first appeared. Scores are rewritten to strictly decrease along that order, so a later sort
 * by score keeps it.
 */
export function orderByDocument<C extends RetrievedChunk>(chunks: readonly C[], tail: number, scoreOf?: (docId: string) => number): C[] {
  const byDoc = new Map<string, C[]>();
  for (const c of chunks) {
    const list = byDoc.get(c.doc_id);
    if (list) list.push(c);
    else byDoc.set(c.doc_id, [c]);
  }
  const docs = [...byDoc.values()].map((list, first) => ({ list, first, score: scoreOf ? scoreOf(list[0]!.doc_id) : aggregateScores(list.map((c) => c.score), tail) }));
  docs.sort((x, y) => y.score - x.score || x.first - y.first);
  const out: C[] = [];
  let previous = Infinity;
  for (const { list, score } of docs) {
    for (const c of list) {
      const next = Number.isFinite(score) ? Math.min(score, previous - 1e-9) : previous - 1e-9;
      out.push({ ...c, score: next });
      previous = next;
    }
  }
  return out;
}

/**
 * A long query without its common words: a 20-word claim OR-ed together lets words found in a
 * tenth of the index pull in passages that share nothing else with it. Short queries, quoted
 * phrases and prefix queries are left as they are; at least half of the words always stay.
 */
export function withoutCommonWords(db: ReadConnection, query: string, minTerms: number, minIdf: number): string {
  if (query.includes('"') || query.includes('*')) return query;
  const [lang] = queryLanguages(db, query);
  const words = tokenize(query, lang).filter((t) => !isStopword(t.raw, lang));
  if (words.length < minTerms) return query;
  const stats = termStats(db, words.map((w) => w.term));
  const ranked = [...words].sort((a, b) => (stats.get(b.term)?.idf ?? 0) - (stats.get(a.term)?.idf ?? 0));
  const keep = new Set(ranked.filter((w, i) => i < Math.ceil(words.length / 2) || (stats.get(w.term)?.idf ?? 0) >= minIdf).map((w) => w.term));
  return words.filter((w) => keep.has(w.term)).map((w) => w.raw).join(' ');
}
