import { describe, expect, it } from 'vitest';
import { tokenize } from '../search/analyzer.ts';
import { holdsOwnWords } from './hop-search.ts';
import { matchForm } from './reader.ts';

const held = (sentence: string, extra: string[] = []) => new Set([...tokenize(sentence, 'en').map((t) => matchForm(t.term)), ...extra]);
// Every word is in some file, "type" in many, "clock" and "decision" in few; "settle" in none.
const idf: Record<string, number> = { type: 0.2, clock: 2.5, decision: 1.2, manag: 1.5 };
const termStats = (terms: readonly string[]) => new Map(terms.map((t) => [t, { idf: idf[t] ?? 1, df: t in idf ? 3 : 0 }] as const));
const name = ['priya', 'raman'];

describe('holdsOwnWords: does a later part\'s lead answer the part, not only the name', () => {
  it.each([
    ['a sentence about her that holds only the common word', 'Priya did her PhD on replicated data types.', [], 'which type of clock did that decision settle on?', false],
    ['the record\'s sentence that holds the clock', 'We use hybrid logical clocks for ordering.', [], 'which type of clock did that decision settle on?', true],
    ['a field line that holds the asked relation by its label', 'Priya Raman — Reports to: Maya Chen.', ['manag'], 'who is their manager?', true],
    ['a field line that does not', 'Priya Raman — location: Delft.', [], 'who is their manager?', false],
    ['a part of the name and framing words only', 'Priya Raman — location: Delft.', [], 'who is Priya Raman?', true],
  ])('%s', (_, sentence, extra, part, expected) => {
    expect(holdsOwnWords(held(sentence, extra), part, name, 'en', termStats)).toBe(expected);
  });
});
