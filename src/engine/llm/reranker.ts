/**
 * Reranking: a cross-encoder scores (query, passage) pairs; the engine reorders its top N by that
 * score. node-llama-cpp's ranking context runs GGUF rerankers (bge-reranker, jina-reranker). Any
 * scorer with the same shape can stand in (tests use a deterministic one).
 */
import type { LlamaModel, LlamaRankingContext } from 'node-llama-cpp';
import { assertGguf, modelFileProblem } from './registry.ts';
import { createError } from '../../shared/errors.ts';
import { LazyModel } from './lazy.ts';
import type { LlamaRuntime } from './runtime.ts';

export interface Reranker {
  readonly name: string;
  /** A relevance score in [0, 1] for each passage, in input order. */
  rank(query: string, passages: readonly string[], signal?: AbortSignal): Promise<number[]>;
  unload(): Promise<void>;
}

export class LlamaReranker implements Reranker {
  private readonly lazy: LazyModel<{ model: LlamaModel; context: LlamaRankingContext }>;

  constructor(
    private readonly runtime: LlamaRuntime,
    private readonly modelPath: string,
    readonly name: string,
  ) {
    this.lazy = new LazyModel(
      async () => {
        const llama = await this.runtime.get();
        try {
          assertGguf(this.modelPath);
          const model = await llama.loadModel({ modelPath: this.modelPath });
          const context = await model.createRankingContext({ threads: this.runtime.threads });
          return { model, context };
        } catch (error) {
          throw createError('E_SYN_MODEL_UNAVAILABLE', `Cannot load rerank model ${this.modelPath}: ${(await modelFileProblem(this.modelPath)) ?? (error as Error).message}`);
        }
      },
      async ({ model, context }) => {
        await context.dispose();
        await model.dispose();
      },
    );
  }

  private ensure() {
    return this.lazy.get();
  }

  async rank(query: string, passages: readonly string[]): Promise<number[]> {
    const { model, context } = await this.ensure();
    // Inputs longer than the context make node-llama-cpp throw: cut each passage to what fits.
    const budget = Math.max(32, Math.floor(context.model.trainContextSize / 2) - 16);
    const fit = (text: string) => {
      const tokens = model.tokenize(text);
      return tokens.length > budget ? model.detokenize(tokens.slice(0, budget)) : text;
    };
    return context.rankAll(fit(query), passages.map(fit));
  }

  unload(): Promise<void> {
    return this.lazy.unload();
  }
}

/** Resolves with the value, or with `timedOut` when `ms` pass first (the work itself is not cancelled). */
export async function withTimeout<T>(work: Promise<T>, ms: number): Promise<{ value: T } | { timedOut: true }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ timedOut: true }>((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), ms);
  });
  try {
    return await Promise.race([work.then((value) => ({ value })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
