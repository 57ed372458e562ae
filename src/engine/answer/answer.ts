/**
 * Cited answers (spec 004, decision 2): retrieve → pack the context → synthesize (streamed,
 * cancellable) → map citations → critic → one revision on REVISE → abstain on REJECT. Each stage has
 * its own timeout and degrades instead of failing: no chat model gives an extractive answer, a
 * synthesis timeout keeps what was written (or falls back to extractive), a critic timeout leaves
 * the deterministic checks to decide. Deterministic checks always run first, because small local
 * models approve unsupported claims (../shared/models/README.md); the verdict is the stricter of
 * the checks and the model critic. Every answer leaves a trace row.
 *
 * `answerQuestion` runs the stages in order, each a function of its own in ./ask/: retrieve and
 * pack (retrieve-stage.ts), read (read-stage.ts: the reader, its hops, the scorer's outcome; its
 * quote is sent before any chat model writes), synthesize (synthesis-stage.ts: draft, judge in
 * critic.ts, one revision, draft or quote), settle the outcome (outcome-stage.ts: abstention,
 * verdict, open parts), and build the envelope (envelope.ts: citations, confidence, trace row).
 */
import type { AnswerEnvelope, RetrievalResult, RetrieveContext } from '../../shared/contract.ts';
import type { ChatModel } from '../llm/chat.ts';
import type { TraceRow } from '../store/store.ts';
import type { Reading } from './reader.ts';
import type { ReaderProfile } from './reader/scorer.ts';
import type { Snippet } from './types.ts';
import { envelopeStage } from './ask/envelope.ts';
import { outcomeStage } from './ask/outcome-stage.ts';
import { readStage, startBridge } from './ask/read-stage.ts';
import { packStage, retrieveStage } from './ask/retrieve-stage.ts';
import { startRun } from './ask/run.ts';
import { synthesisStage } from './ask/synthesis-stage.ts';

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
  /** The keys of a document's front matter with one plain value each, as indexed (answer/properties.ts reads no file without an asked one). */
  propertyKeys?: (docId: string) => readonly string[];
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
  /**
   * How many sentences of these retrieved chunks still wait for their vectors (embedded in the
   * background after indexing): why a reading had none, said in its note. Only the passages this
   * question may read are counted. Absent: no sentence vectors are made.
   */
  sentencesPending?: (chunkIds: readonly number[]) => number;
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

/**
 * Answers a question from the caller's files: the stages in order, each in src/engine/answer/ask/.
 * Every stage adds to the run's limits and timings; the envelope names them all.
 */
export async function answerQuestion(deps: AnswerDeps, query: string, options: AnswerOptions = {}): Promise<AnswerEnvelope> {
  const run = startRun(deps, query, options);
  // A question that describes its subject is searched for that subject beside its own search.
  const bridging = startBridge(run);
  const retrieved = await retrieveStage(run);
  const packed = await packStage(run, retrieved.result);
  // The reader's answer comes first: it is there at once, and a chat model's answer must do at least as well.
  const read = await readStage(run, retrieved.result, packed, bridging);
  const synthesis = await synthesisStage(run, read);
  const settled = outcomeStage(run, read, synthesis, retrieved.searched);
  return envelopeStage(run, { retrieved, packed, read, synthesis, settled });
}
