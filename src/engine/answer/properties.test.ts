import { describe, expect, it } from 'vitest';
import { asksProperty, fieldTerms, noteProperties, propertySnippets, propertyText } from './properties.ts';
import type { Snippet } from './types.ts';

const note = (...front: string[]) => ['---', ...front, '---', '', '# Body', '', 'Text.'];

describe('a note\'s front matter properties', () => {
  it.each([
    ['a plain value', 'location: Valencia (remote)', { key: 'location', value: 'Valencia (remote)' }],
    ['a quoted value, unquoted', 'due: "2026-05-01"', { key: 'due', value: '2026-05-01' }],
    ['a single-quoted value', "owner: 'Aiko Tanaka'", { key: 'owner', value: 'Aiko Tanaka' }],
    ['a key written with an underscore', 'end_date: 2026-04-24', { key: 'end_date', value: '2026-04-24' }],
    ['a value with a comment after it', 'status: active # since March', { key: 'status', value: 'active' }],
    ['a flow list', 'tags: [person, aurora]', null],
    ['aliases', 'aliases: Tomas', null],
    ['the title', 'title: Tomás Herrera', null],
    ['the sensitivity', 'sensitivity: restricted', null],
    ['cssclasses', 'cssclasses: wide', null],
    ['when the file was created', 'created: 2024-05-17', null],
    ['when it was modified, as an underscored key', 'date_modified: 2024-06-01', null],
    ['a link (a relation the graph reads)', 'reports_to: "[[Maya Chen]]"', null],
    ['a URL', 'source: https://example.com/page', null],
    ['a block scalar', 'summary: |', null],
    ['a key with no value (a list or map follows)', 'people:', null],
    ['a flag', 'publish: true', null],
    ['a yes/no', 'archived: no', null],
    ['a long value', `summary: ${'word '.repeat(20)}`, null],
    ['an indented line (part of a map)', '  city: Porto', null],
  ])('%s', (_, line, expected) => {
    const found = noteProperties(note(line));
    expect(found).toEqual(expected ? [{ ...expected, line: 2 }] : []);
  });

  it('cites each property by its own line of the file', () => {
    const lines = note('title: Tomás Herrera', 'tags: [person]', 'role: Backend Engineer', 'location: Valencia (remote)');
    expect(noteProperties(lines)).toEqual([
      { key: 'role', value: 'Backend Engineer', line: 4 },
      { key: 'location', value: 'Valencia (remote)', line: 5 },
    ]);
  });

  it('reads nothing of a note without front matter, or with front matter never closed', () => {
    expect(noteProperties(['# Title', 'location: Porto'])).toEqual([]);
    expect(noteProperties(['---', 'location: Porto', '', '# Title'])).toEqual([]);
  });

  it('writes a property as a field line, its key\'s underscores as spaces', () => {
    expect(propertyText({ key: 'end_date', value: '2026-04-24', line: 3 })).toBe('end date: 2026-04-24');
  });
});

describe('property snippets of the retrieved notes', () => {
  const snippet = (n: number, docId: string, path: string, text: string, language = 'markdown'): Snippet => ({ n, locator: `${path}#L10-L12`, path, start_line: 10, end_line: 12, doc_id: docId, title: path.replace(/\.md$/, ''), heading: null, text, score: 1 / n, language });
  const files: Record<string, string[]> = {
    a: note('role: Backend Engineer', 'location: Valencia (remote)'),
    b: note('due: 2026-05-01'),
    c: note('location: Delft'),
  };
  const linesOf = (doc: string) => files[doc] ?? null;

  it('numbers them after the passages, each citing its line, once per note in retrieval order', () => {
    const given = [snippet(1, 'b', 'Plan.md', 'Plan text.'), snippet(2, 'a', 'Tomás.md', 'Tomás owns the relay.'), snippet(3, 'b', 'Plan.md', 'More plan.')];
    const out = propertySnippets(given, linesOf);
    expect(out.map((s) => [s.n, s.locator, s.text, s.heading])).toEqual([
      [4, 'Plan.md#L2-L2', 'due: 2026-05-01', null],
      [5, 'Tomás.md#L2-L2', 'role: Backend Engineer', null],
      [6, 'Tomás.md#L3-L3', 'location: Valencia (remote)', null],
    ]);
    expect(out.every((s) => s.start_line === s.end_line)).toBe(true);
  });

  it('leaves out a property whose value the note\'s retrieved text states on a field line already', () => {
    const out = propertySnippets([snippet(1, 'a', 'Tomás.md', '# Tomás\n\n**Role:** Backend Engineer')], linesOf);
    expect(out.map((s) => s.text)).toEqual(['location: Valencia (remote)']);
    // The body says more than the property: the property adds nothing.
    const longer = propertySnippets([snippet(1, 'a', 'Tomás.md', '**Role:** Backend Engineer, relay and on-call')], linesOf);
    expect(longer.map((s) => s.text)).toEqual(['location: Valencia (remote)']);
    // Another value that only starts like it is not the same.
    const other = propertySnippets([snippet(1, 'a', 'Tomás.md', '**Role:** Backend Engineering lead')], linesOf);
    expect(other.map((s) => s.text)).toEqual(['role: Backend Engineer', 'location: Valencia (remote)']);
    const record = { d: note('decided_by: Tomás Herrera', 'date: 2026-04-02') };
    const decided = propertySnippets([snippet(1, 'd', 'Transport.md', '**Decider:** [[Tomás Herrera]]\nWe chose WebSockets on 2026-04-02.')], (doc) => record[doc as 'd'] ?? null);
    expect(decided.map((s) => s.text)).toEqual(['date: 2026-04-02']);
  });

  it('reads no file that is not a note, nor one that changed since it was indexed', () => {
    expect(propertySnippets([snippet(1, 'c', 'c.txt', 'Text.', 'text')], linesOf)).toEqual([]);
    expect(propertySnippets([snippet(1, 'gone', 'gone.md', 'Text.')], linesOf)).toEqual([]);
  });
});

describe('the words a question asks a field with', () => {
  it.each([
    ['location: Valencia (remote)', ['where', 'base']],
    ['Location: Porto', ['where', 'base']],
    ['due date: 2026-05-01', ['when', 'due', 'deadlin']],
    ['Город: Казань', ['где', 'город']],
  ])('%s', (text, some) => {
    const terms = fieldTerms(text);
    for (const t of some) expect(terms).toContain(t);
  });

  it('gives none for a label no language pack knows, or a line that is no field', () => {
    expect(fieldTerms('slack: @tomas')).toEqual([]);
    expect(fieldTerms('Tomás owns the relay.')).toEqual([]);
  });
});

describe('the properties a question asks', () => {
  const location = { key: 'location', value: 'Valencia (remote)', line: 8 };
  const due = { key: 'due_date', value: '2026-05-01', line: 4 };
  const status = { key: 'status', value: 'active', line: 5 };
  const end = { key: 'end_date', value: '2026-04-24', line: 6 };
  it.each([
    ['Where is Tomás based?', [location]],
    ['When is the migration due?', [due, end]],
    ['What is the status of Project Aurora?', [status]],
    ['Who owns the relay server?', []],
    ['What is the due date?', [due]],
    ['What is the p99 target for end to end latency?', []],
  ])('%s', (question, expected) => {
    expect([location, due, status, end].filter(asksProperty(question, 'en'))).toEqual(expected);
  });

  it('reads only the asked properties of the retrieved notes', () => {
    const s: Snippet = { n: 1, locator: 'T.md#L12-L14', path: 'T.md', start_line: 12, end_line: 14, doc_id: 't', title: 'T', heading: null, text: 'Text.', score: 1, language: 'markdown' };
    const lines = note('role: Backend Engineer', 'location: Valencia (remote)', 'status: active');
    expect(propertySnippets([s], () => lines, asksProperty('Where is Tomás based?', 'en')).map((p) => p.text)).toEqual(['location: Valencia (remote)']);
  });

  it('reads no file whose indexed front matter has no key the question asks', () => {
    const s: Snippet = { n: 1, locator: 'T.md#L12-L14', path: 'T.md', start_line: 12, end_line: 14, doc_id: 't', title: 'T', heading: null, text: 'Text.', score: 1, language: 'markdown' };
    const lines = note('role: Backend Engineer', 'location: Valencia (remote)');
    const read: string[] = [];
    const linesOf = (doc: string) => (read.push(doc), lines);
    expect(propertySnippets([s], linesOf, asksProperty('What is the p99 latency?', 'en'), () => ['role', 'location'])).toEqual([]);
    expect(read).toEqual([]);
    expect(propertySnippets([s], linesOf, asksProperty('Where is Tomás based?', 'en'), () => ['role', 'location']).map((p) => p.text)).toEqual(['location: Valencia (remote)']);
    expect(read).toEqual(['t']);
  });
});
