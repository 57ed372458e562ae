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

// What the asked-type rules (src/engine/answer/answer-type.ts) read as Russian values and verbs.

/** Number words; alternatives. */
export const NUMBER_WORDS = String.raw`один|одна|одно|одного|одной|два|две|двух|три|трех|трёх|четыре|четырех|пять|пяти|шесть|шести|семь|семи|восемь|восьми|девять|девяти|десять|десяти|двадцать|тридцать|сорок|пятьдесят|сто|двести|тысяч[аиу]?|миллион\S*|полтора|несколько|дважды|трижды`;
/** Units of time after a number; alternatives. */
export const TIME_UNITS = String.raw`мс|миллисекунд\p{L}*|секунд\p{L}*|сек|минут\p{L}*|мин|час\p{L}*|ч|дн\p{L}*|день|сут\p{L}*|недел\p{L}*|месяц\p{L}*|мес|год\p{L}*|лет|квартал\p{L}*`;
export const MONTHS = String.raw`январ\p{L}*|феврал\p{L}*|март\p{L}*|апрел\p{L}*|ма[йяе]|июн\p{L}*|июл\p{L}*|август\p{L}*|сентябр\p{L}*|октябр\p{L}*|ноябр\p{L}*|декабр\p{L}*`;
export const WEEKDAYS = String.raw`понедельник\p{L}*|вторник\p{L}*|сред[аыу]|четверг\p{L}*|пятниц\p{L}*|суббот\p{L}*|воскресень\p{L}*`;
/** Verbs of a measure («Сколько стоит подписка…», «Сколько недель длится…»): the subject comes after them. */
export const MEASURE_VERBS = String.raw`сто(?:ит|ят|ил|ила|ило|или)|длит(?:ся)?|длятся|длил(?:ся|ась|ось|ись)|продолжа\p{L}*|занима\p{L}*|весит|весят`;
export const PREPOSITIONS = 'в|во|на|для|по|с|со|у|к|от|до|из|о|об|при|за|под|над|между|через';
/**
 * Verb endings (infinitive, present, past, reflexive), as they rarely end a noun: "-ет" only
 * after a vowel (делает, but бюджет, пакет), "-ут", "-ел", "-ела", "-ели" not at all (маршрут, отдел, Павел, недели), nor "-нал", "-тал", "-вила" (канал, правила).
 */
export const VERB_ENDING = /(?:ть|ться|чь|[аеёияую]ет|ёт|ит|[аеияуюо]ют|[жчшщ]ат|ят|ется|ится|утся|ются|(?<![инт])ал|ял|ил|ала|яла|(?<!в)ила|али|яли|или|ался|ился|лся|лась|лись|лось)$/;
