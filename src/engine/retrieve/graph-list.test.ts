import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_QUESTIONS, SAMPLE_VAULT, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { generateZipfCorpus, sampleQueries } from '../../cli/bench/search.ts';
import { storedGraph } from '../graph/stored.ts';
import { buildFtsQuery } from '../search/fts-query.ts';
import { graphList, MAX_SOURCE_DEGREE } from './graph-list.ts';
import { bestChunkOfEachNote, rankChunksOfNotes } from '../search/lexical.ts';
import { asReadConnection } from '../store/connection.ts';
import { DB_FILE } from '../store/database.ts';
import { chunksOfNotes, matchingChunksOf, textCharsOfNotes } from '../store/queries/graph.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());
const noModels = { env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } as NodeJS.ProcessEnv };

describe('graph list', () => {
  it('brings the linked note a multi-hop question needs into the top k, below the direct hits', async () => {
    const vault = temp.make('syn-graph-list-', {
      'decisions/Conflict strategy.md': '---\ndecided_by: Priya Raman\n---\n# Conflict strategy\n\nThe conflict resolution strategy record adopts hybrid logical clocks.\n',
      'people/Priya Raman.md': '# Priya Raman\n\nReports to: [[Maya Chen]].\n',
      'people/Maya Chen.md': '# Maya Chen\n\nLeads the sync team.\n',
      ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`notes/filler ${i}.md`, `# Filler ${i}\n\nA conflict record, number ${i}, unrelated.${' Some more words.'.repeat(i)}\n`])),
      ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`notes/other ${i}.md`, `# Other ${i}\n\nGardening tips and recipes, page ${i}.\n`])),
    });
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      await engine.index([vault]);
      const q = 'Who manages the engineer who wrote the conflict resolution strategy record?';
      const without = await engine.retrieve(q, { use_graph: false }, 5);
      expect(without.meta.graph_used).toBe(false);
      expect(without.chunks.map((c) => c.path)).not.toContain('people/Priya Raman.md');
      const withGraph = await engine.retrieve(q, {}, 5);
      expect(withGraph.meta.graph_used).toBe(true);
      const paths = withGraph.chunks.map((c) => c.path);
      expect(paths[0]).toBe('decisions/Conflict strategy.md');
      expect(paths.indexOf('people/Priya Raman.md')).toBeGreaterThanOrEqual(3);
      const linked = withGraph.chunks.find((c) => c.path === 'people/Priya Raman.md')!;
      expect(linked.ranks?.graph).toBe(1);
      // Scores stay in order: the linked note scores as the chunk above it.
      const scores = withGraph.chunks.map((c) => c.score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    } finally {
      await engine.dispose();
    }
  });

  it('does not read the links of a seed or a named note linked to more than MAX_SOURCE_DEGREE notes', async () => {
    const n = MAX_SOURCE_DEGREE + 5;
    const vault = temp.make('syn-graph-hub-', {
      'Relay.md': '# Relay\n\nThe relay forwards encrypted frames.\n',
      'Maya.md': '# Maya\n\nMaya maintains the relay; see [[Relay]].\n',
      ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`notes/n${i}.md`, `# N${i}\n\nGardening page ${i} mentions [[Relay]].\n`])),
    });
    const dataDir = temp.make();
    const engine = createEngine({ dataDir, ...noModels });
    try {
      await engine.index([vault]);
    } finally {
      await engine.dispose();
    }
    const sqlite = new BetterSqlite3(path.join(dataDir, DB_FILE), { readonly: true });
    try {
      const db = asReadConnection(sqlite);
      const policy = { allowSensitivity: [], sensitivityEnable: true };
      const g = storedGraph(db, policy);
      expect(g.pastDegree('note:Relay.md', MAX_SOURCE_DEGREE)).toBe(true);
      expect(g.pastDegree('note:Maya.md', MAX_SOURCE_DEGREE)).toBe(false);
      const q = 'what does the Relay forward?';
      // Only the seeds' paths are read from the ranked chunks.
      const ranked = [{ path: 'Relay.md' }, { path: 'Maya.md' }] as unknown as Parameters<typeof graphList>[3];
      const out = graphList(db, g, q, ranked, { ...policy, includeGlobs: [], excludeGlobs: [], types: [], languages: [], tags: [], roots: [] });
      // The hub (named and the first seed) is not expanded: of its n + 1 neighbours none was read
      // through it; Maya's link to it still makes it a candidate.
      expect(g.nodesRead).toBeLessThan(10);
      expect(out.map((c) => c.path)).not.toContain('notes/n0.md');
      expect(out.map((c) => c.path)).toContain('Relay.md');
    } finally {
      sqlite.close();
    }
  });

  it('on the sample vault, keeps both sources of every multi-hop question in the top 8 (lexical; 4 of 6 without the graph)', async () => {
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      await engine.index([SAMPLE_VAULT]);
      const questions = (JSON.parse(fs.readFileSync(SAMPLE_QUESTIONS, 'utf8')) as { kind: string; question: string; sources: string[] }[]).filter((q) => q.kind === 'multi-hop');
      const both = async (useGraph: boolean) => {
        let n = 0;
        for (const q of questions) {
          const paths = (await engine.retrieve(q.question, { use_graph: useGraph }, 8)).chunks.map((c) => c.path);
          if (q.sources.every((s) => paths.includes(s))) n++;
        }
        return n;
      };
      expect(questions).toHaveLength(6);
      expect(await both(false)).toBe(4);
      expect(await both(true)).toBe(6);
    } finally {
      await engine.dispose();
    }
  });

  it('uses the graph of the index as it is from the first query after an edit', async () => {
    const vault = temp.make('syn-graph-stale-', {
      'decisions/Conflict strategy.md': '# Conflict strategy\n\nThe conflict resolution strategy record adopts hybrid logical clocks.\n',
      'people/Priya Raman.md': '# Priya Raman\n\nReports to Maya.\n',
      ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`notes/filler ${i}.md`, `# Filler ${i}\n\nA conflict record, number ${i}.${' Some more words.'.repeat(i)}\n`])),
    });
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    const q = 'Who wrote the conflict resolution strategy record?';
    const linked = async () => (await engine.retrieve(q, {}, 5)).chunks.some((c) => c.path === 'people/Priya Raman.md' && c.ranks?.graph);
    try {
      await engine.index([vault]);
      expect(await linked()).toBe(false);
      fs.writeFileSync(`${vault}/decisions/Conflict strategy.md`, '---\ndecided_by: Priya Raman\n---\n# Conflict strategy\n\nThe conflict resolution strategy record adopts hybrid logical clocks.\n');
      await engine.index([vault]);
      // The graph is read where it is stored, per query: nothing to reload, no stale first answer.
      expect(await linked()).toBe(true);
      // Graph queries never see the old state.
      fs.writeFileSync(`${vault}/decisions/Conflict strategy.md`, '# Conflict strategy\n\nNo author.\n');
      await engine.index([vault]);
      expect(engine.graphNeighbors('Priya Raman').nodes.map((n) => n.label)).not.toContain('Conflict strategy');
    } finally {
      await engine.dispose();
    }
  });
});

describe('ranking the candidate notes’ chunks', () => {
  it('gives FTS5’s own chunks, ranks and order, and each note’s best chunk, also where terms are counted in the text', async () => {
    const dataDir = temp.make();
    const engine = createEngine({ dataDir, ...noModels });
    await engine.index([SAMPLE_VAULT]);
    await engine.dispose();
    const sqlite = new BetterSqlite3(path.join(dataDir, DB_FILE), { readonly: true });
    try {
      const db = asReadConnection(sqlite);
      const paths = (sqlite.prepare("SELECT path FROM documents WHERE status = 'indexed' ORDER BY id").pluck().all() as string[]).filter((_, i) => i % 3 !== 1);
      const queries = (JSON.parse(fs.readFileSync(SAMPLE_QUESTIONS, 'utf8')) as { question: string }[]).map((q) => q.question);
      let compared = 0;
      for (const q of [...queries, 'relay transport websockets', 'настроить синхронизацию', '"relay transport" server', 'websock* relay']) {
        const fts = buildFtsQuery(q);
        if (!fts.match) continue;
        const full = matchingChunksOf(db, fts.match, paths);
        // A small index: the whole query goes through the index.
        expect(rankChunksOfNotes(db, fts, paths), q).toEqual(full);
        // As if the index were large: every plain term is counted in the text, phrases and prefixes are matched.
        const counted = rankChunksOfNotes(db, fts, paths, 0, [], Infinity);
        expect(counted.map((r) => [r.id, r.path]), q).toEqual(full.map((r) => [r.id, r.path]));
        counted.forEach((r, i) => expect(r.rank, q).toBeCloseTo(full[i]!.rank, 9));
        // Notes longer than the counted terms' rows: matched through the index, FTS5's own ranks exactly.
        expect(rankChunksOfNotes(db, fts, paths, 0, [], 0), q).toEqual(full);
        // Each note's best chunk, as if the index were large: which chunk holds which term read at the
        // notes' chunks, only the chunks that may beat their note's best counted.
        const first = new Map<string, { id: number; rank: number }>();
        for (const r of full) if (!first.has(r.path)) first.set(r.path, r);
        const best = bestChunkOfEachNote(db, fts, paths, [], 0, 0);
        expect([...best].map(([p, b]) => [p, b.id]).sort(), q).toEqual([...first].map(([p, r]) => [p, r.id]).sort());
        for (const [p, b] of best) expect(b.rank, q).toBeCloseTo(first.get(p)!.rank, 9);
        expect(bestChunkOfEachNote(db, fts, paths), q).toEqual(new Map([...first].map(([p, r]) => [p, { id: r.id, rank: r.rank }])));
        compared += full.length;
      }
      expect(compared).toBeGreaterThan(200);
    } finally {
      sqlite.close();
    }
  });
});

describe('the length of the candidate notes, read without their text', () => {
  it('is never more than the text’s own length, and the same where every character is one UTF-16 unit', async () => {
    const vault = temp.make('syn-lengths-', {
      'plain.md': '# Relay\n\nThe relay speaks WebSocket.\n\n## Setup\n\nRun the relay server on port 8080.\n',
      'astral.md': '# Emoji 🚀\n\nShip it 🚀🚀 with the relay. 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 letters too.\n',
      'cyrillic.md': '# Синхронизация\n\nНастроить синхронизацию через ретранслятор.\n',
    });
    const dataDir = temp.make();
    const engine = createEngine({ dataDir, ...noModels });
    await engine.index([vault]);
    await engine.dispose();
    const sqlite = new BetterSqlite3(path.join(dataDir, DB_FILE), { readonly: true });
    try {
      const db = asReadConnection(sqlite);
      const jsLength = (paths: string[]) => chunksOfNotes(db, paths).reduce((n, r) => n + r.text.length + (r.heading?.length ?? 0), 0);
      for (const paths of [['plain.md'], ['cyrillic.md'], ['plain.md', 'cyrillic.md']]) {
        expect(jsLength(paths)).toBeGreaterThan(20);
        expect(textCharsOfNotes(db, paths), paths.join()).toBe(jsLength(paths));
      }
      // Characters outside the BMP are two UTF-16 units and one character: fewer characters than units.
      expect(textCharsOfNotes(db, ['astral.md'])).toBeLessThan(jsLength(['astral.md']));
      expect(textCharsOfNotes(db, ['plain.md', 'astral.md'])).toBeLessThan(jsLength(['plain.md', 'astral.md']));
      expect(textCharsOfNotes(db, ['no/such.md'])).toBe(0);
      // Whatever the length limit, the notes' chunks rank as FTS5 ranks them.
      const fts = buildFtsQuery('relay emoji ship server');
      const paths = ['plain.md', 'astral.md'];
      const full = matchingChunksOf(db, fts.match!, paths);
      expect(full.length).toBeGreaterThan(1);
      const chars = textCharsOfNotes(db, paths);
      for (const limit of [0, chars - 1, chars, jsLength(paths) - 1, jsLength(paths), Infinity]) {
        const ranked = rankChunksOfNotes(db, fts, paths, 0, [], limit);
        expect(ranked.map((r) => [r.id, r.path]), String(limit)).toEqual(full.map((r) => [r.id, r.path]));
        ranked.forEach((r, i) => expect(r.rank).toBeCloseTo(full[i]!.rank, 9));
      }
    } finally {
      sqlite.close();
    }
  });
});

describe('bounding the linked notes ranked against the question', () => {
  it('keeps the graph list’s best notes of the unbounded ranking on generated link-rich notes', async () => {
    const vault = temp.make('syn-graph-bound-');
    const { sections } = generateZipfCorpus(vault, 4000);
    const dataDir = temp.make();
    const engine = createEngine({ dataDir, ...noModels });
    try {
      await engine.index([vault]);
      const sqlite = new BetterSqlite3(path.join(dataDir, DB_FILE), { readonly: true });
      try {
        const db = asReadConnection(sqlite);
        const policy = { allowSensitivity: [], sensitivityEnable: true };
        const g = storedGraph(db, policy);
        const filters = { ...policy, includeGlobs: [], excludeGlobs: [], types: [], languages: [], tags: [], roots: [] };
        let compared = 0;
        let same = 0;
        let sameFirst = 0;
        let sameSlots = 0;
        for (const q of sampleQueries(sections, 60)) {
          const ranked = (await engine.retrieve(q, { use_graph: false }, 20)).chunks;
          const bounded = graphList(db, g, q, ranked, filters).slice(0, 2).map((c) => c.path);
          const wide = graphList(db, g, q, ranked, filters, { candidates: 200, floor: false }).slice(0, 2).map((c) => c.path);
          // As the hybrid list takes them: the two best that its top results do not already hold.
          const present = new Set(ranked.slice(0, 8).map((c) => c.path));
          const slots = graphList(db, g, q, ranked, filters)
            .filter((c) => !present.has(c.path))
            .slice(0, 2)
            .map((c) => c.path);
          const wideSlots = graphList(db, g, q, ranked, filters, { candidates: 200, floor: false })
            .filter((c) => !present.has(c.path))
            .slice(0, 2)
            .map((c) => c.path);
          if (JSON.stringify(slots) === JSON.stringify(wideSlots)) sameSlots++;
          if (wide.length === 0) continue;
          compared++;
          if (JSON.stringify(bounded) === JSON.stringify(wide)) same++;
          if (bounded[0] === wide[0]) sameFirst++;
        }
        expect(compared).toBeGreaterThanOrEqual(50);
        // The two slots the graph list fills: the same notes in the same order for most questions (a
        // bounded ranking may normalise the match by another best candidate): 49 and 56 of 60 when
        // written, and 49 of 60 for the slots the hybrid list takes.
        expect(same / compared).toBeGreaterThanOrEqual(0.75);
        expect(sameFirst / compared).toBeGreaterThanOrEqual(0.88);
        expect(sameSlots / 60).toBeGreaterThanOrEqual(0.75);
      } finally {
        sqlite.close();
      }
    } finally {
      await engine.dispose();
    }
  });
});
