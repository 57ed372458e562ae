/** What the answer reader knows of Japanese (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const ja: ReaderPack = {
  code: 'ja',
  // As the word breaker splits them (どのくらい: どの | くらい).
  questionWords: '何 なに なん いつ 誰 だれ どこ なぜ どうして どの どれ どんな いくら いくつ くらい ぐらい ですか ますか できます できますか'.split(' '),
};
