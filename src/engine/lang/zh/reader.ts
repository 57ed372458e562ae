/** What the answer reader knows of Chinese (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const zh: ReaderPack = {
  code: 'zh',
  // As the word breaker splits them (什么时候: 什么 | 时候).
  questionWords: '什么 什么样 时候 哪 哪个 哪些 哪里 哪儿 哪种 哪家 哪天 哪年 谁 多少 几 多久 多长 多大 多高 多远 为什么 为何 怎么 怎样 如何 吗 呢 何时 请问 可以 能 能够 是否'.split(' '),
};
