/**
 * The answer namespace: a question in, an envelope out (answer, snippets, citations, plan, verdict).
 */
import { z } from 'zod';
import { ThreadIdSchema } from './common.ts';
import { LimitSchema } from './limits.ts';
import { MAX_QUERY_CHARS, QUESTION_TOO_LONG, RetrieveContextSchema, SearchModeSchema } from './search.ts';

export const AnswerRequestSchema = z
  .object({
    query: z.string().min(1, 'question is empty').max(MAX_QUERY_CHARS, QUESTION_TOO_LONG),
    /** Passages retrieved before the context is packed. */
    k: z.number().int().min(1).max(100).optional(),
    mode: SearchModeSchema.optional(),
    context: RetrieveContextSchema.optional(),
    /** Run the critic (deterministic checks always run). */
    critic: z.boolean().default(true),
    /**
     * Ask in this thread (threads/*): a follow-up is searched with the thread's terms carried
     * (`thread.searched_as`), and the question and its answer are saved as the thread's next turn.
     */
    thread_id: ThreadIdSchema.optional(),
    /** Start a new thread with this question (its title) and save the answer as its first turn. */
    new_thread: z.boolean().optional(),
  })
  .strict()
  .refine((r) => !(r.thread_id && r.new_thread), { message: 'thread_id and new_thread exclude each other', path: ['new_thread'] });
export type AnswerRequest = z.input<typeof AnswerRequestSchema>;

export const VerdictSchema = z.enum(['APPROVE', 'REVISE', 'REJECT']);

/** Where a numbered passage lies: what a snippet and a citation share. */
const NumberedLinesSchema = z.object({
  n: z.number().int(),
  locator: z.string(),
  path: z.string(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  doc_id: z.string(),
});

/** One numbered source passage the answer was written from; [n] in the answer refers to it. */
export const AnswerSnippetSchema = NumberedLinesSchema.extend({
  title: z.string(),
  heading: z.string().nullable(),
  text: z.string(),
  score: z.number(),
  /** The passage's words around the question's, those wrapped in « » (what the Ask view shows of it); absent in answers saved before. */
  excerpt: z.string().optional(),
});
export type AnswerSnippet = z.infer<typeof AnswerSnippetSchema>;

/** A snippet the answer cites, with what is needed to open the exact lines. */
export const CitationSchema = NumberedLinesSchema.extend({
  /** The file changed (or is gone) since it was indexed: the lines may have moved. */
  stale: z.boolean(),
});
export type Citation = z.infer<typeof CitationSchema>;

export const AnswerEnvelopeSchema = z.object({
  trace_id: z.string(),
  query: z.string(),
  answer: z.string(),
  /** generative: written by the chat model; extractive: best sentences of the sources (no chat model); abstained: not found. */
  answer_mode: z.enum(['generative', 'extractive', 'abstained']),
  /**
   * Does the answer answer the question? answered: every part of it, with the fact; partial: some
   * part is missing (named in `missing_parts`); not_found: the notes do not hold it (an abstention).
   */
  outcome: z.enum(['answered', 'partial', 'not_found']).default('not_found'),
  /** The parts of the question the notes leave open (a partial answer), as the question wrote them. */
  missing_parts: z.array(z.string()).default([]),
  /** Question words that no quoted sentence (nor its note's title) holds, rarest first; when not found, those no retrieved passage holds. */
  missing_terms: z.array(z.string()).default([]),
  snippets: z.array(AnswerSnippetSchema),
  citations: z.array(CitationSchema),
  plan: z.object({
    mode: z.string(),
    k_lexical: z.number().int(),
    k_dense: z.number().int(),
    rerank_k: z.number().int(),
    context_tokens: z.number().int(),
    synth_tokens: z.number().int(),
  }),
  /** What the answer went without or changed (no chat model, a timeout, a part not found): a code to decide from and the words shown. */
  limits: z.array(LimitSchema),
  confidence: z.number().min(0).max(1),
  low_confidence: z.boolean(),
  verdict: VerdictSchema.nullable(),
  critic: z.object({
    decided_by: z.enum(['deterministic', 'model', 'skipped']),
    retried: z.boolean(),
    feedback: z.string(),
    sentences: z.array(z.object({ sentence: z.string(), citations: z.array(z.number().int()), supported: z.boolean(), reason: z.string().nullable() })),
  }),
  /** What was searched, shown with an abstention too. */
  searched: z.object({
    query: z.string(),
    terms: z.array(z.string()),
    results: z.number().int(),
    top: z.array(z.string()),
    /** With an abstention: the sentences of the sources closest to the question, quoted, not offered as an answer. */
    closest: z.array(z.object({ text: z.string(), locator: z.string() })).default([]),
  }),
  /** Citation numbers the model wrote that match no snippet; removed from the answer. */
  removed_citations: z.array(z.number().int()),
  cancelled: z.boolean(),
  timings: z.record(z.string(), z.number()),
  tokens: z.object({ in: z.number().int(), out: z.number().int(), first_token_ms: z.number().nullable(), per_s: z.number() }),
  /**
   * The answer reader's calibrated reading: the probability that its quote states the asked fact
   * (fitted, answer/reader/scorer.ts; the reader's own answerability when no profile is used), the
   * outcome the reader gave before calibration, and the signals scored. Null: no passage was read.
   */
  reader: z
    .object({
      probability: z.number().min(0).max(1),
      outcome: z.enum(['answered', 'partial', 'not_found']),
      /** The reader's quote ('' when it found none): what the probability is of. */
      quote: z.string(),
      /** With a not_found outcome: the sentences the reader would have quoted, withheld (what `synapsis eval --answers` checks the abstentions by). */
      withheld: z.string().optional(),
      /** The probability that the notes answer the question at all (the profile's answerable model), when it has one: what decides Not in your notes. */
      answerable: z.number().min(0).max(1).optional(),
      features: z.record(z.string(), z.number()),
      /**
       * Every candidate sentence's selection features (answer/reader.ts SELECTION_FEATURES), only when
       * the engine is configured to collect them (readerCandidates): what `synapsis tune --answers` fits on.
       */
      candidates: z.array(z.object({ text: z.string(), rank: z.number().int(), features: z.array(z.number()) })).optional(),
    })
    .nullable()
    .default(null),
  /** The thread the question was asked in (thread_id or new_thread), and the turn it became; null: no thread. */
  thread: z
    .object({
      id: z.string(),
      turn: z.number().int(),
      /** What retrieval searched for when the follow-up carried the thread's terms; null: the question itself. */
      searched_as: z.string().nullable(),
      carried: z.array(z.string()),
    })
    .nullable()
    .default(null),
});
export type AnswerEnvelope = z.infer<typeof AnswerEnvelopeSchema>;

export const answerMethods = {
  'answer/ask': { request: AnswerRequestSchema, response: AnswerEnvelopeSchema },
} as const;
