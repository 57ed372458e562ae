/**
 * A local chat model for synthesis and the critic: node-llama-cpp's LlamaChatSession over the
 * model's own chat template, streamed token by token, cancellable with an AbortSignal, and
 * optionally constrained by a JSON-schema grammar. One context is kept loaded (lazily, unloaded
 * after an idle period); each generation gets a fresh session so answers never see each other.
 */
import type { Llama, LlamaContext, LlamaModel } from 'node-llama-cpp';
import { inspectGguf, modelFileProblem } from './registry.ts';
import { createError } from '../../shared/errors.ts';
import { LazyModel } from './lazy.ts';
import type { LlamaRuntime } from './runtime.ts';

export interface GenerateOptions {
  system: string;
  user: string;
  maxTokens: number;
  /** Called with each piece of text as it is generated. */
  onText?: (text: string) => void;
  signal?: AbortSignal;
  /** A JSON schema the output must follow (grammar-constrained decoding). */
  jsonSchema?: Record<string, unknown>;
  temperature?: number;
  /** Texts that end generation when the model writes them (e.g. it starts echoing the prompt). */
  stop?: string[];
}

export interface Generation {
  text: string;
  /** The parsed object when a JSON schema was given. */
  json?: unknown;
  tokensIn: number;
  tokensOut: number;
  /** Milliseconds to the first generated text, null when nothing was generated. */
  firstTokenMs: number | null;
  tokensPerS: number;
  /** True when the signal stopped generation early. */
  aborted: boolean;
}

export interface ChatModel {
  readonly name: string;
  /** Tokens the context holds (prompt plus answer). */
  contextSize(): Promise<number>;
  countTokens(text: string): Promise<number>;
  generate(options: GenerateOptions): Promise<Generation>;
  unload(): Promise<void>;
}

export class LlamaChatModel implements ChatModel {
  private readonly lazy: LazyModel<{ llama: Llama; model: LlamaModel; context: LlamaContext }>;
  /** One generation at a time: the context has one sequence. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly runtime: LlamaRuntime,
    private readonly modelPath: string,
    readonly name: string,
    private readonly options: { contextSize?: number; idleMs?: number } = {},
  ) {
    this.lazy = new LazyModel(
      async () => {
        const llama = await this.runtime.get();
        try {
          // An embedding model loads as a chat model and then generates nothing: refuse it by its header.
          await inspectGguf(this.modelPath, 'chat');
          const model = await llama.loadModel({ modelPath: this.modelPath });
          const contextSize = Math.min(model.trainContextSize || 2048, this.options.contextSize ?? 4096);
          const context = await model.createContext({ contextSize, threads: this.runtime.threads, sequences: 1 });
          return { llama, model, context };
        } catch (error) {
          throw createError('E_SYN_MODEL_UNAVAILABLE', `Cannot load chat model ${this.modelPath}: ${(await modelFileProblem(this.modelPath)) ?? (error as Error).message}`);
        }
      },
      async ({ model, context }) => {
        await context.dispose();
        await model.dispose();
      },
      this.options.idleMs,
    );
  }

  private ensure() {
    return this.lazy.get();
  }

  async contextSize(): Promise<number> {
    const { context } = await this.ensure();
    return context.contextSize;
  }

  async countTokens(text: string): Promise<number> {
    const { model } = await this.ensure();
    return model.tokenize(text).length;
  }

  generate(options: GenerateOptions): Promise<Generation> {
    const run = this.queue.then(() => this.generateNow(options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async generateNow(options: GenerateOptions): Promise<Generation> {
    // Stopped while it waited behind another generation: nothing to run.
    if (options.signal?.aborted) return { text: '', tokensIn: 0, tokensOut: 0, firstTokenMs: null, tokensPerS: 0, aborted: true };
    const { llama, model, context } = await this.ensure();
    const { LlamaChatSession } = await import('node-llama-cpp');
    const sequence = context.getSequence();
    const session = new LlamaChatSession({ contextSequence: sequence, systemPrompt: options.system, autoDisposeSequence: false });
    const grammar = options.jsonSchema ? await llama.createGrammarForJsonSchema(options.jsonSchema as never) : undefined;
    const started = performance.now();
    let firstTokenMs: number | null = null;
    let tokensOut = 0;
    try {
      const text = await session.prompt(options.user, {
        maxTokens: options.maxTokens,
        temperature: options.temperature ?? 0,
        // Small models loop on long prompts; a mild penalty on repeated tokens keeps prose moving (not for JSON).
        ...(grammar ? { grammar } : { repeatPenalty: { penalty: 1.1, frequencyPenalty: 0.1, presencePenalty: 0.1 } }),
        ...(options.signal ? { signal: options.signal, stopOnAbortSignal: true } : {}),
        ...(options.stop && options.stop.length > 0 ? { customStopTriggers: options.stop } : {}),
        onToken: (tokens) => {
          tokensOut += tokens.length;
        },
        onTextChunk: (chunk) => {
          firstTokenMs ??= Math.round(performance.now() - started);
          options.onText?.(chunk);
        },
      });
      const seconds = (performance.now() - started) / 1000;
      let json: unknown;
      if (grammar) {
        try {
          json = grammar.parse(text);
        } catch {
          json = undefined; // cut short (maxTokens or abort): the caller treats it as no verdict
        }
      }
      return {
        text,
        ...(grammar ? { json } : {}),
        tokensIn: model.tokenize(options.system + options.user).length,
        tokensOut,
        firstTokenMs,
        tokensPerS: seconds > 0 ? Math.round((tokensOut / seconds) * 10) / 10 : 0,
        aborted: options.signal?.aborted ?? false,
      };
    } catch (error) {
      throw createError('E_SYN_MODEL_UNAVAILABLE', `Generation with ${this.name} failed: ${(error as Error).message}`);
    } finally {
      session.dispose({ disposeSequence: false });
      // Disposing returns the context's one sequence, empty, for the next generation.
      sequence.dispose();
    }
  }

  unload(): Promise<void> {
    return this.lazy.unload();
  }
}
