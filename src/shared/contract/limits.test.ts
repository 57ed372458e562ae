import { describe, expect, it } from 'vitest';
import { AnswerEnvelopeSchema } from './answer.ts';
import { LIMIT_CODES, type LimitCode, storedLimit, storedLimits } from './limits.ts';

/** A limit of each code as older versions stored it: its text alone. */
const STORED_TEXT: Record<Exclude<LimitCode, 'other'>, string> = {
  language_uncovered: "no embedding model covers the query's language (ru): all-MiniLM-L6-v2.Q8_0 covers en; lexical results only",
  language_model_left_out: "all-MiniLM-L6-v2.Q8_0 left out: not trained on the query's language (ru)",
  dense_timed_out: 'dense retrieval timed out after 2000 ms: lexical results only',
  dense_failed: 'dense retrieval failed: the vector index is being built from stored embeddings; lexical results until it is done',
  rerank_timed_out: 'rerank timed out after 50 ms: fused order kept',
  rerank_failed: 'rerank failed: context overflow',
  no_rerank_model: 'rerank: no rerank model configured',
  no_embedding_model: 'no embedding model: lexical retrieval only',
  sentence_vectors_rebuilding: 'sentence vector index rebuilt from stored embeddings: truncated; chunk vectors ranked alone meanwhile',
  retrieval_timed_out: 'retrieval timed out after 5000 ms',
  chat_model_unavailable: 'chat model unavailable, extractive answer: Cannot load chat model x.gguf',
  no_chat_model: 'no chat model: quoted answer (the sentences of your files that answer)',
  chat_too_slow: 'the chat model writes 1.5 tokens/s on this machine (an answer would take minutes): quoted answer instead',
  described_subject: 'described subject: "the engineer who chose NATS" is Rosa Diaz (people/rosa.md:1-4); searched "Where does Rosa Diaz work?"',
  second_hop: 'second hop: read 2 passages about Tomás Herrera',
  task_hop: 'how-to: read 1 more passage of Renew relay TLS certificates',
  terms_never_mentioned: 'your files never mention: seat',
  terms_maybe_unsearched: 'the searched text never mentions: zanzibarcanary; part of big.md is not searchable (cut at SYN_MAX_CHUNKS_PER_FILE chunks), so it may be there',
  context_overflow: "3 snippets did not fit the model's context",
  synthesis_timed_out: 'synthesis timed out after 100 ms: the answer was cut short',
  synthesis_failed: 'synthesis failed: out of memory',
  synthesis_empty: 'synthesis produced no text: quoted answer',
  repeated_removed: "removed 2 repeated sentences from the model's answer",
  citations_attributed: 'citations added where the model gave none, by matching sentences to snippets: sentence 1 → [2]',
  critic_timed_out: 'critic timed out after 100 ms: deterministic checks decided',
  critic_failed: 'critic failed: bad json: deterministic checks decided',
  critic_no_verdict: 'critic returned no verdict: deterministic checks decided',
  unsupported_removed: 'removed 1 sentence the sources do not support',
  critic_rejected: "the chat model's answer did not pass the source checks: the quoted answer is shown instead",
  chat_answer_cut: "the chat model's answer was cut short: the quoted answer is shown instead",
  chat_answer_less: "the chat model's answer answers less of the question than the quoted sentences: the quoted answer is shown instead",
  invented_attribute: 'the chat model answered, but no file mentions counsel: not shown',
  citations_removed: 'removed citations to snippets that do not exist: [42]',
  cancelled: 'cancelled',
  value_unstated: 'not found in your notes: a sentence that clearly says how long; the closest ones are quoted',
  part_unanswered: 'not found in your notes: "who approved the postmortem?"',
  unsure_quote: 'not sure the quote states how long (50%): the closest passages are quoted',
  read_by_meaning: 'the question is in another language than these notes: the sentences closest in meaning are shown, not checked word by word',
  stale_citation: 'citation [1] points to relay.md, which changed since it was indexed: its lines may have moved',
};

describe('stored limits of older versions (text)', () => {
  it('has a stored text for every code but other', () => {
    expect(Object.keys(STORED_TEXT).sort()).toEqual(LIMIT_CODES.filter((c) => c !== 'other').sort());
  });

  it.each(Object.entries(STORED_TEXT))('%s: read with its code, its words kept', (code, text) => {
    expect(storedLimit(text)).toEqual({ code, detail: text });
  });

  it('reads text no code names as other, and keeps its words', () => {
    expect(storedLimit('lexical index rebuilt overnight')).toEqual({ code: 'other', detail: 'lexical index rebuilt overnight' });
  });

  it('keeps a typed limit as it is; one with a code this version does not know becomes other with its words', () => {
    expect(storedLimit({ code: 'unsure_quote', detail: 'x' })).toEqual({ code: 'unsure_quote', detail: 'x' });
    expect(storedLimit({ code: 'from_a_newer_version', detail: 'y' })).toEqual({ code: 'other', detail: 'y' });
  });

  it('reads a stored list (strings and objects mixed) and nothing else as none', () => {
    expect(storedLimits(['cancelled', { code: 'no_chat_model', detail: 'no chat model: quoted answer' }])).toEqual([
      { code: 'cancelled', detail: 'cancelled' },
      { code: 'no_chat_model', detail: 'no chat model: quoted answer' },
    ]);
    expect(storedLimits(undefined)).toEqual([]);
  });

  it('the answer contract refuses a limit given as text', () => {
    const limits = AnswerEnvelopeSchema.shape.limits;
    expect(limits.safeParse(['cancelled']).success).toBe(false);
    expect(limits.safeParse([{ code: 'cancelled', detail: 'cancelled' }]).success).toBe(true);
  });
});
