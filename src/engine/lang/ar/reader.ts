/** What the answer reader knows of Arabic (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const ar: ReaderPack = {
  code: 'ar',
  questionWords: 'ما ماذا متى أين اين من كم لماذا كيف أي هل'.split(' '),
};
