/** What the answer reader knows of Russian (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const ru: ReaderPack = {
  code: 'ru',
  questionWords: (
    'что чего чему чем чём какой какая какое какие какую какого какому каким каком каких какими каков какова каково каковы кто кого кому кем ком когда где куда откуда почему зачем как сколько скольк скольких ли ' +
    'который которая которое которые которого которой которому которым чей чья чьё чье чьи'
  ).split(' '),
  /**
   * Modal verbs the stopword list lacks (it keeps «может», not «могло», «смогу», «нужно»): in
   * «…могло быть удалено» the asked content is «удалено», and no answer repeats the modal.
   */
  functionWords: 'могу можешь можем можете могут мог могла могло могли смогу сможешь сможет сможем сможете смогут смог смогла смогло смогли нужно надо должен должна должно должны'.split(' '),
  // «какой командой»
  commandWords: ['команд'],
  stepsHeadings: ['шаги', String.raw`инструкци\p{L}*`, 'порядок действий', String.raw`как \p{L}+`],
  pronouns: ['он', 'она', 'оно', 'они', 'это', 'его', 'её', 'ее', 'их'],
  openingPronouns: ['он', 'она', 'оно', 'они', 'это', 'этот', 'эта', 'эти', 'его', 'её', 'ее', 'их'],
  // «Например…», «Всё это…», «Многие из них…».
  anaphors: ['например', 'вс[её] это', '(?:большинство|многие|некоторые|каждый|каждая|одна|один) из (?:них|этих)', 'в результате'],
  listAnnouncers: [String.raw`следующ\p{L}*`],
  listEndings: ['ниже'],
  conditions: ['если'],
  namingWords: 'называется называются называют называли назван названа названо названы зовут именуется именуют'.split(' '),
  asksWhich: ['как(?:ой|ая|ое|ие|ую|им|ом|ого|ому|их)'],
  demonstratives: 'этот эта это эти этого этой этих этим этом эту такой такая такие'.split(' '),
  // «Как разделить слайды?»: the task is named by an infinitive. Its steps say it otherwise as often («Поднимите» for «поднять»), so it only ranks.
  taskVerb: { pattern: /(?<![\p{L}])как (?:мне |нам |можно |нужно |надо )?(\p{L}+(?:ть|ти|чь)(?:ся|сь)?)(?![\p{L}])/iu, required: false },
  // «инженер, который выбрал…», «чей отчёт…» after the first word; «…, кто руководит».
  describesSubject: (q) => /(?<![\p{L}])(?:котор\p{L}*|чей|чья|чьё|чьи)(?![\p{L}])/iu.test(q.slice(q.indexOf(' ') + 1)) || /,\s*(?:кто|где|что)(?![\p{L}])/iu.test(q),
};

/**
 * A stem whose fleeting vowel a case drops: Павел / Павла, день / дня, конец / конца stem to
 * "павел" / "павл", "ден" / "дн", "конец" / "конц"; the reader matches the form without it.
 */
export const FLEETING_VOWEL = /[бвгджзклмнпрстфхцчшщ][ео][бвгджзклмнпрстфхцчшщ]$/;
