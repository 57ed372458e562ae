import { describe, expect, it } from 'vitest';
import { holdsType } from '../../answer/answer-type.ts';
import { questionStems } from '../../answer/reader/question.ts';
import { tokenize } from '../../search/analyzer.ts';
import { hi } from './reader.ts';

/** The words of a question the answer reader reads as framing it, not as what it asks about. */
const framing = (question: string) => tokenize(question, 'hi').filter((t) => questionStems('hi').has(t.term)).map((t) => t.raw.toLowerCase());

describe('the Hindi reader pack', () => {
  it.each([
    ['परियोजना कब शुरू होगी?', ['कब']],
    ['सिंक क्यों विफल होता है?', ['क्यों']],
    ['कितने उपयोगकर्ता हैं?', ['कितने']],
    ['सिंक विफल होता है।', []],
  ])('%s is framed by %j', (question, words) => {
    expect(framing(question)).toEqual(words);
  });

  it('has no empty word', () => {
    expect(hi.questionWords.filter((w) => w.trim() === '')).toEqual([]);
  });
  // The pack's `values`: how a sentence gives a reason.
  it.each([
    ['सिंक धीमा था इसलिए हमने बदला।', 'reason', true],
    ['हमने बदला।', 'reason', false],
  ] as const)('%s states a value of type %s: %s', (sentence, type, holds) => {
    expect(holdsType(sentence, { type })).toBe(holds);
  });

});
