/** What the answer reader knows of Chinese (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const zh: ReaderPack = {
  code: 'zh',
  // As the word breaker splits them (什么时候: 什么 | 时候).
  questionWords: '什么 什么样 时候 哪 哪个 哪些 哪里 哪儿 哪种 哪家 哪天 哪年 谁 多少 几 多久 多长 多大 多高 多远 为什么 为何 怎么 怎样 如何 吗 呢 何时 请问 可以 能 能够 是否'.split(' '),
  // How a question asks for each kind of value (src/engine/answer/answer-type.ts): pieces of regular
  // expressions, each with its own word boundaries, matched against the lower-cased question.
  asks: {
    duration: [String.raw`多久`, String.raw`多长时间`, String.raw`多少(?:天|年|周|个月|个小时|小时|分钟)`, String.raw`几(?:天|年|周|个月|个小时|小时|分钟)`],
    frequency: [String.raw`多久一次`, String.raw`每隔多久`, String.raw`多频繁`],
    money: [String.raw`多少钱`, String.raw`什么价格`, String.raw`价格是多少`, String.raw`费用是多少`, String.raw`多少费用`, String.raw`花多少`],
    number: [String.raw`多少(?!钱)`, String.raw`几(?![月号点])`, String.raw`多大`, String.raw`多高`, String.raw`多重`, String.raw`多远`],
    date: [
      String.raw`什么时候`,
      String.raw`何时`,
      String.raw`哪天`,
      String.raw`哪一天`,
      String.raw`哪年`,
      String.raw`哪一年`,
      String.raw`几月`,
      String.raw`几号`,
      String.raw`几点`,
    ],
    person: [String.raw`谁`],
    reason: [String.raw`为什么`, String.raw`为何`, String.raw`为啥`, String.raw`怎么会`, String.raw`什么原因`],
    place: [String.raw`哪里`, String.raw`哪儿`, String.raw`在哪`, String.raw`何处`, String.raw`什么地方`],
    entity: [String.raw`什么`, String.raw`哪个`, String.raw`哪些`, String.raw`哪种`, String.raw`哪款`, String.raw`哪家`],
  },
  // How Chinese sentences give a reason (answer-type.ts).
  values: { reason: [String.raw`因为|由于|所以|因此|为了|原因|导致|因而|太[高低慢贵重难大小多少复]`] },
};
