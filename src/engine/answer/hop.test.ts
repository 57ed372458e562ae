import { describe, expect, it } from 'vitest';
import type { RetrievalResult, RetrievedChunk } from '../../shared/contract.ts';
import { type AnswerDeps, answerQuestion } from './answer.ts';

let nextId = 1;
const chunk = (path: string, title: string, text: string): RetrievedChunk => ({
  chunk_id: nextId++,
  doc_id: path,
  locator: `${path}#L1-L3`,
  path,
  root: '/vault',
  title,
  heading: null,
  start_line: 1,
  end_line: 3,
  text,
  snippet: text,
  score: 1,
  tags: {},
});

const result = (query: string, chunks: RetrievedChunk[]): RetrievalResult => ({
  query,
  chunks,
  latency_ms: 1,
  index_version: 'test',
  used_docs: [],
  used_sections: [],
  meta: { mode: 'bm25', retrieval_mode: 'hybrid_only', terms: [], candidates: chunks.length, filtered: 0, trigram_used: false, pruned: false, hybrid_used: false, dense_models: [], graph_used: false, rerank_used: false, timings: {}, limits: [] },
});

/**
 * A search over a small vault: the decision record matches the question's words, the subject's own
 * note only a search that names the subject (a second hop).
 */
function deps(record: RetrievedChunk, subject: RetrievedChunk, subjectName: string, searched: string[]): AnswerDeps {
  return {
    retrieve: async (query) => {
      searched.push(query);
      return result(query, query.includes(subjectName) ? [subject, record] : [record]);
    },
    chat: null,
    settings: { systemPrompt: '', answerK: 8, contextTokens: 4096, synthTokens: 512, retrievalTimeoutMs: 5000, synthTimeoutMs: 5000, criticTimeoutMs: 5000, rerankTopN: 50 },
    documentSource: () => null,
    termStats: (terms) => new Map(terms.map((t) => [t, { idf: 2, df: 3 }])),
    saveTrace: () => {},
  };
}

describe('second hop', () => {
  it('reads the note of the person the best sentence names, and quotes what answers the question there', async () => {
    const searched: string[] = [];
    const record = chunk('decisions/2026-02-10 Queue choice.md', '2026-02-10 Queue choice', '**Decider:** [[Rosa Diaz]]\n\nWe chose NATS for the event bus.');
    const rosa = chunk('people/Rosa Diaz.md', 'Rosa Diaz', '**Role:** Backend engineer\n\nRosa works remotely from Lisbon.');
    const envelope = await answerQuestion(deps(record, rosa, 'Rosa Diaz', searched), 'Where does the engineer who chose NATS for the event bus work from?');
    expect(searched.some((q) => q.startsWith('Rosa Diaz'))).toBe(true);
    expect(envelope.answer).toContain('Lisbon');
    expect(envelope.citations.map((c) => c.path)).toContain('people/Rosa Diaz.md');
    expect(envelope.limits.some((l) => l.startsWith('second hop'))).toBe(true);
  });

  it('does the same in Russian', async () => {
    const searched: string[] = [];
    const record = chunk('decisions/2026-02-10 Выбор очереди.md', '2026-02-10 Выбор очереди', '**Решение принимала:** [[Анна Соколова]]\n\nВыбрали NATS для шины событий.');
    const anna = chunk('people/Анна Соколова.md', 'Анна Соколова', '**Роль:** руководитель команды\n\nАнна работает из Казани.');
    const envelope = await answerQuestion(deps(record, anna, 'Анна Соколова', searched), 'Где работает инженер, который выбрал NATS для шины событий?');
    expect(searched.some((q) => q.startsWith('Анна Соколова'))).toBe(true);
    expect(envelope.answer).toContain('Казани');
  });

  it('does not hop when the question names its subject', async () => {
    const searched: string[] = [];
    const record = chunk('decisions/2026-02-10 Queue choice.md', '2026-02-10 Queue choice', '**Decider:** [[Rosa Diaz]]\n\nWe chose NATS for the event bus on 2026-02-10.');
    const rosa = chunk('people/Rosa Diaz.md', 'Rosa Diaz', 'Rosa works remotely from Lisbon.');
    const envelope = await answerQuestion(deps(record, rosa, 'Rosa Diaz', searched), 'When did we choose NATS for the event bus?');
    expect(searched).toHaveLength(1);
    expect(envelope.answer).toContain('2026-02-10');
  });
});
