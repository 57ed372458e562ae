import { describe, expect, it } from 'vitest';
import { isStopword, stemWord, tokenize } from '../../search/analyzer.ts';
import { definesAsked, holdsShare, namesNewTerm, opensPassage, sentenceWords, valueNear } from './sentence-signals.ts';
import { matchForm } from './text.ts';

/** The question's content words as the reader matches them. */
const askedOf = (question: string, lang = 'en') => {
  const terms = new Set(tokenize(question, lang).filter((t) => !isStopword(t.raw, lang)).map((t) => matchForm(t.term)));
  return (term: string) => terms.has(term);
};
const form = (word: string, lang = 'en') => matchForm(stemWord(word, lang));

describe("a sentence's words", () => {
  it('marks numbers, code spans and names after the first word as values', () => {
    const words = sentenceWords('Run `make relay-dev` on Monday at 10:00 with Maya.', 'en');
    const values = words.filter((w) => w.value).map((w) => w.term);
    expect(values).toEqual(expect.arrayContaining([form('make'), form('monday'), form('maya')]));
    expect(values.some((v) => /\d/.test(v))).toBe(true);
    expect(words.find((w) => w.term === form('run'))!.value).toBe(false);
  });
});

describe('a value near a question word', () => {
  it.each([
    // Words between the nearest question word and value, function words included: 5, 1, none, 2, 0.
    ['The Merkle tree uses a fan-out of 16.', 'How many children does each node of the Merkle tree have?', 1 / 6],
    ['Merkle fan-out: 16', 'merkle fan-out', 1 / 2],
    ['Replicas find missing operations with a Merkle tree.', 'merkle tree fanout', 0],
    ['Handover happens every Monday at 10:00 CET.', 'When is the handover?', 1 / 3],
    ['The budget is 420 000 ₽ a month.', 'What is the budget?', 1 / 2],
    ['Budget: 420 000 ₽', 'What is the budget?', 1],
  ])('%s for %s', (sentence, question, score) => {
    expect(valueNear(sentenceWords(sentence, 'en'), askedOf(question))).toBeCloseTo(score, 3);
  });

  it.each([
    ['Handover happens every Monday at 10:00 CET.', 'When is the handover?', 1 / 5],
    ['Handover happens every Monday.', 'When is the handover?', 0],
  ])('with numbers only: %s for %s', (sentence, question, score) => {
    expect(valueNear(sentenceWords(sentence, 'en'), askedOf(question), true)).toBeCloseTo(score, 3);
  });

  it('ignores a value the question states itself', () => {
    expect(valueNear(sentenceWords('Error AUR-1102 is common.', 'en'), askedOf('What is AUR-1102?'))).toBe(0);
  });
});

describe('a sentence that names something the question does not', () => {
  const termsOf = (question: string, lang = 'en') => tokenize(question, lang).filter((t) => !isStopword(t.raw, lang)).map((t) => matchForm(t.term));
  it.each([
    ['Which literalinclude option makes Sphinx begin the code just after a marker?', 'I solved this with the Sphinx literalinclude directive.', false],
    ['Which literalinclude option makes Sphinx begin the code just after a marker?', 'Use the `start-after` option of literalinclude.', true],
    ['what did I grant before my postgres role could see the tables', 'I wanted to grant a PostgreSQL user read-only access to the tables.', false],
    ['who do principal programmers report to', 'All Principals report directly to our CTO.', true],
    ['Which database did Maya choose?', 'Maya chose SQLite for the device store.', true],
    ['Which plugin sorts my notes with AI?', 'Automatically organize notes using AI.', false],
    ['Какой формат использует Obsidian для холстов?', 'Obsidian сохраняет холсты в открытом формате JSON Canvas.', true],
    ['Какой формат использует Obsidian для холстов?', 'Obsidian сохраняет холсты в файлах.', false],
  ])('%s — %s', (question, sentence, named) => {
    const lang = /[а-я]/i.test(question) ? 'ru' : 'en';
    expect(namesNewTerm(sentence, sentenceWords(sentence, lang), termsOf(question, lang))).toBe(named);
  });

  it('cannot tell in a script without capitals', () => {
    expect(namesNewTerm('消息队列使用 NATS JetStream。', sentenceWords('消息队列使用 NATS JetStream。', 'zh'), [])).toBeUndefined();
  });
});

describe('the share of wanted words a sentence holds', () => {
  it.each([
    ['There are three tiers of Catalyst.', [form('tier')], 1],
    ['The Catalyst license is a one-time purchase.', [form('tier')], 0],
    // "written" is matched as "write" (an irregular participle); "author" is not in it.
    ['The first version was written by Silver.', [form('write'), form('author')], 0.5],
    ['Anything at all.', [], 0],
  ])('%s holds of %j', (sentence, wanted, share) => {
    expect(holdsShare(sentenceWords(sentence, 'en'), new Set(wanted))).toBeCloseTo(share, 3);
  });
});

describe('the opening sentence of a passage', () => {
  it.each([
    [0, undefined, true],
    [2, 1, true],
    [2, 2, false],
  ])('passage %i after a sentence of passage %s', (at, before, opens) => {
    expect(opensPassage(at, before)).toBe(opens);
  });
});

describe('a sentence that defines a question word', () => {
  it.each([
    ['File recovery is a core plugin that saves snapshots.', 'How often does file recovery save snapshots?', 'en', true],
    ['Expertise reversal effect refers to the reversal of effectiveness.', 'what instruction works best according to the expertise reversal effect', 'en', true],
    ['By default, snapshots are saved every 5 minutes.', 'How often does file recovery save snapshots?', 'en', false],
    ['Obsidian is a note-taking app.', 'How often does file recovery save snapshots?', 'en', false],
    ['Слайды — это основной плагин, который позволяет создавать презентации.', 'Чем отделить один слайд от другого?', 'ru', true],
    ['Чтобы разделить слайды, введите `---`.', 'Чем отделить один слайд от другого?', 'ru', false],
  ])('%s (%s)', (sentence, question, lang, defines) => {
    expect(definesAsked(sentence, askedOf(question, lang), lang)).toBe(defines);
  });
});
