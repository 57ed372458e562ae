import { describe, expect, it } from 'vitest';
import { holdsType } from '../../answer/answer-type.ts';
import { questionStems } from '../../answer/reader/question.ts';
import { tokenize } from '../../search/analyzer.ts';
import { ko } from './reader.ts';

/** The words of a question the answer reader reads as framing it, not as what it asks about. */
const framing = (question: string) => tokenize(question, 'ko').filter((t) => questionStems('ko').has(t.term)).map((t) => t.raw.toLowerCase());

describe('the Korean reader pack', () => {
  it.each([
    ['프로젝트는 언제 시작합니까?', ['언제']],
    ['왜 동기화가 실패합니까?', ['왜']],
    ['라이선스는 얼마나 비쌉니까?', ['얼마나']],
    ['동기화가 실패합니다.', []],
  ])('%s is framed by %j', (question, words) => {
    expect(framing(question)).toEqual(words);
  });

  it('has no empty word', () => {
    expect(ko.questionWords.filter((w) => w.trim() === '')).toEqual([]);
  });
  // The pack's `values`: how a sentence gives a reason.
  it.each([
    ['동기화가 느리기 때문에 바꿨습니다.', 'reason', true],
    ['바꿨습니다.', 'reason', false],
  ] as const)('%s states a value of type %s: %s', (sentence, type, holds) => {
    expect(holdsType(sentence, { type })).toBe(holds);
  });

});
