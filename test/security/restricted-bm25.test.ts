import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import { ftsQueryFor, rankChunksOfNotes, termStats } from '../../src/engine/search/lexical.ts';
import { hiddenChunkIds } from '../../src/engine/store/queries/documents.ts';
import { Store } from '../../src/engine/store/store.ts';
import { TempDirs } from '../helpers/tmp.ts';

/**
 * BM25 reads corpus statistics (rows, mean length, how many rows hold each term). Counted over
 * every chunk, a public note's score moved when a restricted note holding the same word was added,
 * so a client could probe for words in notes it cannot see. A caller now gets the scores and order
 * of a vault without the notes hidden from it: the same vault with and without its restricted notes
 * must answer every query alike, through BM25, prefixes, phrases and the trigram fallback.
 */
const PUBLIC = {
  'relay.md': '# Relay rollout\n\nThe relay rollout starts in May. Maya owns the offsite budget for the relay. See [[Offsite]] and [[Operations]].\n',
  'salary.md': '# Salary process\n\nSalary reviews happen every March; bands are set by the founders.\n',
  'offsite.md': '# Offsite\n\nThe offsite budget covers travel to Lisbon. The relay rollout is discussed there. [[Misc]]\n\n## Travel\n\nFlights and the hotel budget.\n',
  'ops.md': '# Operations\n\nTicket AUR-1102 tracks the relay server move. Rollback plans live in the runbook.\n',
  'misc.md': '# Misc\n\nLunch on Fridays. The budget for snacks is small. Relay races at the offsite.\n',
  // Notes without the query words, so that no word is in half the rows (where idf is clamped to nothing).
  ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`filler/${i}.md`, `# Filler ${i}\n\nGardening notes, page ${i}: tomatoes and basil.\n`])),
};
const RESTRICTED = {
  'hr/bands.md': `---\nsensitivity: restricted\n---\n# Relay bands\n\n${'The relay budget and salary bands for the relay team. '.repeat(30)}\n`,
  'hr/zebra.md': '---\nsensitivity: restricted\n---\n# Zebra\n\nProject zebracanary uses the relay rollout budget. AUR-1102 again.\n',
  'hr/more.md': `---\nsensitivity: restricted\n---\n# Notes\n\n${Array.from({ length: 20 }, (_, i) => `Line ${i} about offsite plans and rollout order.`).join('\n\n')}\n`,
};
const QUERIES = ['relay', 'relay rollout budget', 'offsite budget', 'salary bands', '"relay rollout"', 'roll*', 'AUR-1102', 'zebracanary relay', 'lunch snacks'];

const temp = new TempDirs();
let plain: Engine;
let mixed: Engine;
afterAll(async () => {
  await plain?.dispose();
  await mixed?.dispose();
  temp.cleanup();
});

beforeAll(async () => {
  const open = async (files: Record<string, string>) => {
    const engine = createEngine({ dataDir: temp.make('syn-bm25-data-'), env: {}, config: { graphLlm: false } });
    await engine.index([temp.make('syn-bm25-vault-', files)]);
    return engine;
  };
  plain = await open(PUBLIC);
  mixed = await open({ ...PUBLIC, ...RESTRICTED });
});

const ranked = async (engine: Engine, query: string, allow: string[] = [], include?: string[]) =>
  (await engine.retrieve(query, { mode: 'bm25', allow_sensitivity: allow, ...(include ? { include_globs: include } : {}) }, 10)).chunks.map((c) => ({ at: c.locator, score: c.score }));

describe('BM25 as a caller sees the vault', () => {
  for (const query of QUERIES) {
    it(`${query}: the same order and scores with or without notes hidden from the caller`, async () => {
      const expected = await ranked(plain, query);
      const got = await ranked(mixed, query);
      expect(got.map((r) => r.at)).toEqual(expected.map((r) => r.at));
      got.forEach((r, i) => expect(r.score, r.at).toBeCloseTo(expected[i]!.score, 3));
    });
  }

  it('through the default retrieval, the graph list of linked notes included', async () => {
    for (const query of ['relay rollout', 'offsite budget travel', 'Maya relay']) {
      const at = async (engine: Engine) => (await engine.retrieve(query, {}, 10)).chunks.map((c) => ({ at: c.locator, score: c.score }));
      const expected = await at(plain);
      const got = await at(mixed);
      expect(got.map((r) => r.at), query).toEqual(expected.map((r) => r.at));
      got.forEach((r, i) => expect(r.score, `${query}: ${r.at}`).toBeCloseTo(expected[i]!.score, 3));
    }
  });

  it('with a path filter too (ranked through the joined query)', async () => {
    const expected = await ranked(plain, 'relay rollout budget', [], ['*.md']);
    const got = await ranked(mixed, 'relay rollout budget', [], ['*.md']);
    expect(got.map((r) => r.at)).toEqual(expected.map((r) => r.at));
    got.forEach((r, i) => expect(r.score, r.at).toBeCloseTo(expected[i]!.score, 3));
    expect(got.length).toBeGreaterThan(1);
  });

  it('term rarity (what the answer reader weighs words by) is that of the visible notes', () => {
    const stats = (engine: Engine) => {
      const store = new Store(engine.dataDir, { reader: true });
      try {
        return termStats(store.db, ['relay', 'budget', 'rollout', 'salari', 'band'], { allowSensitivity: [], sensitivityEnable: true });
      } finally {
        store.dispose();
      }
    };
    const expected = stats(plain);
    expect(expected.get('relay')!.df).toBeGreaterThan(0);
    expect(stats(mixed)).toEqual(expected);
  });

  it('ranks the chunks of linked notes (the graph list) by the visible statistics', () => {
    const policy = { allowSensitivity: [], sensitivityEnable: true };
    const ranks = (engine: Engine) => {
      const store = new Store(engine.dataDir, { reader: true });
      try {
        const fts = ftsQueryFor(store.db, 'relay rollout budget', policy);
        return rankChunksOfNotes(store.db, fts, ['relay.md', 'offsite.md', 'misc.md', 'ops.md'], undefined, hiddenChunkIds(store.db, policy)).map((r) => ({ path: r.path, rank: r.rank }));
      } finally {
        store.dispose();
      }
    };
    const expected = ranks(plain);
    const got = ranks(mixed);
    expect(got.map((r) => r.path)).toEqual(expected.map((r) => r.path));
    got.forEach((r, i) => expect(r.rank, r.path).toBeCloseTo(expected[i]!.rank, 6));
  });

  it('answers alike: the reader weighs words by how rare they are among the visible notes', async () => {
    for (const question of ['Who owns the offsite budget?', 'When does the relay rollout start?', 'What does AUR-1102 track?']) {
      const [a, b] = await Promise.all([plain.answer(question), mixed.answer(question)]);
      expect({ answer: b.answer, limits: b.limits, cited: b.citations.map((c) => c.locator) }, question).toEqual({ answer: a.answer, limits: a.limits, cited: a.citations.map((c) => c.locator) });
    }
  });

  it('a German compound only a hidden note holds whole is split as if no note held it', async () => {
    const german = {
      'de/a.md': '# Projekt\n\nDas Projekt beginnt im Mai und die Planung läuft.\n',
      'de/b.md': '# Budget\n\nDas Budget für die Reise ist klein, sagt die Leitung.\n',
      'de/c.md': '# Termine\n\nDie Besprechung findet am Montag statt und dauert zwei Stunden.\n',
    };
    const open = async (files: Record<string, string>) => {
      const engine = createEngine({ dataDir: temp.make('syn-bm25-de-data-'), env: {}, config: { graphLlm: false } });
      await engine.index([temp.make('syn-bm25-de-', files)]);
      return engine;
    };
    const deplain = await open(german);
    const demixed = await open({ ...german, 'hr/geheim.md': '---\nsensitivity: restricted\n---\n# Geheim\n\nDas Projektbudget wurde gekürzt, sagt die Leitung.\n' });
    try {
      const expected = await ranked(deplain, 'Projektbudget');
      expect(expected.length).toBeGreaterThan(0);
      expect(await ranked(demixed, 'Projektbudget')).toEqual(expected);
    } finally {
      await deplain.dispose();
      await demixed.dispose();
    }
  });

  it('still ranks the restricted notes, with the full statistics, for a caller allowed them', async () => {
    const allowed = await ranked(mixed, 'relay budget', ['restricted']);
    expect(allowed.map((r) => r.at.split('#')[0])).toContain('hr/bands.md');
    expect(allowed.map((r) => r.at)).not.toEqual((await ranked(plain, 'relay budget')).map((r) => r.at));
  });
});
