/** answer/ask: a cited answer, its tokens streamed as events and to the caller. */
import { createError } from '../../shared/errors.ts';
import { answerQuestion, type AnswerDeps } from '../answer/answer.ts';
import { DEFAULT_SYSTEM_PROMPT } from '../answer/prompt.ts';
import type { Config } from '../config.ts';
import type { EventBus } from '../events.ts';
import type { ChatModel } from '../llm/chat.ts';
import { termStats } from '../search/lexical.ts';
import type { Store } from '../store/store.ts';
import type { Handlers } from './types.ts';

export interface AnswerServices {
  store: Store;
  config: Config;
  events: EventBus;
  chat: ChatModel | null;
  retrieve: AnswerDeps['retrieve'];
  /** When this engine started: chat speeds are measured again on each start. */
  startedAt: string;
}

export function createAnswerHandlers({ store, config, events, chat, retrieve, startedAt }: AnswerServices) {
  const deps: AnswerDeps = {
    retrieve,
    chat,
    settings: {
      systemPrompt: config.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
      answerK: config.answerK,
      contextTokens: config.contextTokens,
      synthTokens: config.synthTokens,
      retrievalTimeoutMs: config.answerRetrievalTimeoutMs,
      synthTimeoutMs: config.synthTimeoutMs,
      criticTimeoutMs: config.criticTimeoutMs,
      rerankTopN: config.rerankTopN,
    },
    documentSource: (docId) => store.documentSource(docId),
    termStats: (terms, allowSensitivity) => termStats(store.db, terms, { allowSensitivity, sensitivityEnable: config.sensitivityEnable }),
    saveTrace: (trace) => store.insertTrace(trace),
    onStage: (trace_id, stage) => events.emit('answer/stage', { trace_id, stage }),
    onQuote: (trace_id, quote) => events.emit('answer/quote', { trace_id, ...quote }),
    chatSpeed: () => {
      // The median speed of the last five answers the chat model wrote since this engine started
      // (measured again on each start: another machine, a GPU or another model may be faster).
      const speeds = store.listTraces(20).flatMap((t) => (t.started_at >= startedAt && t.tokens_per_s && t.tokens_out >= 16 ? [t.tokens_per_s] : [])).slice(0, 5).sort((a, b) => a - b);
      return speeds.length >= 3 ? speeds[Math.floor(speeds.length / 2)]! : null;
    },
  };
  return {
    'answer/ask': async (req, { signal, onToken, onPrompt }) => {
      // The schema refuses an empty question; one of blanks only is empty too.
      if (!req.query.trim()) throw createError('E_SYN_BAD_REQUEST', 'The question is empty.');
      const envelope = await answerQuestion(deps, req.query, {
        ...(req.k ? { k: req.k } : {}),
        ...(req.mode ? { mode: req.mode } : {}),
        ...(req.context ? { context: req.context } : {}),
        critic: req.critic,
        ...(signal ? { signal } : {}),
        ...(onPrompt ? { onPrompt } : {}),
        onToken: (text, attempt, trace_id) => {
          events.emit('answer/token', { trace_id, text, attempt });
          onToken?.(text, attempt, trace_id);
        },
      });
      events.emit('syn.answer.completed', { trace_id: envelope.trace_id, verdict: envelope.verdict, confidence: envelope.confidence, latency_ms: envelope.timings.total_ms ?? 0 });
      return envelope;
    },
  } satisfies Handlers;
}
