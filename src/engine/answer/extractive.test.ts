import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAnswer } from './checks.ts';
import { citationNumbers } from './citations.ts';
import { extractiveAnswer } from './extractive.ts';
import type { Snippet } from './types.ts';

const snippet = (n: number, text: string, score = 0.5): Snippet => ({
  n,
  locator: `notes/s${n}.md#L1-L9`,
  path: `notes/s${n}.md`,
  start_line: 1,
  end_line: 9,
  doc_id: `doc-${n}`,
  title: `S${n}`,
  heading: null,
  text,
  score,
});

describe('extractiveAnswer', () => {
  it('answers with the sentences that share the most words with the question, each cited', () => {
    const snippets = [
      snippet(1, '# Incident log\nThe relay outage lasted 47 minutes.\nNobody was paged.', 0.9),
      snippet(2, 'Weekly notes. The relay was replaced after the outage in April.', 0.7),
    ];
    const r = extractiveAnswer('How long did the relay outage last?', snippets);
    expect(r).toEqual({ answer: 'The relay outage lasted 47 minutes. [1] The relay was replaced after the outage in April. [2]', cited: [1, 2] });
    expect(checkAnswer(r.answer, snippets).verdict).toBe('APPROVE');
  });

  it('skips headings, link and tag lines, front matter and code blocks', () => {
    const text = [
      '---',
      'title: Sync relay setup',
      '---',
      '# Sync relay setup',
      '[[relay]] [setup](notes/relay.md)',
      'Tags: #relay #setup',
      '```sh',
      'relay setup --port 8080',
      '```',
      'Run the relay setup once per machine.',
    ].join('\n');
    expect(extractiveAnswer('relay setup', [snippet(1, text)]).answer).toBe('Run the relay setup once per machine. [1]');
  });

  it('joins a sentence wrapped over lines and ends list items with a stop', () => {
    const text = 'The index is rebuilt from stored\nembeddings when it is corrupt.\n\n- Backups run nightly\n- Logs rotate weekly';
    expect(extractiveAnswer('When is the index rebuilt?', [snippet(1, text)]).answer).toBe('The index is rebuilt from stored embeddings when it is corrupt. [1]');
    expect(extractiveAnswer('backups', [snippet(4, text)]).answer).toBe('Backups run nightly. [4]');
  });

  it('prefers different snippets, then fills up from the best ones', () => {
    const snippets = [
      snippet(1, 'Atlas ships in May. Atlas uses SQLite. Atlas has a CLI.', 0.9),
      snippet(2, 'Atlas was started by Alice.', 0.1),
    ];
    const r = extractiveAnswer('atlas', snippets, { maxSentences: 3 });
    // Picked for diversity, but written best first.
    expect(r.answer).toBe('Atlas ships in May. [1] Atlas uses SQLite. [1] Atlas was started by Alice. [2]');
    expect(r.cited).toEqual([1, 2]);
    expect(extractiveAnswer('atlas', snippets, { maxSentences: 2 }).answer).toBe('Atlas ships in May. [1] Atlas was started by Alice. [2]');
    expect(extractiveAnswer('atlas', snippets, { maxSentences: 1 }).answer).toBe('Atlas ships in May. [1]');
  });

  it('breaks ties by snippet score, then by order', () => {
    const snippets = [snippet(1, 'Atlas is small.', 0.2), snippet(2, 'Atlas is fast.', 0.8), snippet(3, 'Atlas is local.', 0.8)];
    expect(extractiveAnswer('atlas', snippets, { maxSentences: 2 }).cited).toEqual([2, 3]);
  });

  it('matches Russian words through the stemmer', () => {
    const snippets = [snippet(1, 'Сервер синхронизации перезапустили в 03:00. Погода была хорошей.')];
    expect(extractiveAnswer('Когда перезапустили сервер?', snippets).answer).toBe('Сервер синхронизации перезапустили в 03:00. [1]');
  });

  it('drops citation-like markers that belong to the note itself', () => {
    expect(extractiveAnswer('relay outage', [snippet(2, 'The relay outage is described in [3].')]).answer).toBe('The relay outage is described in. [2]');
  });

  it('returns an empty answer when nothing overlaps the question', () => {
    expect(extractiveAnswer('quarterly budget', [snippet(1, 'The relay outage lasted 47 minutes.')])).toEqual({ answer: '', cited: [] });
    expect(extractiveAnswer('what is it?', [snippet(1, 'The relay outage lasted 47 minutes.')])).toEqual({ answer: '', cited: [] });
    expect(extractiveAnswer('relay', [])).toEqual({ answer: '', cited: [] });
  });

  it('cites only given snippets, at most maxSentences times, and lists what it cites', () => {
    const words = ['relay', 'outage', 'Atlas', 'Alice', 'минут', 'the', 'is'];
    const textArb = fc.array(fc.oneof(fc.constantFrom(...words), fc.constantFrom('. ', '\n', '# ', '[4] ', '- ')), { maxLength: 25 }).map((p) => p.join(' '));
    fc.assert(
      fc.property(fc.array(textArb, { maxLength: 4 }), fc.string({ maxLength: 20 }), fc.integer({ min: 0, max: 4 }), (texts, question, maxSentences) => {
        const snippets = texts.map((t, i) => snippet(i + 1, t, (i * 7) % 3));
        const r = extractiveAnswer(question, snippets, { maxSentences });
        const numbers = citationNumbers(r.answer);
        expect(numbers.length).toBeLessThanOrEqual(maxSentences);
        expect(numbers.every((n) => n >= 1 && n <= snippets.length)).toBe(true);
        expect(r.cited).toEqual([...new Set(numbers)]);
        expect(r.answer === '').toBe(r.cited.length === 0);
      }),
    );
  });
});
