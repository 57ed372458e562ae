import { describe, expect, it } from 'vitest';
import { readAnswer } from './reader.ts';
import { detectorLoaded } from '../lang/ngram-detect.ts';
import { WARM_SAMPLES, detectorWanted, warmCandidates, warmDetector, warmLanguages, warmReader, warmTermStats } from './warm.ts';

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

  it.each([
    [[], false],
    [[{ lang: 'en', chunks: 5000 }, { lang: 'ru', chunks: 3000 }, { lang: 'und', chunks: 900 }], false],
    // Obsidian's help in all its languages: German is a few percent of it.
    [[{ lang: 'en', chunks: 9000 }, { lang: 'de', chunks: 300 }], true],
    // One German chunk in 10,000 English ones is a misread name or list, not a language of the vault.
    [[{ lang: 'en', chunks: 10_000 }, { lang: 'de', chunks: 1 }], false],
    [[{ lang: 'zh', chunks: 2 }], true],
  ] as const)('wants the language detector for %j: %s', (counts, wanted) => {
    expect(detectorWanted(counts)).toBe(wanted);
  });

  it('loads the language detector ahead of the first question that needs it', () => {
    // Nothing above asked it (English and Russian are told without it; each test file has its own modules).
    expect(detectorLoaded()).toBe(false);
    warmDetector();
    expect(detectorLoaded()).toBe(true);
    warmDetector();
    expect(detectorLoaded()).toBe(true);
  });
});
