import { describe, expect, it } from 'vitest';
import { readAnswer } from './reader.ts';
import { WARM_SAMPLES, warmCandidates, warmLanguages, warmReader, warmTermStats } from './warm.ts';

describe('warmReader', () => {
  // The warm-up is only worth its time if it walks the reader's answering path (types, parts, quoting).
  it.each(Object.entries(WARM_SAMPLES))('its %s sample is answered with the fact it asks', (language, { question, text }) => {
    const r = readAnswer(question, warmCandidates(text, language), { termStats: warmTermStats, language });
    expect(r.outcome).toBe('answered');
    expect(r.answer).toContain('47');
  });

  it('leaves the reader answering as before', () => {
    const { question, text } = WARM_SAMPLES.en!;
    const before = readAnswer(question, warmCandidates(text, 'en'), { termStats: warmTermStats, language: 'en' });
    warmReader(['en', 'ru', 'xx']);
    warmReader(['en']);
    expect(readAnswer(question, warmCandidates(text, 'en'), { termStats: warmTermStats, language: 'en' })).toEqual(before);
  });

  it('warms the languages of at least a tenth of the vault, at most three, English when none', () => {
    expect(warmLanguages([])).toEqual(['en']);
    expect(warmLanguages([{ lang: 'und', chunks: 40 }])).toEqual(['en']);
    expect(warmLanguages([{ lang: 'de', chunks: 900 }, { lang: 'en', chunks: 80 }, { lang: 'ru', chunks: 120 }])).toEqual(['de', 'ru']);
    expect(warmLanguages([{ lang: 'de', chunks: 30 }, { lang: 'en', chunks: 30 }, { lang: 'ru', chunks: 30 }, { lang: 'fr', chunks: 30 }])).toEqual(['de', 'en', 'ru']);
  });
});
