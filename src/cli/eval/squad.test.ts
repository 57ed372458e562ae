import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFixture } from './answers.ts';
import { squadToVault } from './squad.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-squad-'));
  dirs.push(d);
  return d;
};

const paragraph = (i: number) => ({
  context: `Paragraph ${i} says the river is ${i * 10} km long.`,
  qas: [
    { id: `q${i}`, question: `How long is the river in paragraph ${i}?`, answers: [{ text: `${i * 10} km` }, { text: `${i * 10} km` }], is_impossible: false },
    { id: `u${i}`, question: `Who swam the river in paragraph ${i}?`, answers: [], is_impossible: true },
  ],
});

describe('squadToVault', () => {
  it('writes notes of a few paragraphs per article, and the questions with alternatives, unanswerable ones and left-out notes', () => {
    const dir = temp();
    const file = path.join(dir, 'set.json');
    fs.writeFileSync(file, JSON.stringify({ data: [{ title: 'Long_River', paragraphs: [1, 2, 3, 4, 5].map(paragraph) }, { title: 'Other', paragraphs: [paragraph(9)] }] }));
    const made = squadToVault(file, path.join(dir, 'out'), { paragraphsPerNote: 2, removedEvery: 2 });
    expect(made.notes).toBe(4);
    const notes = fs.readdirSync(path.join(made.vault, 'Long River')).sort();
    expect(notes).toEqual(['Long River 1.md', 'Long River 2.md', 'Long River 3.md']);
    expect(fs.readFileSync(path.join(made.vault, 'Long River', 'Long River 1.md'), 'utf8')).toBe('# Long River\n\nParagraph 1 says the river is 10 km long.\n\nParagraph 2 says the river is 20 km long.\n');
    const items = readFixture(made.questions);
    const q1 = items.find((q) => q.id === 'q1')!;
    expect(q1).toMatchObject({ facts: ['10 km'], anyFact: true, sources: ['Long River/Long River 1.md'], exclude: [] });
    expect(items.find((q) => q.id === 'u1')).toMatchObject({ facts: [], kind: 'unanswerable' });
    // Every second answerable question is asked again with its note left out of the search.
    expect(items.find((q) => q.id === 'q1-removed')).toMatchObject({ facts: [], exclude: ['Long River/Long River 1.md'], kind: 'note removed' });
    expect(items.find((q) => q.id === 'q2-removed')).toBeUndefined();
    expect(items.find((q) => q.id === 'q3-removed')).toBeDefined();
    expect(made.asked).toBe(items.length);
  });

  it('keeps the first N articles and at most M questions of each', () => {
    const dir = temp();
    const file = path.join(dir, 'set.json');
    fs.writeFileSync(file, JSON.stringify({ data: [{ title: 'A', paragraphs: [paragraph(1), paragraph(2)] }, { title: 'B', paragraphs: [paragraph(3)] }] }));
    const made = squadToVault(file, path.join(dir, 'out'), { articles: 1, questionsPerArticle: 3, removedEvery: 0 });
    const items = readFixture(made.questions);
    expect(items.map((q) => q.id)).toEqual(['q1', 'u1', 'q2']);
    expect(fs.existsSync(path.join(made.vault, 'B'))).toBe(false);
  });

  it('names a file that is not SQuAD-format JSON', () => {
    const dir = temp();
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, '{"version": 2}');
    expect(() => squadToVault(bad, path.join(dir, 'out'))).toThrow(/not in SQuAD format/);
    fs.writeFileSync(bad, '[{');
    expect(() => squadToVault(bad, path.join(dir, 'out'))).toThrow(/Cannot read the SQuAD-format file/);
  });
});
