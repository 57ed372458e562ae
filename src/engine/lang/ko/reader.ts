/** What the answer reader knows of Korean (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const ko: ReaderPack = {
  code: 'ko',
  questionWords: '얼마나 언제 누가 누구 왜 어디 어디에 무엇 무슨 어떤 어느 몇 얼마'.split(' '),
};
