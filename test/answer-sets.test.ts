/**
 * The question sets `synapsis tune --answers` fits on and chooses by (test/fixtures/answer-sets.json),
 * and the test sets kept out of it (its `test` role, which only `synapsis eval --answers --sets`
 * reads; the calibration sets' misses are not read either, but they choose the Answered bars and
 * recalibrate the probabilities, so they are not test sets): every file
 * named is there and reads as questions, each answerable question names its sources and facts, and
 * no question is in two roles. The vaults they
 * are asked over are rebuilt as docs/answers.md says; the measurement is `synapsis eval --answers`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../src/cli/eval/answers.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
type AnswerSet = { name: string; questions?: string; squad?: string };
const manifest = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'answer-sets.json'), 'utf8')) as Record<'train' | 'dev', AnswerSet[]> & { calibration?: AnswerSet[]; test?: AnswerSet[] };
const ALL_SETS = [...manifest.train, ...manifest.dev, ...(manifest.calibration ?? [])];
const TEST_SETS = [
  { file: 'knowledge-wiki.questions.json', questions: 60, unanswerable: 12 },
  { file: 'openbox-ru.questions.json', questions: 40, unanswerable: 8 },
  { file: 'til.questions.json', questions: 40, unanswerable: 10 },
  { file: 'sg-handbook.questions.json', questions: 40, unanswerable: 10 },
  { file: 'vue-docs-ru.questions.json', questions: 40, unanswerable: 10 },
  { file: 'foam-docs.questions.json', questions: 40, unanswerable: 10 },
  { file: 'dendron-notes.questions.json', questions: 40, unanswerable: 10 },
  { file: 'laravel-ru.questions.json', questions: 40, unanswerable: 10 },
  { file: 'jekyll-docs.questions.json', questions: 40, unanswerable: 10 },
  { file: 'starship-ru.questions.json', questions: 40, unanswerable: 10 },
];

describe('the answer question sets', () => {
  it('names each set once, and every questions file of the manifest reads as questions with sources and facts', () => {
    const sets = ALL_SETS;
    expect(new Set(sets.map((s) => s.name)).size).toBe(sets.length);
    for (const s of sets.filter((x) => x.questions)) {
      const items = readFixture(path.join(FIXTURES, s.questions!));
      expect(items.length, s.name).toBeGreaterThan(0);
      for (const q of items.filter((x) => x.facts.length > 0)) expect(q.sources.length, `${s.name} ${q.id}`).toBeGreaterThan(0);
    }
  });

  it.each(TEST_SETS)('keeps the test set $file out of training, dev and calibration, whole', ({ file, questions, unanswerable }) => {
    const named = ALL_SETS.map((s) => s.questions);
    expect(named).not.toContain(file);
    const items = readFixture(path.join(FIXTURES, file));
    expect(items).toHaveLength(questions);
    expect(new Set(items.map((q) => q.id)).size).toBe(questions);
    expect(items.filter((q) => q.facts.length === 0)).toHaveLength(unanswerable);
  });

  it('lists the test sets in the manifest\'s test role (what eval --sets asks; tune never reads it), and nothing else there', () => {
    expect((manifest.test ?? []).map((s) => s.questions).sort()).toEqual(TEST_SETS.map((t) => t.file).sort());
  });

  it('asks no test question in a training, dev or calibration set', () => {
    const asked = new Set(ALL_SETS.filter((s) => s.questions).flatMap((s) => readFixture(path.join(FIXTURES, s.questions!)).map((q) => q.question.toLowerCase())));
    for (const { file } of TEST_SETS) for (const q of readFixture(path.join(FIXTURES, file))) expect(asked.has(q.question.toLowerCase()), q.question).toBe(false);
  });
});
