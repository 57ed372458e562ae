import { describe, expect, it } from 'vitest';
import { holdsType } from '../../answer/answer-type.ts';
import { questionStems } from '../../answer/reader/question.ts';
import { tokenize } from '../../search/analyzer.ts';
import { fr } from './reader.ts';

/** The words of a question the answer reader reads as framing it, not as what it asks about. */
const framing = (question: string) => tokenize(question, 'fr').filter((t) => questionStems('fr').has(t.term)).map((t) => t.raw.toLowerCase());

describe('the French reader pack', () => {
  it.each([
    ['Quand commence le projet ?', ['quand']],
    ['Pourquoi la synchronisation échoue-t-elle ?', ['pourquoi']],
    ['Combien coûte la licence ?', ['combien']],
    ['La licence coûte cher.', []],
  ])('%s is framed by %j', (question, words) => {
    expect(framing(question)).toEqual(words);
  });

  it('has no empty word', () => {
    expect(fr.questionWords.filter((w) => w.trim() === '')).toEqual([]);
  });

  it.each([
    ['Le pilote dure 2 semaines.', 'duration', true],
    ['La revue a lieu le 3 mars.', 'date', true],
    ['Mars est une planète.', 'date', false],
    // The pack's `values`: how a sentence gives a reason or says it costs nothing.
    ["Nous avons changé parce que c'était lent.", 'reason', true],
    ["L'accès est gratuit.", 'money', true],
    ['Nous avons changé.', 'reason', false],
  ] as const)('%s holds a value of type %s: %s', (sentence, type, holds) => {
    expect(holdsType(sentence, { type })).toBe(holds);
  });
});
