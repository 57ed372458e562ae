import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { citationNumbers, citationsFor, extractCitations, narrowCitations, splitSentences, stripCitationMarkers } from './citations.ts';
import type { Snippet } from './types.ts';

const snippet = (n: number): Snippet => ({
  n,
  locator: `notes/s${n}.md#L${n}-L${n + 4}`,
  path: `notes/s${n}.md`,
  start_line: n,
  end_line: n + 4,
  doc_id: `doc-${n}`,
  title: `S${n}`,
  heading: null,
  text: `text ${n}`,
  score: 1,
});
const three = [snippet(1), snippet(2), snippet(3)];

/** Prose with loose brackets, digits and punctuation around citation markers in several styles. */
const markerArb = fc.oneof(
  fc.integer({ min: 0, max: 12 }).map((n) => `[${n}]`),
  fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 })).map(([a, b]) => `[${a}, ${b}]`),
  fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 40 })).map(([a, b]) => `[${a}-${b}]`),
);
const proseArb = fc.constantFrom('alpha', 'Beta', ' ', ' ', '. ', ', ', '\n', '- ', '3.5', 'e.g. ', 'v0.9.2', '?', 'Сервер', 'т.е. ', '(', ')', '"');
const looseArb = fc.constantFrom('[', ']', '7', '-', ',');
const textArb = (withLoose: boolean) =>
  fc.array(withLoose ? fc.oneof(markerArb, proseArb, looseArb) : fc.oneof(markerArb, proseArb), { maxLength: 30 }).map((parts) => parts.join(''));
const snippetsArb = fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { maxLength: 6 }).map((ns) => ns.map(snippet));

describe('citationNumbers', () => {
  it('reads single, listed, adjacent and range markers in order of appearance', () => {
    expect(citationNumbers('A [2]. B [1, 3]; C [4][5] and D [6-8], E [10–9].')).toEqual([2, 1, 3, 4, 5, 6, 7, 8, 10, 9]);
  });

  it('caps a range at 20 numbers', () => {
    expect(citationNumbers('[1-1000]')).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('ignores brackets that are not citations', () => {
    expect(citationNumbers('a [link](x) [ ] [a1] [1\n] arr[i]')).toEqual([]);
  });
});

describe('extractCitations', () => {
  it('keeps valid markers as written and lists them in order of first appearance', () => {
    const r = extractCitations('Atlas ships in May [2]. It uses SQLite [1-3] and FTS5 [2][1].', three);
    expect(r).toEqual({ text: 'Atlas ships in May [2]. It uses SQLite [1-3] and FTS5 [2][1].', cited: [2, 1, 3], unknown: [] });
  });

  it('removes unknown markers without leaving a gap before punctuation or a double space', () => {
    expect(extractCitations('X is Y [1]. Z is W [9].', three)).toEqual({ text: 'X is Y [1]. Z is W.', cited: [1], unknown: [9] });
    expect(extractCitations('A [9] and B [1].', three).text).toBe('A and B [1].');
    expect(extractCitations('A [9][12]. B', three).text).toBe('A. B');
    expect(extractCitations('[7] Starts the line\n  [8] indented', three).text).toBe('Starts the line\n  indented');
  });

  it('leaves no empty brackets behind', () => {
    expect(extractCitations('See the note ([9]) first.', three).text).toBe('See the note first.');
    expect(extractCitations('See it ([9], [10]).', three).text).toBe('See it.');
    expect(extractCitations('See it [1], [9]; [10].', three).text).toBe('See it [1].');
  });

  it('rewrites a mixed marker to its valid numbers', () => {
    expect(extractCitations('A [1, 9] b.', three)).toEqual({ text: 'A [1] b.', cited: [1], unknown: [9] });
    expect(extractCitations('A [1][9] [2].', three)).toEqual({ text: 'A [1] [2].', cited: [1, 2], unknown: [9] });
    expect(extractCitations('A [2-5].', three)).toEqual({ text: 'A [2, 3].', cited: [2, 3], unknown: [4, 5] });
  });

  it('reports unknown numbers unique and ascending', () => {
    expect(extractCitations('A [12] b [0, 9] c [9] d [4].', three).unknown).toEqual([0, 4, 9, 12]);
  });

  it('removes a marker that removing another one forms', () => {
    expect(extractCitations('odd [[9]7] text', three)).toEqual({ text: 'odd text', cited: [], unknown: [7, 9] });
  });

  it('treats every number as unknown when there are no snippets', () => {
    expect(extractCitations('Fact [1].', [])).toEqual({ text: 'Fact.', cited: [], unknown: [1] });
  });

  it('never leaves an unknown number in the text and is idempotent', () => {
    fc.assert(
      fc.property(textArb(true), snippetsArb, (text, snippets) => {
        const known = new Set(snippets.map((s) => s.n));
        const r = extractCitations(text, snippets);
        expect(citationNumbers(r.text).every((n) => known.has(n))).toBe(true);
        expect(r.cited).toEqual([...new Set(citationNumbers(r.text))]);
        expect(r.unknown.some((n) => known.has(n))).toBe(false);
        expect(r.unknown).toEqual([...new Set(r.unknown)].sort((a, b) => a - b));
        expect(extractCitations(r.text, snippets)).toEqual({ text: r.text, cited: r.cited, unknown: [] });
      }),
    );
  });

  it('never invents numbers, reports exactly the unknown ones and keeps the prose', () => {
    fc.assert(
      fc.property(textArb(false), snippetsArb, (text, snippets) => {
        const known = new Set(snippets.map((s) => s.n));
        const written = citationNumbers(text);
        const r = extractCitations(text, snippets);
        expect(r.cited).toEqual([...new Set(written.filter((n) => known.has(n)))]);
        expect(r.unknown).toEqual([...new Set(written.filter((n) => !known.has(n)))].sort((a, b) => a - b));
        // Only spacing, list commas and emptied parentheses may change around removed markers.
        const prose = (t: string) => stripCitationMarkers(t).replace(/[^\p{L}\p{N}.!?…]/gu, '');
        expect(prose(r.text)).toBe(prose(text));
      }),
    );
  });
});

describe('citationsFor', () => {
  it('maps cited numbers to the lines to open, in citation order, skipping unknown ones', () => {
    expect(citationsFor([3, 9, 1, 3], three)).toEqual([
      { n: 3, locator: 'notes/s3.md#L3-L7', path: 'notes/s3.md', start_line: 3, end_line: 7, doc_id: 'doc-3' },
      { n: 1, locator: 'notes/s1.md#L1-L5', path: 'notes/s1.md', start_line: 1, end_line: 5, doc_id: 'doc-1' },
    ]);
  });
});

describe('narrowCitations', () => {
  // A passage of lines 115-146 (32 lines) whose line 131 states the answer.
  const file = Array.from({ length: 200 }, (_, i) => `Line ${i + 1} is about something else entirely, filler words.`);
  file[129] = '## Pricing';
  file[130] = 'The relay costs **€40 per month** for self-hosting partners.';
  file[131] = 'Support is sold apart: see the support note.';
  const passage = { n: 2, locator: 'notes/p.md#L115-L146', path: 'notes/p.md', start_line: 115, end_line: 146, doc_id: 'doc-p' };
  const lines = (doc: string) => (doc === 'doc-p' ? file : null);

  it('cites the line of a quoted one-line sentence, markdown and all', () => {
    expect(narrowCitations([passage], 'The relay costs €40 per month for self-hosting partners. [2]', lines)).toEqual([{ ...passage, start_line: 131, end_line: 131, locator: 'notes/p.md#L131-L131' }]);
  });

  it('spans the lines of every sentence citing it, and finds a paraphrase by its words', () => {
    const answer = 'Partners who self-host pay €40 a month for the relay [2]. Support is sold apart [2].';
    expect(narrowCitations([passage], answer, lines)[0]).toMatchObject({ start_line: 131, end_line: 132 });
  });

  it('keeps the whole passage when a sentence is not found, the file changed, or the lines are far apart', () => {
    expect(narrowCitations([passage], 'Quantum entanglement powers the warp drive of the relay fleet. [2]', lines)).toEqual([passage]);
    expect(narrowCitations([passage], 'The relay costs €40 per month for self-hosting partners. [2]', () => null)).toEqual([passage]);
    const far = 'The relay costs €40 per month for self-hosting partners [2]. Line 145 is about something else entirely, filler words [2].';
    expect(narrowCitations([passage], far, lines)).toEqual([passage]);
    // A citation no sentence names is left alone.
    expect(narrowCitations([passage], 'No markers here.', lines)).toEqual([passage]);
  });
});

describe('splitSentences: Chinese and Japanese', () => {
  it('ends a sentence at 。！？ though no space follows', () => {
    expect(splitSentences('备份文件保存 30 天。恢复演练每季度进行一次！要测试吗？好')).toEqual(['备份文件保存 30 天。', '恢复演练每季度进行一次！', '要测试吗？', '好']);
    expect(splitSentences('返金できます。商用ライセンスは返金できません。')).toEqual(['返金できます。', '商用ライセンスは返金できません。']);
    // A closing bracket after the stop stays with its sentence.
    expect(splitSentences('「リリースは明日です。」次の文。')).toEqual(['「リリースは明日です。」', '次の文。']);
    expect(splitSentences('هل يمكنني الاسترداد؟ نعم خلال 7 أيام.')).toEqual(['هل يمكنني الاسترداد؟', 'نعم خلال 7 أيام.']);
    // Thai ends one with a space between two Thai words; Burmese and Khmer with their own stops.
    expect(splitSentences('เราคืนเงินภายใน 7 วัน ใบอนุญาตเชิงพาณิชย์คืนเงินไม่ได้')).toEqual(['เราคืนเงินภายใน 7 วัน', 'ใบอนุญาตเชิงพาณิชย์คืนเงินไม่ได้']);
    expect(splitSentences('ပထမ။ ဒုတိယ။')).toEqual(['ပထမ။', 'ဒုတိယ။']);
    // Hindi ends a sentence with the danda.
    expect(splitSentences('सर्वर फ्रैंकफर्ट में है। इतिहास 12 महीने रखा जाता है।')).toEqual(['सर्वर फ्रैंकफर्ट में है।', 'इतिहास 12 महीने रखा जाता है।']);
  });
});

describe('splitSentences', () => {
  it('keeps the item number of a quoted title inside its sentence', () => {
    expect(splitSentences('I particularly enjoy the chapter "25. Avoid default In switch Statements". It is short.')).toEqual([
      'I particularly enjoy the chapter "25. Avoid default In switch Statements".',
      'It is short.',
    ]);
    expect(splitSentences('The release was 25. Then it ended.')).toEqual(['The release was 25.', 'Then it ended.']);
  });

  it('keeps a middle initial inside its sentence, and ends one at a lone capital after a common word', () => {
    expect(splitSentences('In 1973, Nixon named William E. Simon as the first Administrator. He served a year.')).toEqual([
      'In 1973, Nixon named William E. Simon as the first Administrator.',
      'He served a year.',
    ]);
    expect(splitSentences('Поэт Александр С. Пушкин родился в Москве. Он писал стихи.')).toEqual(['Поэт Александр С. Пушкин родился в Москве.', 'Он писал стихи.']);
    expect(splitSentences("These are special cases of Schinzel's hypothesis H. Brocard's conjecture says more.")).toEqual([
      "These are special cases of Schinzel's hypothesis H.",
      "Brocard's conjecture says more.",
    ]);
  });

  it('keeps a German date ("am 3. März 2026") and German abbreviations inside their sentence', () => {
    expect(splitSentences('Die Testphase beginnt am 3. März 2026. Zwölf Kollegen nehmen teil.')).toEqual(['Die Testphase beginnt am 3. März 2026.', 'Zwölf Kollegen nehmen teil.']);
    expect(splitSentences('Siehe Abschnitt Nr. 4 der Anleitung. Danach geht es weiter.')).toEqual(['Siehe Abschnitt Nr. 4 der Anleitung.', 'Danach geht es weiter.']);
    // A number that ends a sentence still ends it.
    expect(splitSentences('Die Version ist 3. Danach kommt 4.')).toEqual(['Die Version ist 3.', 'Danach kommt 4.']);
  });

  it('keeps citation markers with the sentence they follow', () => {
    expect(splitSentences('X is Y [1]. Z [2].')).toEqual(['X is Y [1].', 'Z [2].']);
    expect(splitSentences('X is Y. [1] Z is W. [2]')).toEqual(['X is Y. [1]', 'Z is W. [2]']);
    expect(splitSentences('X is Y.[1][2] Z.')).toEqual(['X is Y.[1][2]', 'Z.']);
    expect(splitSentences('X is Y.\n[1]')).toEqual(['X is Y. [1]']);
  });

  it('does not split abbreviations, decimals or version numbers', () => {
    expect(splitSentences('Use a local model, e.g. SmolLM2, i.e. a small one. It needs 3.5 GB with v0.9.2 installed. Done.')).toEqual([
      'Use a local model, e.g. SmolLM2, i.e. a small one.',
      'It needs 3.5 GB with v0.9.2 installed.',
      'Done.',
    ]);
    expect(splitSentences('Ask Dr. Smith vs. the team approx. twice. Then stop.')).toEqual(['Ask Dr. Smith vs. the team approx. twice.', 'Then stop.']);
  });

  it('splits at line breaks and list items, dropping the bullets', () => {
    expect(splitSentences('Steps:\n- open the app [1]\n* import a model\n2. run it [2]\n\n## Notes\n> quoted')).toEqual([
      'Steps:',
      'open the app [1]',
      'import a model',
      'run it [2]',
      'Notes',
      'quoted',
    ]);
  });

  it('splits Russian text and keeps Russian abbreviations whole', () => {
    expect(splitSentences('Сервер перезапущен в 03:00 [1]. Причина — сбой диска, т.е. отказ SSD [2]. Это было в 2026 г. в марте.')).toEqual([
      'Сервер перезапущен в 03:00 [1].',
      'Причина — сбой диска, т.е. отказ SSD [2].',
      'Это было в 2026 г. в марте.',
    ]);
    expect(splitSentences('Настройка ёмкости завершена! Что дальше? Ничего.')).toEqual(['Настройка ёмкости завершена!', 'Что дальше?', 'Ничего.']);
    // The language a term is borrowed from: the term is the end of the sentence, not a sentence of its own.
    expect(splitSentences('Основной алгоритм называется "алгоритм пометок" (от англ. "mark-and-sweep"). Он простой.')).toEqual([
      'Основной алгоритм называется "алгоритм пометок" (от англ. "mark-and-sweep").',
      'Он простой.',
    ]);
  });

  it('ends a sentence after closing quotes and continues it before a lower-case word', () => {
    expect(splitSentences('He wrote "ship it." Then he left… and came back.')).toEqual(['He wrote "ship it."', 'Then he left… and came back.']);
  });

  it('returns nothing for blank text or punctuation alone', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences('  \n --- \n . ')).toEqual([]);
  });

  it('keeps every citation marker exactly once, in order', () => {
    fc.assert(
      fc.property(textArb(true), (text) => {
        const sentences = splitSentences(text);
        expect(citationNumbers(sentences.join('\n'))).toEqual(citationNumbers(text));
        for (const s of sentences) expect(s).toBe(s.trim());
        expect(sentences.every((s) => s.length > 0)).toBe(true);
      }),
    );
  });
});
