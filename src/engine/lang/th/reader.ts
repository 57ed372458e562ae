/** What the answer reader knows of Thai (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const th: ReaderPack = {
  code: 'th',
  questionWords: 'เท่าไร เท่าไหร่ เมื่อไร เมื่อไหร่ ใคร ทำไม ที่ไหน อะไร ไหน กี่ นาน แค่ไหน'.split(' '),
  // How a question asks for each kind of value (src/engine/answer/answer-type.ts): pieces of regular
  // expressions, each with its own word boundaries, matched against the lower-cased question.
  asks: {
    duration: [String.raw`นานเท่าไ(?:ร|หร่)`, String.raw`นานแค่ไหน`, String.raw`กี่(?:วัน|สัปดาห์|เดือน|ปี|ชั่วโมง|นาที)`],
    money: [String.raw`ราคาเท่าไ(?:ร|หร่)`, String.raw`กี่บาท`],
    number: [String.raw`เท่าไ(?:ร|หร่)`, String.raw`กี่`],
    date: [String.raw`เมื่อไ(?:ร|หร่)`, String.raw`ปีไหน`, String.raw`วันไหน`],
    person: [String.raw`ใคร`],
    reason: [String.raw`ทำไม`],
    place: [String.raw`ที่ไหน`],
    entity: [String.raw`อะไร`, String.raw`ไหน`],
  },
  // How Thai sentences give a reason (answer-type.ts).
  values: { reason: [`เพราะ|เนื่องจาก|ดังนั้น`] },
};
