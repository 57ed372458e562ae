/**
 * What kind of fact a question asks for, and whether a sentence holds one (English, Russian and German).
 * "How long" wants a duration, "when" a date, "how many" a number (of the thing counted when the
 * question names it: "how many weeks" wants "12 weeks"), "how much" an amount, "who" a person,
 * "why" a reason, "where" a place, "which"/"what" a thing (any sentence may name one). The answer reader uses it to tell
 * the sentence that states the fact from one that only repeats the question's words, and to say
 * which part of a two-part question the notes leave open.
 *
 * Patterns, not a model: each is a general form of the language (question words, units, dates,
 * currency signs, causal connectives), none is fitted to a particular vault. The number words, units of
 * time, months, weekdays, the words that tell a verb, and the words by which a sentence states a
 * value or a bound (`values`: "every", «бесплатно», "weil", "up to") are each language's pack's
 * (src/engine/lang/<code>/reader.ts); what is left here is their shape. Still written here: the
 * eras of history (ERA) and the scripts without capitals.
 */
import { stemWord } from '../search/analyzer.ts';
import { boundedMemo } from './memo.ts';
import { type AskedCue, packAlternation, packCue, packValues, packWords, READER_PACKS } from '../lang/reader-packs.ts';
import * as DE from '../lang/de/reader.ts';
import * as EN from '../lang/en/reader.ts';
import * as ES from '../lang/es/reader.ts';
import * as FR from '../lang/fr/reader.ts';
import * as RU from '../lang/ru/reader.ts';

export type AnswerType = 'duration' | 'date' | 'number' | 'money' | 'person' | 'reason' | 'place' | 'entity' | 'definition' | 'procedure' | 'any';

export interface AskedType {
  type: AnswerType;
  /** The stemmed noun counted by "how many X" / "сколько X", when given: the value should count it. */
  unit?: string;
  /**
   * The question names the form of its value (a price; "what year", «в каком году», "welches Datum";
   * a count of a named thing, "how many retries"):
   * only a quote that holds such a value answers it, however well it covers the question's words.
   */
  strict?: true;
  /** A price per unit of time or use ("…cost per year?", «…в месяц?»): an amount answers it, "free" does not. */
  rate?: true;
  /** A size ("what size", "how big", «какой размер», "wie groß"): a quantity written in digits answers it, "one or several files" does not. */
  size?: true;
}

const W = String.raw`[\p{L}\p{N}'’-]`;
const NUMBER_WORDS_EN = EN.NUMBER_WORDS;
const NUMBER_WORDS_RU = RU.NUMBER_WORDS;
const NUMBER_WORDS_DE = DE.NUMBER_WORDS;
const NUMBER = String.raw`(?:\d[\d,.\s ]*\d|\d|(?<![\p{L}])(?:${NUMBER_WORDS_EN}|${NUMBER_WORDS_RU})(?![\p{L}])|(?<![\p{L}])(?:${NUMBER_WORDS_DE})(?![\p{L}]))`;
const TIME_UNITS = [EN.TIME_UNITS, RU.TIME_UNITS, DE.TIME_UNITS, FR.TIME_UNITS, ES.TIME_UNITS].join('|');
const MONTHS_EN = EN.MONTHS;
const MONTHS_DE = DE.MONTHS;
/** French and Spanish months, taken only after a day ("3 mars", "1er avril", "3 de marzo"): "Mars" and "Mayo" are names in English. */
const MONTHS_FR_ES = `${FR.MONTHS}|${ES.MONTHS}`;
const MONTHS_RU = RU.MONTHS;
const WEEKDAYS = `${EN.WEEKDAYS}|${DE.WEEKDAYS}|${RU.WEEKDAYS}`;

const DURATION = new RegExp(String.raw`${NUMBER}\s*(?:-\s*)?(?:${TIME_UNITS})(?![\p{L}])|(?<![\p{L}])(?:${packValues('frequency')})(?![\p{L}])|(?<![\p{L}])(?:${packValues('every')})\s+(?:${NUMBER}\s*)?(?:${TIME_UNITS})(?![\p{L}])|\*\s*time\.(?:Hour|Minute|Second)`, 'iu');
/**
 * Years and times history states without a four-digit modern year: a decade ("the 1950s"), a
 * century ("the mid-18th century", "nineteenth century", «XIX век», "im 19. Jahrhundert"), an era
 * ("44 BC", "AD 711", "13,000 BP", "22,000 years ago"), and an early year where only a year can stand
 * ("In 1186", "(1185–1226)").
 */
const ORDINALS_EN = EN.ORDINALS;
const ERA = String.raw`\b(?:1\d|20)\d0s\b|\b(?:\d{1,2}(?:st|nd|rd|th)|${ORDINALS_EN})[\s-]+century\b|(?<![\p{L}])(?:[IVX]{1,5}|\d{1,2})\s+(?:век\p{L}*|веке)(?![\p{L}])|\b\d{1,2}\.\s+jahrhundert\p{L}*|\b\d[\d,.]*\s?(?:BC|BCE|AD|CE|BP)\b|\b(?:AD|CE)\s?\d{1,4}\b|\b\d[\d,.]*\s+years\s+ago\b|(?:\b(?:in|since|from|until|by|circa|around)\s+|\()1[0-4]\d{2}\b|\b1[0-4]\d{2}\s?[–-]\s?1\d{3}\b`;
const DATE = new RegExp(
  String.raw`\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\b(?:1[5-9]|20)\d{2}\b|(?<![\p{L}])(?:${MONTHS_EN}|${MONTHS_RU}|${MONTHS_DE})(?![\p{L}])|\b\d{1,2}(?:er)?\s+(?:de\s+)?(?:${MONTHS_FR_ES})(?![\p{L}])|(?<![\p{L}])(?:${WEEKDAYS})(?![\p{L}])|\b\d{1,2}:\d{2}\b|\bQ[1-4]\b|${packValues('days')}|${ERA}`,
  'iu',
);
const RELATIVE_TIME = new RegExp(String.raw`(?<![\p{L}])(?:${packValues('within')})${NUMBER}\s*(?:-\s*)?(?:${TIME_UNITS})(?![\p{L}])`, 'iu');
/** An amount of money: "$8", "€4 per month", "1 200 руб.". */
const AMOUNT = String.raw`[$€£¥₽]\s*\d|\d[\d,.\s ]*\s*(?:[$€£¥₽]|${packValues('currency')})(?![\p{L}])`;
const MONEY_AMOUNT = new RegExp(AMOUNT, 'iu');
/** A price may be none: "free of charge", "kostenlos", «бесплатно», "gratuit". */
const MONEY = new RegExp(String.raw`(?<![\p{L}-])(?:${packValues('free')})(?![\p{L}-])|${AMOUNT}`, 'iu');
/** A price per unit of time or use: "per year", "a month", "per seat", «в месяц», «за место», "pro Jahr". */
const RATE = new RegExp(String.raw`(?<![\p{L}])(?:${packValues('perUnit')})(?![\p{L}])`, 'iu');
const ANY_NUMBER = new RegExp(NUMBER, 'iu');
/**
 * Chinese and Japanese write a number and its unit without a space and go on without one
 * ("七天内", "7日以内"): their values are read without the word boundaries above. A Chinese numeral
 * counts only before a unit or counter: 一 is in many words (一些, 统一).
 */
const CJK_NUMERAL = '[一二两三四五六七八九十百千万亿半几]+';
const CJK_DURATION = new RegExp(String.raw`(?:\d+(?:[.,]\d+)?|${CJK_NUMERAL})\s*(?:个)?(?:天|日|周|星期|礼拜|个月|小时|钟头|分钟|秒钟?|週間|日間|か月|ヶ月|カ月|ヵ月|年間|年|時間|分間|秒)|每(?:天|日|周|月|年|小时|隔)|毎(?:日|週|月|年|時間)`, 'u');
const CJK_DATE = new RegExp(String.raw`\d{4}\s*年|\d{1,2}\s*月\s*\d{1,2}\s*[日号]|${CJK_NUMERAL}月|(?:星期|礼拜|周)[一二三四五六日天]|[月火水木金土日]曜日?|今天|明天|昨天|今年|明年|去年|上周|下周|本周|月底|年底|今日|明日|昨日|来週|先週|今週|来月|先月|今月`, 'u');
const CJK_MONEY = /\d[\d,.]*\s*(?:元|块|美元|欧元|人民币|円|ドル|ユーロ)|[￥]\s*\d/u;
const CJK_NUMBER = new RegExp(String.raw`[\d０-９]|${CJK_NUMERAL}\s*(?:个|位|名|次|天|日|年|月|周|小时|分钟|秒|倍|人|台|件|项|条|种|元|块|成|つ|回|個|本|枚|割)|[%％]`, 'u');
/** Korean, Hindi, Thai and Arabic units of time after a number ("12개월", "7 दिन", "7 วัน", "7 أيام"), and their words of cause. */
const MORE_DURATION = /\d+\s*(?:일|주|개월|달|년|시간|분|초|दिन|सप्ताह|हफ़्ते|हफ्ते|महीन|माह|साल|वर्ष|घंटे|घंटा|मिनट|सेकंड|วัน|สัปดาห์|เดือน|ปี|ชั่วโมง|นาที|วินาที|أيام|يوما|يوم|أسابيع|أسبوع|أشهر|شهور|شهر|سنوات|سنة|أعوام|عام|ساعات|ساعة|دقائق|دقيقة)/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** Scripts without capital letters: their names and places cannot be told by case. */
/** Scripts without capitals: a name there reads like any other word. */
export const CASELESS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Arabic}\p{Script=Hebrew}]/u;
const REASON = new RegExp(packValues('reason'), 'iu');
/** What says what a thing means ("stands for", «означает»), a dash or a colon. */
const DEFINES = new RegExp(String.raw`${packValues('means')}|\s[—–-]\s|:\s`, 'iu');
/** Two or more capitalised words (Latin or Cyrillic), or a wikilink: a name. */
const PERSON = /\[\[[^\]|]+\]\]|(?<![\p{L}])[\p{Lu}][\p{Ll}'’-]+(?:\s+(?:van |von |de |da |del |der |le |la |bin |ibn )?[\p{Lu}][\p{Ll}'’-]+)+/u;
/** Who a note names by a role rather than a name: "only the vault owner", "an administrator", «руководитель». */
const ROLE = new RegExp(String.raw`(?<![\p{L}])(?:${packValues('role')})(?![\p{L}])`, 'iu');
/** A place: a capitalised name after a preposition of place, or a field line that names one ("City: Valencia", «Город: Казань»). */
const PLACE = new RegExp(String.raw`(?<![\p{L}])(?:${packValues('placeBefore')})\s+(?:(?:${packValues('placeArticle')})\s+)?[\p{Lu}][\p{L}'’-]+|(?<![\p{L}])(?:${packValues('placeField')})\s*:\s*\p{Lu}`, 'u');

/**
 * Where something is, said in any form: a preposition of place before a word ("in the status bar",
 * «на кухне», "im Ordner") or a path through the settings ("Settings > Files and links", "→").
 */
const LOCATED = new RegExp(String.raw`(?<![\p{L}])(?:${packValues('located')})\s+[\p{L}\p{N}${'`'}"«'[]|\S\s*(?:>|›|→)\s*\S`, 'iu');

/** Whether a sentence says where something is: a place (holdsType's), or any phrase of place (LOCATED). */
export function saysWhere(sentence: string): boolean {
  return holdsType(sentence, { type: 'place' }) || LOCATED.test(sentence);
}

const PROCEDURE = new RegExp(String.raw`[:：]\s*$|→|${packValues('instructs')}|(?<![\p{L}])(?:${packValues('imperative')})\s+${'`'}[^${'`'}]+${'`'}|(?<![\p{L}])(?:${packValues('settings')})\s*[>›»]|^(?:${packValues('purpose')})\s[^,]{3,80},\s`, 'iu');

const has = (re: RegExp, s: string) => re.test(s);
const WORDS = new RegExp(`${W}+`, 'gu');
const NUMBER_WORD = new RegExp(`^(?:${NUMBER_WORDS_EN}|${NUMBER_WORDS_RU}|${NUMBER_WORDS_DE})$`, 'iu');
const ZERO_WORD = new RegExp(`^(?:${packValues('zero')})$`, 'iu');

/** The word, or one part of it (MAX_RETRIES, engineer-days), is the counted noun; Russian stems may differ in their ending. */
export function isUnit(word: string, unit: string): boolean {
  const stems = [word, ...word.split(/[_-]/)].map((p) => stemWord(p.toLowerCase()));
  return stems.some((s) => s === unit || (s.length >= 4 && unit.length >= 4 && (unit.startsWith(s.slice(0, 4)) && s.startsWith(unit.slice(0, 4)))));
}

interface Rule {
  re: RegExp;
  type: AnswerType;
}

/** One kind of value as every language's pack asks for it (src/engine/lang/<code>/reader.ts `asks`). */
const cue = (name: AskedCue, flags = 'u') => new RegExp(packCue(name), flags);

/**
 * "Which version…", «в какой версии…», "seit welcher Version…": a version number, the form of the
 * value named (a quote without a number states none).
 */
const NAMES_VERSION = cue('version', 'iu');
/** "Which city", «в каком городе», "in welcher Stadt": a place question that names the kind of place it asks for. */
const NAMES_PLACE = cue('namedPlace', 'iu');
/** "What's the retention period", "the trial period": a span of time, as "how long" asks. */
const NAMES_PERIOD = cue('period', 'iu');
/**
 * "What's the default stack size", "what is the maximum file size", «какой максимальный размер кучи»,
 * «какое количество»: a measure, answered by a number (not a compound: "which rate plan").
 */
const NAMES_MEASURE = cue('measure', 'iu');
/** «Какая минимальная зарплата», «какова стоимость»: an amount of money. */
const NAMES_AMOUNT = cue('amount', 'iu');
/** "What size", "how big", «какой вес», "wie groß": a size or a length, a measured quantity. */
const ASKS_SIZE = cue('size', 'iu');
/** "…, in minutes?", «в секундах»: the unit of time the value is asked in, as a number. */
const IN_TIME_UNITS = cue('inTimeUnits', 'iu');
/** "…, in megabytes?", «в байтах»: the unit of a measured quantity the value is asked in. */
const IN_UNITS = cue('inUnits', 'iu');

/** Tried in order on the lower-cased question; the first match decides. */
export const RULES: Rule[] = [
  { re: NAMES_VERSION, type: 'number' },
  { re: NAMES_PERIOD, type: 'duration' },
  { re: cue('duration'), type: 'duration' },
  { re: cue('frequency'), type: 'duration' },
  { re: cue('money'), type: 'money' },
  { re: NAMES_AMOUNT, type: 'money' },
  { re: NAMES_MEASURE, type: 'number' },
  { re: cue('number'), type: 'number' },
  { re: cue('date'), type: 'date' },
  { re: cue('person'), type: 'person' },
  { re: cue('reason'), type: 'reason' },
  { re: cue('place'), type: 'place' },
  { re: cue('procedure'), type: 'procedure' },
  { re: cue('definition'), type: 'definition' },
  { re: cue('entity'), type: 'entity' },
];

const COUNTED_AFTER = packWords('countedAfter').map((source) => new RegExp(source, 'u'));
const NOT_COUNTED = new RegExp(`^(?:${packAlternation('notCounted')})$`);

/** The counted noun after "how many" / "сколько" (stemmed), if the question names one. */
function countedUnit(q: string): string | undefined {
  let m: RegExpExecArray | null = null;
  for (const re of COUNTED_AFTER) if ((m = re.exec(q))) break;
  if (!m) return undefined;
  const word = m[1]!;
  // "how many of the..." / "сколько раз" names nothing countable; "сколько стоит" a verb, not a unit.
  if (NOT_COUNTED.test(word)) return undefined;
  if (isRussianVerb(word)) return undefined;
  return stemWord(word);
}

/** "What year", «в каком году», "welches Datum": a date question that names the calendar value it asks for. */
const NAMES_DATE = cue('namedDate', 'iu');

/**
 * A leading clause of time that is not itself asked: "when" and a subject, not an auxiliary ("When I
 * create a daily note," but not "When did…"), up to the comma after which another question word opens
 * the question. The match ends at that comma.
 */
const CONDITION_CLAUSE = new RegExp(`^(?:${packValues('timeClause')})`, 'iu');

/**
 * What kind of value the question asks for. Each question is typed again for every reading of it
 * (its hops, each part, whether a relation line reads for it): the answer is kept, frozen.
 */
export function askedType(question: string): AskedType {
  return askedMemo(question, () => Object.freeze(askedTypeOnce(question)));
}

const askedMemo = boundedMemo<AskedType>(2_000);

function askedTypeOnce(question: string): AskedType {
  const q = question.toLowerCase().replace(/[’`]/g, "'").replace(/\s+/g, ' ').trim();
  // The question word that comes first decides: "Where does the engineer who chose X work?" asks
  // for a place, the later "who" only names the engineer. At the same place, the earlier rule wins.
  // A question word that opens a clause (the start, or after a dash, comma, colon or semicolon) comes
  // before one inside a noun phrase: in "The engineer who chose WebSockets — which city do they work
  // from?" the "who" only says which engineer.
  // A question that opens with a clause of time ("When two devices edit the same note, which
  // algorithm…", «Когда заметка удалена, где…») asks with the question word after that clause: its
  // "when" says under what condition, not what is asked.
  const condition = CONDITION_CLAUSE.exec(q);
  let best: { at: number; type: AnswerType; opens: boolean } | null = null;
  for (const rule of RULES) {
    for (const m of q.matchAll(new RegExp(rule.re.source, rule.re.flags.includes('g') ? rule.re.flags : `${rule.re.flags}g`))) {
      if (condition && m.index < condition[0].length) continue;
      const opens = m.index === 0 || /(?:^|[—–,;:(]|\s-)\s*$/u.test(q.slice(0, m.index));
      if (!best || (opens && !best.opens) || (opens === best.opens && m.index < best.at)) best = { at: m.index, type: rule.type, opens };
    }
  }
  // "What is the session lifetime by default, in minutes?": a question of which thing, or none, that
  // names the unit its value is in asks for a number (the unit is the question's: "timeout: 30").
  if (!best || best.type === 'entity') {
    if (IN_TIME_UNITS.test(q)) return { type: 'number' };
    if (IN_UNITS.test(q)) return { type: 'number', size: true };
  }
  if (!best) return { type: 'any' };
  if (best.type === 'number' && NAMES_VERSION.test(q)) return { type: 'number', strict: true };
  if (best.type === 'number') {
    const unit = countedUnit(q);
    // "How many retries…" is answered by a count of retries: a sentence that counts nothing, or something else, is no answer.
    if (unit) return { type: 'number', unit, strict: true };
    return ASKS_SIZE.test(q) ? { type: 'number', size: true } : { type: 'number' };
  }
  if (best.type === 'money' && RATE.test(q)) return { type: 'money', strict: true, rate: true };
  if (best.type === 'money' || (best.type === 'date' && NAMES_DATE.test(q)) || (best.type === 'place' && NAMES_PLACE.test(q))) return { type: best.type, strict: true };
  return { type: best.type };
}

/** Where a question's second part begins: a joining word, then an opening of its own (each language's pack). */
const PART_SPLIT = new RegExp(`,?\\s+(?:${packAlternation('partJoiners')})\\s+(?=(?:${packAlternation('partOpeners')})(?![\\p{L}]))`, 'iu');
/** A preposition's phrase, then a joining word and the same preposition again: "…for the dev profile and for the release profile". */
const PARALLEL = new RegExp(`^(.*?(?<![\\p{L}]))(${packAlternation('partPrepositions')})\\s+(.+?),?\\s+(?:${packAlternation('partJoiners')})\\s+\\2\\s+(.+)$`, 'iu');
const COMPARES = new RegExp(`(?<![\\p{L}])(?:${packAlternation('compareWords')})(?![\\p{L}])`, 'iu');
const RELATIVE = new RegExp(`(?<![\\p{L}])(?:${packAlternation('relativeWords')})(?![\\p{L}])`, 'iu');
const RELATIVE_AFTER_COMMA = new RegExp(`,\\s*(?:${packAlternation('relativeAfterComma')})\\s`, 'iu');

/**
 * A question of two parts joined by "and"/"и" whose second part has its own question word
 * ("How long did it last, and what was its root cause?") or asks yes or no ("…and is it stored in the
 * vault?", «…и хранятся ли они в хранилище?», "…und ob…") asks two things; each part is answered on its own.
 */
export function questionParts(question: string): string[] {
  const q = question.replace(/\s+/g, ' ').trim();
  const parts = q.split(PART_SPLIT).map((p) => p.trim()).filter((p) => /[\p{L}\p{N}]/u.test(p));
  if (parts.length > 1) return parts;
  // "What is the largest file Sync Plus will sync, and the largest file I can upload?" asks the same of
  // two things: the second part leaves out its question word and repeats the first part's noun phrase.
  const head = /^((?:what|which|who|where|how \p{L}+)\s+(?:is|are|was|were))\s+the\s+([\p{L}-]+)/iu.exec(q);
  if (head) {
    const again = new RegExp(`,?\\s+and\\s+(the\\s+${head[2]!}(?![\\p{L}-]).*)$`, 'iu').exec(q);
    if (again && again.index >= head[0].length) return [q.slice(0, again.index).trim(), `${head[1]} ${again[1]!.trim()}`];
  }
  // "What are the default opt-level values for the dev profile and for the release profile?" asks the
  // same of two things, each after the same preposition: the second part is the first with its own thing.
  const parallel = PARALLEL.exec(q);
  if (parallel && !COMPARES.test(q) && /[\p{L}\p{N}]/u.test(parallel[3]!) && /[\p{L}\p{N}]/u.test(parallel[4]!)) {
    const [, before, prep, , second] = parallel;
    return [`${before}${prep} ${parallel[3]!.trim()}`.trim(), `${before}${prep} ${second!.trim()}`.trim()];
  }
  return [q];
}

/**
 * A question with a relative clause after its first word ("…the library *that* Nadia Volkova
 * maintains", "…разработчиком, *который* написал…", "…das Plugin, *das* Anna pflegt") may ask across two facts: one note says who
 * maintains the library, another what the library does.
 */
export function hasRelativeClause(question: string): boolean {
  const rest = question.replace(/\s+/g, ' ').trim().replace(/^\S+/, '');
  // German relative pronouns are its articles; after a comma they open a clause ("…das Plugin, das Anna pflegt").
  return RELATIVE_AFTER_COMMA.test(rest) || RELATIVE.test(rest);
}

/**
 * The patterns that read a value of each form: holdsType asks whether a sentence holds one,
 * valuesStated how many it states. A price per unit of time asks for an amount (MONEY_AMOUNT, not
 * "free"), and Chinese or Japanese numerals count only in text of those scripts (their pattern
 * reads each digit and a bare "%" as a value of its own).
 */
const VALUE_FORMS = {
  duration: [DURATION, CJK_DURATION, MORE_DURATION],
  date: [DATE, RELATIVE_TIME, CJK_DATE],
  money: [MONEY, CJK_MONEY],
  number: [ANY_NUMBER],
} as const satisfies Partial<Record<AnswerType, readonly RegExp[]>>;
const globalForms = new Map<RegExp, RegExp>();

/**
 * How many values of the asked form the sentence states ("two weeks" one, "six weeks … two weeks"
 * two); undefined for a type without a form (who, what, how). Overlapping readings of one value
 * count once; a date written in parts ("September 30, 2021") or a number with a Chinese numeral
 * ("120 万") may count twice, never too few.
 */
export function valuesStated(sentence: string, type: AnswerType): number | undefined {
  if (!(type in VALUE_FORMS)) return undefined;
  const forms: readonly RegExp[] = type === 'number' && has(CJK, sentence) ? [...VALUE_FORMS.number, CJK_NUMBER] : VALUE_FORMS[type as keyof typeof VALUE_FORMS];
  const spans: [number, number][] = [];
  for (const re of forms) {
    let g = globalForms.get(re);
    if (!g) globalForms.set(re, (g = new RegExp(re.source, `${re.flags}g`)));
    for (const m of sentence.matchAll(g)) if (m[0].length > 0) spans.push([m.index, m.index + m[0].length]);
  }
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let count = 0;
  let end = -1;
  for (const [from, to] of spans) {
    if (from < end) continue;
    count++;
    end = to;
  }
  return count;
}

/**
 * Does the sentence hold a value of the asked type? `unit`: the counted noun should be near a number.
 * `line`: what the reader knows of a line of code — it is a command or setting (a named thing), and
 * the comment or sentence that introduces it may name what its number counts.
 */
export function holdsType(sentence: string, asked: AskedType, line?: { code?: boolean; described?: string; item?: boolean }): boolean {
  // The reader asks the same of a sentence for each part, each ranking and each hop's reading: the
  // patterns are large (every language's values), so each answer is kept.
  const key = `${asked.type}${asked.rate ? '/rate' : ''}${asked.size ? '/size' : ''}\u0000${asked.unit ?? ''}\u0000${line?.code ? 1 : 0}${line?.item ? 1 : 0}\u0000${line?.described ?? ''}\u0000${sentence}`;
  return typeMemo(key, () => holdsTypeOnce(sentence, asked, line));
}

const typeMemo = boundedMemo<boolean>(20_000);

function holdsTypeOnce(sentence: string, asked: AskedType, line?: { code?: boolean; described?: string; item?: boolean }): boolean {
  if (line?.code && asked.type === 'entity') return true;
  if (line?.described && asked.type === 'number' && asked.unit && describesUnit(line.described, sentence, asked.unit)) return true;
  switch (asked.type) {
    case 'duration':
      return VALUE_FORMS.duration.some((re) => has(re, sentence));
    case 'date':
      // A deadline is often relative: "within 5 working days", "через две недели".
      return VALUE_FORMS.date.some((re) => has(re, sentence));
    case 'money':
      return has(asked.rate ? MONEY_AMOUNT : MONEY, sentence) || has(CJK_MONEY, sentence);
    case 'number': {
      if (has(CJK, sentence) && has(CJK_NUMBER, sentence)) return true;
      if (asked.size) return /\d/.test(sentence);
      if (!asked.unit) return has(ANY_NUMBER, sentence);
      // The counted noun within a few words of a number ("5 retries", "MAX_RETRIES = 5", "1200 планшетов").
      const words = sentence.match(WORDS) ?? [];
      // "Six-time Grammy winner" counts the Grammys; "None of the treaties", "no devices" count none.
      const numAt = words.flatMap((w, i) => (/\d/.test(w) || NUMBER_WORD.test(w) || NUMBER_WORD.test(w.split('-')[0]!) || ZERO_WORD.test(w) ? [i] : []));
      return words.some((w, i) => isUnit(w, asked.unit!) && numAt.some((j) => Math.abs(i - j) <= 4));
    }
    // Chinese, Japanese, Hindi, Thai, Arabic… names and places have no capitals to tell them by.
    case 'person':
      return has(PERSON, sentence) || has(ROLE, sentence) || has(CASELESS, sentence);
    case 'reason':
      return has(REASON, sentence);
    case 'place':
      return has(PLACE, sentence) || has(CASELESS, sentence);
    case 'entity':
      // "What" and "which" ask for a thing, which prose names by a common noun as often as by a
      // proper name ("a problem instance is a string over an alphabet"): no form of the sentence
      // tells it. Capitalised words would favour any sentence full of names (XQuAD-en: 1.6 points
      // more answers with the fact, 0.6 fewer false abstentions without that test).
      return true;
    case 'definition':
      return DEFINES.test(sentence);
    case 'procedure':
      // "How do I…" is answered by steps: a list item, a command, the sentence that introduces them
      // (ending in ":"), or an instruction that names where to do it ("under Settings → Files and
      // links", "run `make relay-dev`", "To change it, open…"). A sentence that merely holds a `name` is none.
      return line?.code === true || line?.item === true || PROCEDURE.test(sentence);
    case 'any':
      return true;
  }
}

/**
 * The attribute a question asks of its subject, when its form shows it: "What is Aurora's per-seat
 * price" → "per-seat price", "Who is the general counsel of Lumen Labs" → "general counsel", "How many
 * weeks of parental leave do employees get" → "parental leave", "Каков бюджет проекта" → "бюджет".
 * Notes that never use a word of it cannot state it, however much of the rest they mention; verbs,
 * which notes paraphrase freely, are never part of it. Empty when the form does not show one.
 */
const RU_PREPOSITIONS = RU.PREPOSITIONS;
const RU_PREPOSITION = new RegExp(`^(?:${RU_PREPOSITIONS})$`, 'iu');
/** Nouns that name the form of an answer, not an attribute of the subject: "the *nickname* for …", "the *percentage* of …". */
const FORM_NOUN = new RegExp(`^(?:${packAlternation('formNouns')})$`, 'iu');
const ATTRIBUTE_OF: readonly RegExp[] = READER_PACKS.flatMap((p) => p.attributeOf ?? []);
const ATTRIBUTE_NOUNS: readonly RegExp[] = READER_PACKS.flatMap((p) => p.attributeNouns ?? []);

export function askedAttribute(question: string): string[] {
  const q = question.replace(/[’`]/g, "'").replace(/\s+/g, ' ').trim();
  for (const re of ATTRIBUTE_NOUNS) {
    const m = re.exec(q.replace(/^(\p{Lu})/u, (c) => c.toLowerCase()));
    const nouns = m?.[1]?.split(/[\s-]+/).filter((w) => /^\p{Lu}/u.test(w) && !FORM_NOUN.test(w)) ?? [];
    if (nouns.length > 0) return nouns;
  }
  for (const re of ATTRIBUTE_OF) {
    const m = re.exec(q);
    if (!m?.[1]) continue;
    // Verbs are not the attribute: notes paraphrase them ("утвердил" for "одобрил"); nor are prepositions,
    // nor the words that name the answer's form, which notes state without them ("known as …", "45%").
    const words = m[1].split(/[\s-]+/).filter((w) => w.length > 1 && !isRussianVerb(w) && !RU_PREPOSITION.test(w) && !FORM_NOUN.test(w));
    // "What is it" / "Who is he": no attribute named.
    if (words.length > 0 && words.length <= 4) return words;
  }
  return [];
}

const AUXILIARY = EN.AUXILIARY;
const DETERMINER = EN.DETERMINER;
const SUBJECT = EN.SUBJECT;
const RUSSIAN_VERB = RU.VERB_ENDING;

/** A Russian word that is probably a verb form (начнётся, выбрали, руководит), judged by its ending. */
export function isRussianVerb(word: string): boolean {
  const w = word.toLowerCase().replace(/ё/g, 'е');
  return /^[а-я-]+$/.test(w) && w.length > 4 && RUSSIAN_VERB.test(w);
}

/**
 * Words of the question that are probably its verbs: notes say "deferred" where a question asks
 * "postpone", so a verb no file uses says little about whether the notes answer. English: a word
 * shortly after an auxiliary or a relative pronoun ("did the team *postpone*", "who *chose*") and
 * not right after a determiner or preposition, or right after a subject pronoun ("I *want*"); Russian: a verb ending (начнётся, выбрали); German
 * (`lang` 'de'): a word written in lower case.
 */
export function likelyVerbs(question: string, lang?: string): Set<string> {
  // German writes every noun capitalised: a lower-case word after the first is a verb, an adjective
  // or an adverb, all of which notes paraphrase ("zurückverlangen" for "erstatten").
  if (lang === 'de') return new Set((question.match(/[\p{L}'’-]+/gu) ?? []).slice(1).filter((w) => /^\p{Ll}/u.test(w)).map((w) => w.toLowerCase()));
  const words = question.toLowerCase().replace(/ё/g, 'е').match(/[\p{L}'’-]+/gu) ?? [];
  const out = new Set<string>();
  words.forEach((w, i) => {
    if (/[а-я]/.test(w)) {
      if (isRussianVerb(w)) out.add(w);
      return;
    }
    if (i === 0 || DETERMINER.test(w) || AUXILIARY.test(w) || DETERMINER.test(words[i - 1]!)) return;
    const before = words.slice(Math.max(0, i - 3), i);
    if (before.some((b) => AUXILIARY.test(b)) || SUBJECT.test(words[i - 1]!)) out.add(w);
  });
  return out;
}

/**
 * A line that sets a number (`BatchSize = 500`) under a comment naming the counted noun ("how many
 * notifications go in one batch"): the number counts it.
 */
export function describesUnit(described: string, line: string, unit: string): boolean {
  if (!/(?::=|=(?!=)|:)\s*["']?\d/.test(line)) return false;
  return (described.match(WORDS) ?? []).some((w) => isUnit(w, unit));
}

/**
 * A setting or constant that states the counted value itself: `MAX_RETRIES = 5`, `retries: 5`,
 * `retentionDays := 45` for "how many retries / days". A line that only uses the name (a loop
 * bound) does not.
 */
export function assignsUnit(line: string, unit: string): boolean {
  for (const m of line.matchAll(/([\p{L}_][\p{L}\p{N}_.-]*)["']?\s*(?::=|=(?!=)|:)\s*["']?\d/gu)) {
    const name = m[1]!;
    const parts = name.split(/[_.-]|(?<=\p{Ll})(?=\p{Lu})/u);
    if (parts.some((p) => isUnit(p, unit))) return true;
  }
  return false;
}

/**
 * Question words that ask for a bound, and how notes state one. A question asks for "the biggest
 * file I can sync" or "the oldest Android version it runs on"; the note says "files up to 5 MB",
 * "a limit of 4 GB per site", "Android 5.1 and above", "at least 8 GB". The superlative is rarely the
 * note's own word. Each pack's `values` (upper, lower, atMost, atLeast, orMore, may); a statement needs a number after (or, for "and
 * above", before) its bound word, so "up to you" or «до конца» is none. The superlatives are kept as
 * alternations: the patterns that ask, say and ask a limit are built of them.
 */
const UPPER_WORDS = packValues('upper');
const LOWER_WORDS = packValues('lower');
const UPPER_ASKS = new RegExp(`^(?:${UPPER_WORDS})$`, 'iu');
const LOWER_ASKS = new RegExp(`^(?:${LOWER_WORDS})$`, 'iu');
const BETWEEN = String.raw`\s+(?:[\p{L}\p{M}-]+\s+){0,3}?`;
const UPPER_STATED = new RegExp(String.raw`(?<![\p{L}])(?:${packValues('atMost')})(?![\p{L}])${BETWEEN}${NUMBER}`, 'iu');
const LOWER_STATED = new RegExp(
  String.raw`${NUMBER}\s*(?:[\p{L}.]+\s+)?(?:${packValues('orMore')})(?![\p{L}])|\d\+|(?<![\p{L}])(?:${packValues('atLeast')})(?![\p{L}])${BETWEEN}${NUMBER}`,
  'iu',
);

/** Does the text state a bound with a number ("at least 25 licenses", "up to 20 MB", «не более 5»)? */
export function statesBound(text: string): boolean {
  return UPPER_STATED.test(text) || LOWER_STATED.test(text);
}

/** "How much media can one site hold?", "How many users can a workspace take?": a capacity, stated as a bound ("a limit of 4 GB"). */
const ASKS_CAPACITY = new RegExp(packValues('capacity'), 'iu');
const CAPACITY_VERBS = new RegExp(`^(?:${packValues('holds')})$`, 'iu');

/** "percent" and its kin, which notes write as a sign the word index does not keep: "40 %", "40%". */
const PERCENT_WORD = new RegExp(`^(?:${packValues('percent')})$`, 'iu');
const PERCENT_STATED = /\d\s?[%٪]|(?<![\p{L}\p{N}])%\d/u;
/** A bound stated, or a superlative of the same direction ("the biggest city" for "the largest"). */
const UPPER_SAID = new RegExp(`${UPPER_STATED.source}|(?<![\\p{L}])(?:${UPPER_WORDS})(?![\\p{L}])`, 'iu');
const LOWER_SAID = new RegExp(`${LOWER_STATED.source}|(?<![\\p{L}])(?:${LOWER_WORDS})(?![\\p{L}])`, 'iu');

/**
 * A question that asks a limit: a superlative of what someone may do ("the largest attachment I
 * can email", «максимальный размер вложения можно отправить», "die größte Datei, die ich hochladen
 * kann"). Not one about the world ("the largest city", "the longest time a certificate is good for").
 */
const ASKS_LIMIT = new RegExp(String.raw`(?<![\p{L}])(?:${UPPER_WORDS}|${LOWER_WORDS})(?![\p{L}]).{0,60}?(?<![\p{L}])(?:${packValues('may')})(?![\p{L}])`, 'iu');
export function asksLimit(question: string): boolean {
  return ASKS_LIMIT.test(question);
}

/**
 * For a word that asks for a bound (a superlative: "biggest", "oldest", «максимальный», "höchstens"):
 * how a sentence says it, with a bound ("up to 5 MB") or another superlative of its direction ("the
 * biggest city" for "the largest"); undefined for any other word.
 */
export function boundSaid(word: string): RegExp | undefined {
  if (UPPER_ASKS.test(word)) return UPPER_SAID;
  if (LOWER_ASKS.test(word)) return LOWER_SAID;
  return undefined;
}

/**
 * How a note states the bound the question word asks for ("biggest": "up to 5 MB"), if it asks for
 * one; given the question, also the verb of a question that asks a capacity ("how much … can one
 * site *hold*": "a limit of 4 GB per site"). And how it writes "percent": with the sign.
 */
export function boundStatement(word: string, question?: string): RegExp | undefined {
  if (PERCENT_WORD.test(word)) return PERCENT_STATED;
  if (UPPER_ASKS.test(word)) return UPPER_STATED;
  if (LOWER_ASKS.test(word)) return LOWER_STATED;
  if (question !== undefined && CAPACITY_VERBS.test(word) && ASKS_CAPACITY.test(question)) return UPPER_STATED;
  return undefined;
}

/**
 * The adjective after "how" (and German "wie") names the measure asked, not a word the answer
 * holds: "How *big* a discount can a student get?" is answered by "40% off", "how *expensive*" by a
 * price. Not those an answer repeats with its value: "39 years *old*", "300 m *tall*", "5 km *far*".
 */
const HOW_MEASURE = new RegExp(String.raw`(?<![\p{L}])(?:${packValues('howMeasure')})(?![\p{L}])`, 'giu');
export function measureWords(question: string): string[] {
  // Each pack's piece has one group: the adjective of whichever piece matched.
  return [...question.matchAll(HOW_MEASURE)].map((m) => m.slice(1).find((g) => g !== undefined)!.toLowerCase());
}

/** "release *process*?", "deploy *checklist*": the noun that makes a question ask for steps frames it, as "how do I" does (each pack's `processQuestion`). */
const PROCESS_QUESTIONS: readonly RegExp[] = READER_PACKS.flatMap((p) => (p.processQuestion ? [new RegExp(p.processQuestion, 'iu')] : []));
export function processWords(question: string): string[] {
  const q = question.trim();
  return PROCESS_QUESTIONS.flatMap((re) => {
    const m = re.exec(q);
    return m ? [m[1]!.toLowerCase()] : [];
  });
}
