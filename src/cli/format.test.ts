import { describe, expect, it } from 'vitest';
import type { AnswerEnvelope } from '../shared/contract.ts';
import { formatAnswer } from './format.ts';

const envelope = (over: Partial<AnswerEnvelope>): AnswerEnvelope =>
  ({
    query: 'How long are snapshots kept?',
    answer: 'Snapshots are saved every 5 minutes. [1]',
    answer_mode: 'extractive',
    outcome: 'partial',
    missing_parts: [],
    missing_terms: [],
    citations: [],
    searched: { terms: [], results: 3, top: [], closest: [] },
    verdict: 'REVISE',
    critic: { decided_by: 'checks', retried: false },
    confidence: 0.41,
    low_confidence: false,
    cancelled: false,
    limits: [],
    ...over,
  }) as unknown as AnswerEnvelope;

describe('formatAnswer', () => {
  it('names the open part of a question of several parts', () => {
    const text = formatAnswer(envelope({ query: 'How long did it last, and who approved it?', missing_parts: ['who approved it?'] }));
    expect(text).toContain('Partly answered (not found: who approved it?)');
  });

  it('says a one-part question is not clearly stated rather than "not found" above a quote', () => {
    const text = formatAnswer(envelope({ missing_parts: ['How long are snapshots kept?'], limits: [{ code: 'value_unstated', detail: 'not found in your notes: a sentence that clearly says how long; the closest ones are quoted' }] }));
    expect(text).toContain('Partly answered (not clearly stated)');
    expect(text).not.toContain('not found: How long');
    expect(text).toContain('note: not found in your notes: a sentence that clearly says how long');
  });

  it('says a quote the scorer is not sure enough of is not sure enough for Answered, not that it is unclear', () => {
    const text = formatAnswer(envelope({ missing_parts: ['How long are snapshots kept?'], limits: [{ code: 'unsure_quote', detail: 'not sure the quote states how long (62%; Answered from 83%): the closest passages are quoted' }] }));
    expect(text).toContain('Partly answered (not sure enough for Answered)');
    expect(text).not.toContain('not clearly stated');
  });

  it('sets the closest sentences after an unsure quote apart from it, and prints any other answer as it is', () => {
    const answer = 'Snapshots are saved every 5 minutes. [1]\nRetention is 30 days. [2]';
    const reader = { probability: 0.41, outcome: 'answered', quote: 'Snapshots are saved every 5 minutes. [1]', features: {} } as AnswerEnvelope['reader'];
    expect(formatAnswer(envelope({ answer, reader }))).toMatch(/^Snapshots are saved every 5 minutes\. \[1\]\nOther sentences of your notes close to the question:\n {2}Retention is 30 days\. \[2\]\n\n/);
    expect(formatAnswer(envelope({ answer, reader, outcome: 'answered' }))).toMatch(/^Snapshots are saved every 5 minutes\. \[1\]\nRetention is 30 days\. \[2\]\n\n/);
    expect(formatAnswer(envelope({ answer, reader: null }))).not.toContain('Other sentences');
  });

  it('says what an abstention searched for as the question was asked, its stems only as what they matched as', () => {
    const text = formatAnswer(envelope({ answer: 'Not found in your files.', answer_mode: 'abstained', outcome: 'not_found', searched: { query: 'what does sinc stand for', terms: ['doe', 'sinc', 'stand'], results: 8, top: [], closest: [] } as unknown as AnswerEnvelope['searched'] }));
    expect(text).toContain('Searched for: "what does sinc stand for" (matched as: doe sinc stand; 8 passages)');
    const none = formatAnswer(envelope({ answer: 'Not found in your files.', answer_mode: 'abstained', outcome: 'not_found', searched: { query: 'zzz', terms: [], results: 0, top: [], closest: [] } as unknown as AnswerEnvelope['searched'] }));
    expect(none).toContain('Searched for: "zzz" (0 passages)');
  });
});
