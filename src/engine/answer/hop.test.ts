import { describe, expect, it } from 'vitest';
import type { RetrievedChunk } from '../../shared/contract.ts';
import { answerDeps, retrievalResult } from '../../../test/helpers/answer-deps.ts';
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


/**
 * A search over a small vault: the decision record matches the question's words, the subject's own
 * note only a search that names the subject (a second hop).
 */
function deps(record: RetrievedChunk, subject: RetrievedChunk, subjectName: string, searched: string[]): AnswerDeps {
  const retrieve: AnswerDeps['retrieve'] = async (query) => {
    searched.push(query);
    return retrievalResult(query, query.includes(subjectName) ? [subject, record] : [record]);
  };
  // The reader's own outcome: what these tests read is how the hop finds the quote (the scorer has tests of its own).
  return answerDeps(retrieve, { readerProfile: null });
}

describe('second hop', () => {
  it('answers through the bridge: the decider line of the record names the engineer, her note says where she works', async () => {
    const searched: string[] = [];
    const record = chunk('decisions/2026-02-10 Queue choice.md', '2026-02-10 Queue choice', '**Decider:** [[Rosa Diaz]]\n\nWe chose NATS for the event bus.');
    const rosa = chunk('people/Rosa Diaz.md', 'Rosa Diaz', '**Role:** Backend engineer\n\nRosa works remotely from Lisbon.');
    const envelope = await answerQuestion(deps(record, rosa, 'Rosa Diaz', searched), 'Where does the engineer who chose NATS for the event bus work from?');
    // The clause alone, then the rest of the question about the name.
    expect(searched).toContain('engineer chose NATS for the event bus');
    expect(searched).toContain('Where does Rosa Diaz work from?');
    // The bridge's evidence first, cited by its own line, then the fact asked.
    expect(envelope.answer).toMatch(/^2026-02-10 Queue choice — Decider: Rosa Diaz\. \[1\] .*Lisbon/);
    expect(envelope.citations.find((c) => c.n === 1)?.locator).toBe('decisions/2026-02-10 Queue choice.md#L1-L1');
    expect(envelope.citations.map((c) => c.path)).toContain('people/Rosa Diaz.md');
    expect(envelope.outcome).toBe('answered');
    expect(envelope.limits).toContainEqual({ code: 'described_subject', detail: expect.stringMatching(/^described subject: "the engineer who chose NATS for the event bus" is Rosa Diaz/) });
  });

  it('reads the record further for the decider line when the clause finds only its body', async () => {
    const searched: { query: string; globs: string[] }[] = [];
    const body = chunk('decisions/Queue choice.md', 'Queue choice', '## Decision\n\nWe chose NATS for the event bus.');
    const header = { ...chunk('decisions/Queue choice.md', 'Queue choice', '# ADR-3\n\n**Status:** accepted\n**Decider:** [[Rosa Diaz]]'), start_line: 5, end_line: 8, locator: 'decisions/Queue choice.md#L5-L8' };
    const rosa = chunk('people/Rosa Diaz.md', 'Rosa Diaz', '# Rosa Diaz\n\n**Reports to:** [[Maya Chen]]\n\nRosa works remotely from Lisbon.');
    const d: AnswerDeps = {
      ...deps(body, rosa, 'Rosa Diaz', []),
      retrieve: async (query, context) => {
        searched.push({ query, globs: [...(context.include_globs ?? [])] });
        // Only a search inside the record reaches its header; a search that names her, her note.
        if (context.include_globs?.includes('decisions/Queue choice.md')) return retrievalResult(query, [body, header]);
        return retrievalResult(query, query.includes('Rosa Diaz') ? [rosa, body] : [body]);
      },
    };
    const envelope = await answerQuestion(d, 'Where does the engineer who chose NATS for the event bus work from, and who is their manager?');
    expect(searched.some((s) => s.globs.includes('decisions/Queue choice.md'))).toBe(true);
    expect(envelope.answer).toMatch(/^Queue choice — Decider: Rosa Diaz\. \[1\]/);
    expect(envelope.citations.find((c) => c.n === 1)?.locator).toBe('decisions/Queue choice.md#L8-L8');
    expect(envelope.answer).toContain('Lisbon');
    expect(envelope.answer).toContain('Reports to: Maya Chen');
  });

  it('searches the described subject beside the question itself, not after it', async () => {
    const record = chunk('decisions/2026-02-10 Queue choice.md', '2026-02-10 Queue choice', '**Decider:** [[Rosa Diaz]]\n\nWe chose NATS for the event bus.');
    const rosa = chunk('people/Rosa Diaz.md', 'Rosa Diaz', '**Role:** Backend engineer\n\nRosa works remotely from Lisbon.');
    const question = 'Where does the engineer who chose NATS for the event bus work from?';
    let clauseSearched: () => void = () => {};
    const clause = new Promise<void>((resolve) => (clauseSearched = resolve));
    const base = deps(record, rosa, 'Rosa Diaz', []);
    const d: AnswerDeps = {
      ...base,
      retrieve: async (query, context, k) => {
        if (query === 'engineer chose NATS for the event bus') clauseSearched();
        // The question's own search returns only once the clause is being searched: a bridge that
        // waited for it would never start.
        if (query === question) await clause;
        return base.retrieve(query, context, k);
      },
    };
    const envelope = await answerQuestion(d, question);
    expect(envelope.answer).toMatch(/^2026-02-10 Queue choice — Decider: Rosa Diaz\. \[1\] .*Lisbon/);
  });

  it('asks no graph for the notes linked to a note it searches within', async () => {
    const contexts: { globs: string[]; graph: boolean | undefined }[] = [];
    const body = chunk('decisions/Queue choice.md', 'Queue choice', '## Decision\n\nWe chose NATS for the event bus.');
    const rosa = chunk('people/Rosa Diaz.md', 'Rosa Diaz', '**Role:** Backend engineer\n\nRosa works remotely from Lisbon.');
    const base = deps(body, rosa, 'Rosa Diaz', []);
    const d: AnswerDeps = {
      ...base,
      retrieve: async (query, context, k) => {
        contexts.push({ globs: [...(context.include_globs ?? [])], graph: context.use_graph });
        return base.retrieve(query, context, k);
      },
    };
    await answerQuestion(d, 'Where does the engineer who chose NATS for the event bus work from?');
    const within = contexts.filter((c) => c.globs.length > 0);
    expect(within.length).toBeGreaterThan(0);
    expect(within.every((c) => c.graph === false)).toBe(true);
    // A search of the whole vault may follow the links.
    expect(contexts.filter((c) => c.globs.length === 0).every((c) => c.graph === undefined)).toBe(true);
  });

  it('keeps the second hop when the description does not resolve to a person', async () => {
    const searched: string[] = [];
    // No line states who decided, and the sentence that answers the clause names nobody.
    const record = chunk('decisions/2026-02-10 Queue choice.md', '2026-02-10 Queue choice', 'Proposed by [[Rosa Diaz]] in March.\n\nWe chose NATS for the event bus.');
    const rosa = chunk('people/Rosa Diaz.md', 'Rosa Diaz', '**Role:** Backend engineer\n\nRosa works remotely from Lisbon.');
    const envelope = await answerQuestion(deps(record, rosa, 'Rosa Diaz', searched), 'Where does the engineer who chose NATS for the event bus work from?');
    expect(envelope.limits.some((l) => l.code === 'described_subject')).toBe(false);
    expect(envelope.limits).toContainEqual({ code: 'second_hop', detail: expect.stringMatching(/^second hop: read \d+ passages? about /) });
    expect(envelope.answer).toContain('Lisbon');
  });

  it('does the same in Russian', async () => {
    const searched: string[] = [];
    const record = chunk('decisions/2026-02-10 Выбор очереди.md', '2026-02-10 Выбор очереди', '**Решение принимала:** [[Анна Соколова]]\n\nВыбрали NATS для шины событий.');
    const anna = chunk('people/Анна Соколова.md', 'Анна Соколова', '**Роль:** руководитель команды\n\nАнна работает из Казани.');
    const envelope = await answerQuestion(deps(record, anna, 'Анна Соколова', searched), 'Где работает инженер, который выбрал NATS для шины событий?');
    expect(searched).toContain('Где работает Анна Соколова?');
    expect(envelope.answer).toMatch(/^2026-02-10 Выбор очереди — Решение принимала: Анна Соколова\. \[1\] .*Казани/);
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
