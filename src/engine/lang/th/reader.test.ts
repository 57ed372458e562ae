import { describe, expect, it } from 'vitest';
import { holdsType } from '../../answer/answer-type.ts';
import { questionStems } from '../../answer/reader/question.ts';
import { tokenize } from '../../search/analyzer.ts';
import { th } from './reader.ts';

/** The words of a question the answer reader reads as framing it, not as what it asks about. */
const framing = (question: string) => tokenize(question, 'th').filter((t) => questionStems('th').has(t.term)).map((t) => t.raw.toLowerCase());

describe('the Thai reader pack', () => {
  it.each([
    ['โครงการเริ่มเมื่อไร', ['เมื่อไร']],
    ['ทำไมการซิงค์ล้มเหลว', ['ทำไม']],
    ['ใช้เวลานานแค่ไหน', ['นาน', 'ไหน']],
    ['การซิงค์ล้มเหลว', []],
  ])('%s is framed by %j', (question, words) => {
    expect(framing(question)).toEqual(words);
  });

  it('has no empty word', () => {
    expect(th.questionWords.filter((w) => w.trim() === '')).toEqual([]);
  });
  // The pack's `values`: how a sentence gives a reason.
  it.each([
    ['เราเปลี่ยนเพราะซิงค์ช้า', 'reason', true],
    ['เราเปลี่ยน', 'reason', false],
  ] as const)('%s states a value of type %s: %s', (sentence, type, holds) => {
    expect(holdsType(sentence, { type })).toBe(holds);
  });

});
