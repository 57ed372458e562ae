import { describe, expect, it } from 'vitest';
import { askedAttribute, askedType, asksLimit, holdsType, likelyVerbs, saysWhere, statesBound } from '../../answer/answer-type.ts';
import { leansOnPrevious, STEPS_HEADING } from '../../answer/reader/candidates.ts';
import { askedNouns, describesSubject, namingForms, questionStems, taskVerb, withoutFraming } from '../../answer/reader/question.ts';
import { ANNOUNCES_LIST } from '../../answer/reader/render.ts';
import { ANAPHOR_START, statedPart } from '../../answer/reader/selection.ts';
import { matchForm } from '../../answer/reader/text.ts';
import { stemWord, tokenize } from '../../search/analyzer.ts';

const framing = (question: string) => tokenize(question, 'ru').filter((t) => questionStems('ru').has(t.term)).map((t) => t.raw.toLowerCase());
const form = (word: string) => matchForm(stemWord(word, 'ru'));

describe('the Russian reader pack', () => {
  it.each([
    ['Когда начнётся пилот?', ['когда']],
    ['Что нужно сделать, чтобы могло быть удалено?', ['что', 'нужно', 'могло']],
    ['Какой инженер выбрал базу?', ['какой']],
  ])('%s is framed by %j', (question, words) => {
    expect(framing(question)).toEqual(words);
  });

  it.each([
    ['Напомни, какой длительности был сбой?', 'какой длительности был сбой?'],
    ['Забыл, в какой день передаётся смена?', 'в какой день передаётся смена?'],
    ['не помню макс размер файла для publish', 'макс размер файла для publish'],
    ['Подскажите, как включить 2FA?', 'как включить 2FA?'],
    ['Когда напомнит календарь о встрече?', 'Когда напомнит календарь о встрече?'],
  ])('%s is read as %j', (question, read) => {
    expect(withoutFraming(question, 'ru')).toBe(read);
  });

  it('names the task of a how-to by its infinitive, which only ranks', () => {
    expect(taskVerb('Как разделить слайды?', 'ru')).toEqual({ form: form('разделить'), required: false });
    expect(taskVerb('Когда начнётся пилот?', 'ru')).toBeUndefined();
  });

  it.each([
    ['Он был восстановлен в 1991 году.', true],
    ['Однако, это не так.', true],
    ['После его смерти, империя распалась.', true],
    ['Релей перезапустился в полдень.', false],
  ])('%s leans on the sentence before: %s', (text, leans) => {
    expect(leansOnPrevious(text)).toBe(leans);
  });

  it.each([
    ['Как зовут инженера, который выбрал базу?', true],
    ['Чей отчёт утвердили?', false],
    ['Скажи, кто руководит командой?', true],
    ['Кто руководит командой?', false],
  ])('%s describes its subject: %s', (question, describes) => {
    expect(describesSubject(question)).toBe(describes);
  });

  it('matches a stem without its fleeting vowel', () => {
    expect(form('Павел')).toBe(form('Павла'));
    expect(form('конец')).toBe(form('конца'));
  });

  it('knows steps headings, openings, list announcements, conditions, naming verbs and asked nouns', () => {
    expect(['Шаги', 'Инструкция по установке', 'Как начать'].map((h) => STEPS_HEADING.test(h))).toEqual([true, true, true]);
    expect(['Например, так.', 'Многие из них закрылись.'].map((s) => ANAPHOR_START.test(s))).toEqual([true, true]);
    expect(ANNOUNCES_LIST.test('Экспортировать можно следующими способами.')).toBe(true);
    expect(statedPart('Если ваша команда состоит из одного человека, план стоит 8 $.')).not.toContain('одного человека');
    expect(namingForms('ru').has(form('называется'))).toBe(true);
    expect([...askedNouns('Какой файл в папке хранит настройки?', 'ru')]).toEqual([form('файл')]);
  });

  it.each([
    ['Пилот длится 12 недель.', 'duration', true],
    ['Встреча в пятницу.', 'date', true],
    ['Ревью назначено на 3 марта.', 'date', true],
    ['В пилоте двадцать курьеров.', 'number', true],
    ['Пилот скоро начнётся.', 'date', false],
    // The pack's `values`: how a sentence states a value.
    ['Бэкап делается ежедневно.', 'duration', true],
    ['Ответ придёт через 5 дней.', 'date', true],
    ['Доступ бесплатный.', 'money', true],
    ['Стоит 1 200 рублей.', 'money', true],
    ['Перенесли, потому что релей тормозил.', 'reason', true],
    ['Решение принимает руководитель команды.', 'person', true],
    ['Город: Казань', 'place', true],
    ['Чтобы включить, откройте настройки.', 'procedure', true],
    ['Синк — это синхронизация.', 'definition', true],
  ] as const)('%s holds a value of type %s: %s', (sentence, type, holds) => {
    expect(holdsType(sentence, { type })).toBe(holds);
  });

  it('reads its bounds, sizes and places from the pack', () => {
    expect(askedType('Какой вес у посылки?')).toEqual({ type: 'number', size: true });
    expect(statesBound('не более 5 файлов')).toBe(true);
    expect(asksLimit('Какой максимальный размер файла можно загрузить?')).toBe(true);
    expect(saysWhere('Лежит на кухне.')).toBe(true);
  });

  it.each([
    ['Какой длительности был мартовский сбой?', { type: 'duration' }],
    ['Какова продолжительность пилота?', { type: 'duration' }],
    ['Как давно Анна работает в команде?', { type: 'duration' }],
    ['Какое время жизни сессии по умолчанию?', { type: 'duration' }],
    ['Какой таймаут у запроса в секундах?', { type: 'number' }],
    ['Какое время жизни сессии, в минутах?', { type: 'duration' }],
    ['Какое ограничение на вложение в мегабайтах?', { type: 'number', size: true }],
    ['порог в миллисекундах для мемоизации', { type: 'number' }],
    // The unit names a thing, not the value's unit: «в днях недели».
    ['Какие задачи стоят в днях недели?', { type: 'entity' }],
  ] as const)('%s asks for %j', (question, type) => {
    expect(askedType(question)).toEqual(type);
  });

  it('tells the verbs of a question by its words', () => {
    expect([...likelyVerbs('Когда начнётся пилот?')]).toEqual(['начнется']);
    expect(askedAttribute('Сколько стоит подписка?')).toEqual(['подписка']);
  });
});
