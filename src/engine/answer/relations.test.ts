import { describe, expect, it } from 'vitest';
import { stemWord } from '../search/analyzer.ts';
import { asksRelationBy, relationTerms } from './relations.ts';

const has = (text: string, word: string) => relationTerms(text).includes(stemWord(word));

describe('relationTerms', () => {
  it('gives a decision record\'s decider the words a question asks who made the choice with', () => {
    expect(has('Decider: Maya Chen', 'picked')).toBe(true);
    expect(has('Decided on 2026-03-14 to use SQLite instead of Postgres.', 'chose')).toBe(true);
    expect(has('Решение принимала: Анна Соколова', 'выбрала')).toBe(true);
  });

  it('gives "Reports to" the words of managing, and "Author" those of writing', () => {
    expect(has('Reports to: Maya Chen', 'manages')).toBe(true);
    expect(has('Подчиняется: Дмитрий Орлов', 'руководит')).toBe(true);
    expect(has('Author and decider: Priya Raman', 'wrote')).toBe(true);
  });

  it('gives nothing to a sentence that states no such relation', () => {
    expect(relationTerms('The outage lasted 47 minutes.')).toEqual([]);
    // "report" alone is a document, not a line of management.
    expect(has('The cost report goes out monthly.', 'manages')).toBe(false);
  });
});

describe('asksRelationBy', () => {
  it.each([
    ['chose', true],
    ['picked', true],
    ['boss', true],
    ['wrote', true],
    ['Kubernetes', false],
    ['laptop', false],
  ])('%s: %s', (word, asks) => {
    expect(asksRelationBy(word)).toBe(asks);
  });
});
