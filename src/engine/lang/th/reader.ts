/** What the answer reader knows of Thai (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const th: ReaderPack = {
  code: 'th',
  questionWords: 'เท่าไร เท่าไหร่ เมื่อไร เมื่อไหร่ ใคร ทำไม ที่ไหน อะไร ไหน กี่ นาน แค่ไหน'.split(' '),
};
