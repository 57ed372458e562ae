import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
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
      expect(edge('Project Aurora', 'owned_by', 'Maya Chen')?.locator).toBe('projects/Project Aurora.md#L1-L3');
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

  it('folds case, accents and ё when resolving names', () => {
    expect(normalizeName('  Tomás  HERRERA ')).toBe('tomas herrera');
    expect(normalizeName('Алёна')).toBe('алена');
  });
});
