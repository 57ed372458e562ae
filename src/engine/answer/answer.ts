/**
 * Cited answers (spec 004, decision 2): retrieve → pack the context → synthesize (streamed,
 * cancellable) → map citations → critic → one revision on REVISE → abstain on REJECT. Each stage has
 * its own timeout and degrades instead of failing: no chat model gives an extractive answer, a
 * synthesis timeout keeps what was written (or falls back to extractive), a critic timeout leaves
 * the deterministic checks to decide. Deterministic checks always run first, because small local
 * models approve unsupported claims (../shared/models/README.md); the verdict is the stricter of
 * the checks and the model critic. Every answer leaves a trace row.
 */
import { type AnswerEnvelope, limit, type LimitCode, type RetrievalResult, type RetrieveContext } from '../../shared/contract.ts';
import type { ChatModel } from '../llm/chat.ts';
import type { TraceRow } from '../store/store.ts';
import { supportedShare } from './checks.ts';
import { citationsFor, extractCitations, narrowCitations, staleCitations } from './citations.ts';
import { answerConfidence, LOW_CONFIDENCE } from './confidence.ts';
import type { Reading } from './reader.ts';
import type { ReaderProfile } from './reader/scorer.ts';
import { ABSTAIN_TEXT } from './prompt.ts';
import type { Snippet, Verdict } from './types.ts';
import { ASKED_VALUE, missingPartsLimit } from './partial.ts';
import { sourceLines } from './hop-search.ts';
import { packStage, retrieveStage } from './ask/retrieve-stage.ts';
import { readStage } from './ask/read-stage.ts';
import { synthesisStage } from './ask/synthesis-stage.ts';
import { ms, startRun } from './ask/run.ts';

/** Limits that name no failed or skipped stage: they do not lower an answer's confidence. */
const NOT_DEGRADATIONS: ReadonlySet<LimitCode> = new Set(['no_rerank_model', 'no_chat_model', 'value_unstated', 'part_unanswered', 'terms_never_mentioned', 'described_subject']);

export interface AnswerSettings {
  systemPrompt: string;
  /** Passages retrieved before packing. */
  answerK: number;
  /** Most tokens of sources in the prompt. */
  contextTokens: number;
  /** Most tokens the model may write. */
  synthTokens: number;
  retrievalTimeoutMs: number;
  synthTimeoutMs: number;
  criticTimeoutMs: number;
  rerankTopN: number;
}

export interface AnswerDeps {
  retrieve: (query: string, context: RetrieveContext, k: number) => Promise<RetrievalResult>;
  chat: ChatModel | null;
  settings: AnswerSettings;
  documentSource: (docId: string) => { absPath: string; contentHash: string | null } | null;
  /**
   * The typed relations a note's front matter states of it (decided_by, reports_to, authored_by,
   * owned_by), with the line of each: the graph's, for a described subject whose record states the
   * relation only there. Absent: only field lines of the passages are read.
   */
  noteRelations?: (docId: string) => readonly { type: string; name: string; line: number }[];
  /** idf and document frequency of analyzed terms in the index, as far as a caller allowing these sensitivities may see. */
  termStats: (terms: readonly string[], allowSensitivity: readonly string[]) => Map<string, { idf: number; df: number }>;
  /**
   * Visible documents cut at SYN_MAX_CHUNKS_PER_FILE, as far as a caller allowing these sensitivities
   * may see: a word no indexed text holds may still be in their unsearchable part, so it is not
   * called absent from "your files". Absent: every file is taken as searched whole.
   */
  partlySearchable?: (allowSensitivity: readonly string[]) => string[];
  /** The analysis language the question's words are stemmed in to meet the index (lexical.ts queryLanguages); default English. */
  questionLanguage?: (query: string) => string;
  saveTrace: (trace: TraceRow) => void;
  /**
   * The question's cosine to the stored sentence vectors of these chunks (an embedding model with
   * sentence vectors; null or absent otherwise): a signal of the reader's, free at question time.
   */
  sentenceSimilarities?: (query: string, chunkIds: readonly number[]) => Promise<readonly { text: string; score: number }[] | null>;
  onStage?: (traceId: string, stage: 'retrieve' | 'context' | 'synthesize' | 'critic' | 'revise' | 'done') => void;
  /** The reader's quote, as soon as it is read (before any chat model writes). */
  onQuote?: (traceId: string, quote: { answer: string; outcome: Reading['outcome'] }) => void;
  /** Tokens per second the chat model wrote in recent answers on this machine (median), null before any. */
  chatSpeed?: () => number | null;
  /** The reader's fitted scorer (answer/reader/scorer.ts); absent: the shipped profile; null: the reader's own outcome, uncalibrated. */
  readerProfile?: ReaderProfile | null;
  /** Answers carry every candidate sentence's selection features (what `synapsis tune --answers` fits on). */
  collectCandidates?: boolean;
  /** Weights that rank the candidate sentences in place of the profile's. */
  readerSelection?: readonly number[];
}

export interface AnswerOptions {
  k?: number;
  mode?: 'bm25' | 'dense' | 'hybrid';
  context?: RetrieveContext;
  /** Run the model critic (deterministic checks always run). Default true. */
  critic?: boolean;
  signal?: AbortSignal;
  onToken?: (text: string, attempt: number, traceId: string) => void;
  /** Sees each prompt sent to the chat model (tests prove what enters it). */
  onPrompt?: (prompt: { system: string; user: string; purpose: 'answer' | 'critic' }) => void;
  /**
   * The question as the trace keeps it, when it was searched as something else: a follow-up's
   * rewrite carries the titles of notes that may be restricted later, and traces are listed to any caller.
   */
  traceQuery?: string;
  /** This question's reader quote as soon as it is read, with the passages it quotes (a thread saves it with the question). */
  onQuote?: (quote: { answer: string; outcome: Reading['outcome']; sources: readonly Snippet[] }) => void;
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

export async function answerQuestion(deps: AnswerDeps, query: string, options: AnswerOptions = {}): Promise<AnswerEnvelope> {
  const run = startRun(deps, query, options);
  const { traceId, startedAt, t0, k, limits, timings } = run;
  const { settings } = deps;
  const stage = run.stage;

  const { result, searched } = await retrieveStage(run);
  const packed = await packStage(run, result);
  const { contextTokens } = packed;

  // The reader's answer comes first: it is there at once, and a chat model's answer must do at least as well.
  const read = await readStage(run, result, packed);
  const { reading, features, probability, quote, quoteOutcome, unsure } = read;

  const synthesis = await synthesisStage(run, read);
  const { removed, retried, snippets, generationCut, useChat, readModelAnswer } = synthesis;
  const { verdictInfo } = synthesis;
  let { answerMode, text } = synthesis;
  const cancelled = () => run.cancelled();
  if (removed.length > 0) limits.push(limit('citations_removed', `removed citations to snippets that do not exist: [${removed.join(', ')}]`));

  const isCancelled = cancelled();
  if (isCancelled) limits.push(limit('cancelled', 'cancelled'));
  let verdict: Verdict | null = verdictInfo?.critic.verdict ?? null;
  // Does the answer answer? The reader's outcome for its own quote; a chat model's answer that stood
  // is read the same way, so a fluent answer that leaves a part open is "partial" too.
  let outcome: AnswerEnvelope['outcome'] = 'not_found';
  let finalReading: Reading = reading;
  if (!isCancelled && text && verdict !== 'REJECT') {
    finalReading = answerMode === 'generative' ? readModelAnswer(text) : reading;
    // A model paraphrases: when its words do not let the reader see the answer, the checks that
    // approved each sentence against its sources decide, and the reader's own outcome if it has one.
    outcome = answerMode === 'generative' && finalReading.outcome === 'not_found' ? (reading.outcome === 'not_found' ? 'answered' : reading.outcome) : finalReading.outcome;
    if (answerMode === 'extractive') outcome = quoteOutcome;
  }
  // A chat model may state what the reader could not find in other words, but not an attribute no
  // file of the vault ever names ("per-seat price" in notes without prices): that answer is invented.
  const impossible = answerMode === 'generative' && reading.unknownAttribute;
  if (impossible) limits.push(limit('invented_attribute', `the chat model answered, but no file mentions ${reading.unknown.join(', ')}: not shown`));
  if (!isCancelled && (verdict === 'REJECT' || !text || impossible || (answerMode !== 'generative' && quoteOutcome === 'not_found'))) {
    answerMode = 'abstained';
    text = ABSTAIN_TEXT;
    verdict = 'REJECT';
    outcome = 'not_found';
    // Not an answer, but what a person would want to look at next: the nearest sentences, quoted.
    const byN = new Map(snippets.map((s) => [s.n, s.locator] as const));
    searched.closest = reading.closest.map((c) => ({ text: c.text, locator: byN.get(c.n)! }));
  }
  // "Supported" means the answer answers: a partial answer is badged as such, a cut one never approved.
  if (!isCancelled && verdict === 'APPROVE' && (outcome === 'partial' || generationCut)) verdict = 'REVISE';
  // A quote the scorer is unsure of leaves the whole question open: "not clearly stated".
  const unsureHere = outcome === 'partial' && answerMode === 'extractive' && unsure;
  const missingParts = outcome === 'partial' ? (unsureHere ? [query] : finalReading.parts.filter((p) => !p.answered).map((p) => p.part)) : [];
  const missingLimit = outcome === 'partial' ? (unsureHere ? limit('unsure_quote', `not sure the quote states ${ASKED_VALUE[finalReading.parts[0]?.type ?? 'any']} (${Math.round((probability ?? 0) * 100)}%): the closest passages are quoted`) : missingPartsLimit(finalReading.parts)) : null;
  if (missingLimit) limits.push(missingLimit);

  const cited = answerMode === 'abstained' ? [] : extractCitations(text, snippets).cited;
  // Each citation opens the lines its sentences come from, not the whole passage they were read in.
  const linesByDoc = new Map<string, string[] | null>();
  const citations = narrowCitations(citationsFor(cited, snippets), text, (doc) => {
    if (!linesByDoc.has(doc)) linesByDoc.set(doc, sourceLines(deps, doc));
    return linesByDoc.get(doc)!;
  });
  const stale = staleCitations(citations, deps.documentSource);
  for (const c of citations) if (stale.get(c.n)) limits.push(limit('stale_citation', `citation [${c.n}] points to ${c.path}, which changed since it was indexed: its lines may have moved`));

  const sentences = verdictInfo?.critic.sentences ?? [];
  const formula = answerConfidence({
    synthesized: answerMode === 'generative',
    // How the question was read through its described subject is no degradation: no stage failed.
    degradations: limits.filter((l) => !NOT_DEGRADATIONS.has(l.code)).length,
    verdict: isCancelled ? null : verdict,
    topScore: result ? topScoreOf(result) : null,
    supportedShare: supportedShare(sentences),
    answerability: outcome === 'not_found' ? Math.min(reading.answerability, finalReading.answerability) : finalReading.answerability,
  });
  // A quoted answer's confidence is the fitted probability that it states the fact; an abstention and a
  // chat model's answer keep the formula (the verdict dominates: the critic read the answer).
  const calibratedConfidence = probability !== null && answerMode === 'extractive' && !isCancelled ? probability : null;
  const confidence = calibratedConfidence ?? formula.confidence;
  const low = calibratedConfidence !== null ? calibratedConfidence < LOW_CONFIDENCE : formula.low;

  stage('done');
  timings.total_ms = ms(t0);
  const envelope: AnswerEnvelope = {
    trace_id: traceId,
    query,
    answer: text,
    answer_mode: answerMode,
    outcome,
    missing_parts: missingParts,
    missing_terms: outcome === 'answered' ? [] : finalReading.missing,
    snippets: snippets.map(({ language: _language, ...s }) => s),
    citations: citations.map((c) => ({ ...c, stale: stale.get(c.n) ?? false })),
    plan: {
      mode: result?.meta.mode ?? options.mode ?? 'bm25',
      k_lexical: result?.meta.mode === 'dense' ? 0 : k,
      k_dense: result?.meta.mode === 'bm25' ? 0 : k,
      rerank_k: result?.meta.rerank_used ? (options.context?.rerank_top_n ?? settings.rerankTopN) : 0,
      context_tokens: contextTokens,
      synth_tokens: useChat ? settings.synthTokens : 0,
    },
    limits,
    confidence,
    low_confidence: low,
    verdict: isCancelled ? null : verdict,
    critic: {
      decided_by: verdictInfo?.decidedBy ?? 'skipped',
      retried,
      feedback: verdictInfo?.critic.feedback ?? '',
      sentences: sentences.map((s) => ({ sentence: s.sentence, citations: s.citations, supported: s.supported, reason: s.reason })),
    },
    searched,
    removed_citations: removed,
    cancelled: isCancelled,
    timings,
    tokens: { in: run.tokens.in, out: run.tokens.out, first_token_ms: run.tokens.firstTokenMs, per_s: run.tokens.perS },
    thread: null,
    reader: features ? { probability: probability ?? reading.answerability, outcome: reading.outcome, quote, ...(reading.outcome === 'not_found' && reading.withheld ? { withheld: reading.withheld } : {}), features, ...(reading.candidateRows ? { candidates: reading.candidateRows.map((c) => ({ text: c.text, rank: c.snippetIndex, features: c.features })) } : {}) } : null,
  };
  deps.saveTrace({
    trace_id: traceId,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    query: options.traceQuery ?? query,
    answer_mode: answerMode,
    verdict: envelope.verdict,
    confidence,
    latencies_ms: timings,
    retrieved: (result?.chunks ?? []).map((c) => c.locator),
    reranked: result?.meta.rerank_used ? result.chunks.map((c) => c.locator) : [],
    tokens_in: run.tokens.in,
    tokens_out: run.tokens.out,
    first_token_ms: run.tokens.firstTokenMs,
    tokens_per_s: run.tokens.perS || null,
    limits,
  });
  return envelope;
}
