import { describe, expect, it } from 'vitest';
import { askedType, asksLimit, holdsType, measureWords, statesBound } from '../../answer/answer-type.ts';
import { STEPS_HEADING } from '../../answer/reader/candidates.ts';
import { askedNouns, namingForms, POINTING, questionStems } from '../../answer/reader/question.ts';
import { ANNOUNCES_LIST } from '../../answer/reader/render.ts';
import { statedPart } from '../../answer/reader/selection.ts';
import { matchForm } from '../../answer/reader/text.ts';
import { stemWord, tokenize } from '../../search/analyzer.ts';

const framing = (question: string) => tokenize(question, 'de').filter((t) => questionStems('de').has(t.term)).map((t) => t.raw.toLowerCase());
const form = (word: string) => matchForm(stemWord(word, 'de'));

describe('the German reader pack', () => {
  it.each([
    ['Wann beginnt das Projekt?', ['wann']],
    ['Wie viele Wochen Elternzeit gibt es?', ['wie', 'viele', 'gibt']],
    ['Womit synchronisiert man Notizen?', ['womit']],
  ])('%s is framed by %j', (question, words) => {
    expect(framing(question)).toEqual(words);
  });

  it('knows steps headings, list announcements, conditions, naming verbs, demonstratives and asked nouns', () => {
    expect(['Schritte', 'Anleitung', 'Einrichtung'].map((h) => STEPS_HEADING.test(h))).toEqual([true, true, true]);
    expect(['Die Schritte sind wie folgt.', 'Es gibt folgende Möglichkeiten.'].map((s) => ANNOUNCES_LIST.test(s))).toEqual([true, true]);
    expect(statedPart('Wenn du 2 Geräte hast, kostet es 5 €.')).not.toContain('2 Geräte');
    expect(namingForms('de').has(form('heißt'))).toBe(true);
    expect([...'Diese Datei wird synchronisiert.'.matchAll(POINTING)].map((m) => m[1])).toEqual(['Datei']);
    expect([...askedNouns('Welche Datei wird synchronisiert?', 'de')]).toEqual([form('datei')]);
  });

  it.each([
    ['Es dauert drei Wochen.', 'duration', true],
    ['Am Freitag.', 'date', true],
    ['Im Oktober.', 'date', true],
    ['Es sind zwölf Kuriere.', 'number', true],
    // The pack's `values`: how a sentence states a value.
    ['Die Sicherung läuft täglich.', 'duration', true],
    ['Antwort innerhalb von 5 Tagen.', 'date', true],
    ['Der Zugang ist kostenlos.', 'money', true],
    ['Wir wechselten, weil es zu langsam war.', 'reason', true],
    ['Sie arbeitet im Büro in der Altstadt.', 'place', true],
    ['Um es zu ändern, öffne die Einstellungen.', 'procedure', true],
  ] as const)('%s holds a value of type %s: %s', (sentence, type, holds) => {
    expect(holdsType(sentence, { type })).toBe(holds);
  });

  it('reads its bounds, sizes and measures from the pack', () => {
    expect(askedType('Wie groß ist die Datei?')).toEqual({ type: 'number', size: true });
    expect(statesBound('höchstens 3 Geräte')).toBe(true);
    expect(asksLimit('Was ist die größte Datei, die ich hochladen kann?')).toBe(true);
    expect(holdsType('Es kostet 5 € pro Monat.', { type: 'money', rate: true })).toBe(true);
    expect(measureWords('Wie teuer ist das?')).toEqual(['teuer']);
  });
});
