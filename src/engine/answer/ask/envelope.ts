/**
 * The last stage of an answer: its citations narrowed to the lines they come from (stale ones
 * named), its confidence, the envelope the caller gets, and the trace row every answer leaves.
 */
import { type AnswerEnvelope, limit, type LimitCode, type RetrievalResult } from '../../../shared/contract.ts';
import { supportedShare } from '../checks.ts';
import { citationsFor, extractCitations, narrowCitations, staleCitations } from '../citations.ts';
import { answerConfidence, LOW_CONFIDENCE } from '../confidence.ts';
import { highlightSnippet } from '../../search/snippet.ts';
import { plainText } from '../reader/text.ts';
import type { Snippet } from '../types.ts';
import type { Settled } from './outcome-stage.ts';
import type { Read } from './read-stage.ts';
import type { Packed, Retrieved } from './retrieve-stage.ts';
import { type AskRun, ms } from './run.ts';
import type { Synthesis } from './synthesis-stage.ts';

/** How much of a passage its excerpt shows: the words around the question's. */
export const EXCERPT_CHARS = 280;

/** A passage as a person reads it: no heading marks, emphasis or link syntax; a list's items each after a bullet. */
export function readable(text: string): string {
  return plainText(text.replace(/^[ \t]{0,3}#{1,6}[ \t]+/gm, '').replace(/^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?/gm, '• '));
}

/** Limits that name no failed or skipped stage: they do not lower an answer's confidence. */
const NOT_DEGRADATIONS: ReadonlySet<LimitCode> = new Set(['no_rerank_model', 'no_chat_model', 'value_unstated', 'part_unanswered', 'terms_never_mentioned', 'described_subject']);

/** What the earlier stages left: the envelope is built of it. */
export interface Staged {
  retrieved: Retrieved;
  packed: Packed;
  read: Read;
  synthesis: Synthesis;
  settled: Settled;
}

/** Builds the envelope and saves the answer's trace row. */
export function envelopeStage(run: AskRun, { retrieved, packed, read, synthesis, settled }: Staged): AnswerEnvelope {
  const { deps, query, options, limits, timings, k } = run;
  const { settings } = deps;
  const { result, searched } = retrieved;
  const { reading, features, probability, quote, answerable } = read;
  const { snippets, verdictInfo } = synthesis;
  const { isCancelled, answerMode, text, verdict, outcome, finalReading } = settled;
  const citations = citationsOf(run, answerMode, text, snippets);
  const sentences = verdictInfo?.critic.sentences ?? [];
  const { confidence, low } = confidenceOf(run, result, read, synthesis, settled);
  const languages = result?.meta.query_language ? [result.meta.query_language] : [];

  run.stage('done');
  timings.total_ms = ms(run.t0);
  const envelope: AnswerEnvelope = {
    trace_id: run.traceId,
    query,
    answer: text,
    answer_mode: answerMode,
    outcome,
    missing_parts: settled.missingParts,
    missing_terms: outcome === 'answered' ? [] : finalReading.missing,
    snippets: snippets.map(({ language: _language, ...s }) => ({ ...s, excerpt: highlightSnippet(readable(s.text), searched.terms, EXCERPT_CHARS, languages) })),
    citations,
    plan: {
      mode: result?.meta.mode ?? options.mode ?? 'bm25',
      k_lexical: result?.meta.mode === 'dense' ? 0 : k,
      k_dense: result?.meta.mode === 'bm25' ? 0 : k,
      rerank_k: result?.meta.rerank_used ? (options.context?.rerank_top_n ?? settings.rerankTopN) : 0,
      context_tokens: packed.contextTokens,
      synth_tokens: synthesis.useChat ? settings.synthTokens : 0,
    },
    limits,
    confidence,
    low_confidence: low,
    verdict: isCancelled ? null : verdict,
    critic: {
      decided_by: verdictInfo?.decidedBy ?? 'skipped',
      retried: synthesis.retried,
      feedback: verdictInfo?.critic.feedback ?? '',
      sentences: sentences.map((s) => ({ sentence: s.sentence, citations: s.citations, supported: s.supported, reason: s.reason })),
    },
    searched,
    removed_citations: synthesis.removed,
    cancelled: isCancelled,
    timings,
    tokens: { in: run.tokens.in, out: run.tokens.out, first_token_ms: run.tokens.firstTokenMs, per_s: run.tokens.perS },
    thread: null,
    reader: features ? { probability: probability ?? reading.answerability, outcome: reading.outcome, quote, ...(reading.outcome === 'not_found' && reading.withheld ? { withheld: reading.withheld } : {}), ...(answerable !== null ? { answerable } : {}), features, ...(reading.candidateRows ? { candidates: reading.candidateRows.map((c) => ({ text: c.text, rank: c.snippetIndex, features: c.features })) } : {}) } : null,
  };
  saveTrace(run, result, envelope);
  return envelope;
}

/**
 * The answer's citations: each opens the lines its sentences come from, not the whole passage they
 * were read in, and one to a file changed since it was indexed is stale (and named in a limit).
 */
function citationsOf(run: AskRun, answerMode: AnswerEnvelope['answer_mode'], text: string, snippets: readonly Snippet[]): AnswerEnvelope['citations'] {
  const cited = answerMode === 'abstained' ? [] : extractCitations(text, snippets).cited;
  const linesByDoc = new Map<string, string[] | null>();
  const citations = narrowCitations(citationsFor(cited, snippets), text, (doc) => {
    if (!linesByDoc.has(doc)) linesByDoc.set(doc, run.lines(doc));
    return linesByDoc.get(doc)!;
  });
  const stale = staleCitations(citations, run.deps.documentSource);
  for (const c of citations) if (stale.get(c.n)) run.limits.push(limit('stale_citation', `citation [${c.n}] points to ${c.path}, which changed since it was indexed: its lines may have moved`));
  return citations.map((c) => ({ ...c, stale: stale.get(c.n) ?? false }));
}

/**
 * A quoted answer's confidence is the fitted probability that it states the fact; an abstention and a
 * chat model's answer keep the formula (the verdict dominates: the critic read the answer).
 */
function confidenceOf(run: AskRun, result: RetrievalResult | null, read: Read, synthesis: Synthesis, settled: Settled): { confidence: number; low: boolean } {
  const { reading, probability } = read;
  const { isCancelled, answerMode, verdict, outcome, finalReading } = settled;
  const formula = answerConfidence({
    synthesized: answerMode === 'generative',
    // How the question was read through its described subject is no degradation: no stage failed.
    degradations: run.limits.filter((l) => !NOT_DEGRADATIONS.has(l.code)).length,
    verdict: isCancelled ? null : verdict,
    topScore: result ? topScoreOf(result) : null,
    supportedShare: supportedShare(synthesis.verdictInfo?.critic.sentences ?? []),
    answerability: outcome === 'not_found' ? Math.min(reading.answerability, finalReading.answerability) : finalReading.answerability,
  });
  const calibratedConfidence = probability !== null && answerMode === 'extractive' && !isCancelled ? probability : null;
  const confidence = calibratedConfidence ?? formula.confidence;
  const low = calibratedConfidence !== null ? calibratedConfidence < LOW_CONFIDENCE : formula.low;
  return { confidence, low };
}

/** A top-hit score in [0, 1] whatever list produced it (BM25 is unbounded, RRF tiny, cosine in [-1, 1]). */
function topScoreOf(result: RetrievalResult): number | null {
  const top = result.chunks[0];
  if (!top) return null;
  if (result.meta.rerank_used) return Math.min(1, Math.max(0, top.score));
  // 1 = first in every fused list, whatever the profile's fusion (RRF, weighted min-max or z-scores).
  if (result.meta.hybrid_used) return result.meta.score_scale ? Math.min(1, Math.max(0, top.score / result.meta.score_scale)) : Math.min(1, (top.score * 61) / 2);
  if (result.meta.mode === 'dense') return Math.max(0, top.score);
  return top.score / (top.score + 5);
}

/** Every answer leaves a trace row: its stages, passages, tokens, verdict and limits. */
function saveTrace(run: AskRun, result: RetrievalResult | null, envelope: AnswerEnvelope): void {
  run.deps.saveTrace({
    trace_id: run.traceId,
    started_at: run.startedAt,
    finished_at: new Date().toISOString(),
    query: run.options.traceQuery ?? run.query,
    answer_mode: envelope.answer_mode,
    verdict: envelope.verdict,
    confidence: envelope.confidence,
    latencies_ms: run.timings,
    retrieved: (result?.chunks ?? []).map((c) => c.locator),
    reranked: result?.meta.rerank_used ? result.chunks.map((c) => c.locator) : [],
    tokens_in: run.tokens.in,
    tokens_out: run.tokens.out,
    first_token_ms: run.tokens.firstTokenMs,
    tokens_per_s: run.tokens.perS || null,
    limits: run.limits,
  });
}
