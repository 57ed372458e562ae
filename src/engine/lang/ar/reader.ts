/** What the answer reader knows of Arabic (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const ar: ReaderPack = {
  code: 'ar',
  questionWords: 'ما ماذا متى أين اين من كم لماذا كيف أي هل'.split(' '),
  // How a question asks for each kind of value (src/engine/answer/answer-type.ts): pieces of regular
  // expressions, each with its own word boundaries, matched against the lower-cased question.
  asks: {
    duration: [String.raw`(?<![\p{L}\p{M}])(?:كم من الوقت|كم (?:يوما|يوم|أسبوعا|أسبوع|شهرا|شهر|سنة|عاما|ساعة|دقيقة)|إلى متى|لمدة كم|ما المدة|ما مدة)(?![\p{L}\p{M}])`],
    money: [String.raw`(?<![\p{L}\p{M}])(?:كم يكلف|كم تكلف|كم سعر|ما سعر|ما تكلفة|كم ثمن|ما ثمن)(?![\p{L}\p{M}])`],
    number: [String.raw`(?<![\p{L}\p{M}])(?:كم)(?![\p{L}\p{M}])`],
    date: [String.raw`(?<![\p{L}\p{M}])(?:متى|في أي (?:عام|سنة|يوم|تاريخ|شهر))(?![\p{L}\p{M}])`],
    person: [String.raw`^(?:من|مَن)(?= (?!أين|اين))`, String.raw`(?<![\p{L}\p{M}])(?:من هو|من هي|من الذي|من التي)(?![\p{L}\p{M}])`],
    reason: [String.raw`(?<![\p{L}\p{M}])(?:لماذا|لم|ما سبب|ما السبب)(?![\p{L}\p{M}])`],
    place: [String.raw`(?<![\p{L}\p{M}])(?:أين|اين|في أي مدينة|في أي بلد)(?![\p{L}\p{M}])`],
    entity: [String.raw`(?<![\p{L}\p{M}])(?:ما|ماذا|ما هو|ما هي|أي|أيّ)(?![\p{L}\p{M}])`],
  },
  // How Arabic sentences give a reason (answer-type.ts).
  values: { reason: [`لأن|بسبب|لذلك|نتيجة`] },
};
