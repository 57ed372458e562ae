import { describe, expect, it } from 'vitest';
import { askedAttribute } from '../answer-type.ts';
import { withoutContractions } from './question.ts';

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
