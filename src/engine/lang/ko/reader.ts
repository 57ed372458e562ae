/** What the answer reader knows of Korean (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const ko: ReaderPack = {
  code: 'ko',
  questionWords: '얼마나 언제 누가 누구 왜 어디 어디에 무엇 무슨 어떤 어느 몇 얼마'.split(' '),
  // How a question asks for each kind of value (src/engine/answer/answer-type.ts): pieces of regular
  // expressions, each with its own word boundaries, matched against the lower-cased question.
  asks: {
    duration: [String.raw`얼마나 (?:오래|걸리|동안|보관)`, String.raw`몇 (?:일|주|개월|달|년|시간|분)`],
    money: [String.raw`얼마(?:입니까|예요|에요|인가요)`],
    number: [String.raw`몇`, String.raw`얼마나`],
    date: [String.raw`언제`],
    person: [String.raw`누가`, String.raw`누구`],
    reason: [String.raw`왜`],
    place: [String.raw`어디`],
    entity: [String.raw`무엇`, String.raw`무슨`, String.raw`어떤`, String.raw`어느`],
  },
  // How Korean sentences give a reason (answer-type.ts).
  values: { reason: [`때문에|왜냐하면|그래서|따라서`] },
};
