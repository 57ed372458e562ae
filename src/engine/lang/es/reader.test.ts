import { describe, expect, it } from 'vitest';
import { holdsType } from '../../answer/answer-type.ts';
import { questionStems } from '../../answer/reader/question.ts';
import { tokenize } from '../../search/analyzer.ts';
import { es } from './reader.ts';

/** The words of a question the answer reader reads as framing it, not as what it asks about. */
const framing = (question: string) => tokenize(question, 'es').filter((t) => questionStems('es').has(t.term)).map((t) => t.raw.toLowerCase());

describe('the Spanish reader pack', () => {
  it.each([
    ['¿Cuándo empieza el proyecto?', ['cuándo']],
    ['¿Por qué falla la sincronización?', ['por', 'qué']],
    ['¿Cuántos usuarios caben?', ['cuántos']],
    ['El proyecto empieza hoy.', []],
  ])('%s is framed by %j', (question, words) => {
    expect(framing(question)).toEqual(words);
  });

  it('has no empty word', () => {
    expect(es.questionWords.filter((w) => w.trim() === '')).toEqual([]);
  });

  it.each([
    ['El piloto dura 2 semanas.', 'duration', true],
    ['La revisión es el 3 de marzo.', 'date', true],
    ['Mayo es un nombre.', 'date', false],
    // The pack's `values`: how a sentence gives a reason or says it costs nothing.
    ['Cambiamos porque era lento.', 'reason', true],
    ['Se ofrece gratuitamente.', 'money', true],
    ['Cambiamos.', 'reason', false],
  ] as const)('%s holds a value of type %s: %s', (sentence, type, holds) => {
    expect(holdsType(sentence, { type })).toBe(holds);
  });
});
