import { describe, expect, it } from 'vitest';
import { holdsType } from '../../answer/answer-type.ts';
import { questionStems } from '../../answer/reader/question.ts';
import { tokenize } from '../../search/analyzer.ts';
import { zh } from './reader.ts';

/** The words of a question the answer reader reads as framing it, not as what it asks about. */
const framing = (question: string) => tokenize(question, 'zh').filter((t) => questionStems('zh').has(t.term)).map((t) => t.raw.toLowerCase());

describe('the Chinese reader pack', () => {
  it.each([
    ['谁负责这个项目？', ['谁']],
    ['项目需要多久？', ['多久']],
    ['如何导出笔记？', ['如何']],
    ['项目需要导出笔记。', []],
  ])('%s is framed by %j', (question, words) => {
    expect(framing(question)).toEqual(words);
  });

  it('has no empty word', () => {
    expect(zh.questionWords.filter((w) => w.trim() === '')).toEqual([]);
  });
  // The pack's `values`: how a sentence gives a reason.
  it.each([
    ['因为同步太慢，我们换了。', 'reason', true],
    ['我们换了。', 'reason', false],
  ] as const)('%s states a value of type %s: %s', (sentence, type, holds) => {
    expect(holdsType(sentence, { type })).toBe(holds);
  });

});
