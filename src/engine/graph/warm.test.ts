import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexedOnce, NO_MODELS } from '../../../test/helpers/engine.ts';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
import { graphList } from '../retrieve/graph-list.ts';
import { asReadConnection } from '../store/connection.ts';
import { DB_FILE } from '../store/database.ts';
import { indexedPaths } from '../store/queries/documents.ts';
import type { VisibilityPolicy } from '../store/visibility.ts';
import { createGraphMemo, storedGraph, type LinkGraph } from './stored.ts';
import { linkWarmer, warmGraphLinks, warmNoteLinks } from './warm.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const POLICY: VisibilityPolicy = { allowSensitivity: [], sensitivityEnable: true };
const FILTERS = { ...POLICY, includeGlobs: [], excludeGlobs: [], types: [], languages: [], tags: [], roots: [] };
const QUESTIONS = ['Who decided on Storage for Kestrel?', 'What does Osprey replace, and who asked Nadia Volkova?', 'relay frames'];

let dataDir = '';
beforeAll(async () => {
  const vault = temp.make('syn-warm-links-', {
    'Relay.md': '# Relay\n\nThe relay forwards encrypted frames for the Kestrel sync.\n',
    'people/Maya Chen.md': '# Maya Chen\n\nLeads the sync team on Kestrel with Priya Raman. See [[Relay]] and [[Storage]].\n',
    'decisions/Storage.md': '---\ndecided_by: Priya Raman\npeople: [Nadia Volkova]\n---\n# Storage\n\nKestrel stores frames in SQLite; Osprey reads them. [[Maya Chen]] agreed.\n',
    'notes/Osprey plan.md': '---\nproject: Osprey\npeople: [Nadia Volkova, Tom Okafor]\n---\n# Osprey plan\n\nOsprey replaces the relay for Kestrel; ask Priya Raman. See [[Relay]].\n',
    'hr/Review.md': '---\nsensitivity: restricted\npeople: [Priya Raman]\n---\n# Review\n\nPriya Raman on Kestrel and Osprey, see [[Storage]] and [[Maya Chen]].\n',
  });
  dataDir = await indexedOnce(vault, temp.make());
});

function withDb<T>(f: (db: ReturnType<typeof asReadConnection>) => T): T {
  const sqlite = new BetterSqlite3(path.join(dataDir, DB_FILE), { readonly: true });
  try {
    return f(asReadConnection(sqlite));
  } finally {
    sqlite.close();
  }
}

/** Each question's graph list with every note as the one seed, as text: one graph for all, or a fresh one for each. */
const lists = (db: ReturnType<typeof asReadConnection>, g: LinkGraph | (() => LinkGraph), paths: readonly string[]) =>
  QUESTIONS.flatMap((q) => paths.map((p) => graphList(db, typeof g === 'function' ? g() : g, q, [{ path: p } as Parameters<typeof graphList>[3][number]], FILTERS).map((c) => `${c.path}:${c.start_line}:${c.score}`).join(' | ')));

describe('reading the kept note links ahead', () => {
  it('keeps each note read and the degrees of the notes it links to, and the graph list stays the same', () => {
    withDb((db) => {
      const paths = indexedPaths(db, 100);
      expect(paths).toHaveLength(5);
      const memo = createGraphMemo();
      const warmed = storedGraph(db, POLICY, memo);
      warmNoteLinks(warmed, paths);
      // The restricted review is no note of this caller's graph: the others are read, with their links.
      expect([...memo.links.keys()].sort()).toEqual(['note:Relay.md', 'note:decisions/Storage.md', 'note:notes/Osprey plan.md', 'note:people/Maya Chen.md']);
      expect([...memo.links.get('note:decisions/Storage.md')!.keys()]).toContain('note:people/Maya Chen.md');
      for (const links of memo.links.values()) for (const far of links.keys()) expect(memo.degrees.has(far)).toBe(true);
      // Asked again, a note's links are the ones read (no statement), the same map.
      const again = warmed.noteLinks(['note:decisions/Storage.md']);
      expect(again.get('note:decisions/Storage.md')).toBe(memo.links.get('note:decisions/Storage.md'));
      // One memo across questions (its links scaled once: graph-list.ts) or a fresh one each, warmed or not: the same lists.
      const fresh = lists(db, () => storedGraph(db, POLICY), paths);
      expect(fresh.some((l) => l.length > 0)).toBe(true);
      expect(lists(db, storedGraph(db, POLICY), paths)).toEqual(fresh);
      expect(lists(db, warmed, paths)).toEqual(fresh);
    });
  });

  it('reads a slice per idle turn, and stops when told or when the graph has no relation', async () => {
    const calls: string[][] = [];
    const fake = (relations = true) => ({ hasRelations: () => relations, noteLinks: (ids: readonly string[]) => (calls.push([...ids]), new Map()), noteDegrees: () => new Map() }) as unknown as LinkGraph;
    await warmGraphLinks(() => fake(), ['a', 'b', 'c', 'd', 'e'], () => false, 2);
    expect(calls).toEqual([['note:a', 'note:b'], ['note:c', 'note:d'], ['note:e']]);
    calls.length = 0;
    let slices = 0;
    await warmGraphLinks(() => (slices++, fake()), ['a', 'b', 'c', 'd', 'e'], () => slices >= 1, 2);
    expect(calls).toEqual([['note:a', 'note:b']]);
    calls.length = 0;
    await warmGraphLinks(() => fake(false), ['a', 'b'], () => false, 2);
    expect(calls).toEqual([]);
  });

  it('reads a vault up to its limit whole, none past it, and stops when an index run moves the generation', async () => {
    const read: string[] = [];
    let generation = 0;
    const graph = () => ({ hasRelations: () => true, noteLinks: (ids: readonly string[]) => (read.push(...ids), generation++, new Map()), noteDegrees: () => new Map() }) as unknown as LinkGraph;
    const paths = (limit: number) => ['a', 'b', 'c', 'd', 'e'].slice(0, limit);
    const steady = { paths, graph: () => ({ ...graph(), noteLinks: (ids: readonly string[]) => (read.push(...ids), new Map()) }) as unknown as LinkGraph, generation: () => generation, disposed: () => false };
    await linkWarmer(steady, 5, 2)();
    expect(read).toEqual(['note:a', 'note:b', 'note:c', 'note:d', 'note:e']);
    read.length = 0;
    await linkWarmer(steady, 4, 2)();
    expect(read).toEqual([]);
    // Each slice here moves the generation (as an index run beginning would): the first slice is the last.
    await linkWarmer({ paths, graph, generation: () => generation, disposed: () => false }, 5, 2)();
    expect(read).toEqual(['note:a', 'note:b']);
    // A graph that fails to read costs the warm-up, never the caller.
    await expect(linkWarmer({ ...steady, graph: () => { throw new Error('store closed'); } }, 5, 2)()).resolves.toBeUndefined();
  });

  it('is what a long-lived engine has done once warmed(), with the same search results', async () => {
    const questions = ['Who decided on Storage for Kestrel?', 'What does Osprey replace?'];
    const search = async (warmGraph: boolean) => {
      const engine = createEngine({ dataDir, ...NO_MODELS, warmGraph });
      try {
        await engine.warmed();
        const out: string[][] = [];
        for (const q of questions) out.push((await engine.retrieve(q, {}, 10)).chunks.map((c) => `${c.locator}:${c.score}`));
        return out;
      } finally {
        await engine.dispose();
      }
    };
    const cold = await search(false);
    expect(cold.flat().length).toBeGreaterThan(0);
    expect(await search(true)).toEqual(cold);
    // Disposed before its warm-up ran, an engine's warmed() still settles.
    const early = createEngine({ dataDir, ...NO_MODELS, warmGraph: true });
    await early.dispose();
    await expect(early.warmed()).resolves.toBeUndefined();
  });
});
