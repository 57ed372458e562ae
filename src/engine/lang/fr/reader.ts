/** What the answer reader knows of French (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const fr: ReaderPack = {
  code: 'fr',
  questionWords: 'quand où pourquoi combien quel quelle quels quelles qui que quoi lequel laquelle'.split(' '),
};
