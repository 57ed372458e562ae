/**
 * The one RPC contract (DESIGN.md §2): method name -> request and response schemas, plus typed
 * events. Every transport (CLI, IPC over MessagePort, WebSocket, MCP) is a thin adapter over
 * this map; requests are validated with these schemas at the engine boundary.
 */
import { z } from 'zod';

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
    /** What was skipped or degraded for this request (no model, timeout), in words. */
    limits: z.array(z.string()).default([]),
  }),
});
export type RetrievalResult = z.infer<typeof RetrievalResultSchema>;

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
    mode: z.enum(['bm25', 'dense', 'hybrid']).optional(),
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
    mode: z.enum(['bm25', 'dense', 'hybrid']).optional(),
    context: RetrieveContextSchema.optional(),
  })
  .strict();

export const RootSchema = z.object({
  id: z.number().int(),
  path: z.string(),
  include: z.array(z.string()),
  exclude: z.array(z.string()),
  added_at: z.string(),
});
export type Root = z.infer<typeof RootSchema>;

export const IndexRequestSchema = z
  .object({
    /** Folders or files to index; folders become roots. Empty: re-index every registered root. */
    sources: z.array(z.string().min(1)).default([]),
  })
  .strict();

export const FileIssueSchema = z.object({
  path: z.string(),
  /** warning: indexed, but not all of it as written (front matter ignored, text cut, bytes replaced). */
  status: z.enum(['skipped', 'failed', 'warning']),
  reason: z.string(),
  code: z.string().optional(),
});
export type FileIssue = z.infer<typeof FileIssueSchema>;

export const IndexReportSchema = z.object({
  roots: z.array(z.string()),
  files_seen: z.number().int(),
  indexed: z.number().int(),
  unchanged: z.number().int(),
  removed: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  chunks_added: z.number().int(),
  chunks_total: z.number().int(),
  duration_ms: z.number(),
  issues: z.array(FileIssueSchema),
  /** Chunk inputs embedded in this run, failed, and still waiting (0 without an embedding model). */
  embedded: z.number().int().default(0),
  embed_failed: z.number().int().default(0),
  embed_pending: z.number().int().default(0),
});
export type IndexReport = z.infer<typeof IndexReportSchema>;

export const HealthReportSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  degradations: z.array(z.string()),
  data_dir: z.string(),
  schema_version: z.number().int(),
  index_version: z.string(),
  roots: z.array(RootSchema),
  documents: z.object({
    total: z.number().int(),
    indexed: z.number().int(),
    skipped: z.number().int(),
    failed: z.number().int(),
    by_type: z.record(z.string(), z.number().int()),
  }),
  chunks: z.number().int(),
  /** Files queued by an interrupted run; the next index or watch finishes them. */
  pending_jobs: z.number().int(),
  issues: z.array(FileIssueSchema),
  models: z.object({
    embed: z.object({ id: z.string(), name: z.string(), path: z.string() }).nullable(),
    chat: z.object({ id: z.string(), name: z.string(), path: z.string() }).nullable(),
    rerank: z.object({ id: z.string(), name: z.string(), path: z.string() }).nullable(),
    gpu: z.union([z.string(), z.literal(false)]),
    threads: z.number().int(),
    /** Every embedding model in use, primary first, with the languages each answers queries in. */
    embedders: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          languages: z.array(z.string()),
          vectors: z.number().int(),
          pending: z.number().int(),
          unavailable: z.string().nullable(),
          /** Sentence vectors of this model (null when they are off): stored, and sentences still waiting. */
          sentences: z.object({ vectors: z.number().int(), pending: z.number().int() }).nullable().default(null),
        }),
      )
      .default([]),
  }),
  /** The retrieval profile in use (fusion weights and query techniques). */
  profile: z.string().default('default'),
  /** Chunks per detected language (ISO 639-1; und: not detected), most first. */
  languages: z.array(z.object({ lang: z.string(), chunks: z.number().int() })).default([]),
  vectors: z.object({ count: z.number().int(), dimension: z.number().int(), backend: z.string().nullable(), pending: z.number().int() }),
  config: z.record(z.string(), z.unknown()),
});
export type HealthReport = z.infer<typeof HealthReportSchema>;

export const AnswerRequestSchema = z
  .object({
    query: z.string().min(1, 'question is empty').max(MAX_QUERY_CHARS, QUESTION_TOO_LONG),
    /** Passages retrieved before the context is packed. */
    k: z.number().int().min(1).max(100).optional(),
    mode: z.enum(['bm25', 'dense', 'hybrid']).optional(),
    context: RetrieveContextSchema.optional(),
    /** Run the critic (deterministic checks always run). */
    critic: z.boolean().default(true),
  })
  .strict();
export type AnswerRequest = z.input<typeof AnswerRequestSchema>;

const VerdictSchema = z.enum(['APPROVE', 'REVISE', 'REJECT']);

export const AnswerEnvelopeSchema = z.object({
  trace_id: z.string(),
  query: z.string(),
  answer: z.string(),
  /** generative: written by the chat model; extractive: best sentences of the sources (no chat model); abstained: not found. */
  answer_mode: z.enum(['generative', 'extractive', 'abstained']),
  /**
   * Does the answer answer the question? answered: every part of it, with the fact; partial: some
   * part is missing (named in `missing_parts`); not_found: the notes do not hold it (an abstention).
   */
  outcome: z.enum(['answered', 'partial', 'not_found']).default('not_found'),
  /** The parts of the question the notes leave open (a partial answer), as the question wrote them. */
  missing_parts: z.array(z.string()).default([]),
  /** Question words that no quoted sentence (nor its note's title) holds, rarest first. */
  missing_terms: z.array(z.string()).default([]),
  snippets: z.array(
    z.object({
      n: z.number().int(),
      locator: z.string(),
      path: z.string(),
      start_line: z.number().int(),
      end_line: z.number().int(),
      doc_id: z.string(),
      title: z.string(),
      heading: z.string().nullable(),
      text: z.string(),
      score: z.number(),
    }),
  ),
  citations: z.array(
    z.object({
      n: z.number().int(),
      locator: z.string(),
      path: z.string(),
      start_line: z.number().int(),
      end_line: z.number().int(),
      doc_id: z.string(),
      /** The file changed (or is gone) since it was indexed: the lines may have moved. */
      stale: z.boolean(),
    }),
  ),
  plan: z.object({
    mode: z.string(),
    k_lexical: z.number().int(),
    k_dense: z.number().int(),
    rerank_k: z.number().int(),
    context_tokens: z.number().int(),
    synth_tokens: z.number().int(),
  }),
  limits: z.array(z.string()),
  confidence: z.number().min(0).max(1),
  low_confidence: z.boolean(),
  verdict: VerdictSchema.nullable(),
  critic: z.object({
    decided_by: z.enum(['deterministic', 'model', 'skipped']),
    retried: z.boolean(),
    feedback: z.string(),
    sentences: z.array(z.object({ sentence: z.string(), citations: z.array(z.number().int()), supported: z.boolean(), reason: z.string().nullable() })),
  }),
  /** What was searched, shown with an abstention too. */
  searched: z.object({
    query: z.string(),
    terms: z.array(z.string()),
    results: z.number().int(),
    top: z.array(z.string()),
    /** With an abstention: the sentences of the sources closest to the question, quoted, not offered as an answer. */
    closest: z.array(z.object({ text: z.string(), locator: z.string() })).default([]),
  }),
  /** Citation numbers the model wrote that match no snippet; removed from the answer. */
  removed_citations: z.array(z.number().int()),
  cancelled: z.boolean(),
  timings: z.record(z.string(), z.number()),
  tokens: z.object({ in: z.number().int(), out: z.number().int(), first_token_ms: z.number().nullable(), per_s: z.number() }),
});
export type AnswerEnvelope = z.infer<typeof AnswerEnvelopeSchema>;

export const SourceRequestSchema = z
  .object({
    /** A locator as results print it: `notes/a.md#L3-L9` (also `path:3-9`, or a bare path for the whole file). */
    locator: z.string().min(1, 'locator is empty').max(4096, 'locator is longer than 4096 characters'),
    allow_sensitivity: z.array(z.string().min(1)).default([]),
  })
  .strict();

/** The exact lines behind a locator: the file's own lines, or the indexed text when the file changed or is a PDF/DOCX/HTML. */
export const SourceLinesSchema = z.object({
  locator: z.string(),
  doc_id: z.string(),
  path: z.string(),
  root: z.string(),
  uri: z.string(),
  type: z.string(),
  language: z.string().nullable(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  text: z.string(),
  /** The file changed or vanished since it was indexed: these are the lines as indexed. */
  stale: z.boolean(),
  /** The range was longer than the 500 lines served at once. */
  truncated: z.boolean(),
});
export type SourceLines = z.infer<typeof SourceLinesSchema>;

/** An entity's neighbourhood in the link graph; each edge carries the locator of the line that makes it. */
export const GraphNodeSchema = z.object({
  id: z.string(),
  label: z.string(),
  kind: z.enum(['note', 'tag', 'entity']),
  /** 'note', or the entity's type: person, project, organization, entity (a name), date, module, symbol, section, status, … */
  type: z.string(),
  /** Distance from the start (hops), or the position on a path. */
  hops: z.number().int(),
  /** The note's path; null for entities and tags. */
  locator: z.string().nullable(),
  degree: z.number().int(),
});
export type GraphNode = z.infer<typeof GraphNodeSchema>;
/** One stated relation: labels and ids of both ends in reading order, and the lines that state it. */
export const GraphEdgeSchema = z.object({
  source: z.string(),
  target: z.string(),
  source_id: z.string(),
  target_id: z.string(),
  relation: z.string(),
  locator: z.string(),
  /** 'rule': links, tags, front matter, names; 'llm': extracted by the chat model. */
  origin: z.enum(['rule', 'llm']),
});
export type GraphEdge = z.infer<typeof GraphEdgeSchema>;
export const GraphViewSchema = z.object({ nodes: z.array(GraphNodeSchema), edges: z.array(GraphEdgeSchema) });
export type GraphView = z.infer<typeof GraphViewSchema>;

export const GraphNeighborsSchema = GraphViewSchema.extend({
  entity: z.string(),
  found: z.boolean(),
  /** Where the notes name the entity (not a note itself): the lines, in note order, at most 50. */
  mentioned_in: z.array(z.object({ path: z.string(), line: z.number().int(), locator: z.string() })),
  /** With found false: names in the graph that contain the asked one. */
  suggestions: z.array(z.string()),
});
export const GraphPathSchema = GraphViewSchema.extend({
  from: z.string(),
  to: z.string(),
  found: z.boolean(),
  /** The names that match nothing in the graph (found false); empty when both exist but nothing joins them. */
  missing: z.array(z.string()),
  suggestions: z.array(z.string()),
});
export type GraphPath = z.infer<typeof GraphPathSchema>;
export const GraphOverviewSchema = z.object({
  notes: z.number().int(),
  entities: z.number().int(),
  tags: z.number().int(),
  edges: z.number().int(),
  /** PageRank over the whole graph, highest first. */
  central: z.array(GraphNodeSchema.extend({ score: z.number() })),
  /** Louvain communities, largest first, each with its most central members. */
  communities: z.array(z.object({ id: z.number().int(), size: z.number().int(), notes: z.number().int(), members: z.array(z.string()) })),
});
export type GraphOverview = z.infer<typeof GraphOverviewSchema>;
/** What a run of the model stage of graph extraction did (graph/extract). */
export const GraphExtractReportSchema = z.object({
  documents_done: z.number().int(),
  chunks_read: z.number().int(),
  entities_found: z.number().int(),
  relations_found: z.number().int(),
  /** Notes still waiting for the model; the next run continues with them. */
  documents_pending: z.number().int(),
  elapsed_ms: z.number().int(),
  stopped_by_budget: z.boolean(),
});
export type GraphExtractReport = z.infer<typeof GraphExtractReportSchema>;
export const GraphSubgraphSchema = GraphViewSchema.extend({ missing: z.array(z.string()) });
export type GraphNeighbors = z.infer<typeof GraphNeighborsSchema>;

export const DocumentEntrySchema = z.object({
  doc_id: z.string(),
  root: z.string(),
  path: z.string(),
  uri: z.string(),
  type: z.string(),
  language: z.string().nullable(),
  title: z.string().nullable(),
  size: z.number().int(),
});
export type DocumentEntry = z.infer<typeof DocumentEntrySchema>;

export const MODEL_ROLES = ['embed', 'chat', 'rerank'] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

/** A GGUF model imported into the models dir, named by the hash of its content. */
export const ModelInfoSchema = z.object({
  id: z.string(),
  file: z.string(),
  name: z.string(),
  role: z.enum(MODEL_ROLES),
  architecture: z.string(),
  dimension: z.number().int(),
  context_length: z.number().int(),
  family: z.string(),
  size_bytes: z.number().int(),
  added_at: z.string(),
  /**
   * Languages an embedding model covers: ISO 639 codes, '*' for all. From the GGUF header, the
   * model's name or `models add --languages`; registries written before it lack it (see modelLanguages).
   */
  languages: z.array(z.string()).optional(),
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;

/** Whether indexing runs, is paused (the queue keeps the rest), and whether the roots are watched. */
export const IndexStatusSchema = z.object({
  running: z.boolean(),
  paused: z.boolean(),
  watching: z.boolean(),
  /** Files queued and not yet indexed (an interrupted or paused run leaves them). */
  pending_jobs: z.number().int(),
});
export type IndexStatus = z.infer<typeof IndexStatusSchema>;

/** What this machine offers the models: a GPU backend or the CPU, and why. */
export const SystemInfoSchema = z.object({
  platform: z.string(),
  arch: z.string(),
  cpus: z.number().int(),
  cpu_model: z.string(),
  memory_bytes: z.number(),
  /** The GPU backend node-llama-cpp uses (cuda, vulkan, metal), or false for the CPU. */
  gpu: z.union([z.string(), z.literal(false)]),
  /** In words: why the CPU is used (no GPU found, turned off, a backend failed). Null with a GPU. */
  gpu_reason: z.string().nullable(),
  threads: z.number().int(),
  /** The runtime could not be loaded at all (models then cannot run; lexical search still works). */
  runtime_error: z.string().nullable(),
});
export type SystemInfo = z.infer<typeof SystemInfoSchema>;

const Empty = z.object({}).strict();

export const contract = {
  'index/run': { request: IndexRequestSchema, response: IndexReportSchema },
  'index/addRoot': {
    request: z
      .object({
        path: z.string().min(1),
        include: z.array(z.string().min(1)).default([]),
        exclude: z.array(z.string().min(1)).default([]),
      })
      .strict(),
    response: RootSchema,
  },
  'index/removeRoot': {
    request: z.object({ path: z.string().min(1) }).strict(),
    response: z.object({ removed: z.boolean(), documents_removed: z.number().int() }),
  },
  'index/roots': { request: Empty, response: z.array(RootSchema) },
  'search/query': { request: SearchRequestSchema, response: RetrievalResultSchema },
  'health/get': { request: Empty, response: HealthReportSchema },
  'answer/ask': { request: AnswerRequestSchema, response: AnswerEnvelopeSchema },
  'source/get': { request: SourceRequestSchema, response: SourceLinesSchema },
  'graph/neighbors': {
    request: z.object({ entity: z.string().min(1, 'entity is empty').max(300), hops: z.number().int().min(1).max(3).default(1), allow_sensitivity: z.array(z.string().min(1)).default([]) }).strict(),
    response: GraphNeighborsSchema,
  },
  'graph/path': {
    request: z.object({ from: z.string().min(1, 'from is empty').max(300), to: z.string().min(1, 'to is empty').max(300), allow_sensitivity: z.array(z.string().min(1)).default([]) }).strict(),
    response: GraphPathSchema,
  },
  'graph/overview': {
    request: z.object({ limit: z.number().int().min(1).max(100).default(10), allow_sensitivity: z.array(z.string().min(1)).default([]) }).strict(),
    response: GraphOverviewSchema,
  },
  'graph/subgraph': {
    request: z
      .object({
        entity: z.string().min(1).max(300).optional(),
        paths: z.array(z.string().min(1).max(1000)).max(100).optional(),
        hops: z.number().int().min(0).max(3).default(1),
        max_nodes: z.number().int().min(1).max(1000).default(200),
        allow_sensitivity: z.array(z.string().min(1)).default([]),
      })
      .strict()
      .refine((r) => r.entity !== undefined || (r.paths?.length ?? 0) > 0, 'give an entity or the paths of a result set'),
    response: GraphSubgraphSchema,
  },
  'graph/extract': {
    request: z.object({ budget_ms: z.number().int().min(1).max(3_600_000).optional() }).strict(),
    response: GraphExtractReportSchema,
  },
  'index/documents': { request: z.object({ allow_sensitivity: z.array(z.string().min(1)).default([]) }).strict(), response: z.array(DocumentEntrySchema) },
  /** Stops the current run between files (the queue keeps the rest) and holds watcher changes until resume. */
  'index/pause': { request: Empty, response: IndexStatusSchema },
  /** Finishes what a pause held back: queued files and changes made meanwhile. */
  'index/resume': { request: Empty, response: IndexStatusSchema },
  'index/status': { request: Empty, response: IndexStatusSchema },
  /** Watch every root (true) or stop watching (false); returns the status. */
  'index/watch': { request: z.object({ enabled: z.boolean() }).strict(), response: IndexStatusSchema },
  'models/list': { request: Empty, response: z.array(ModelInfoSchema) },
  /** Imports a GGUF file (copied into the models dir); the role is read from the file unless given. Takes effect on the next engine start. */
  'models/add': { request: z.object({ path: z.string().min(1).max(4096), role: z.enum(MODEL_ROLES).optional(), languages: z.array(z.string().min(1).max(8)).max(200).optional() }).strict(), response: ModelInfoSchema },
  'models/remove': { request: z.object({ ref: z.string().min(1).max(4096) }).strict(), response: z.object({ removed: z.boolean(), model: ModelInfoSchema.nullable() }) },
  'system/info': { request: Empty, response: SystemInfoSchema },
} as const;

export type Contract = typeof contract;
export type Method = keyof Contract;
export type RequestOf<M extends Method> = z.input<Contract[M]['request']>;
export type ParsedRequestOf<M extends Method> = z.output<Contract[M]['request']>;
export type ResponseOf<M extends Method> = z.output<Contract[M]['response']>;

/** Typed events; names are the specification's (`syn.*`) plus UI progress streams. */
export interface EventMap {
  'index/progress': {
    /** embed: chunk vectors; sentences: sentence vectors (after every model's chunk vectors). */
    stage: 'scan' | 'lexical' | 'embed' | 'sentences' | 'graph' | 'done';
    /** The root folder the run works on (absolute, as registered); absent for a run over several roots' embeddings. */
    root?: string;
    files_done: number;
    files_total: number;
    path?: string;
    rate_per_s: number;
    eta_s: number | null;
  };
  'syn.index.requested': { sources: string[] };
  'syn.index.completed': IndexReport;
  'syn.retrieve.completed': { query: string; results: number; latency_ms: number };
  'syn.retrieve.denied': { query: string; reason: string };
  /** A piece of answer text as the model writes it (a retry starts again with attempt 2). */
  'answer/token': { trace_id: string; text: string; attempt: number };
  'answer/stage': { trace_id: string; stage: 'retrieve' | 'context' | 'synthesize' | 'critic' | 'revise' | 'done' };
  /** The answer reader's quote, as soon as the passages are read: shown while a chat model still writes (and may be withdrawn). */
  'answer/quote': { trace_id: string; answer: string; outcome: 'answered' | 'partial' | 'not_found' };
  'syn.answer.completed': { trace_id: string; verdict: string | null; confidence: number; latency_ms: number };
  /** Indexing started, stopped, was paused or resumed, or watching was turned on or off. */
  'index/status': IndexStatus;
  /** Desktop shell only: a .md file was opened with the app (file association). */
  'app/openFile': { path: string };
}
export type EventName = keyof EventMap;
/** Every event name at run time (transports subscribe to each). */
export const EVENT_NAMES = [
  'index/progress',
  'index/status',
  'syn.index.requested',
  'syn.index.completed',
  'syn.retrieve.completed',
  'syn.retrieve.denied',
  'answer/token',
  'answer/stage',
  'answer/quote',
  'syn.answer.completed',
  'app/openFile',
] as const satisfies readonly EventName[];
// Fails to compile when an event is added to EventMap but not to EVENT_NAMES.
type MissingEventNames = Exclude<EventName, (typeof EVENT_NAMES)[number]>;
const everyEventListed: MissingEventNames extends never ? true : never = true;
void everyEventListed;

export const METHODS = Object.keys(contract) as Method[];

/**
 * Methods a host (the Electron main process, the web server) answers itself, next to the engine's:
 * opening a file in the user's editor and choosing a folder are the desktop's business, not the
 * engine's; restarting the engine applies imported models.
 */
/** One step of the demo's guided tour: a question from the sample vault's fixture and what it shows. */
export const TourStepSchema = z.object({
  id: z.string(),
  question: z.string(),
  kind: z.string(),
  shows: z.string(),
  note: z.string(),
  /** An entity whose graph neighbourhood illustrates the step. */
  graph: z.string().optional(),
});
export type TourStep = z.infer<typeof TourStepSchema>;
/** The demo workspace: the sample vault in a throwaway data dir, never the user's. */
export const DemoStatusSchema = z.object({
  available: z.boolean(),
  active: z.boolean(),
  data_dir: z.string().nullable(),
  models: z.array(z.string()),
  tour: z.array(TourStepSchema),
});
export type DemoStatus = z.infer<typeof DemoStatusSchema>;

export const hostContract = {
  /** Opens the file behind a locator in the user's editor (at its line) or with the OS; only files of indexed documents. */
  'source/open': {
    request: z.object({ locator: z.string().min(1).max(4096), allow_sensitivity: z.array(z.string().min(1)).default([]) }).strict(),
    response: z.object({ opened: z.boolean(), file: z.string(), line: z.number().int(), how: z.string() }),
  },
  /** The OS folder picker (desktop only; web mode answers null and the UI asks for a path). */
  'app/pickFolder': { request: Empty, response: z.object({ path: z.string().nullable() }) },
  /** The OS file picker for a GGUF model to import (desktop only; web mode answers null and the UI asks for a path). */
  'app/pickModelFile': { request: Empty, response: z.object({ path: z.string().nullable() }) },
  /** Restarts the engine with the current models and settings (after importing a model). */
  'app/restart': { request: Empty, response: z.object({ restarted: z.boolean() }) },
  /** Which shell serves the UI and whether the engine is up. */
  'app/info': { request: Empty, response: z.object({ shell: z.enum(['electron', 'web', 'test']), version: z.string(), data_dir: z.string(), demo: DemoStatusSchema }) },
  /** Switches to the demo workspace (indexing the sample vault on its first start; progress comes as index events). */
  'demo/start': { request: Empty, response: DemoStatusSchema },
  /** Back to the user's own workspace. */
  'demo/exit': { request: Empty, response: DemoStatusSchema },
  /** Deletes the demo workspace and builds it again from the sample vault. */
  'demo/reset': { request: Empty, response: DemoStatusSchema },
} as const;
export type HostContract = typeof hostContract;
export type HostMethod = keyof HostContract;
/** Every method a UI can call: the engine's and the host's. */
export type AnyMethod = Method | HostMethod;
type AnyContract = Contract & HostContract;
export type AnyRequestOf<M extends AnyMethod> = z.input<AnyContract[M]['request']>;
export type AnyResponseOf<M extends AnyMethod> = z.output<AnyContract[M]['response']>;
export const HOST_METHODS = Object.keys(hostContract) as HostMethod[];
export function isHostMethod(name: string): name is HostMethod {
  return Object.prototype.hasOwnProperty.call(hostContract, name);
}

export function isMethod(name: string): name is Method {
  return Object.prototype.hasOwnProperty.call(contract, name);
}
