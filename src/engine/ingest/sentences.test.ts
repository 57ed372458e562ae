import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SENTENCES, splitSentences } from './sentences.ts';

const pieces = (text: string) => splitSentences(text).map((s) => text.slice(s.start, s.end));

describe('sentence spans', () => {
  it('splits prose at sentence ends, keeping decimals, abbreviations before lowercase, and brackets inside', () => {
    const text =
      'Using whole-genome sequencing at 24.7-fold coverage (12.3-fold per strand), we report a methylome. ' +
      'PBMC constitute an important source for clinical blood tests, e.g. for anaemia. "Quoted findings follow here," they said! ' +
      'Is 68.4% of CpG sites methylated in these cells?';
    expect(pieces(text)).toEqual([
      'Using whole-genome sequencing at 24.7-fold coverage (12.3-fold per strand), we report a methylome.',
      'PBMC constitute an important source for clinical blood tests, e.g. for anaemia.',
      '"Quoted findings follow here," they said!',
      'Is 68.4% of CpG sites methylated in these cells?',
    ]);
  });

  it('splits Russian and Chinese, and markdown blocks: paragraphs, list items, table rows', () => {
    expect(pieces('Команда выбрала SQLite для офлайн-кэша. Решение принято в марте прошлого года.')).toEqual([
      'Команда выбрала SQLite для офлайн-кэша.',
      'Решение принято в марте прошлого года.',
    ]);
    expect(pieces('团队选择了离线缓存的数据库方案。这个决定是在去年三月做出的。')).toHaveLength(2);
    expect(pieces('सिंक सर्वर फ्रैंकफर्ट में होस्ट किए जाते हैं। संस्करण इतिहास बारह महीने तक रखा जाता है।')).toHaveLength(2);
    expect(pieces('เราคืนเงินเต็มจำนวนภายในเจ็ดวันหลังการซื้อ ใบอนุญาตเชิงพาณิชย์ไม่สามารถขอคืนเงินได้')).toHaveLength(2);
    expect(pieces('First paragraph has no final stop\n\nSecond paragraph is here too\n- a list item with several words\n- another list item with words\n| a | table | row | here |')).toEqual([
      'First paragraph has no final stop',
      'Second paragraph is here too',
      '- a list item with several words',
      '- another list item with words',
      '| a | table | row | here |',
    ]);
  });

  it('joins fragments too short to stand alone to the next span (or the last one), and returns none for one sentence', () => {
    expect(pieces('Methods: We measured the blood pressure of every patient. Results. It fell by ten points on average.')).toEqual([
      'Methods: We measured the blood pressure of every patient.',
      'Results. It fell by ten points on average.',
    ]);
    expect(pieces('One sentence only, long enough to matter here.')).toEqual([]);
    expect(pieces('A whole sentence that stands on its own two feet. Short one.')).toEqual([]);
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences('   \n\n  ')).toEqual([]);
  });

  it('caps a chunk at MAX_SENTENCES spans by joining neighbours', () => {
    const text = Array.from({ length: 100 }, (_, i) => `Sentence number ${i} says one more thing.`).join(' ');
    const spans = splitSentences(text);
    expect(spans.length).toBeLessThanOrEqual(MAX_SENTENCES);
    expect(spans.length).toBeGreaterThan(MAX_SENTENCES / 2);
    expect(text.slice(spans[0]!.start, spans.at(-1)!.end)).toBe(text);
  });

  it('spans are ordered, disjoint, trimmed, inside the text, and cover every non-space character', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.lorem({ maxCount: 12 }), fc.constantFrom('. ', '! ', '\n\n', '\n- ', '。', ' A', ' 7', '? «'), fc.string()), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const spans = splitSentences(text);
        let last = 0;
        for (const s of spans) {
          expect(s.start).toBeGreaterThanOrEqual(last);
          expect(s.end).toBeGreaterThan(s.start);
          expect(s.end).toBeLessThanOrEqual(text.length);
          expect(text[s.start]).toMatch(/\S/);
          expect(text[s.end - 1]).toMatch(/\S/);
          last = s.end;
        }
        if (spans.length > 0) {
          const outside = text.slice(0, spans[0]!.start) + spans.map((s, i) => text.slice(s.end, spans[i + 1]?.start ?? text.length)).join('');
          expect(outside.trim()).toBe('');
        }
      }),
      { numRuns: 300 },
    );
  });
});
