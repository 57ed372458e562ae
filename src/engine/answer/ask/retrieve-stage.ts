/**
 * The first stages of an answer: retrieve the passages (`deps.retrieve`, the same search as
 * `search/query`), then pack as many as fit the chat model's window into numbered snippets.
 */
import { type AnswerEnvelope, limit, type RetrievalResult } from '../../../shared/contract.ts';
import { withTimeout } from '../../llm/reranker.ts';
import { buildContext, estimateTokens } from '../../retrieve/context.ts';
import { snippetsFromBlocks } from '../prompt.ts';
import type { Snippet } from '../types.ts';
import { type AskRun, ms } from './run.ts';

export interface Retrieved {
  /** Null when retrieval timed out (a `retrieval_timed_out` limit says so). */
  result: RetrievalResult | null;
  /** What was searched, as the envelope shows it; `closest` is filled when the answer abstains. */
  searched: AnswerEnvelope['searched'];
}

export interface Packed {
  /** Tokens of sources the prompt may hold. */
  contextTokens: number;
  snippets: Snippet[];
}

/** Retrieves the question's passages within the retrieval timeout; the search's limits become the answer's. */
export async function retrieveStage(run: AskRun): Promise<Retrieved> {
  const { deps, query, options } = run;
  const { settings } = deps;
  run.stage('retrieve');
  const tr = performance.now();
  const retrieval = await withTimeout(
    deps.retrieve(query, { ...(options.context ?? {}), ...(options.mode ? { mode: options.mode } : {}) }, run.k),
    settings.retrievalTimeoutMs,
  );
  run.timings.retrieve_ms = ms(tr);
  const result: RetrievalResult | null = 'value' in retrieval ? retrieval.value : null;
  if (!result) run.limits.push(limit('retrieval_timed_out', `retrieval timed out after ${settings.retrievalTimeoutMs} ms`));
  else run.limits.push(...result.meta.limits);
  const searched: AnswerEnvelope['searched'] = {
    query,
    terms: result?.meta.terms ?? [],
    results: result?.chunks.length ?? 0,
    top: (result?.chunks ?? []).slice(0, 5).map((c) => c.locator),
    closest: [],
  };
  return { result, searched };
}

/**
 * Packs the retrieved passages into numbered snippets: the chat model's window minus the answer, the
 * system prompt and the question (the settings' budget without a chat model). A chat model that
 * cannot say its window is named `chat_model_unavailable`, and the answer is quoted.
 */
export async function packStage(run: AskRun, result: RetrievalResult | null): Promise<Packed> {
  const { settings, chat } = run.deps;
  run.stage('context');
  let contextTokens = settings.contextTokens;
  if (chat) {
    try {
      const window = await chat.contextSize();
      const overhead = (await chat.countTokens(settings.systemPrompt + run.query)) + 96;
      contextTokens = Math.max(64, Math.min(settings.contextTokens, window - settings.synthTokens - overhead));
    } catch (error) {
      run.limits.push(limit('chat_model_unavailable', `chat model unavailable, extractive answer: ${(error as Error).message}`));
    }
  }
  let snippets: Snippet[] = [];
  if (result && result.chunks.length > 0) {
    snippets = snippetsFromBlocks(buildContext(result.chunks, { budgetTokens: contextTokens, countTokens: estimateTokens }).blocks);
  }
  return { contextTokens, snippets };
}
