/**
 * What a test of the answer pipeline gives it instead of an engine: a retrieval result of chosen
 * chunks, and AnswerDeps with no chat model, no sources on disk and every word equally rare.
 */
import type { RetrievalResult, RetrievedChunk } from '../../src/shared/contract.ts';
import type { AnswerDeps } from '../../src/engine/answer/answer.ts';

/** A lexical retrieval result holding these chunks, in order. */
export const retrievalResult = (query: string, chunks: RetrievedChunk[]): RetrievalResult => ({
  query,
  chunks,
  latency_ms: 1,
  index_version: 'test',
  used_docs: [],
  used_sections: [],
  meta: { mode: 'bm25', retrieval_mode: 'hybrid_only', terms: [], candidates: chunks.length, filtered: 0, trigram_used: false, pruned: false, hybrid_used: false, dense_models: [], graph_used: false, rerank_used: false, timings: {}, limits: [] },
});

/** AnswerDeps around `retrieve`: no chat model, no file to read, every word of idf 2; `over` replaces any of them. */
export function answerDeps(retrieve: AnswerDeps['retrieve'], over: Partial<AnswerDeps> = {}): AnswerDeps {
  return {
    retrieve,
    chat: null,
    settings: { systemPrompt: '', answerK: 8, contextTokens: 4096, synthTokens: 512, retrievalTimeoutMs: 5000, synthTimeoutMs: 5000, criticTimeoutMs: 5000, rerankTopN: 50 },
    documentSource: () => null,
    termStats: (terms) => new Map(terms.map((t) => [t, { idf: 2, df: 3 }])),
    saveTrace: () => {},
    ...over,
  };
}
