/** What the answer reader knows of Hindi (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const hi: ReaderPack = {
  code: 'hi',
  questionWords: 'कितने कितनी कितना कब कौन किसने किसका किसकी क्यों कहाँ कहां क्या किस समय तक'.split(' '),
};
