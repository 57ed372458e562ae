/**
 * The search namespace: a query, the retrieval context that narrows it, and the ranked chunks.
 */
import { z } from 'zod';
import { LimitSchema } from './limits.ts';

export const MatchExplanationSchema = z.object({
  /** Which list found the chunk: the stemmed BM25 index or the trigram (substring) fallback. */
  via: z.enum(['bm25', 'trigram']),
  /** Query terms found in each field of the chunk. */
  fields: z.object({ title: z.array(z.string()), heading: z.array(z.string()), body: z.array(z.string()) }),
  /** Query terms the chunk does not contain. */
  missing: z.array(z.string()),
  rank: z.number().int(),
});
export type MatchExplanation = z.infer<typeof MatchExplanationSchema>;

export const RetrievedChunkSchema = z.object({
  /** The chunk's id in this index (unique; a locator may repeat when a very long line is split). */
  chunk_id: z.number().int().optional(),
  doc_id: z.string(),
  locator: z.string(),
  path: z.string(),
  /** The root folder the path is relative to. */
  root: z.string(),
  title: z.string(),
  heading: z.string().nullable(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  text: z.string(),
  /** The passage around the best matches, matches wrapped in « ». */
  snippet: z.string(),
  score: z.number(),
  tags: z.record(z.string(), z.string()),
  explain: MatchExplanationSchema.optional(),
  /** Section id (heading anchor) within the document, when the chunk lies under a heading. */
  section_id: z.string().nullable().optional(),
  /** Where each list ranked the chunk (1-based) before fusion and reranking. */
  ranks: z.object({ lexical: z.number().int().optional(), dense: z.number().int().optional(), graph: z.number().int().optional(), rerank: z.number().int().optional() }).optional(),
});
export type RetrievedChunk = z.infer<typeof RetrievedChunkSchema>;

export const RetrievalResultSchema = z.object({
  query: z.string(),
  chunks: z.array(RetrievedChunkSchema),
  latency_ms: z.number(),
  index_version: z.string(),
  used_docs: z.array(z.object({ doc_id: z.string(), score: z.number() })).default([]),
  used_sections: z.array(z.object({ section_id: z.string(), score: z.number() })).default([]),
  meta: z.object({
    mode: z.string(),
    retrieval_mode: z.string().default('hybrid_only'),
    /** The analyzed query terms that were searched. */
    terms: z.array(z.string()),
    candidates: z.number().int(),
    filtered: z.number().int(),
    trigram_used: z.boolean(),
    /** Common terms were left out of the MATCH and scored on the candidates (large indexes, small k). */
    pruned: z.boolean().default(false),
    hybrid_used: z.boolean().default(false),
    /** The query's detected language (ISO 639-1, und: unknown), when dense lists were considered. */
    query_language: z.string().optional(),
    /** The embedding models whose lists joined the fusion. */
    dense_models: z.array(z.string()).default([]),
    /** The retrieval profile used. */
    profile: z.string().optional(),
    /** With fused lists: the score of a chunk first in every list (fused scores divided by it fall in [0, 1]). */
    score_scale: z.number().optional(),
    /** Linked notes of the best documents joined the fusion as a third list. */
    graph_used: z.boolean().default(false),
    rerank_used: z.boolean().default(false),
    /** Milliseconds per stage: lexical, dense, fusion, rerank. */
    timings: z.record(z.string(), z.number()).default({}),
    /** What was skipped or degraded for this request (no model, timeout): a code and the words shown. */
    limits: z.array(LimitSchema).default([]),
  }),
});
export type RetrievalResult = z.infer<typeof RetrievalResultSchema>;

/** Which lists a search uses: lexical only, dense only, or both fused. */
export const SearchModeSchema = z.enum(['bm25', 'dense', 'hybrid']);
export type SearchMode = z.infer<typeof SearchModeSchema>;

export const RetrieveContextSchema = z
  .object({
    /** Sensitivity values the caller may see (e.g. ["restricted"]); restricted is hidden otherwise. */
    allow_sensitivity: z.array(z.string().min(1)).default([]),
    include_globs: z.array(z.string().min(1)).default([]),
    exclude_globs: z.array(z.string().min(1)).default([]),
    /** Document types: markdown, text, code, pdf, docx, html. */
    types: z.array(z.string().min(1)).default([]),
    /** Languages: a code language (typescript, python, ...) or a note's `lang` (ru, en). */
    languages: z.array(z.string().min(1)).default([]),
    /** Tags a chunk's document must carry (any of them). */
    tags: z.array(z.string().min(1)).default([]),
    /** Root folders to search (absolute paths as registered). */
    roots: z.array(z.string().min(1)).default([]),
    /** Drop results scoring below this (BM25 score for lexical search). */
    min_score: z.number().min(0).optional(),
    /** Attach a per-result explanation of what matched. */
    explain: z.boolean().default(false),
    /** Which lists to use: lexical only, dense only, or both fused. Default: hybrid when an embedding model works, else bm25. */
    mode: SearchModeSchema.optional(),
    /** How results are grouped before the cut: by document, by section, by chunk, or the plain fused list. */
    retrieval_mode: z.enum(['doc_first', 'section_first', 'chunk_priority', 'hybrid_only']).default('hybrid_only'),
    max_docs: z.number().int().min(1).max(1000).optional(),
    max_sections: z.number().int().min(1).max(1000).optional(),
    max_chunks: z.number().int().min(1).max(1000).optional(),
    /** Rerank the top candidates when a rerank model is configured. */
    enable_rerank: z.boolean().default(true),
    /** Add linked notes of the best documents as a third list in a hybrid fusion (multi-hop questions). */
    use_graph: z.boolean().default(true),
    /** How many fused candidates the reranker scores (default: the rerankTopN setting, 50). */
    rerank_top_n: z.number().int().min(1).max(1000).optional(),
    fusion: z.enum(['rrf', 'weighted']).optional(),
  })
  .strict();
export type RetrieveContext = z.input<typeof RetrieveContextSchema>;

/** The longest query or question any entry takes (CLI, RPC, MCP, library), with the one error that says so. */
export const MAX_QUERY_CHARS = 10_000;
export const QUERY_TOO_LONG = `query is longer than ${MAX_QUERY_CHARS.toLocaleString('en-US')} characters`;
export const QUESTION_TOO_LONG = `question is longer than ${MAX_QUERY_CHARS.toLocaleString('en-US')} characters`;

export const SearchRequestSchema = z
  .object({
    query: z.string().max(MAX_QUERY_CHARS, QUERY_TOO_LONG),
    k: z.number().int().min(1).max(1000).optional(),
    mode: SearchModeSchema.optional(),
    context: RetrieveContextSchema.optional(),
  })
  .strict();

/** The tags of the notes a caller may see, each with how many notes carry it, most used first. */
export const TagListSchema = z.object({
  tags: z.array(z.object({ tag: z.string(), count: z.number().int() })),
  /** Tags that match the prefix: more than the list holds when it was cut at limit. */
  total: z.number().int(),
});
export type TagList = z.infer<typeof TagListSchema>;

export const TagsRequestSchema = z
  .object({
    /** Only tags that start with this (case-insensitive; a leading # is ignored). */
    prefix: z.string().max(200, 'prefix is longer than 200 characters').default(''),
    limit: z.number().int().min(1, 'limit must be 1 to 1000').max(1000, 'limit must be 1 to 1000').default(50),
    allow_sensitivity: z.array(z.string().min(1)).default([]),
  })
  .strict();

export const searchMethods = {
  'search/query': { request: SearchRequestSchema, response: RetrievalResultSchema },
  'search/tags': { request: TagsRequestSchema, response: TagListSchema },
} as const;
