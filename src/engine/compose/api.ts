/**
 * The library API's types (docs/design.md §2): the options an engine opens with and the `Engine`
 * that createEngine (engine.ts) returns. Apart from the composition root, so that what wraps an
 * engine (follower.ts) needs only its shape.
 */
import type {
  AnswerEnvelope,
  EventName,
  HealthReport,
  IndexReport,
  IndexStatus,
  SystemInfo,
  Method,
  RequestOf,
  RetrievalResult,
  RetrieveContext,
  SourceLines,
  DocumentEntry,
  GraphNeighbors,
  GraphOverview,
  GraphPath,
  GraphView,
  ResponseOf,
  Root,
} from '../../shared/contract.ts';
import type { AnswerOptions } from '../answer/answer.ts';
import type { Config, ConfigInput } from '../core/config.ts';
import type { Listener } from '../core/events.ts';
import type { Disposable } from '../core/lifecycle.ts';
import type { LlmGraphReport } from '../graph/llm-stage.ts';
import type { CallContext } from '../handlers/types.ts';
import type { IndexManifest } from '../health/manifest.ts';
import type { WatchOptions } from '../ingest/queue.ts';
import type { ChatModel } from '../llm/chat.ts';
import type { ModelInfo, ModelRole } from '../llm/registry.ts';
import type { Reranker } from '../llm/reranker.ts';
import type { EmbedderLike } from '../llm/runtime.ts';
import type { GatheredLists } from '../retrieve/hybrid.ts';
import type { RetrievalProfile } from '../retrieve/profile.ts';
import type { TraceRow } from '../store/store.ts';

export interface EngineOptions {
  /** One data dir per workspace; default: SYNAPSIS_DATA_DIR or the OS app-data folder. */
  dataDir?: string;
  /** Where imported GGUF models live; default: <dataDir>/models. */
  modelsDir?: string;
  config?: Partial<ConfigInput>;
  env?: NodeJS.ProcessEnv;
  /** A scorer to rerank with instead of a GGUF rerank model (any cross-encoder with this shape). */
  reranker?: Reranker;
  /** A chat model to answer with instead of a GGUF chat model (any model with this shape). */
  chat?: ChatModel;
  /** An embedder to use instead of a GGUF embedding model (any with this shape; benchmarks use a synthetic one). */
  embedder?: EmbedderLike;
  /**
   * A long-lived engine (the app's, the web server's, MCP's): while it waits for its first question it
   * also reads a small vault's kept note links (graph/warm.ts). Off for one-shot commands, which would
   * pay for it.
   */
  warmGraph?: boolean;
  /**
   * Open the data dir as a reader beside its writer (search, ask, source, MCP; see follower.ts): no
   * data-dir lock, no schema or index-file writes, writer methods refused (E_SYN_BAD_REQUEST,
   * details.read_only), and each request sees what the writer committed. A data dir without a
   * store is E_SYN_NOT_FOUND naming the command that creates it.
   */
  readOnly?: boolean;
  /**
   * Told how far the rebuild of an older store's word index has come, while it is opened: a store
   * written by another version of the analyzer is re-read note by note (about 100 s for 50,000 notes
   * on 2 cores) before the engine answers anything.
   */
  onStoreUpgrade?: (notes: { done: number; total: number }) => void;
}

/** The library API (docs/design.md §2): the Synapse API (index, retrieve, health) plus root management and typed events. */
export interface Engine extends Disposable {
  readonly dataDir: string;
  readonly modelsDir: string;
  readonly config: Config;
  readonly indexVersion: string;
  /** Opened as a reader (EngineOptions.readOnly). */
  readonly readOnly: boolean;
  index(sources?: string[]): Promise<IndexReport>;
  retrieve(query: string, context?: RetrieveContext, k?: number): Promise<RetrievalResult>;
  /**
   * The lists a query's retrieval fuses, unfused (library API: `synapsis tune` fits profiles on
   * them), and the pipeline's request and dependencies to fuse them with.
   */
  retrievalLists(query: string, context?: RetrieveContext, k?: number, profile?: RetrievalProfile): Promise<{ lists: GatheredLists; fusion: 'rrf' | 'weighted'; rrfK?: number }>;
  /** The retrieval profile in use. */
  readonly profile: RetrievalProfile;
  /**
   * A cited answer: retrieval, synthesis with the chat model (extractive without one), citation
   * mapping, critic, one revision or an abstention. Tokens stream to `onToken` and as answer/token
   * events; `signal` cancels.
   */
  answer(query: string, options?: AnswerOptions): Promise<AnswerEnvelope>;
  /**
   * The exact lines behind a locator (`notes/a.md#L3-L9`) from an indexed document: the file's own
   * lines, or the indexed text when it changed since or is a PDF/DOCX/HTML. Restricted documents
   * need their sensitivity in `allow_sensitivity`.
   */
  source(locator: string, options?: { allow_sensitivity?: string[]; max_lines?: number }): SourceLines;
  /** The neighbourhood of a note, person, project or #tag in the link graph (wikilinks, links, tags, front matter). */
  graphNeighbors(entity: string, hops?: number, options?: { allow_sensitivity?: string[] }): GraphNeighbors;
  /** The shortest chain of links between two entities, each hop with its evidence. */
  graphPath(from: string, to: string, options?: { allow_sensitivity?: string[] }): GraphPath;
  /** The chat model reads notes not yet read and adds what it finds to the graph, for at most `budget_ms`. */
  extractGraphWithModel(options?: { budget_ms?: number }): Promise<LlmGraphReport>;
  /** Rows of the stored graph (entities, relations, mentions). */
  graphStats(): { entities: number; relations: number; mentions: number };
  /**
   * Settles once the engine's idle warm-up has run (the reader, the language detector and, with
   * EngineOptions.warmGraph, the kept note links): what an app's engine has done before anyone can
   * type. Benchmarks of the first questions after opening wait for it. Never rejects.
   */
  warmed(): Promise<void>;
  /** Central entities and communities of the whole graph. */
  graphOverview(options?: { limit?: number; allow_sensitivity?: string[] }): GraphOverview;
  /** The subgraph around an entity or a result set (note paths), with the evidence of every edge. */
  graphSubgraph(request: { entity?: string; paths?: string[]; hops?: number; max_nodes?: number; allow_sensitivity?: string[] }): GraphView & { missing: string[] };
  /** Indexed documents this caller may see (restricted ones only with their sensitivity allowed). */
  documents(options?: { allow_sensitivity?: string[] }): DocumentEntry[];
  /** Answer traces, newest first. */
  traces(limit?: number, options?: { allow_sensitivity?: string[] }): TraceRow[];
  /** Counters and latency histograms of answers in Prometheus text format. */
  metrics(): string;
  /** What is indexed and degraded, counting only what this caller may see (restricted notes only with their sensitivity allowed). */
  health(options?: { allow_sensitivity?: string[] }): Promise<HealthReport>;
  addRoot(rootPath: string, options?: { include?: string[]; exclude?: string[] }): Root;
  removeRoot(rootPath: string): { removed: boolean; documents_removed: number };
  listRoots(): Root[];
  /** GGUF models imported into the models dir (synapsis models add). */
  listModels(): ModelInfo[];
  addModel(file: string, options?: { role?: ModelRole; languages?: string[] }): Promise<ModelInfo>;
  removeModel(ref: string): ModelInfo | null;
  /** The manifest of the current index version, as written after the last indexing run. */
  manifest(): IndexManifest | null;
  /**
   * Watches every root and keeps the index current (debounced, awaitWriteFinish). Pending jobs of an
   * interrupted run are finished first. Dispose the returned handle to stop watching.
   */
  watch(options?: WatchOptions): Promise<Disposable>;
  /** Stops the current indexing run between files (the queue keeps the rest); watcher changes wait until resume. */
  pause(): IndexStatus;
  /** Continues what a pause held back: the queued files and every change made meanwhile. */
  resume(): Promise<IndexStatus>;
  indexStatus(): IndexStatus;
  /** The machine as the models see it: GPU backend or CPU and why, threads, memory. Loads the runtime. */
  systemInfo(): Promise<SystemInfo>;
  /** The transport entry point: validates a request against the contract and dispatches it. */
  call<M extends Method>(method: M, request: RequestOf<M>, context?: CallContext): Promise<ResponseOf<M>>;
  on<E extends EventName>(event: E, listener: Listener<E>): Disposable;
  dispose(): Promise<void>;
}
