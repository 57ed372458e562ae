import { describe, expect, it } from 'vitest';
import { holdsType } from '../../answer/answer-type.ts';
import { questionStems } from '../../answer/reader/question.ts';
import { tokenize } from '../../search/analyzer.ts';
import { ar } from './reader.ts';

/** The words of a question the answer reader reads as framing it, not as what it asks about. */
const framing = (question: string) => tokenize(question, 'ar').filter((t) => questionStems('ar').has(t.term)).map((t) => t.raw.toLowerCase());

describe('the Arabic reader pack', () => {
  it.each([
    ['متى يبدأ المشروع؟', ['متى']],
    ['لماذا تفشل المزامنة؟', ['لماذا']],
    ['كم سعر الترخيص؟', ['كم']],
    ['تفشل المزامنة.', []],
  ])('%s is framed by %j', (question, words) => {
    expect(framing(question)).toEqual(words);
  });

  it('has no empty word', () => {
    expect(ar.questionWords.filter((w) => w.trim() === '')).toEqual([]);
  });
  // The pack's `values`: how a sentence gives a reason.
  it.each([
    ['غيرنا لأن المزامنة بطيئة', 'reason', true],
    ['غيرنا', 'reason', false],
  ] as const)('%s states a value of type %s: %s', (sentence, type, holds) => {
    expect(holdsType(sentence, { type })).toBe(holds);
  });

});
