/** What the answer reader knows of Japanese (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const ja: ReaderPack = {
  code: 'ja',
  // As the word breaker splits them (どのくらい: どの | くらい).
  questionWords: '何 なに なん いつ 誰 だれ どこ なぜ どうして どの どれ どんな いくら いくつ くらい ぐらい ですか ますか できます できますか'.split(' '),
  // How a question asks for each kind of value (src/engine/answer/answer-type.ts): pieces of regular
  // expressions, each with its own word boundaries, matched against the lower-cased question.
  asks: {
    duration: [String.raw`何(?:日間|日以内|年間|か月|ヶ月|カ月|時間|分間)`, String.raw`どのくらいの期間`, String.raw`どれくらいの期間`, String.raw`いつまで`],
    frequency: [String.raw`(?:どのくらい|どれくらい)の頻度`, String.raw`何(?:日|時間|分)(?:ごと|おき)`],
    money: [String.raw`いくら`, String.raw`値段`, String.raw`料金は`, String.raw`費用は`, String.raw`価格は`],
    number: [String.raw`いくつ`, String.raw`何(?:人|個|件|回|台|本|枚|パーセント|割)`, String.raw`どのくらい`, String.raw`どれくらい`, String.raw`どれだけ`],
    date: [String.raw`いつ`, String.raw`何年に`, String.raw`何月`, String.raw`何日に`, String.raw`何時`],
    person: [String.raw`誰`, String.raw`だれ`, String.raw`どなた`],
    reason: [String.raw`なぜ`, String.raw`どうして`, String.raw`なんで`],
    place: [String.raw`どこ`],
    entity: [String.raw`何`, String.raw`どの`, String.raw`どれ`, String.raw`なに`, String.raw`どんな`],
  },
  // How Japanese sentences give a reason (answer-type.ts).
  values: { reason: [`ため|ので|から|理由|原因|によって|すぎ`] },
};
