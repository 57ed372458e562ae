/**
 * The one shared node-llama-cpp instance of an engine, and the embedder built on it. The Llama
 * binding is loaded lazily (an engine without models never touches it), asks for a GPU and falls
 * back to CPU on any GPU failure, keeping the reason for health. Threads are set explicitly:
 * node-llama-cpp's default of 4 on a 2-core machine made embedding 300x slower (docs/design.md §8).
 * Models are loaded on first use and disposed after an idle period and on shutdown.
 */
import os from 'node:os';
import path from 'node:path';
import type { Llama, LlamaEmbeddingContext, LlamaModel } from 'node-llama-cpp';
import { assertGguf, modelFileProblem } from './registry.ts';
import { createError } from '../../shared/errors.ts';
import { modelFamily, type ModelFamily } from './families.ts';
import { LazyModel } from './lazy.ts';

export interface RuntimeStatus {
  loaded: boolean;
  gpu: string | false;
  /** Why the GPU is not used, when one was asked for and failed. */
  gpuFallbackReason: string | null;
  threads: number;
}

export class LlamaRuntime {
  private llama: Promise<Llama> | null = null;
  private gpu: string | false = false;
  private fallbackReason: string | null = null;
  readonly threads: number;

  constructor(private readonly options: { gpu: 'auto' | false; threads?: number }) {
    this.threads = Math.max(1, options.threads ?? os.availableParallelism());
  }

  get(): Promise<Llama> {
    this.llama ??= this.load();
    return this.llama;
  }

  private async load(): Promise<Llama> {
    const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
    const common = {
      build: 'never' as const,
      logLevel: LlamaLogLevel.error,
      // llama.cpp's warnings about tokenizer metadata are noise for users; errors still surface.
      logger: () => {},
    };
    if (this.options.gpu === 'auto') {
      try {
        const llama = await getLlama({ ...common, gpu: 'auto' });
        this.gpu = llama.gpu;
        return llama;
      } catch (error) {
        this.fallbackReason = `GPU backend failed, using CPU: ${(error as Error).message}`;
      }
    }
    try {
      return await getLlama({ ...common, gpu: false });
    } catch (error) {
      throw createError('E_SYN_MODEL_UNAVAILABLE', `node-llama-cpp could not start on this machine: ${(error as Error).message}`);
    }
  }

  status(): RuntimeStatus {
    return { loaded: this.llama !== null, gpu: this.gpu, gpuFallbackReason: this.fallbackReason, threads: this.threads };
  }

  async dispose(): Promise<void> {
    const pending = this.llama;
    this.llama = null;
    if (pending) await (await pending.catch(() => null))?.dispose();
  }
}

export interface EmbedderOptions {
  modelPath: string;
  modelId: string;
  modelName: string;
  /** Dispose the loaded model after this long without use (ms); 0 keeps it. */
  idleMs?: number;
  /** The longest text it embeds, in characters (the chunk size): sizes the embedding context. */
  maxInputChars?: number;
}

/**
 * Tokens of an embedding context: the model's training context, but no more than the longest input
 * needs. A token covers at least one character in the tokenizers of embedding models (CJK text comes
 * closest), so `maxInputChars` plus room for the title and heading put before a chunk is enough;
 * each context's buffers grow with its size, and one context runs per core.
 */
export function embeddingContextSize(trainContextSize: number, maxInputChars = 1200): number {
  const needed = Math.ceil((maxInputChars + 256) / 256) * 256;
  return Math.min(trainContextSize || 512, 8192, Math.max(512, needed));
}

/** What the dense side needs of an embedder (the GGUF Embedder below, or a synthetic one). */
export interface EmbedderLike {
  readonly modelId: string;
  /** Loads the model; resolves to the vector dimension. */
  load(): Promise<number>;
  embedMany(texts: readonly string[], kind: 'query' | 'document'): Promise<PromiseSettledResult<Float32Array>[]>;
  embed(text: string, kind: 'query' | 'document'): Promise<Float32Array>;
  unload(): Promise<void>;
}

/**
 * Embeds queries and documents with one GGUF model: the family's prefixes, inputs truncated to the
 * model's context (node-llama-cpp throws on longer inputs), vectors L2-normalised for cosine search.
 */
export class Embedder implements EmbedderLike {
  private readonly lazy: LazyModel<{ model: LlamaModel; contexts: LlamaEmbeddingContext[] }>;
  /** Contexts not in use now, and callers waiting for one: queries first, then documents, each in arrival order. */
  private idle: LlamaEmbeddingContext[] = [];
  private waiting: { query: ((context: LlamaEmbeddingContext) => void)[]; document: ((context: LlamaEmbeddingContext) => void)[] } = { query: [], document: [] };
  readonly family: ModelFamily;
  private maxTokens = 0;
  dimension = 0;
  /**
   * The last few query vectors by text: a question asked again (a retry, an answer that searches
   * twice, synapsis tune gathering one query's lists under several profiles) skips the model.
   * Oldest out; documents are never kept (the store holds theirs).
   */
  private readonly recentQueries = new Map<string, Float32Array>();

  constructor(
    private readonly runtime: LlamaRuntime,
    readonly options: EmbedderOptions,
  ) {
    this.family = modelFamily(options.modelName, path.basename(options.modelPath));
    this.lazy = new LazyModel(
      () => this.loadModel(),
      async ({ model, contexts }) => {
        this.idle = [];
        for (const context of contexts) await context.dispose();
        await model.dispose();
      },
      options.idleMs,
    );
  }

  get modelId(): string {
    return this.options.modelId;
  }

  private ensure() {
    return this.lazy.get();
  }

  private async loadModel(): Promise<{ model: LlamaModel; contexts: LlamaEmbeddingContext[] }> {
    const llama = await this.runtime.get();
    try {
      // A file whose header cannot be a model is refused before the GGUF reader spends minutes on it.
      assertGguf(this.options.modelPath);
      const model = await llama.loadModel({ modelPath: this.options.modelPath });
      const contextSize = embeddingContextSize(model.trainContextSize, this.options.maxInputChars);
      // getEmbeddingFor embeds one text per call, and a small model cannot keep several CPU
      // threads busy on one text: one single-threaded context per core embeds texts side by side
      // (measured on 2 cores with MiniLM: about twice the rate of one context with 2 threads).
      // A GPU gets one context.
      const workers = this.runtime.status().gpu ? 1 : Math.max(1, Math.min(this.runtime.threads, 4));
      const threads = Math.max(1, Math.floor(this.runtime.threads / workers));
      const contexts: LlamaEmbeddingContext[] = [];
      for (let i = 0; i < workers; i++) contexts.push(await model.createEmbeddingContext({ contextSize, threads }));
      this.idle = [...contexts];
      this.maxTokens = Math.min(contextSize, this.family.maxTokens ?? contextSize);
      this.dimension = model.embeddingVectorSize;
      return { model, contexts };
    } catch (error) {
      throw createError('E_SYN_MODEL_UNAVAILABLE', `Cannot load embedding model ${this.options.modelPath}: ${(await modelFileProblem(this.options.modelPath)) ?? (error as Error).message}`);
    }
  }

  /** Loads the model (if needed) and returns its vector dimension. */
  async load(): Promise<number> {
    await this.ensure();
    return this.dimension;
  }

  /**
   * A context for one input. A question's embedding goes ahead of the documents waiting for one (a
   * page of background embedding queues a few dozen): it waits for at most the inputs being
   * embedded now, not for the whole page.
   */
  private acquire(kind: 'query' | 'document'): Promise<LlamaEmbeddingContext> {
    const context = this.idle.pop();
    if (context) return Promise.resolve(context);
    return new Promise((resolve) => this.waiting[kind].push(resolve));
  }

  private release(context: LlamaEmbeddingContext): void {
    const next = this.waiting.query.shift() ?? this.waiting.document.shift();
    if (next) next(context);
    else this.idle.push(context);
  }

  /** Embeds several texts at once, one per context, in input order. */
  async embedMany(texts: readonly string[], kind: 'query' | 'document'): Promise<PromiseSettledResult<Float32Array>[]> {
    return Promise.allSettled(texts.map((t) => this.embed(t, kind)));
  }

  async embed(text: string, kind: 'query' | 'document'): Promise<Float32Array> {
    if (kind === 'query') {
      const known = this.recentQueries.get(text);
      if (known) return known.slice();
      const vector = await this.embedText(text, kind);
      this.recentQueries.set(text, vector.slice());
      if (this.recentQueries.size > RECENT_QUERIES) this.recentQueries.delete(this.recentQueries.keys().next().value!);
      return vector;
    }
    return this.embedText(text, kind);
  }

  private async embedText(text: string, kind: 'query' | 'document'): Promise<Float32Array> {
    const { model } = await this.ensure();
    const prefix = kind === 'query' ? this.family.queryPrefix : this.family.documentPrefix;
    // Tokenised once, here: the context is given the tokens (a string would be tokenised again).
    // Special tokens ([CLS], [SEP], BOS) take a few places of the context; the rest is cut off.
    const tokens = model.tokenize(prefix + (text.trim() || '.'));
    const budget = Math.max(8, this.maxTokens - 4);
    const context = await this.acquire(kind);
    try {
      const { vector } = await context.getEmbeddingFor(tokens.length > budget ? tokens.slice(0, budget) : tokens);
      return normalize(vector);
    } catch (error) {
      throw createError('E_SYN_EMBED_FAILED', `Embedding failed: ${(error as Error).message}`);
    } finally {
      this.release(context);
    }
  }

  unload(): Promise<void> {
    this.recentQueries.clear();
    return this.lazy.unload();
  }
}

/** Query vectors an Embedder keeps (a few KB each). */
const RECENT_QUERIES = 16;

export function normalize(vector: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(vector);
  let norm = 0;
  for (const v of out) norm += v * v;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}
