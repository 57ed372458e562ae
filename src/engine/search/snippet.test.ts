import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldText, unspacedWords } from './analyzer.ts';
import { highlightSnippet, snippetWords, wordMatches } from './snippet.ts';
import { wordEnd } from './word-chars.ts';

describe('highlightSnippet', () => {
  it('marks words whose stem matches, in their written form', () => {
    expect(highlightSnippet('We indexed the notes while indexing.', ['index'])).toBe('We «indexed» the notes while «indexing».');
    expect(highlightSnippet('Настройка синхронизации', ['настро'])).toBe('«Настройка» синхронизации');
  });

  it('centres on the densest region of a long text', () => {
    const text = `${'filler words here. '.repeat(40)}the relay outage lasted 47 minutes${' more filler.'.repeat(40)}`;
    const s = highlightSnippet(text, ['relay', 'outag'], 80);
    expect(s).toMatch(/^….*«relay» «outage».*…$/);
    expect(s.length).toBeLessThanOrEqual(80 + 2 + 4);
  });

  it('marks a Chinese or Japanese word inside a run written without spaces', () => {
    expect(highlightSnippet('购买后七天内，我们提供全额退款。', ['退款'])).toBe('购买后七天内，我们提供全额«退款»。');
    expect(highlightSnippet('購入後7日以内であれば全額返金いたします。', ['返金'])).toBe('購入後7日以内であれば全額«返金»いたします。');
    expect(highlightSnippet('동기화 서버는 프랑크푸르트에 있습니다.', ['서버'])).toBe('동기화 «서버는» 프랑크푸르트에 있습니다.');
    // After a digit too, as the analyzer splits the run.
    expect(highlightSnippet('7日以内であれば全額返金いたします。', ['返金'])).toBe('7日以内であれば全額«返金»いたします。');
  });

  it('supports prefix terms and never throws', () => {
    expect(highlightSnippet('synapsis synapse', ['synap*'])).toBe('«synapsis» «synapse»');
    fc.assert(fc.property(fc.string(), fc.array(fc.string()), (t, q) => void highlightSnippet(t, q)));
  });

  it('finds and marks the words the analyzer\'s word pattern finds, for any text (fast-check)', () => {
    const words = ['index', 'Indexing', 'INDEXED', 'relay', 'Relays', 'outage', 'синхронизации', 'Настройка', 'ёлка', 'café', 'Éclair', 'über', '日本語', '全额退款', 'ひらがなカタカナ', 'हिन्दी', 'เงินเต็ม', 'e\u0301clair', '𝒜bc', '\u{1F642}relay', 'a\uD800b', 'K\u212Aab', 'retry_sync', 'x2', '7'];
    const word = fc.oneof(fc.constantFrom(...words), fc.string({ minLength: 1, maxLength: 8 }), fc.string({ minLength: 1, maxLength: 6, unit: 'binary' }));
    const sep = fc.constantFrom(' ', '  ', '. ', ', ', '\n', '-', '—', '\u00a0');
    const terms = fc.array(fc.constantFrom('index', 'relay', 'outag', 'синхрон', 'настро', 'елк', 'cafe', 'eclair', 'uber', 'x2', 'synap*', 'ind*', 'рел*'), { maxLength: 4 });
    fc.assert(
      fc.property(fc.array(fc.tuple(word, sep), { maxLength: 60 }), terms, (parts, queryTerms) => {
        const text = parts.map(([w, s]) => w + s).join('');
        expect(snippetWords(text, queryTerms)).toEqual(referenceWords(text, queryTerms));
      }),
      { numRuns: 500 },
    );
  });

  it('finds word ends exactly where the analyzer pattern does (fast-check)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30, unit: fc.oneof(fc.constantFrom('a', 'Z', '_', '7', ' ', 'é', 'ё', '日', '\uD835\uDC9C', '\uD800', '\uDC00', '\u212A', '\u0301'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })) }), (text) => {
        const ends = [...text.matchAll(/[\p{L}\p{M}\p{N}_]+/gu)].map((m) => [m.index, m.index + m[0].length]);
        for (const [start, end] of ends) expect(wordEnd(text, start!)).toBe(end);
      }),
      { numRuns: 500 },
    );
  });
});

/** The words and their marks as highlightSnippet first found them, with the word pattern (the scan must agree). */
function referenceWords(text: string, queryTerms: readonly string[]): { start: number; end: number; hit: boolean }[] {
  const terms = new Set(queryTerms.filter((t) => !t.endsWith('*')));
  const prefixes = queryTerms.filter((t) => t.endsWith('*')).map((t) => t.slice(0, -1));
  const initials = new Set([...terms, ...prefixes].map((t) => t.charAt(0)));
  const hit = (w: string) => {
    const c = w.charAt(0);
    if (!initials.has(c.toLowerCase()) && !initials.has(foldText(c).toLowerCase())) return false;
    return wordMatches(w, terms, prefixes);
  };
  // A run of Chinese or Japanese is the words the word breaker finds in it.
  return [...text.matchAll(/[\p{L}\p{M}\p{N}_]+/gu)].flatMap((m) =>
    /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u.test(m[0]) && m[0].length > 1
      ? unspacedWords(m[0]).map((w) => ({ start: m.index + w.index, end: m.index + w.index + w.word.length, hit: hit(w.word) }))
      : [{ start: m.index, end: m.index + m[0].length, hit: hit(m[0]) }],
  );
}
