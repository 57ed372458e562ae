import { describe, expect, it } from 'vitest';
import { analyzeForIndex, isStopword, stemWord } from './analyzer.ts';

describe('analyzer stopwords', () => {
  it('keeps content verbs and words of time and order searchable ("make relay-dev", "before", "never")', () => {
    const terms = analyzeForIndex('Run make relay-dev before you take the app, and never get stuck the same way after that.').split(' ');
    for (const word of ['make', 'before', 'take', 'never', 'get', 'same', 'way', 'after']) {
      expect(isStopword(word)).toBe(false);
      expect(terms).toContain(stemWord(word));
    }
  });

  it('keeps Russian words of time and order searchable (после, перед, никогда, сегодня, раз)', () => {
    const terms = analyzeForIndex('После релиза и перед демо никогда не выкатываем сегодня второй раз.').split(' ');
    for (const word of ['после', 'перед', 'никогда', 'сегодня', 'раз']) expect(terms).toContain(stemWord(word));
  });

  it('still drops function words: articles, pronouns, prepositions, conjunctions, auxiliaries', () => {
    for (const word of ['the', 'a', 'of', 'and', 'is', 'were', 'they', 'which', 'и', 'в', 'на', 'что', 'он', 'был']) expect(isStopword(word)).toBe(true);
    expect(analyzeForIndex('the relay and the app')).toBe(`${stemWord('relay')} ${stemWord('app')}`);
  });
});
