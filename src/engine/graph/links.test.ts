import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
import BetterSqlite3 from 'better-sqlite3';
import { GRAPH_RULES_VERSION } from './extract.ts';
import { normalizeName } from './links.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());
const noModels = { env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } as NodeJS.ProcessEnv };

const VAULT = {
  'people/Maya Chen.md': '---\naliases: [Maya, M. Chen]\ntags: [person]\n---\n# Maya Chen\n\nLeads the sync team. Works on [[Project Aurora]].\n',
  'projects/Project Aurora.md': '---\nowner: "[[Maya Chen]]"\n---\n# Project Aurora\n\nThe sync product. See [the storage note](../decisions/Storage.md).\n',
  'decisions/Storage.md': '---\ndecided_by: M. Chen\npeople: [Priya Raman, José Núñez]\nproject: project aurora\n---\n# Storage\n\nWe chose SQLite. #adr #storage\n\nDiscussed with [[maya chen|Maya]].\n',
  'hr/Pay.md': '---\nsensitivity: restricted\npeople: [Maya Chen]\n---\n# Pay\n\nSalary bands for [[Maya Chen]].\n',
};

describe('link graph', () => {
  it('links notes by wikilinks, markdown links, tags and front matter, each edge with its line', async () => {
    const vault = temp.make('syn-graph-', VAULT);
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      await engine.index([vault]);
      const g = engine.graphNeighbors('Maya Chen', 1);
      expect(g.found).toBe(true);
      expect(g.nodes.map((n) => n.label).sort()).toEqual(['#person', 'Maya Chen', 'Project Aurora', 'Storage']);
      const edge = (source: string, relation: string, target: string) => g.edges.find((e) => e.source === source && e.relation === relation && e.target === target);
      expect(edge('Maya Chen', 'links_to', 'Project Aurora')?.locator).toBe('people/Maya Chen.md#L7-L7');
      // The front-matter field's own line is the evidence.
      expect(edge('Project Aurora', 'owned_by', 'Maya Chen')?.locator).toBe('projects/Project Aurora.md#L2-L2');
      // An alias in front matter and a lower-case wikilink with a display text resolve to the note.
      expect(edge('Storage', 'decided_by', 'Maya Chen')).toBeDefined();
      expect(edge('Storage', 'links_to', 'Maya Chen')?.locator).toBe('decisions/Storage.md#L10-L10');
      // The restricted note is not in the graph unless allowed.
      expect(g.nodes.some((n) => n.label === 'Pay')).toBe(false);
      expect(engine.graphNeighbors('Maya Chen', 1, { allow_sensitivity: ['restricted'] }).nodes.some((n) => n.label === 'Pay')).toBe(true);

      const storage = engine.graphNeighbors('storage', 1);
      expect(storage.entity).toBe('Storage');
      expect(storage.edges).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ source: 'Storage', relation: 'tagged', target: '#adr', locator: 'decisions/Storage.md#L8-L8' }),
          expect.objectContaining({ source: 'Storage', relation: 'mentions', target: 'José Núñez' }),
          expect.objectContaining({ source: 'Storage', relation: 'part_of', target: 'Project Aurora' }),
          expect.objectContaining({ source: 'Project Aurora', relation: 'links_to', target: 'Storage', locator: 'projects/Project Aurora.md#L6-L6' }),
        ]),
      );
      // Where notes name someone: the lines, restricted notes only when allowed.
      expect(engine.graphNeighbors('José Núñez').mentioned_in.map((m) => m.locator)).toEqual(['decisions/Storage.md#L3-L3']);
      const maya = engine.graphNeighbors('Maya Chen').mentioned_in.map((m) => m.locator);
      expect(maya).toEqual(expect.arrayContaining(['decisions/Storage.md#L2-L2', 'decisions/Storage.md#L10-L10', 'projects/Project Aurora.md#L2-L2']));
      expect(maya.some((l) => l.startsWith('hr/'))).toBe(false);
      expect(engine.graphNeighbors('Maya Chen', 1, { allow_sensitivity: ['restricted'] }).mentioned_in.some((m) => m.path === 'hr/Pay.md')).toBe(true);
      // Accents and case do not matter; a tag is found with or without #.
      expect(engine.graphNeighbors('jose nunez').found).toBe(true);
      expect(engine.graphNeighbors('#ADR').nodes.map((n) => n.label)).toContain('Storage');
      const far = engine.graphNeighbors('Priya Raman', 2);
      expect(far.nodes.find((n) => n.label === 'Maya Chen')?.hops).toBe(2);
      const missing = engine.graphNeighbors('Aurora');
      expect(missing).toMatchObject({ found: false, suggestions: ['Project Aurora'] });
      expect(() => engine.graphNeighbors('Maya Chen', 4)).toThrow(/hops must be 1, 2 or 3/);
    } finally {
      await engine.dispose();
    }
  });

  it('drops the edges of a deleted note and picks up new links after re-indexing', async () => {
    const vault = temp.make('syn-graph-inc-', VAULT);
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      await engine.index([vault]);
      expect(engine.graphNeighbors('Storage').nodes.length).toBeGreaterThan(1);
      fs.rmSync(path.join(vault, 'decisions', 'Storage.md'));
      fs.appendFileSync(path.join(vault, 'people', 'Maya Chen.md'), '\nMentors [[Lukas Becker]].\n');
      await engine.index([vault]);
      const g = engine.graphNeighbors('Maya Chen');
      expect(g.nodes.map((n) => n.label)).toContain('Lukas Becker');
      expect(g.nodes.map((n) => n.label)).not.toContain('Storage');
      expect(engine.graphNeighbors('Priya Raman').found).toBe(false);
    } finally {
      await engine.dispose();
    }
  });

  it('stores facts per document: an edit replaces them, a deletion removes them, orphaned entities are collected', async () => {
    const vault = temp.make('syn-graph-store-', VAULT);
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    // A second connection to the same store, read-only, to look at the tables themselves.
    const db = new BetterSqlite3(path.join(engine.dataDir, 'synapsis.db'), { readonly: true });
    try {
      await engine.index([vault]);
      const entity = (name: string) => db.prepare('SELECT COUNT(*) FROM entities WHERE name = ?').pluck().get(name) as number;
      const relationsOf = (p: string) =>
        db.prepare('SELECT r.type || \':\' || e.name FROM relations r JOIN documents d ON d.id = r.document_id JOIN entities e ON e.id = r.dst_id WHERE d.path = ? ORDER BY r.seq').pluck().all(p) as string[];
      expect(relationsOf('decisions/Storage.md')).toEqual(expect.arrayContaining(['decided_by:M. Chen', 'mentions:José Núñez', 'tagged:adr', 'links_to:maya chen']));
      expect(entity('José Núñez')).toBe(1);
      // Every document records the rules that extracted it.
      expect(db.prepare("SELECT DISTINCT graph_version FROM documents WHERE status = 'indexed'").pluck().all()).toEqual([GRAPH_RULES_VERSION]);

      fs.writeFileSync(path.join(vault, 'decisions', 'Storage.md'), '---\ndecided_by: Priya Raman\n---\n# Storage\n\nWe chose SQLite.\n');
      await engine.index([vault]);
      expect(relationsOf('decisions/Storage.md')).toEqual(['decided_by:Priya Raman', 'mentions:SQLite']);
      // José was named only by the old version of the note: his entity went with it.
      expect(entity('José Núñez')).toBe(0);
      expect(engine.graphNeighbors('José Núñez').found).toBe(false);

      fs.rmSync(path.join(vault, 'decisions', 'Storage.md'));
      await engine.index([vault]);
      expect(db.prepare('SELECT COUNT(*) FROM relations r JOIN entities e ON e.id = r.dst_id WHERE e.name = ?').pluck().get('Priya Raman')).toBe(0);
      expect(entity('Priya Raman')).toBe(0);
      expect(db.prepare('SELECT COUNT(*) FROM entities e WHERE NOT EXISTS (SELECT 1 FROM relations r WHERE r.dst_id = e.id OR r.src_id = e.id) AND NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = e.id)').pluck().get()).toBe(0);
    } finally {
      db.close();
      await engine.dispose();
    }
  });

  it('re-extracts documents processed by older rules on the next index run, and none when extraction is off', async () => {
    const vault = temp.make('syn-graph-rules-', VAULT);
    const dataDir = temp.make();
    const off = createEngine({ dataDir, env: { ...noModels.env, SYN_GRAPH_EXTRACT: 'false' } });
    try {
      await off.index([vault]);
      // The note is there, linked to nothing.
      expect(off.graphNeighbors('Storage')).toMatchObject({ found: true, edges: [] });
    } finally {
      await off.dispose();
    }
    const on = createEngine({ dataDir, ...noModels });
    try {
      const report = await on.index([vault]);
      // Unchanged files, but extracted by no rules yet: each is processed again.
      expect(report.indexed).toBe(4);
      expect(on.graphNeighbors('Storage').nodes.map((n) => n.label)).toContain('Maya Chen');
      expect((await on.index([vault])).indexed).toBe(0);
    } finally {
      await on.dispose();
    }
  });

  it('answers paths, central entities, communities and subgraphs, every edge with its evidence', async () => {
    const vault = temp.make('syn-graph-query-', {
      ...VAULT,
      'people/Lukas Becker.md': '---\nmanager: Priya Raman\n---\n# Lukas Becker\n\nWorks on the relay.\n',
      'people/Priya Raman.md': '# Priya Raman\n\nEngineer on the sync team with [[Maya Chen]].\n',
      'garden/Tomatoes.md': '# Tomatoes\n\nSee [[Basil]].\n',
      'garden/Basil.md': '# Basil\n\nGrows next to [[Tomatoes]].\n',
    });
    const engine = createEngine({ dataDir: temp.make(), ...noModels });
    try {
      await engine.index([vault]);
      const p = engine.graphPath('Lukas Becker', 'Project Aurora');
      expect(p.found).toBe(true);
      // Three hops (through Maya Chen or through the Storage record, both are shortest), each with its evidence.
      expect(p.nodes.map((n) => n.label)).toEqual(['Lukas Becker', 'Priya Raman', expect.stringMatching(/^(Maya Chen|Storage)$/), 'Project Aurora']);
      for (let i = 0; i + 1 < p.nodes.length; i++) {
        const ends = [p.nodes[i]!.id, p.nodes[i + 1]!.id].sort().join();
        expect(p.edges.some((e) => [e.source_id, e.target_id].sort().join() === ends)).toBe(true);
      }
      expect(p.edges[0]).toMatchObject({ source: 'Lukas Becker', relation: 'reports_to', target: 'Priya Raman', locator: 'people/Lukas Becker.md#L2-L2', origin: 'rule' });
      expect(engine.graphPath('Lukas Becker', 'Basil')).toMatchObject({ found: false, missing: [] });
      expect(engine.graphPath('Lukas Becker', 'Nobody At All')).toMatchObject({ found: false, missing: ['Nobody At All'] });
      // The restricted note is not a way through.
      expect(engine.graphPath('Pay', 'Maya Chen').found).toBe(false);

      const o = engine.graphOverview({ limit: 5 });
      expect(o.notes).toBe(7);
      // PageRank: the record linked to six things, then the person most notes link to.
      expect(o.central.slice(0, 2).map((n) => n.label)).toEqual(['Storage', 'Maya Chen']);
      // A name one note alone uses ("SQLite") is no entity; José Núñez, named in front matter, is.
      expect(o.entities).toBe(1);
      const garden = o.communities.find((c) => c.members.includes('Basil'))!;
      expect(garden.members.sort()).toEqual(['Basil', 'Tomatoes']);
      expect(o.communities.find((c) => c.members.includes('Maya Chen'))!.members).not.toContain('Basil');
      // Deterministic: the same communities every time.
      expect(engine.graphOverview({ limit: 5 })).toEqual(o);

      const sub = engine.graphSubgraph({ paths: ['garden/Basil.md', 'people/Priya Raman.md'], hops: 0 });
      expect(sub.nodes.map((n) => n.label).sort()).toEqual(['Basil', 'Priya Raman']);
      expect(sub.edges).toEqual([]);
      const around = engine.graphSubgraph({ paths: ['garden/Basil.md', 'nope.md'], hops: 1 });
      expect(around.missing).toEqual(['nope.md']);
      expect(around.edges.map((e) => `${e.source_id} ${e.relation} ${e.target_id} ${e.locator}`).sort()).toEqual([
        'note:garden/Basil.md links_to note:garden/Tomatoes.md garden/Basil.md#L3-L3',
        'note:garden/Tomatoes.md links_to note:garden/Basil.md garden/Tomatoes.md#L3-L3',
      ]);
      expect(() => engine.graphSubgraph({})).toThrow(/entity or the paths/);
    } finally {
      await engine.dispose();
    }
  });

  it('folds case, accents and ё when resolving names', () => {
    expect(normalizeName('  Tomás  HERRERA ')).toBe('tomas herrera');
    expect(normalizeName('Алёна')).toBe('алена');
  });
});
