import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAMPLE_VAULT } from '../../../test/helpers/tmp.ts';
import { detectAll, detectAllByTinyld, fastPathAvailable } from './ngram-detect.ts';

const FIXTURES = path.resolve(import.meta.dirname, '..', '..', '..', 'test', 'fixtures');

/** Every Markdown file under a folder. */
function markdownUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
}

/** Texts of many languages and kinds: the sample vaults' notes cut into pieces, and questions in several languages. */
function texts(): string[] {
  const notes = [SAMPLE_VAULT, path.join(FIXTURES, 'ru-vault'), path.join(FIXTURES, 'zh-vault')].flatMap(markdownUnder);
  // Every third paragraph: enough of each vault's languages and kinds (lists, code, tables) at a tenth of the time.
  const pieces = notes.flatMap((n) => n.split(/\n\n+/)).filter((_, i) => i % 3 === 0).map((p) => p.slice(0, 300));
  const questions = ['obsidian-help-de.questions.json', 'obsidian-help-ru.questions.json', 'cross-language.questions.json'].flatMap(
    (f) => (JSON.parse(fs.readFileSync(path.join(FIXTURES, f), 'utf8')) as { question: string }[]).map((q) => q.question),
  );
  const mixed = [
    'où est la gare', 'Wo ist der Bahnhof? Ich möchte nach Hause gehen.', 'Dónde está la estación de tren, señor',
    'Hvor er togstasjonen? Jeg vil hjem.', 'Missä on rautatieasema?', 'Gdzie jest dworzec kolejowy?', 'Kde je nádraží?',
    'Де знаходиться вокзал? Я хочу додому.', 'Къде е гарата?', 'Ελληνικά γράμματα', 'שלום עולם', 'مرحبا بالعالم',
    'नमस्ते दुनिया', 'こんにちは世界', '你好，世界', '안녕하세요 세계', 'python json print tree', 'relay port', 'x', '',
    '  spaces   between   words  ', 'Ünïcödé àccénts ève', 'ﬁ ligature ＡＢＣ１２３ wide', '🙂 emoji 🙂 text', 'a\u0301 combining',
  ];
  return [...pieces, ...questions, ...mixed];
}

const LATIN = ['en', 'fr', 'de', 'es', 'pt', 'it', 'nl', 'sv', 'da', 'no', 'fi', 'is', 'pl', 'cs', 'sk', 'hu', 'ro', 'tr', 'lt', 'lv', 'et', 'id', 'vi', 'tl', 'af', 'ga'];
const CYRILLIC = ['ru', 'uk', 'be', 'bg', 'mk', 'sr', 'kk', 'tt', 'mn'];
const ONLY = [[], LATIN, CYRILLIC, ['de', 'en'], ['fr', 'it', 'en'], ['xx']];

describe('ngram detectAll', () => {
  it("reads tinyld's tables as installed", () => {
    expect(fastPathAvailable()).toBe(true);
  });

  it('answers as tinyld does, for texts of many languages and any set of languages', () => {
    const all = texts();
    expect(all.length).toBeGreaterThan(200);
    for (const only of ONLY) {
      for (const text of all) expect(detectAll(text, only), `${only.join(',')}: ${text.slice(0, 60)}`).toEqual(detectAllByTinyld(text, only));
    }
  });

  it('answers as tinyld does for any string, asked twice (its caches change nothing)', () => {
    const letters = fc.constantFrom(...'aeiouéèüößçñ ąłşğ абвгдеёжзыэії αβγ 日本語 한국어 ,.!?\'’-—«»“”0123456789\n\t'.split(''));
    fc.assert(
      fc.property(fc.array(letters, { maxLength: 120 }).map((cs) => cs.join('')), fc.constantFrom(...ONLY), (text, only) => {
        const expected = detectAllByTinyld(text, only);
        expect(detectAll(text, only)).toEqual(expected);
        expect(detectAll(text, only)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
