import { describe, expect, it } from 'vitest';
import { askedAttribute, askedType, hasRelativeClause, questionParts } from '../answer/answer-type.ts';
import { alternation, READER_PACKS } from './reader-packs.ts';

describe('how each language asks for a kind of value (packs\' asks)', () => {
  it('every piece is a regular expression of its own', () => {
    for (const pack of READER_PACKS) {
      for (const [cue, pieces] of Object.entries(pack.asks ?? {})) {
        for (const piece of pieces) expect(() => new RegExp(piece, 'u'), `${pack.code} ${cue}: ${piece}`).not.toThrow();
      }
    }
  });

  it('every value piece is a regular expression of its own, and no kind joins into an empty alternative', () => {
    for (const pack of READER_PACKS) {
      for (const [kind, pieces] of Object.entries(pack.values ?? {})) {
        for (const piece of pieces) expect(() => new RegExp(piece, 'u'), `${pack.code} ${kind}: ${piece}`).not.toThrow();
      }
    }
    // A kind no pack states matches nothing (an empty alternative would match every sentence).
    expect(new RegExp(`(?:${alternation([])})`, 'u').test('any sentence at all')).toBe(false);
    expect(new RegExp(`^(?:${alternation(['a', 'b'])})$`, 'u').test('b')).toBe(true);
  });

  // One question of each kind a language's pack reads, and the type it asks for.
  const table: [string, string, string][] = [
    ['en', 'How long does the trial last?', 'duration'],
    ['en', 'Who decided to use WebSockets?', 'person'],
    ['en', 'Which version added the API?', 'number'],
    ['ru', 'Сколько стоит подписка?', 'money'],
    ['ru', 'Когда начнётся пилот?', 'date'],
    ['ru', 'Какая зарплата у стажёра?', 'money'],
    ['de', 'Wie lange dauert die Probezeit?', 'duration'],
    ['de', 'Wer hat das entschieden?', 'person'],
    ['fr', "Combien de temps dure l'essai ?", 'duration'],
    ['fr', 'Pourquoi le serveur est-il lent ?', 'reason'],
    ['fr', 'Comment installer le plugin ?', 'procedure'],
    ['es', '¿Cuánto cuesta la licencia?', 'money'],
    ['es', '¿Dónde está el archivo?', 'place'],
    ['es', '¿Quién escribió el informe?', 'person'],
    ['zh', '试用期多久？', 'duration'],
    ['zh', '报告是谁写的？', 'person'],
    ['ja', '試用期間はいつまでですか', 'duration'],
    ['ja', 'ファイルはどこにありますか', 'place'],
    ['hi', 'पायलट कब शुरू होगा?', 'date'],
    ['hi', 'रिपोर्ट किसने लिखी?', 'person'],
    ['th', 'ไฟล์อยู่ที่ไหน', 'place'],
    ['th', 'ทำไมเซิร์ฟเวอร์ช้า', 'reason'],
    ['ko', '파일은 어디에 있어요?', 'place'],
    ['ko', '언제 시작해요?', 'date'],
    ['ar', 'متى يبدأ المشروع؟', 'date'],
    ['ar', 'أين الملف؟', 'place'],
    ['ar', 'من هو المدير؟', 'person'],
  ];
  it.each(table)('%s: %s asks for %s', (code, question, type) => {
    expect(READER_PACKS.some((p) => p.code === code && p.asks !== undefined)).toBe(true);
    expect(askedType(question).type).toBe(type);
  });

  it('names the kind of place or the calendar value in the languages that do, and the answer must then hold one', () => {
    for (const q of ['Which city is the office in?', 'В каком городе офис?', 'In welcher Stadt ist das Büro?']) expect(askedType(q), q).toEqual({ type: 'place', strict: true });
    for (const q of ['What year did it ship?', 'В каком году вышел релиз?', 'In welchem Jahr kam es heraus?', 'En quelle année est-il sorti ?', '¿En qué año salió?']) expect(askedType(q), q).toEqual({ type: 'date', strict: true });
  });
});

describe('how each language joins a second part and opens a relative clause', () => {
  it.each([
    ['How long did the outage last, and what was its root cause?', ['How long did the outage last', 'what was its root cause?']],
    ['Wie lange dauert die Probezeit und wer entscheidet darüber?', ['Wie lange dauert die Probezeit', 'wer entscheidet darüber?']],
    ['Когда начнётся пилот, а также сколько он продлится?', ['Когда начнётся пилот', 'сколько он продлится?']],
    // "and" inside a part joins two things of one question.
    ['Who are Maya and Priya?', ['Who are Maya and Priya?']],
  ])('%s', (question, parts) => {
    expect(questionParts(question)).toEqual(parts);
  });

  it.each([
    ['What does the library that Nadia maintains do?', true],
    ['Что делает библиотека, которую поддерживает Надя?', true],
    ['Was macht das Plugin, das Anna pflegt?', true],
    ['What does the library do?', false],
  ])('%s: a relative clause %s', (question, has) => {
    expect(hasRelativeClause(question)).toBe(has);
  });
});

describe('what a question asks of its subject and what it counts, in each language', () => {
  it.each([
    ["What is Aurora's per-seat price?", ['per', 'seat', 'price']],
    ['Каков бюджет проекта?', ['бюджет', 'проекта']],
    ['Сколько стоит подписка на Sync?', ['подписка']],
    ['Was ist der Preis von Sync?', ['Preis']],
    // The form of the answer is no attribute: "the nickname for …".
    ['What is the nickname for the relay?', []],
  ])('%s', (question, words) => {
    expect(askedAttribute(question)).toEqual(words);
  });

  it.each([
    ['How many retries does the client make?', 'retri'],
    ['Сколько планшетов купили?', 'планше'],
    ['Wie viele Mitarbeiter hat die Firma?', 'mitarbeit'],
    ['How many of the tests fail?', undefined],
    ['Сколько раз перезапускали сервер?', undefined],
  ])('%s counts %s', (question, unit) => {
    expect((askedType(question) as { unit?: string }).unit).toBe(unit);
  });
});
