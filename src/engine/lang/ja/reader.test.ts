import { describe, expect, it } from 'vitest';
import { holdsType } from '../../answer/answer-type.ts';
import { questionStems } from '../../answer/reader/question.ts';
import { tokenize } from '../../search/analyzer.ts';
import { ja } from './reader.ts';

/** The words of a question the answer reader reads as framing it, not as what it asks about. */
const framing = (question: string) => tokenize(question, 'ja').filter((t) => questionStems('ja').has(t.term)).map((t) => t.raw.toLowerCase());

describe('the Japanese reader pack', () => {
  it.each([
    ['誰がプロジェクトを率いていますか？', ['誰']],
    ['なぜ同期が失敗するのですか？', ['なぜ']],
    ['ライセンスはいくらですか？', ['いくら']],
    ['同期が失敗する。', []],
  ])('%s is framed by %j', (question, words) => {
    expect(framing(question)).toEqual(words);
  });

  it('has no empty word', () => {
    expect(ja.questionWords.filter((w) => w.trim() === '')).toEqual([]);
  });
  // The pack's `values`: how a sentence gives a reason.
  it.each([
    ['同期が遅いため、変更しました。', 'reason', true],
    ['変更しました。', 'reason', false],
  ] as const)('%s states a value of type %s: %s', (sentence, type, holds) => {
    expect(holdsType(sentence, { type })).toBe(holds);
  });

});
