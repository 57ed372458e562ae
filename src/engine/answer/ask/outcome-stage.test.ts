import { describe, expect, it } from 'vitest';
import type { RetrievedChunk } from '../../../shared/contract.ts';
import { answerDeps, retrievalResult } from '../../../../test/helpers/answer-deps.ts';
import { type AnswerDeps, answerQuestion } from '../answer.ts';
import { FEATURE_NAMES } from '../reader/features.ts';
import type { ReaderProfile } from '../reader/scorer.ts';

const chunk: RetrievedChunk = {
  chunk_id: 1,
  doc_id: 'incidents/relay.md',
  locator: 'incidents/relay.md#L1-L3',
  path: 'incidents/relay.md',
  root: '/vault',
  title: 'Relay outage',
  heading: null,
  start_line: 1,
  end_line: 3,
  text: 'The March relay outage lasted 47 minutes.',
  snippet: 'The March relay outage lasted 47 minutes.',
  score: 1,
  tags: {},
};


/** Every quote at sigmoid(2) = 88%, Answered only with sentence vectors (from 80%). */
const profile: ReaderProfile = { version: 1, features: [...FEATURE_NAMES], mean: FEATURE_NAMES.map(() => 0), scale: FEATURE_NAMES.map(() => 1), weights: FEATURE_NAMES.map(() => 0), bias: 2, answered_at: 1, answered_at_vectors: 0.8, abstain_below: 0.2, fitted: {} };

function deps(pending?: number, vectors = false): AnswerDeps {
  // With vectors, the passage's one sentence has one: a single sentence with a cosine gives the reading no spread to compare by.
  const similarities = vectors ? { sentenceSimilarities: async () => [{ chunk_id: 1, text: chunk.text, score: 0.82 }] } : {};
  return answerDeps(async (query) => retrievalResult(query, [chunk]), { readerProfile: profile, ...(pending !== undefined ? { sentencesPending: () => pending } : {}), ...similarities });
}

describe('the note of a quote read without sentence vectors', () => {
  it.each([
    ['no embedding model', undefined, '(88%; without sentence vectors no quote is badged Answered)'],
    ['every sentence embedded', 0, '(88%; without sentence vectors no quote is badged Answered)'],
    ['sentences still waiting for their vectors', 1234, '(88%; without sentence vectors no quote is badged Answered, and 1,234 sentences of your notes are still waiting for theirs)'],
  ] as const)('with %s says why it is not badged', async (_, pending, note) => {
    const a = await answerQuestion(deps(pending), 'How long did the March relay outage last?');
    expect(a.outcome).toBe('partial');
    const unsure = a.limits.find((l) => l.code === 'unsure_quote');
    expect(unsure?.detail).toContain(note);
  });

  it('with sentence vectors for the passages but too few for the sentences read, says that, not that vectors are missing', async () => {
    const a = await answerQuestion(deps(0, true), 'How long did the March relay outage last?');
    expect(a.outcome).toBe('partial');
    const unsure = a.limits.find((l) => l.code === 'unsure_quote');
    expect(unsure?.detail).toContain('(88%; too few of the sentences read have vectors to compare them by, and without them no quote is badged Answered)');
  });
});
