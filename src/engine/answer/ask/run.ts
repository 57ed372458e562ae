/**
 * One answer in the making: what every stage of `answerQuestion` (../answer.ts) reads (the question,
 * its dependencies and options) and adds to (the limits met, the stage timings, the chat model's
 * tokens). The stages pass their own results on as return values; only these accumulate.
 */
import { randomUUID } from 'node:crypto';
import type { Limit } from '../../../shared/contract.ts';
import type { AnswerDeps, AnswerOptions } from '../answer.ts';
import { sourceLines } from '../hop-search.ts';

/** The stages `onStage` reports, in order. */
export type AskStage = Parameters<NonNullable<AnswerDeps['onStage']>>[1];

export interface AskRun {
  readonly deps: AnswerDeps;
  readonly query: string;
  readonly options: AnswerOptions;
  readonly traceId: string;
  readonly startedAt: string;
  /** performance.now() when the question arrived. */
  readonly t0: number;
  /** Passages retrieved: the option's, else the settings'. */
  readonly k: number;
  /** Every limit met, in the order met: the envelope's and the trace's. */
  readonly limits: Limit[];
  /** Milliseconds per stage (retrieve_ms, read_ms, synthesize_ms, critic_ms, revise_ms, total_ms). */
  readonly timings: Record<string, number>;
  /** The chat model's tokens, summed over its drafts and reviews. */
  readonly tokens: { in: number; out: number; firstTokenMs: number | null; perS: number };
  /** Reports a stage to `deps.onStage`. */
  stage(s: AskStage): void;
  /** The caller stopped the question. */
  cancelled(): boolean;
  /** A document's lines as indexed (hop-search.ts sourceLines), read once per question whoever asks. */
  lines(docId: string, maxBytes?: number): string[] | null;
}

/** A new answer's run: its trace id, its start, nothing met yet. */
export function startRun(deps: AnswerDeps, query: string, options: AnswerOptions): AskRun {
  const traceId = randomUUID();
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const signal = options.signal;
  const read = new Map<string, string[]>();
  return {
    deps,
    query,
    options,
    traceId,
    startedAt,
    t0,
    k: options.k ?? deps.settings.answerK,
    limits: [],
    timings: {},
    tokens: { in: 0, out: 0, firstTokenMs: null, perS: 0 },
    stage: (s) => deps.onStage?.(traceId, s),
    cancelled: () => signal?.aborted === true,
    lines(docId, maxBytes) {
      // Only a file read whole is kept: one left unread for its size may be read by a caller without that limit.
      const known = read.get(docId);
      if (known) return known;
      const lines = sourceLines(deps, docId, maxBytes);
      if (lines) read.set(docId, lines);
      return lines;
    },
  };
}

/** Milliseconds since `t`, to a tenth. */
export const ms = (t: number) => Math.round((performance.now() - t) * 10) / 10;
