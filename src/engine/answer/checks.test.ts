import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAnswer, tidyAnswer, contentTerms, isAbstention, supportedShare } from './checks.ts';
import type { Snippet } from './types.ts';

const snippet = (n: number, text: string): Snippet => ({
  n,
  locator: `notes/s${n}.md#L1-L3`,
  path: `notes/s${n}.md`,
  start_line: 1,
  end_line: 3,
  doc_id: `doc-${n}`,
  title: `S${n}`,
  heading: null,
  text,
  score: 1,
});

const snippets = [
  snippet(1, 'The relay outage on 2026-04-02 lasted 47 minutes. The sync service restarted automatically after the disk filled up.'),
  snippet(2, 'Alice leads the Atlas project. Atlas migrates the notes index to SQLite FTS5 by the end of May.'),
  snippet(3, 'Сервер синхронизации перезапустили в 03:00 после переполнения диска. Настройка резервного копирования изменена.'),
];

describe('contentTerms', () => {
  it('stems words, drops stopwords, markers and framing words, and keeps numbers as written', () => {
    expect(contentTerms('According to the sources, the outage lasted 47 minutes on 2026-04-02 [1].')).toEqual(['outag', 'last', '47', 'minut', '2026', '04', '02']);
    expect(contentTerms('Настройку ёмкости изменили')).toEqual(['настро', 'емкост', 'измен']);
  });
});

describe('isAbstention', () => {
  it('recognises English abstentions and meta sentences', () => {
    for (const s of [
      'The sources do not say when the migration finished.',
      "The snippets don't mention a deadline [2].",
      'This is not found in your files.',
      'I don’t know.',
      'There is no information about the budget.',
      'None of the sources mention Bob.',
      'Your notes do not cover this topic.',
    ])
      expect(isAbstention(s), s).toBe(true);
  });

  it('recognises Russian abstentions', () => {
    for (const s of ['Источники не содержат сведений о сроках.', 'В ваших файлах это не найдено.', 'Не могу ответить на этот вопрос.', 'Нет информации о бюджете.', 'В заметках не упоминается Боб.'])
      expect(isAbstention(s), s).toBe(true);
  });

  it('does not mistake a negative claim about files for an abstention', () => {
    for (const s of ['The backup files do not include the database [1].', 'No data was lost during the outage.', 'Файл не содержит пароля.', 'The relay did not restart.'])
      expect(isAbstention(s), s).toBe(false);
  });
});

describe('checkAnswer', () => {
  it('approves an answer whose every claim cites a snippet that says it', () => {
    const r = checkAnswer('The relay outage lasted 47 minutes on 2026-04-02 [1]. Alice leads the Atlas project [2].', snippets);
    expect(r.verdict).toBe('APPROVE');
    expect(r.feedback).toBe('');
    expect(r.decidedBy).toBe('deterministic');
    expect(r.sentences.map((s) => [s.citations, s.claim, s.supported, s.reason])).toEqual([
      [[1], true, true, null],
      [[2], true, true, null],
    ]);
    expect(r.sentences[0]!.overlap).toBe(1);
  });

  it('approves a Russian answer through the Russian stemmer', () => {
    const r = checkAnswer('Сервер синхронизации перезапустили после переполнения диска [3]. Настройку резервного копирования изменили [3].', snippets);
    expect(r.verdict).toBe('APPROVE');
    expect(r.sentences.every((s) => s.claim && s.supported)).toBe(true);
  });

  it('asks to revise the one sentence that has no citation', () => {
    const r = checkAnswer('Alice leads the Atlas project [2]. Atlas moves the index to SQLite FTS5 by May.', snippets);
    expect(r.verdict).toBe('REVISE');
    expect(r.sentences[1]).toMatchObject({ claim: true, supported: false, citations: [], reason: 'no citation' });
    expect(r.feedback).toBe('Sentence 2 "Atlas moves the index to SQLite FTS5 by May." has no citation: cite the snippet that supports it or remove it.');
  });

  it('asks to revise a sentence whose cited snippet says something else', () => {
    const r = checkAnswer('Alice leads the Atlas project [2]. The quarterly budget doubled for marketing campaigns [1].', snippets);
    expect(r.verdict).toBe('REVISE');
    const bad = r.sentences[1]!;
    expect(bad.supported).toBe(false);
    expect(bad.overlap).toBeLessThan(0.3);
    expect(bad.reason).toBe(`cited snippet does not share content with the sentence (overlap ${bad.overlap.toFixed(2)})`);
    expect(r.feedback).toMatch(/^Sentence 2 "The quarterly budget.*" cites \[1\], which does not say this \(overlap 0\.\d\d\)/);
  });

  it('requires numbers to match as written', () => {
    const right = checkAnswer('The relay outage lasted 47 minutes [1].', snippets, { minOverlap: 1 });
    const wrong = checkAnswer('The relay outage lasted 90 minutes [1].', snippets, { minOverlap: 1 });
    expect(right.verdict).toBe('APPROVE');
    expect(wrong.verdict).toBe('REJECT');
    expect(wrong.sentences[0]!.overlap).toBe(0.8);
  });

  it('rejects an answer that only abstains', () => {
    const en = checkAnswer('The sources do not say when the budget was approved.', snippets);
    expect(en.verdict).toBe('REJECT');
    expect(en.sentences[0]).toMatchObject({ claim: false, supported: true, reason: null });
    expect(en.feedback).toMatch(/abstains/);
    expect(checkAnswer('Источники не содержат сведений о бюджете.', snippets).verdict).toBe('REJECT');
  });

  it('rejects an answer that supports none of its claims', () => {
    const r = checkAnswer('The quarterly budget doubled for marketing campaigns. Bob approved the hiring plan yesterday [2].', snippets);
    expect(r.verdict).toBe('REJECT');
    expect(r.feedback.split('\n')).toHaveLength(3);
  });

  it('rejects an empty answer', () => {
    expect(checkAnswer('', snippets).verdict).toBe('REJECT');
  });

  it('checks only claims: short fragments and abstentions beside a supported claim pass', () => {
    const r = checkAnswer('In short:\n- Alice leads the Atlas project [2].\nThe sources do not say who else works on it.', snippets);
    expect(r.verdict).toBe('APPROVE');
    expect(r.sentences.map((s) => s.claim)).toEqual([false, true, false]);
  });

  it('asks to cite when an answer makes no claim and cites nothing, and approves it when it cites', () => {
    expect(checkAnswer('Yes, in May.', snippets).verdict).toBe('REVISE');
    expect(checkAnswer('Yes, in May [2].', snippets).verdict).toBe('APPROVE');
  });

  it('ignores citations of snippets that do not exist', () => {
    const r = checkAnswer('Alice leads the Atlas project [7].', snippets);
    expect(r.sentences[0]).toMatchObject({ citations: [], reason: 'no citation' });
    expect(r.verdict).toBe('REJECT');
  });

  it('is deterministic and consistent with its sentences', () => {
    const wordArb = fc.constantFrom('Alice', 'leads', 'Atlas', 'project', 'outage', '47', 'minutes', 'budget', 'the', 'сервер', 'диска', 'sources', 'do', 'not', 'say');
    const sentenceArb = fc
      .tuple(fc.array(wordArb, { minLength: 1, maxLength: 8 }), fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 2 }), fc.constantFrom('.', '!', '?', '\n'))
      .map(([words, cites, end]) => `${words.join(' ')}${cites.map((n) => ` [${n}]`).join('')}${end}`);
    fc.assert(
      fc.property(fc.array(sentenceArb, { maxLength: 6 }), fc.double({ min: 0, max: 1, noNaN: true }), (parts, minOverlap) => {
        const answer = parts.join(' ');
        const r = checkAnswer(answer, snippets, { minOverlap });
        expect(checkAnswer(answer, snippets, { minOverlap })).toEqual(r);
        const claims = r.sentences.filter((s) => s.claim);
        for (const s of r.sentences) {
          expect(s.overlap).toBeGreaterThanOrEqual(0);
          expect(s.overlap).toBeLessThanOrEqual(1);
          expect(s.citations.every((n) => n >= 1 && n <= 3)).toBe(true);
          if (s.supported) expect(!s.claim || (s.citations.length > 0 && s.overlap >= minOverlap)).toBe(true);
          // The only other way a cited, overlapping claim fails: a number the cited snippets do not hold.
          if (s.claim && s.citations.length > 0 && s.overlap >= minOverlap && !s.supported) expect(s.reason).toMatch(/not in the cited snippet/);
        }
        if (r.verdict === 'APPROVE') expect(claims.every((s) => s.supported)).toBe(true);
        if (claims.length > 0 && r.verdict === 'REJECT') expect(claims.some((s) => s.supported)).toBe(false);
        expect(r.feedback === '').toBe(r.verdict === 'APPROVE');
      }),
    );
  });
});

describe('supportedShare', () => {
  it('is supported claims over claims, and 1 without claims', () => {
    const r = checkAnswer('Alice leads the Atlas project [2]. The quarterly budget doubled for marketing campaigns.', snippets);
    expect(supportedShare(r.sentences)).toBe(0.5);
    expect(supportedShare(checkAnswer('I don’t know.', snippets).sentences)).toBe(1);
  });
});

describe('checkAnswer with numbers', () => {
  const facts: Snippet[] = [
    { n: 1, locator: 'a.md#L1-L2', path: 'a.md', start_line: 1, end_line: 2, doc_id: 'a.md', title: 'A', heading: null, text: 'The Merkle tree uses a fan-out of 16.', score: 1 },
  ];

  it('rejects a claim whose number the cited snippet does not hold, however many words it shares', () => {
    const wrong = checkAnswer('The Merkle tree uses a fan-out of 40 [1].', facts);
    expect(wrong.verdict).toBe('REJECT');
    expect(wrong.sentences[0]!.reason).toBe('40 is not in the cited snippet');
    expect(wrong.feedback).toMatch(/use the numbers the snippet gives/);
    expect(checkAnswer('The Merkle tree uses a fan-out of 16 [1].', facts).verdict).toBe('APPROVE');
  });

  it('reads a label that names the cited note as its source, not as a claim: a date in the title is not a number to find', () => {
    const record: Snippet[] = [
      { n: 1, locator: 'd.md#L16-L16', path: 'decisions/2026-04-02 Transport protocol.md', start_line: 16, end_line: 16, doc_id: 'd.md', title: '2026-04-02 Transport protocol', heading: null, text: '**Decider:** [[Tomás Herrera]]', score: 1 },
    ];
    const labelled = checkAnswer('2026-04-02 Transport protocol — Decider: Tomás Herrera. [1]', record);
    expect(labelled.verdict).toBe('APPROVE');
    // Another note's name in front is a claim like any other: its date must be in the passage.
    const other = checkAnswer('2026-05-04 Telemetry opt-in — Decider: Tomás Herrera. [1]', record);
    expect(other.verdict).not.toBe('APPROVE');
    expect(other.sentences[0]!.reason).toMatch(/not in the cited snippet/);
  });
});

describe('tidyAnswer', () => {
  const facts: Snippet[] = [
    { n: 1, locator: 'a.md#L1-L2', path: 'a.md', start_line: 1, end_line: 2, doc_id: 'a.md', title: 'A', heading: null, text: 'The Merkle tree uses a fan-out of 16.', score: 1 },
    { n: 2, locator: 'b.md#L1-L2', path: 'b.md', start_line: 1, end_line: 2, doc_id: 'b.md', title: 'B', heading: null, text: 'The relay listens on port 7443.', score: 1 },
  ];

  it('drops repeated sentences and cites an uncited claim that one snippet clearly holds, reporting both', () => {
    const t = tidyAnswer('The relay listens on port 7443. The relay listens on port 7443. Merkle tree fan-out is 16 [1]. Cats like warm windows.', facts);
    expect(t.repeated).toBe(1);
    expect(t.attributed).toEqual([[1, 2]]);
    expect(t.text).toBe('The relay listens on port 7443. [2] Merkle tree fan-out is 16 [1]. Cats like warm windows.');
    expect(checkAnswer(t.text, facts).sentences.filter((s) => s.claim).map((s) => s.supported)).toEqual([true, true, false]);
  });
});
