import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { HashedEmbedder } from '../../cli/bench/hashed-embedder.ts';
import { createEngine, type Engine } from '../engine.ts';

// The hashed bag-of-words embedder makes the effect exact: a query that restates one sentence of a
// long chunk is much closer to that sentence's vector than to the chunk's, which averages it with
// every other sentence.
const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
});
afterAll(() => temp.cleanup());

const filler = [
  'Quarterly budgets were reviewed by the finance group in detail.',
  'Several office plants were moved closer to the southern windows.',
  'The printer on the third floor needed new toner twice this month.',
  'Lunch orders now go through the shared spreadsheet every Friday.',
  'Parking passes expire at the end of the calendar year for everyone.',
];
const QUERY = 'Maya decided the sync engine stores conflicts in SQLite';

function vault() {
  return temp.make('syn-sent-vault-', {
    // The answer is one sentence among unrelated ones.
    'long.md': `# Weekly notes\n\n${[filler[0], filler[1], 'Maya decided the sync engine stores conflicts in SQLite.', filler[2], filler[3], filler[4]].join(' ')}\n`,
    // Shares a few words with the query all over, states nothing of it.
    'near.md': '# Engine\n\nThe engine of the car stores heat. Maya likes the engine sound in the morning drive.\n',
    'code.py': 'def sync():\n    """Maya decided the sync engine stores conflicts in SQLite. Another sentence here too."""\n    return 1\n',
  });
}

function open(dataDir: string, env: Record<string, string> = {}) {
  const engine = createEngine({ dataDir, env, embedder: new HashedEmbedder(256) });
  engines.push(engine);
  return engine;
}

describe('sentence vectors', () => {
  it('scores a chunk by its best sentence: the note that states the query ranks first, with the sentence cosine', async () => {
    const root = vault();
    const chunksOnly = open(temp.make('syn-sent-off-'), { SYN_SENTENCE_VECTORS: 'false' });
    await chunksOnly.index([root]);
    const before = await chunksOnly.retrieve(QUERY, { mode: 'dense' }, 3);
    expect((await chunksOnly.health()).models.embedders[0]!.sentences).toBeNull();

    const dataDir = temp.make('syn-sent-on-');
    const engine = open(dataDir);
    const stages: string[] = [];
    engine.on('index/progress', (e) => {
      if (stages.at(-1) !== e.stage) stages.push(e.stage);
      if (e.stage === 'sentences') expect(e.files_total).toBe(8);
    });
    const report = await engine.index([root]);
    expect(report.embedded).toBe(3); // the report counts chunk inputs; sentences show in health and in their own progress stage
    expect(stages.indexOf('sentences')).toBeGreaterThan(stages.indexOf('embed'));
    const health = await engine.health();
    // long.md: 6 sentences; near.md: 2; code.py: none (code is not split).
    expect(health.models.embedders[0]!.sentences).toEqual({ vectors: 8, pending: 0 });
    expect(health.degradations.join()).not.toMatch(/sentences wait/);
    expect(fs.existsSync(path.join(dataDir, 'index', health.index_version, 'sentences', 'vectors.json'))).toBe(true);

    const after = await engine.retrieve(QUERY, { mode: 'dense' }, 3);
    const score = (r: typeof after, p: string) => r.chunks.find((c) => c.path === p)?.score ?? 0;
    expect(after.chunks[0]!.path).toBe('long.md');
    expect(score(after, 'long.md')).toBeGreaterThan(score(before, 'long.md') + 0.2);
    // code is scored by its chunk vector alone, as before
    expect(score(after, 'code.py')).toBeCloseTo(score(before, 'code.py'), 4);
  });

  it("blends a chunk's own cosine with its best sentence's as the profile's chunk_share says; code keeps its own", async () => {
    const root = vault();
    const chunksOnly = open(temp.make('syn-share-off-'), { SYN_SENTENCE_VECTORS: 'false' });
    await chunksOnly.index([root]);
    const own = await chunksOnly.retrieve(QUERY, { mode: 'dense' }, 3);

    const profiles = temp.make('syn-share-profiles-');
    const scores = async (share: number | null) => {
      const file = path.join(profiles, `share-${share}.json`);
      fs.writeFileSync(file, JSON.stringify({ name: `share-${share}`, chunk_share: share }));
      const engine = open(temp.make('syn-share-'), { SYN_PROFILE: file });
      await engine.index([root]);
      const result = await engine.retrieve(QUERY, { mode: 'dense' }, 3);
      return (p: string) => result.chunks.find((c) => c.path === p)!.score;
    };
    const cos = (p: string) => own.chunks.find((c) => c.path === p)!.score;
    const better = await scores(null);
    const blended = await scores(0.25);
    // long.md's best sentence is the query itself, far above its chunk vector.
    const sentence = better('long.md');
    expect(sentence).toBeGreaterThan(cos('long.md') + 0.2);
    expect(blended('long.md')).toBeCloseTo(0.25 * cos('long.md') + 0.75 * sentence, 3);
    expect(blended('long.md')).toBeLessThan(sentence - 0.05);
    expect(blended('code.py')).toBeCloseTo(cos('code.py'), 4);
    expect(better('code.py')).toBeCloseTo(cos('code.py'), 4);
  });

  it('keeps sentence vectors in step with edits and deletions, and rebuilds their index when its files are gone', async () => {
    const root = vault();
    const dataDir = temp.make('syn-sent-sync-');
    let engine = open(dataDir);
    await engine.index([root]);
    fs.writeFileSync(path.join(root, 'long.md'), `# Weekly notes\n\n${filler.join(' ')}\n`);
    fs.rmSync(path.join(root, 'near.md'));
    await engine.index([root]);
    let health = await engine.health();
    expect(health.models.embedders[0]!.sentences).toEqual({ vectors: 5, pending: 0 });
    let hits = await engine.retrieve(QUERY, { mode: 'dense' }, 3);
    expect(hits.chunks.map((c) => c.path)).not.toContain('near.md');
    expect(hits.chunks[0]!.path).toBe('code.py');

    await engine.dispose();
    fs.rmSync(path.join(dataDir, 'index', health.index_version, 'sentences'), { recursive: true });
    engine = open(dataDir);
    hits = await engine.retrieve('Parking passes expire at the end of the calendar year', { mode: 'dense' }, 3);
    expect(hits.chunks[0]!.path).toBe('long.md');
    health = await engine.health();
    expect(health.models.embedders[0]!.sentences).toEqual({ vectors: 5, pending: 0 });
  });
});

describe('vector keys', () => {
  it('an edit of the newest note is found by its new text: chunk ids are never reused, so the vector index cannot keep the old vector', async () => {
    const root = temp.make('syn-reuse-vault-', {
      'a.md': '# A\n\nalpha beta gamma delta words here.\n',
      'b.md': '# B\n\nzebra yak xylophone walrus.\n',
    });
    const engine = open(temp.make('syn-reuse-data-'), { SYN_SENTENCE_VECTORS: 'false' });
    await engine.index([root]);
    const before = (await engine.retrieve('zebra yak xylophone walrus', { mode: 'dense' }, 1)).chunks[0]!;
    fs.writeFileSync(path.join(root, 'b.md'), '# B\n\nmango papaya kiwi banana.\n');
    await engine.index([root]);
    const after = (await engine.retrieve('mango papaya kiwi banana', { mode: 'dense' }, 1)).chunks[0]!;
    expect(after.path).toBe('b.md');
    expect(after.chunk_id).not.toBe(before.chunk_id);
    expect(after.score).toBeGreaterThan(0.5);
    // Deleting the newest note and adding another does not hand its id out again either.
    fs.rmSync(path.join(root, 'b.md'));
    await engine.index([root]);
    fs.writeFileSync(path.join(root, 'c.md'), '# C\n\nrobin sparrow finch wren.\n');
    await engine.index([root]);
    const c = (await engine.retrieve('robin sparrow finch wren', { mode: 'dense' }, 1)).chunks[0]!;
    expect(c.path).toBe('c.md');
    expect(c.chunk_id).toBeGreaterThan(after.chunk_id!);
    expect(c.score).toBeGreaterThan(0.5);
  });
});

describe('sentence vectors in the answer reader', () => {
  // Two sentences hold every word of the question and a date each, so word coverage and the
  // answer type tie; only the question's cosine to the stored sentence vectors tells them apart
  // (the hashed embedder: the sentence that adds fewer other words is the closer one).
  const note = [
    '# Orion',
    '',
    'Schedule notes follow.',
    'The Orion review happens on 9 April, per a long memo written by our steering committee after many debates over winter months.',
    'The Orion review does happen on 3 March.',
    '',
  ].join('\n');
  const QUESTION = 'When does the Orion review happen?';

  it("reads the stored sentence vectors when it answers: the question's closest sentence leads", async () => {
    const root = temp.make('syn-sent-read-', { 'orion.md': note });
    const words = open(temp.make('syn-sent-read-off-'), { SYN_SENTENCE_VECTORS: 'false' });
    await words.index([root]);
    const withWords = await words.answer(QUESTION);

    const vectors = open(temp.make('syn-sent-read-on-'));
    await vectors.index([root]);
    expect((await vectors.health()).models.embedders[0]!.sentences).toEqual({ vectors: 3, pending: 0 });
    const withVectors = await vectors.answer(QUESTION);

    expect(withVectors.reader?.outcome).toBe('answered');
    expect(withVectors.outcome).not.toBe('not_found');
    expect(withVectors.answer).toMatch(/^The Orion review does happen on 3 March\./);
    // Without stored sentence vectors the words tie and the note's order decides.
    expect(withWords.answer).toMatch(/^The Orion review happens on 9 April/);
  });
});
