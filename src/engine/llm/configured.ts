/**
 * The chat model and reranker an engine answers with: the ones the library caller passed, else the
 * GGUF files the configuration names (resolve.ts), and the chat model's measured speed.
 */
import type { Config } from '../core/config.ts';
import { ChatJudgeReranker } from './chat-judge.ts';
import { LlamaChatModel, type ChatModel } from './chat.ts';
import { LlamaReranker, type Reranker } from './reranker.ts';
import type { ResolvedModel } from './resolve.ts';
import type { LlamaRuntime } from './runtime.ts';

export function configuredChat(given: ChatModel | undefined, chatModel: ResolvedModel | null, runtime: LlamaRuntime, config: Config): ChatModel | null {
  return given ?? (chatModel ? new LlamaChatModel(runtime, chatModel.path, chatModel.name, { contextSize: config.contextTokens + config.synthTokens + 512, idleMs: config.modelIdleMs }) : null);
}

/** A cross-encoder when there is one; else, when asked (rerankWithChat), the chat model as a pointwise judge: a generation per passage. */
export function configuredReranker(given: Reranker | undefined, rerankModel: ResolvedModel | null, runtime: LlamaRuntime, chat: ChatModel | null, config: Config): Reranker | null {
  return given ?? (rerankModel ? new LlamaReranker(runtime, rerankModel.path, rerankModel.name) : chat && config.rerankWithChat ? new ChatJudgeReranker(chat) : null);
}

/**
 * The chat model's speed on a short answer, as an answer is written: the speed a person will wait
 * for on this machine. `onSpeed` records it (the registry, for an imported model).
 */
export async function measureChatSpeed(chat: ChatModel | null, onSpeed?: (tokensPerS: number) => void): Promise<{ model: string | null; tokens_per_s: number | null }> {
  if (!chat) return { model: null, tokens_per_s: null };
  const started = performance.now();
  const g = await chat.generate({ system: 'You answer in one short sentence.', user: 'Count from one to twenty in words, separated by commas.', maxTokens: 32, temperature: 0 });
  const seconds = (performance.now() - started) / 1000;
  const tokensPerS = g.tokensOut > 0 ? (g.tokensPerS > 0 ? g.tokensPerS : g.tokensOut / Math.max(seconds, 1e-3)) : null;
  if (tokensPerS !== null) onSpeed?.(tokensPerS);
  return { model: chat.name, tokens_per_s: tokensPerS === null ? null : Math.round(tokensPerS * 10) / 10 };
}
