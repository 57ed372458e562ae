/**
 * Configuration with the defaults of docs/design.md §9 and the specification's SYN_* environment names.
 * Precedence: defaults < environment < explicit overrides passed to createEngine.
 */
import { z } from 'zod';
import { createError } from '../../shared/errors.ts';
import { describeIssues } from '../../shared/validate.ts';

/**
 * The store's memory map in MB by default (mmapMb): a store up to this size is read through the
 * map whole; a larger one (50,000 notes make 1.5 GB) keeps its resident set bounded, 544 MB after
 * 300 questions with the graph against 1,514 MB mapped whole, for a p50/p95 2-8% higher in
 * one run of each (`synapsis bench cold-start`, docs/benchmarks.md).
 */
export const MMAP_MB_DEFAULT = 128;

export const ConfigSchema = z
  .object({
    sourceRoots: z.array(z.string().min(1)).default([]),
    chunkSize: z.number().int().min(200).max(20_000).default(1200),
    chunkOverlap: z.number().int().min(0).default(200),
    maxChunksPerFile: z.number().int().min(1).default(2000),
    topK: z.number().int().min(1).max(1000).default(8),
    minScore: z.number().min(0).max(1).default(0.2),
    sensitivityEnable: z.boolean().default(true),
    /** Extract the knowledge graph (links, tags, front matter, names, code imports) while indexing. */
    graphExtract: z.boolean().default(true),
    /**
     * Index and serve files that a symlink inside a root points to outside it (off: such links are
     * skipped with a reason in health, and a file replaced by one is served from the index only).
     */
    followExternalSymlinks: z.boolean().default(false),
    /** After each index run, let the chat model extract entities and relations (see graph/llm-stage.ts). */
    graphLlm: z.boolean().default(false),
    /** Time the model stage may take per run; the next run continues where it stopped. */
    graphLlmBudgetMs: z.number().int().min(0).default(60_000),
    indexPath: z.string().min(1).optional(),
    keepIndexVersions: z.number().int().min(1).default(3),
    /** RRF's k; default: the retrieval profile's. */
    rrfK: z.number().positive().optional(),
    /** Retrieval profile: fusion weights and query techniques (`default` ships with the app; `synapsis tune` fits others). */
    profile: z.string().min(1).max(300).default('default'),
    maxFileBytes: z.number().int().positive().default(20 * 1024 * 1024),
    /** Keep common terms out of large OR-ed lexical queries (see search/lexical.ts); false: always the full query. */
    lexicalPruning: z.boolean().default(true),
    /**
     * MB of the store read through a memory map (database.ts setMemoryMap; 0: none). Mapped pages a
     * query read stay in the resident set: on a 1.5 GB store the whole file would, after enough
     * questions. docs/benchmarks.md measures the default (MMAP_MB_DEFAULT).
     */
    mmapMb: z.number().int().min(0).max(2047).default(MMAP_MB_DEFAULT),
    /** On large vaults, compute the lexical list of hybrid queries on a worker thread beside the vector searches (search/lexical-thread.ts). */
    lexicalThread: z.boolean().default(true),
    /** Chunks in the index from which the lexical thread is used (below, the lexical list takes a few ms and stays on the engine's thread). */
    lexicalThreadMinChunks: z.number().int().min(0).default(20_000),
    /** Embedding model: a registry id, file or name, or a path to a .gguf file; default the latest added embed model. */
    embedModel: z.string().min(1).optional(),
    /** Several embedding models at once (each answers queries in the languages it covers); overrides embedModel. */
    embedModels: z.array(z.string().min(1)).max(4).optional(),
    /** Rerank model (a GGUF ranking model), same forms; none: reranking is skipped and named in limits. */
    rerankModel: z.string().min(1).optional(),
    /** Ask node-llama-cpp for a GPU (falls back to CPU on any failure), or never. */
    gpu: z.enum(['auto', 'off']).default('auto'),
    /** Threads per model context; default the machine's cores. */
    llmThreads: z.number().int().min(1).max(256).optional(),
    vectorBackend: z.enum(['auto', 'faiss', 'usearch']).default('auto'),
    /** Fusion of the lexical and dense lists: reciprocal rank (k = rrfK) or 0.7 dense / 0.3 sparse on normalised scores. */
    fusion: z.enum(['rrf', 'weighted']).optional(),
    denseTimeoutMs: z.number().int().positive().default(10_000),
    rerankTopN: z.number().int().min(1).max(1000).default(50),
    /** Without a rerank model, let the chat model judge each of the top passages (a generation each: slow, off by default). */
    rerankWithChat: z.boolean().default(false),
    /**
     * Sentence vectors: each embedding model also embeds every sentence of prose chunks (not code),
     * and a chunk scores by the best of its own vector and its sentences' (issue 14). About five
     * vectors more per chunk, embedded after the chunk vectors; off keeps chunk vectors only.
     */
    sentenceVectors: z.boolean().default(true),
    rerankTimeoutMs: z.number().int().positive().default(15_000),
    /** Unload models after this long unused (ms); 0 keeps them loaded. */
    modelIdleMs: z.number().int().min(0).default(5 * 60_000),
    /** Chat model for answers and the critic, same forms as embedModel; default the latest added chat model; none: extractive answers. */
    chatModel: z.string().min(1).optional(),
    /** The system message of answers. */
    systemPrompt: z.string().min(1).max(20_000).optional(),
    /** Passages retrieved for an answer before the context is packed. */
    answerK: z.number().int().min(1).max(100).default(8),
    /** Most tokens of sources in an answer prompt (also cut to the chat model's window). */
    contextTokens: z.number().int().min(64).max(131_072).default(4096),
    /** Most tokens an answer may have. */
    synthTokens: z.number().int().min(16).max(8192).default(512),
    answerRetrievalTimeoutMs: z.number().int().positive().default(20_000),
    synthTimeoutMs: z.number().int().positive().default(120_000),
    criticTimeoutMs: z.number().int().positive().default(60_000),
    /**
     * The answer reader's fitted scorer: a reader profile JSON file (synapsis tune --answers), or
     * "none" for the reader's own outcome uncalibrated (what training reads). Default: the shipped one.
     */
    readerProfile: z.string().min(1).optional(),
    /** Answers carry every candidate sentence's selection features (for `synapsis tune --answers`; never set by users). */
    readerCandidates: z.boolean().default(false),
    /** Weights that rank the reader's candidate sentences in place of the profile's (for `synapsis tune --answers`). */
    readerSelection: z.array(z.number()).optional(),
  })
  .strict()
  .refine((c) => c.chunkOverlap < c.chunkSize / 2, {
    message: 'chunkOverlap must be less than half of chunkSize',
    path: ['chunkOverlap'],
  });

export type Config = z.output<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

type EnvKind = 'int' | 'float' | 'bool' | 'list' | 'string';
const ENV_KEYS: Record<string, { key: keyof Config; kind: EnvKind }> = {
  SYN_SOURCE_ROOTS: { key: 'sourceRoots', kind: 'list' },
  SYN_CHUNK_SIZE: { key: 'chunkSize', kind: 'int' },
  SYN_CHUNK_OVERLAP: { key: 'chunkOverlap', kind: 'int' },
  SYN_MAX_CHUNKS_PER_FILE: { key: 'maxChunksPerFile', kind: 'int' },
  SYN_TOP_K: { key: 'topK', kind: 'int' },
  SYN_MIN_SCORE: { key: 'minScore', kind: 'float' },
  SYN_INDEX_PATH: { key: 'indexPath', kind: 'string' },
  SYN_SENSITIVITY_ENABLE: { key: 'sensitivityEnable', kind: 'bool' },
  SYN_GRAPH_EXTRACT: { key: 'graphExtract', kind: 'bool' },
  SYN_FOLLOW_EXTERNAL_SYMLINKS: { key: 'followExternalSymlinks', kind: 'bool' },
  SYN_GRAPH_LLM: { key: 'graphLlm', kind: 'bool' },
  SYN_GRAPH_LLM_BUDGET_MS: { key: 'graphLlmBudgetMs', kind: 'int' },
  SYN_LEXICAL_PRUNING: { key: 'lexicalPruning', kind: 'bool' },
  SYN_MMAP_MB: { key: 'mmapMb', kind: 'int' },
  SYN_LEXICAL_THREAD: { key: 'lexicalThread', kind: 'bool' },
  SYN_LEXICAL_THREAD_MIN_CHUNKS: { key: 'lexicalThreadMinChunks', kind: 'int' },
  SYN_EMBED_MODEL: { key: 'embedModel', kind: 'string' },
  SYN_EMBED_MODELS: { key: 'embedModels', kind: 'list' },
  SYN_PROFILE: { key: 'profile', kind: 'string' },
  SYN_READER_PROFILE: { key: 'readerProfile', kind: 'string' },
  SYN_RERANK_MODEL: { key: 'rerankModel', kind: 'string' },
  SYN_RERANK_WITH_CHAT: { key: 'rerankWithChat', kind: 'bool' },
  SYN_SENTENCE_VECTORS: { key: 'sentenceVectors', kind: 'bool' },
  SYN_GPU: { key: 'gpu', kind: 'string' },
  SYN_LLM_THREADS: { key: 'llmThreads', kind: 'int' },
  SYN_VECTOR_BACKEND: { key: 'vectorBackend', kind: 'string' },
  SYN_FUSION: { key: 'fusion', kind: 'string' },
  SYN_CHAT_MODEL: { key: 'chatModel', kind: 'string' },
  SYN_CONTEXT_TOKENS: { key: 'contextTokens', kind: 'int' },
  SYN_SYNTH_TOKENS: { key: 'synthTokens', kind: 'int' },
};

function parseEnvValue(name: string, raw: string, kind: EnvKind): unknown {
  const value = raw.trim();
  switch (kind) {
    case 'int': {
      if (!/^-?\d+$/.test(value)) throw badEnv(name, raw, 'an integer');
      return Number.parseInt(value, 10);
    }
    case 'float': {
      const n = Number(value);
      if (value === '' || !Number.isFinite(n)) throw badEnv(name, raw, 'a number');
      return n;
    }
    case 'bool': {
      if (/^(1|true|yes|on)$/i.test(value)) return true;
      if (/^(0|false|no|off)$/i.test(value)) return false;
      throw badEnv(name, raw, 'true or false');
    }
    case 'list': {
      // Accept a JSON array or a path-delimiter / comma separated list.
      if (value.startsWith('[')) {
        try {
          const parsed: unknown = JSON.parse(value);
          if (Array.isArray(parsed)) return parsed.map(String);
        } catch {
          /* fall through to the error below */
        }
        throw badEnv(name, raw, 'a JSON array of paths or a comma-separated list');
      }
      return value
        .split(/[,:;]/)
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
    }
    case 'string':
      return value;
  }
}

function badEnv(name: string, raw: string, expected: string) {
  return createError('E_SYN_BAD_REQUEST', `Environment variable ${name}=${JSON.stringify(raw)} must be ${expected}`, {
    variable: name,
  });
}

export function configFromEnv(env: NodeJS.ProcessEnv): Partial<ConfigInput> {
  const out: Record<string, unknown> = {};
  for (const [name, { key, kind }] of Object.entries(ENV_KEYS)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    out[key] = parseEnvValue(name, raw, kind);
  }
  return out as Partial<ConfigInput>;
}

export function loadConfig(overrides: Partial<ConfigInput> = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const merged = { ...configFromEnv(env), ...stripUndefined(overrides) };
  const result = ConfigSchema.safeParse(merged);
  if (!result.success) {
    throw createError('E_SYN_BAD_REQUEST', `Invalid configuration: ${describeIssues(result.error)}`);
  }
  return result.data;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The parameters that change chunk boundaries; any change gives a new index_version. */
export function chunkingParams(config: Config) {
  return { chunker: 'lines-v1', size: config.chunkSize, overlap: config.chunkOverlap, max_chunks: config.maxChunksPerFile };
}
