/**
 * What a search or an answer went without, or changed, as `{ code, detail }`: `code` says which
 * reason (engine, app, CLI and tests decide from it), `detail` says it in words for a person.
 */
import { z } from 'zod';

export const LIMIT_CODES = [
  // Retrieval (search/query meta, and an answer's retrieval).
  /** No embedding model covers the query's language: lexical results only. */
  'language_uncovered',
  /** Some embedding models were left out: not trained on the query's language. */
  'language_model_left_out',
  /** A dense list timed out. */
  'dense_timed_out',
  /** A dense list failed (the vector index is being rebuilt, a model failed). */
  'dense_failed',
  /** The reranker timed out: the fused order stands. */
  'rerank_timed_out',
  'rerank_failed',
  /** No rerank model is configured: reranking is skipped. */
  'no_rerank_model',
  /** Hybrid asked with no embedding model: lexical retrieval only. */
  'no_embedding_model',
  /** The sentence vectors are being rebuilt: chunk vectors rank alone meanwhile. */
  'sentence_vectors_rebuilding',
  // Answers.
  'retrieval_timed_out',
  /** The chat model could not be loaded: the answer is quoted. */
  'chat_model_unavailable',
  /** No chat model is configured: the answer is quoted. */
  'no_chat_model',
  /** The chat model writes too slowly on this machine: the answer is quoted. */
  'chat_too_slow',
  /** The question's described subject was resolved to a name and asked about it. */
  'described_subject',
  /** The passages of the subject the best sentences name were read too. */
  'second_hop',
  /** The passages of the note whose title names the asked task were read too. */
  'task_hop',
  /** Words of the question no visible file holds. */
  'terms_never_mentioned',
  /** Words of the question no searched text holds, where part of a file is not searchable. */
  'terms_maybe_unsearched',
  /** Snippets left out of the prompt: they did not fit the model's context. */
  'context_overflow',
  'synthesis_timed_out',
  'synthesis_failed',
  /** The chat model wrote nothing: the answer is quoted. */
  'synthesis_empty',
  /** Repeated sentences removed from the model's answer. */
  'repeated_removed',
  /** Citations added where the model gave none. */
  'citations_attributed',
  'critic_timed_out',
  'critic_failed',
  'critic_no_verdict',
  /** Sentences the sources do not support were cut after the one revision. */
  'unsupported_removed',
  /** The chat model's answer did not pass the source checks: the quoted answer is shown instead. */
  'critic_rejected',
  /** The chat model's answer was cut short: the quoted answer is shown instead. */
  'chat_answer_cut',
  /** The chat model's answer answers less of the question than the quote: the quote is shown instead. */
  'chat_answer_less',
  /** The chat model answered about an attribute no file mentions: not shown. */
  'invented_attribute',
  /** Citations to snippets that do not exist were removed. */
  'citations_removed',
  /** The person stopped the answer. */
  'cancelled',
  /** A question of one part: no sentence clearly states the asked kind of value; the closest are quoted. */
  'value_unstated',
  /** Parts of a question of several parts that the notes leave open. */
  'part_unanswered',
  /** The reader's scorer is not sure the quote states the asked value. */
  'unsure_quote',
  /** The question is in another language than its notes: the sentences closest in meaning are shown, not checked word by word. */
  'read_by_meaning',
  /** A cited file changed since it was indexed: the lines may have moved. */
  'stale_citation',
  /** A limit stored by an older version whose words name no known reason. */
  'other',
] as const;

export const LimitCodeSchema = z.enum(LIMIT_CODES);
export type LimitCode = z.infer<typeof LimitCodeSchema>;

export const LimitSchema = z.object({
  code: LimitCodeSchema,
  /** The limit in words, as shown to a person. */
  detail: z.string(),
});
export type Limit = z.infer<typeof LimitSchema>;

export const limit = (code: LimitCode, detail: string): Limit => ({ code, detail });

/**
 * The opening words each code's limit had when limits were stored as text (threads and traces of
 * older versions), most specific first: read once, when a stored answer is loaded.
 */
const STORED_PREFIXES: readonly (readonly [RegExp, LimitCode])[] = [
  [/^no embedding model covers the query's language/, 'language_uncovered'],
  [/ left out: not trained on the query's language/, 'language_model_left_out'],
  [/^rerank timed out after/, 'rerank_timed_out'],
  [/^rerank failed:/, 'rerank_failed'],
  [/^rerank: no rerank model/, 'no_rerank_model'],
  [/^no embedding model: lexical retrieval only/, 'no_embedding_model'],
  [/^sentence .*; chunk vectors ranked alone meanwhile$/, 'sentence_vectors_rebuilding'],
  [/^retrieval timed out after/, 'retrieval_timed_out'],
  [/^chat model unavailable/, 'chat_model_unavailable'],
  [/^no chat model:/, 'no_chat_model'],
  [/^the chat model writes [\d.]+ tokens\/s/, 'chat_too_slow'],
  [/^described subject:/, 'described_subject'],
  [/^second hop:/, 'second_hop'],
  [/^how-to:/, 'task_hop'],
  [/^your files never mention/, 'terms_never_mentioned'],
  [/^the searched text never mentions/, 'terms_maybe_unsearched'],
  [/^\d+ snippets did not fit the model's context/, 'context_overflow'],
  [/^synthesis timed out/, 'synthesis_timed_out'],
  [/^synthesis failed/, 'synthesis_failed'],
  [/^synthesis produced no text/, 'synthesis_empty'],
  [/^removed \d+ repeated sentences? from the model's answer/, 'repeated_removed'],
  [/^citations added where the model gave none/, 'citations_attributed'],
  [/^critic timed out/, 'critic_timed_out'],
  [/^critic failed/, 'critic_failed'],
  [/^critic returned no verdict/, 'critic_no_verdict'],
  [/^removed \d+ sentences? the sources do not support/, 'unsupported_removed'],
  [/^the chat model's answer did not pass the source checks/, 'critic_rejected'],
  [/^the chat model's answer was cut short/, 'chat_answer_cut'],
  [/^the chat model's answer answers less/, 'chat_answer_less'],
  [/^the chat model answered, but no file mentions/, 'invented_attribute'],
  [/^removed citations to snippets that do not exist/, 'citations_removed'],
  [/^cancelled$/, 'cancelled'],
  [/^not found in your notes: a sentence that clearly says/, 'value_unstated'],
  [/^not found in your notes:/, 'part_unanswered'],
  [/^not sure the quote states/, 'unsure_quote'],
  [/^the question is in another language than these notes/, 'read_by_meaning'],
  [/^citation \[\d+\] points to .*, which changed since it was indexed/, 'stale_citation'],
  // Last: a dense list's label is a model's name.
  [/ timed out after \d+ ms: (?:left out|lexical results only)$/, 'dense_timed_out'],
  [/ failed: /, 'dense_failed'],
];

/** A stored limit as this version reads it: a text limit of an older version gets the code its words had; an unknown one is `other`. */
export function storedLimit(stored: unknown): Limit {
  if (typeof stored === 'string') return { code: STORED_PREFIXES.find(([re]) => re.test(stored))?.[1] ?? 'other', detail: stored };
  const parsed = LimitSchema.safeParse(stored);
  if (parsed.success) return parsed.data;
  const detail = typeof stored === 'object' && stored !== null && typeof (stored as { detail?: unknown }).detail === 'string' ? (stored as { detail: string }).detail : JSON.stringify(stored);
  return { code: 'other', detail };
}

/** Stored limits (a thread's answer, a trace) as this version reads them. */
export const storedLimits = (stored: unknown): Limit[] => (Array.isArray(stored) ? stored.map(storedLimit) : []);
