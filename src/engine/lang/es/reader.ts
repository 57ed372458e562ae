/** What the answer reader knows of Spanish (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const es: ReaderPack = {
  code: 'es',
  questionWords: 'cuándo cuando dónde donde por qué cómo cuánto cuánta cuántos cuántas quién quiénes cuál cuáles'.split(' '),
};
