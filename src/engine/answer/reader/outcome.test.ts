import { describe, expect, it } from 'vitest';
import { readAnswer, readerCandidates } from '../reader.ts';
import type { Snippet } from '../types.ts';
import { codeAnswers, onePerValue } from './outcome.ts';
import type { PartReading } from './types.ts';

const snippet = (n: number, text: string, title = `Note ${n}`): Snippet => ({ n, locator: `n${n}.md#L1-L5`, path: `n${n}.md`, start_line: 1, end_line: 5, doc_id: `d${n}`, title, heading: null, text, score: 0.5 });
const termStats = (terms: readonly string[]) => new Map(terms.map((t) => [t, { idf: 2, df: 3 }]));

describe('a line of code as the answer', () => {
  it.each([
    ['Which command creates a remote vault?', true],
    ['What is the keyboard shortcut for the command palette?', true],
    ['Какой параметр задаёт регион?', true],
    ['Welche Einstellung steuert das?', true],
    ['What encryption does Sync use?', false],
    ['What does a Standard Sync subscription cost?', false],
    ['Сколько стоит подписка?', false],
  ])('%s asks for one: %s', (question, asks) => {
    expect(codeAnswers(question, { type: 'entity' } as never)).toBe(asks);
  });

  it('answers a how-to question', () => {
    expect(codeAnswers('How do I create a remote vault?', { type: 'procedure' } as never)).toBe(true);
  });

  it('is at most a partial answer to a prose question', () => {
    const notes: Snippet[] = [{ ...snippet(1, '```sh\nob sync-create-remote --name "Vault" --encryption e2ee\n```', 'Headless sync'), heading: 'Create a remote vault' }];
    const read = (q: string) => readAnswer(q, readerCandidates(notes), { termStats });
    const prose = read('What encryption does sync-create-remote use?');
    expect(prose.outcome).not.toBe('answered');
    const asked = read('Which command creates a remote vault with encryption?');
    expect(asked.answer).toContain('sync-create-remote');
  });
});

describe('a value of the asked form', () => {
  const read = (q: string, text: string) => readAnswer(q, readerCandidates([snippet(1, text, 'File recovery')]), { termStats });

  it('answers how long only with a span of time', () => {
    expect(read('How long are file recovery snapshots kept?', 'File recovery snapshots are kept for 7 days.').outcome).toBe('answered');
    const where = read('How long are file recovery snapshots kept?', 'File recovery snapshots are kept in the global settings folder.');
    expect(where.outcome).toBe('partial');
  });

  it('answers when only with a date', () => {
    expect(read('When was file recovery released?', 'File recovery was released on 2024-03-01.').outcome).toBe('answered');
    expect(read('When was file recovery released?', 'File recovery was released as a core plugin.').outcome).toBe('partial');
  });
});

describe('not found', () => {
  it('withholds the sentences it would have quoted, for the abstention to be checked', () => {
    const r = readAnswer('How many snapshots does file recovery keep?', readerCandidates([snippet(1, 'File recovery keeps snapshots in the global settings folder.', 'File recovery')]), { termStats });
    expect(r.outcome).toBe('not_found');
    expect(r.answer).toBe('');
    expect(r.withheld).toBe('File recovery keeps snapshots in the global settings folder. [1]');
    expect(r.withheldCited).toEqual([1]);
  });

  it('records why: a count asked, none stated, is not found for the value unstated; a stated one has no cause', () => {
    const none = readAnswer('How many snapshots does file recovery keep?', readerCandidates([snippet(1, 'File recovery keeps snapshots in the global settings folder.', 'File recovery')]), { termStats });
    expect(none.signals.causes).toMatchObject({ nothing: 0, unknownAttribute: 0, unstated: 1 });
    const stated = readAnswer('How many snapshots does file recovery keep?', readerCandidates([snippet(1, 'File recovery keeps 20 snapshots of each note.', 'File recovery')]), { termStats });
    expect(stated.outcome).not.toBe('not_found');
    expect(stated.signals.causes).toEqual({ nothing: 0, unknownAttribute: 0, scattered: 0, partLow: 0, evidenceLow: 0, unstated: 0 });
  });
});

describe('parts that ask a value of the same form', () => {
  const read = (q: string, text: string) => readAnswer(q, readerCandidates([snippet(1, text, 'Work cycles')]), { termStats });

  it('need a value each: one span of time answers one of two how-long parts', () => {
    const one = read('How long is a work cycle, and how long is the cooldown between cycles?', 'In between each work cycle, we spend two weeks cooling down.');
    expect(one.parts.filter((p) => p.answered)).toHaveLength(1);
    expect(one.outcome).not.toBe('answered');
    const both = read('How long is a work cycle, and how long is the cooldown between cycles?', 'A work cycle lasts six weeks, and the cooldown between cycles lasts two weeks.');
    expect(both.parts.filter((p) => p.answered)).toHaveLength(2);
    expect(both.outcome).toBe('answered');
  });

  it('leaves parts of different forms alone', () => {
    const r = read('How long is a work cycle, and who plans it?', 'A work cycle lasts six weeks and is planned by Maya Chen.');
    expect(r.parts.every((p) => p.answered)).toBe(true);
  });
});

describe('onePerValue', () => {
  const part = (type: PartReading['type'], score: number) => ({ part: 'p', type, score, answered: true });

  it.each([
    ['one duration for two duration parts', [part('duration', 0.8), part('duration', 0.9)], ['we spend two weeks cooling down'], [false, true]],
    ['two durations for two duration parts', [part('duration', 0.8), part('duration', 0.9)], ['six weeks of work, then two weeks off'], [true, true]],
    ['one number over two quoted sentences each', [part('number', 0.7), part('number', 0.6)], ['opt-level = 0', 'opt-level = 3'], [true, true]],
    ['one number for two number parts', [part('number', 0.7), part('number', 0.6)], ['opt-level = 3'], [true, false]],
    ['parts of other forms', [part('entity', 0.7), part('person', 0.6)], ['Maya chose SQLite'], [true, true]],
    ['one duration and one date part', [part('duration', 0.7), part('date', 0.6)], ['two weeks from March 3'], [true, true]],
  ] as const)('%s', (_name, readings, quoted, answered) => {
    const rs = readings.map((r) => ({ ...r }));
    onePerValue(rs, quoted);
    expect(rs.map((r) => r.answered)).toEqual(answered);
  });
});

describe('the sentences offered after a quote that leaves a part open', () => {
  it('come first when they read best for the open part', () => {
    const notes = [
      snippet(1, 'The March outage lasted 47 minutes. The March outage review covered the outage timeline of the outage.', 'Outage'),
      snippet(2, 'The fix was shipped by the relay team after the review.', 'Fix'),
      snippet(3, 'A second fix was shipped later.', 'Later'),
    ];
    const r = readAnswer('How long did the March outage last, and when was the fix shipped?', readerCandidates(notes), { termStats });
    expect(r.parts.map((p) => p.answered)).toEqual([true, false]);
    expect(r.answer).toContain('The fix was shipped by the relay team');
    expect(r.runnersUp?.[0]?.text).toBe('A second fix was shipped later.');
  });
});
