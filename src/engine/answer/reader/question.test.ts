import { describe, expect, it } from 'vitest';
import { askedAttribute } from '../answer-type.ts';
import { readAnswer, readerCandidates } from '../reader.ts';
import type { Snippet } from '../types.ts';
import { borrowedWord, withoutContractions, withQuestionWordsSpelled } from './question.ts';

describe('withoutContractions', () => {
  it.each([
    ["who's lumen labs' general counsel", 'who is lumen labs\' general counsel'],
    ["What's the start date", 'What is the start date'],
    ['What’s the start date', 'What is the start date'],
    ["whatever we're calling it internally", 'whatever we are calling it internally'],
    ["I've lost it and you'll see why I'm asking", 'I have lost it and you will see why I am asking'],
    // A possessive stays, and so does a negation (its "not" would be a function word).
    ["Before Kestrel's general availability", "Before Kestrel's general availability"],
    ["why doesn't the brain clear it out", "why doesn't the brain clear it out"],
    ["why won't obsidian accept it", "why won't obsidian accept it"],
  ])('%s → %s', (question, written) => {
    expect(withoutContractions(question)).toBe(written);
    expect(withoutContractions(question, 'en')).toBe(written);
  });

  it('leaves other languages as written', () => {
    expect(withoutContractions("Qu'est-ce qu'il's fait", 'fr')).toBe("Qu'est-ce qu'il's fait");
  });

  it('lets the asked attribute of "who\'s the …" be read', () => {
    expect(askedAttribute("who's lumen labs' general counsel")).toEqual([]);
    expect(askedAttribute(withoutContractions("who's lumen labs' general counsel"))).toEqual(['general', 'counsel']);
  });
});

describe('a misspelled question word', () => {
  // The vault holds «почем» and «котором» as words of their own; no other word of these questions.
  const stats = (terms: readonly string[]) => new Map(terms.map((t) => [t, { idf: 1, df: /^(?:поч|котор)/.test(t) ? 3 : 0 }]));
  it.each([
    ['сколко дней на возврат денег', 'ru', 'сколько дней на возврат денег'],
    ['Сколко стоит подписка?', 'ru', 'Сколько стоит подписка?'],
    ['Wehre is Tomás based?', 'en', 'Where is Tomás based?'],
    ['waht is the port', 'en', 'what is the port'],
    // Words of their own, held by the vault, or too short to tell.
    ['почем нынче подписка', 'ru', 'почем нынче подписка'],
    ['в котором часу встреча', 'ru', 'в котором часу встреча'],
    ['Whose note is the whole plan in?', 'en', 'Whose note is the whole plan in?'],
  ])('%s (%s) reads as %s', (question, lang, read) => {
    expect(withQuestionWordsSpelled(question, lang, stats)).toBe(read);
  });

  it('is read with the asked kind of value and not as a word the files never mention', () => {
    const notes = [{ n: 1, locator: 'r.md#L1-L2', path: 'r.md', start_line: 1, end_line: 2, doc_id: 'r', title: 'Возврат', heading: null, text: 'Возврат денег возможен в течение 14 дней после покупки.', score: 1 }];
    const termStats = (terms: readonly string[]) => new Map(terms.map((t) => [t, { idf: 2, df: /^сколк/.test(t) ? 0 : 3 }]));
    const r = readAnswer('сколко дней на возврат денег', readerCandidates(notes, 'ru'), { termStats, language: 'ru' });
    expect(r.unknown).toEqual([]);
    expect(r.parts[0]!.type).toBe('duration');
    expect(r.answer).toContain('14 дней');
  });
});

describe('a word borrowed from English and written in Cyrillic', () => {
  it.each([
    ['kafk', 'kafka', true],
    ['kafku', 'kafka', false],
    ['batch', 'batch', true],
    ['batcha', 'batch', true],
    ['sms', 'sms', true],
    ['doker', 'docker', true],
    ['obsidiana', 'obsidian', true],
    // Too short to tell, or another word.
    ['ma', 'map', false],
    ['kot', 'kotlin', false],
    ['pusk', 'push', false],
  ])('%s is %s: %s', (latin, word, borrowed) => {
    expect(borrowedWord(latin, word)).toBe(borrowed);
  });

  it('is read as the word the notes write, and held as fully as it', () => {
    const text = 'Kafka отклонили, потому что её эксплуатация слишком тяжела для команды из трёх человек.';
    const notes = [{ n: 1, locator: 'd.md#L1-L2', path: 'd.md', start_line: 1, end_line: 2, doc_id: 'd', title: 'Выбор очереди', heading: 'Почему не Kafka', text, score: 1 }];
    const held = new Set(['kafka', 'отклон', 'эксплуатац', 'тяжел', 'команд', 'выбор', 'очеред']);
    const termStats = (terms: readonly string[]) => new Map(terms.map((t) => [t, { idf: 2, df: held.has(t) ? 3 : 0 }]));
    const r = readAnswer('почему отказались от кафки', readerCandidates(notes, 'ru'), { termStats, language: 'ru' });
    expect(r.spelled).toEqual({ кафки: 'Kafka' });
    expect(r.outcome).toBe('answered');
    expect(r.answer).toContain('Kafka отклонили');
    // Read with English's pack, the word stays one no file holds.
    expect(readAnswer('почему отказались от кафки', readerCandidates(notes, 'ru'), { termStats, language: 'en' }).spelled).toBeUndefined();
  });
});

describe('a question that opens with a phrase that only frames it', () => {
  const snippet = (n: number, text: string, title: string): Snippet => ({ n, locator: `n${n}.md#L1-L5`, path: `n${n}.md`, start_line: 1, end_line: 5, doc_id: `d${n}`, title, heading: null, text, score: 0.5 });
  // No note holds "remind" or «напомни»: read as asked, they would be words "your files never mention".
  const termStats = (terms: readonly string[]) => new Map(terms.map((t) => [t, /^(?:remind|напомн)/.test(t) ? { idf: 0, df: 0 } : { idf: 2, df: 3 }]));

  it.each([
    ['en', 'Remind me, when does the relay pilot start?', 'The relay pilot starts on 14 March 2026 in Valencia.', 'Relay pilot'],
    ['ru', 'Напомни, когда стартует пилот релея?', 'Пилот релея стартует 14 марта 2026 года в Валенсии.', 'Пилот релея'],
  ])('is read without it (%s)', (language, question, fact, title) => {
    const r = readAnswer(question, readerCandidates([snippet(1, fact, title), snippet(2, 'Themes change how notes look. Темы меняют вид заметок.', 'Themes')], language), { termStats, language });
    expect(r.unknown).toEqual([]);
    expect(r.outcome).not.toBe('not_found');
    expect(r.answer.startsWith(fact)).toBe(true);
  });
});
