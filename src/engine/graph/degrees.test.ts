import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_VAULT, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
import { asReadConnection, asWriteConnection } from '../store/connection.ts';
import { DB_FILE } from '../store/database.ts';
import { PUBLIC_AUDIENCE, storedNoteDegrees } from '../store/queries/graph.ts';
import { graphList } from '../retrieve/graph-list.ts';
import { extractingChat } from '../../../test/helpers/chat.ts';
import { indexedOnce as indexedInto, NO_MODELS } from '../../../test/helpers/engine.ts';
import { createDegreeMemos, notesAround, refreshNoteDegrees } from './degrees.ts';
import { storedGraph } from './stored.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

/** Every indexed note's stored degree beside the degree its links give it now (the whole graph). */
function degrees(dataDir: string): { stored: Record<string, number>; live: Record<string, number> } {
  const sqlite = new BetterSqlite3(path.join(dataDir, DB_FILE), { readonly: true });
  try {
    const db = asReadConnection(sqlite);
    const paths = sqlite.prepare("SELECT DISTINCT path FROM documents WHERE status = 'indexed' ORDER BY path").pluck().all() as string[];
    const g = storedGraph(db, { allowSensitivity: [], sensitivityEnable: false });
    const live = Object.fromEntries(paths.map((p) => [p, g.hasNode(`note:${p}`) ? g.degree(`note:${p}`) : 0]));
    const stored = Object.fromEntries(storedNoteDegrees(db, paths, 'all').map((r) => [r.path, r.degree]));
    return { stored, live };
  } finally {
    sqlite.close();
  }
}

/** The same for the public degrees: every note a caller allowed no restricted label sees, in the graph it sees. */
function publicDegrees(dataDir: string): { stored: Record<string, number>; live: Record<string, number> } {
  const sqlite = new BetterSqlite3(path.join(dataDir, DB_FILE), { readonly: true });
  try {
    const db = asReadConnection(sqlite);
    const paths = sqlite.prepare("SELECT DISTINCT path FROM documents WHERE status = 'indexed' AND (sensitivity IS NULL OR sensitivity = 'public') ORDER BY path").pluck().all() as string[];
    const g = storedGraph(db, PUBLIC_AUDIENCE);
    const live = Object.fromEntries(paths.map((p) => [p, g.hasNode(`note:${p}`) ? g.degree(`note:${p}`) : 0]));
    const stored = Object.fromEntries(storedNoteDegrees(db, paths, 'public').map((r) => [r.path, r.degree]));
    return { stored, live };
  } finally {
    sqlite.close();
  }
}

const PAY = '---\nsensitivity: restricted\n---\n# Pay\n\nBands for [[Maya Chen]] and [[Priya Raman]].\n';

const VAULT = {
  'people/Maya Chen.md': '# Maya Chen\n\nLeads the sync team. Works on [[Project Aurora]].\n',
  'people/Priya Raman.md': '# Priya Raman\n\nReports to [[Maya Chen]].\n',
  'projects/Project Aurora.md': '---\nowner: "[[Maya Chen]]"\n---\n# Project Aurora\n\nThe sync product. See [[Storage]].\n',
  'decisions/Storage.md': '---\ndecided_by: Priya Raman\n---\n# Storage\n\nWe chose SQLite. Discussed with [[Nadia Volkova]].\n',
  'notes/Standup.md': '# Standup\n\nNothing linked here.\n',
};

/** A fresh data dir with `folder` indexed into it once, the engine closed. */
const indexedOnce = (folder: string) => indexedInto(folder, temp.make());

describe('stored note degrees', () => {
  it('are every note’s degree in the graph after an index run, on the sample vault', async () => {
    const dataDir = await indexedOnce(SAMPLE_VAULT);
    const { stored, live } = degrees(dataDir);
    expect(Object.keys(live).length).toBeGreaterThan(40);
    expect(Object.values(live).filter((d) => d > 3).length).toBeGreaterThan(10);
    expect(stored).toEqual(live);
  });

  it('follow edits, deletions and renames of notes, and the notes linked to them', async () => {
    const vault = temp.make('syn-degrees-', VAULT);
    const dataDir = temp.make();
    const engine = createEngine({ dataDir, ...NO_MODELS });
    try {
      await engine.index([vault]);
      let d = degrees(dataDir);
      expect(d.stored).toEqual(d.live);
      const before = d.live;

      // An edit adds a link: both ends count it.
      fs.writeFileSync(path.join(vault, 'notes/Standup.md'), '# Standup\n\nAsked [[Priya Raman]] about [[Storage]].\n');
      await engine.index([vault]);
      d = degrees(dataDir);
      expect(d.live['notes/Standup.md']).toBe(before['notes/Standup.md']! + 2);
      expect(d.live['people/Priya Raman.md']).toBe(before['people/Priya Raman.md']! + 1);
      expect(d.stored).toEqual(d.live);

      // A new note takes over a name others link to ([[Nadia Volkova]] was a name, now a note).
      fs.writeFileSync(path.join(vault, 'people/Nadia Volkova.md'), '# Nadia Volkova\n\nSecurity lead.\n');
      await engine.index([vault]);
      d = degrees(dataDir);
      expect(d.live['people/Nadia Volkova.md']).toBe(1);
      expect(d.stored).toEqual(d.live);

      // A deleted note: the notes it linked to and that linked to it lose it.
      const priyaBefore = d.live['people/Priya Raman.md']!;
      fs.rmSync(path.join(vault, 'notes/Standup.md'));
      await engine.index([vault]);
      d = degrees(dataDir);
      expect(d.live['people/Priya Raman.md']).toBe(priyaBefore - 1);
      expect(d.stored['notes/Standup.md']).toBeUndefined();
      expect(d.stored).toEqual(d.live);

      // A renamed note (same content, a move): links to its old name no longer reach it.
      fs.renameSync(path.join(vault, 'projects/Project Aurora.md'), path.join(vault, 'projects/Aurora.md'));
      await engine.index([vault]);
      d = degrees(dataDir);
      expect(d.stored['projects/Project Aurora.md']).toBeUndefined();
      expect(d.stored['projects/Aurora.md']).toBeDefined();
      expect(d.stored).toEqual(d.live);
    } finally {
      await engine.dispose();
    }
  });

  it('are counted from the notes read around the touched ones, without reading them again', async () => {
    const dataDir = await indexedOnce(temp.make('syn-degrees-', VAULT));
    const before = degrees(dataDir).stored;
    const sqlite = new BetterSqlite3(path.join(dataDir, DB_FILE));
    try {
      const db = asWriteConnection(sqlite);
      const memos = createDegreeMemos();
      const around = notesAround(db, ['people/Maya Chen.md'], memos);
      expect([...around].sort()).toEqual(['people/Maya Chen.md', 'people/Priya Raman.md', 'projects/Project Aurora.md']);
      const read = memos.all.adjacency.size;
      expect(read).toBe(1);
      expect(await refreshNoteDegrees(db, around, undefined, memos)).toBe(3);
      // The two other notes read for their counts; the one read around them was not read again.
      expect(memos.all.adjacency.size).toBe(read + 2);
    } finally {
      sqlite.close();
    }
    expect(degrees(dataDir).stored).toEqual(before);
  });

  it('are read by the graph for a caller who sees every note, the public ones for a caller who sees no restricted note', async () => {
    const vault = temp.make('syn-degrees-hidden-', { ...VAULT, 'hr/Pay.md': PAY });
    const dataDir = temp.make();
    const engine = createEngine({ dataDir, ...NO_MODELS });
    try {
      await engine.index([vault]);
    } finally {
      await engine.dispose();
    }
    const sqlite = new BetterSqlite3(path.join(dataDir, DB_FILE));
    try {
      // A stored count that differs from the links shows which one a reader used.
      sqlite.prepare("UPDATE note_degrees SET degree = 99 WHERE document_id = (SELECT id FROM documents WHERE path = 'people/Maya Chen.md')").run();
      const db = asReadConnection(sqlite);
      const maya = 'note:people/Maya Chen.md';
      const all = storedGraph(db, { allowSensitivity: ['restricted'], sensitivityEnable: true });
      expect(all.noteDegrees([maya]).get(maya)).toBe(99);
      // Once its edges are read, a note's degree is counted from them.
      expect(all.degree(maya)).toBe(all.noteDegrees([maya]).get(maya));
      const withPay = storedGraph(db, { allowSensitivity: ['restricted'], sensitivityEnable: true });
      const live = storedGraph(db, { allowSensitivity: [], sensitivityEnable: true }).degree(maya);
      expect(live).toBe(withPay.degree(maya) - 1);
      sqlite.prepare("UPDATE note_degrees SET public_degree = 77 WHERE document_id = (SELECT id FROM documents WHERE path = 'people/Maya Chen.md')").run();
      // A caller who sees no restricted note reads the public count, as does one allowed a label no note has.
      expect(storedGraph(db, { allowSensitivity: [], sensitivityEnable: true }).noteDegrees([maya]).get(maya)).toBe(77);
      expect(storedGraph(db, { allowSensitivity: ['secret'], sensitivityEnable: true }).noteDegrees([maya]).get(maya)).toBe(77);
      // One allowed some restricted notes but not all counts from the links it sees.
      sqlite.prepare("UPDATE documents SET sensitivity = 'secret' WHERE path = 'notes/Standup.md'").run();
      expect(storedGraph(db, { allowSensitivity: ['secret'], sensitivityEnable: true }).noteDegrees([maya]).get(maya)).toBe(live);
      // A note written since the degrees were counted (a run under way) counts the different things
      // it states, its links not read; a caller who counts its own reads them as before.
      sqlite.prepare("DELETE FROM note_degrees WHERE document_id = (SELECT id FROM documents WHERE path = 'people/Maya Chen.md')").run();
      const stated = sqlite.prepare("SELECT COUNT(DISTINCT dst_id) FROM relations WHERE document_id = (SELECT id FROM documents WHERE path = 'people/Maya Chen.md')").pluck().get() as number;
      expect(stated).toBeGreaterThan(0);
      expect(stated).not.toBe(live);
      const fresh = storedGraph(db, { allowSensitivity: [], sensitivityEnable: true });
      expect(fresh.noteDegrees([maya]).get(maya)).toBe(stated);
      expect(storedGraph(db, { allowSensitivity: ['secret'], sensitivityEnable: true }).noteDegrees([maya]).get(maya)).toBe(live);
    } finally {
      sqlite.close();
    }
  });

  it('keep a public degree that leaves restricted notes out, through edits, deletions, renames and sensitivity changes', async () => {
    const vault = temp.make('syn-degrees-public-', { ...VAULT, 'hr/Pay.md': PAY });
    const dataDir = temp.make();
    const engine = createEngine({ dataDir, ...NO_MODELS });
    const maya = 'people/Maya Chen.md';
    const priya = 'people/Priya Raman.md';
    const check = () => {
      const all = degrees(dataDir);
      const pub = publicDegrees(dataDir);
      expect(all.stored).toEqual(all.live);
      expect(pub.stored).toEqual(pub.live);
      return { all: all.live, pub: pub.live };
    };
    try {
      await engine.index([vault]);
      let d = check();
      // The restricted note links Maya and Priya: the whole graph counts it, the public one does not.
      expect(d.pub[maya]).toBe(d.all[maya]! - 1);
      expect(d.pub[priya]).toBe(d.all[priya]! - 1);
      expect(d.pub['hr/Pay.md']).toBeUndefined();

      // The note is made public: every caller now sees its links.
      fs.writeFileSync(path.join(vault, 'hr/Pay.md'), PAY.replace('restricted', 'public'));
      await engine.index([vault]);
      d = check();
      expect(d.pub[maya]).toBe(d.all[maya]);
      expect(d.pub['hr/Pay.md']).toBe(2);

      // Another note is made restricted: its neighbours lose it in the public graph only.
      const storageBefore = d.pub['decisions/Storage.md']!;
      fs.writeFileSync(path.join(vault, 'decisions/Storage.md'), `---\nsensitivity: confidential\n${fs.readFileSync(path.join(vault, 'decisions/Storage.md'), 'utf8').slice(4)}`);
      await engine.index([vault]);
      d = check();
      expect(d.pub['decisions/Storage.md']).toBeUndefined();
      expect(d.all['decisions/Storage.md']).toBe(storageBefore);
      expect(d.pub[priya]).toBe(d.all[priya]! - 1);

      // A deleted and a renamed note.
      fs.rmSync(path.join(vault, 'hr/Pay.md'));
      fs.renameSync(path.join(vault, 'projects/Project Aurora.md'), path.join(vault, 'projects/Aurora.md'));
      await engine.index([vault]);
      d = check();
      expect(d.pub['hr/Pay.md']).toBeUndefined();
      expect(d.pub['projects/Aurora.md']).toBeDefined();
      expect(d.pub[maya]).toBe(d.all[maya]);
    } finally {
      await engine.dispose();
    }
  });

  it('never let a restricted note change what a caller who cannot see it is shown by the graph list', async () => {
    // A seed links two notes that match the question alike; restricted notes link one of them.
    const base = {
      'notes/Seed.md': '# Seed\n\nThe kestrel migration plan, see [[Alpha]] and [[Beta]].\n',
      'notes/Alpha.md': '# Alpha\n\nKestrel migration steps.\n',
      'notes/Beta.md': '# Beta\n\nKestrel migration steps.\n',
    };
    const restricted = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`hr/Review ${i}.md`, `---\nsensitivity: restricted\n---\n# Review ${i}\n\nSee [[Alpha]].\n`]));
    const linked = async (files: Record<string, string>, allow: string[]) => {
      const dataDir = temp.make();
      const engine = createEngine({ dataDir, ...NO_MODELS });
      try {
        await engine.index([temp.make('syn-degrees-rank-', files)]);
      } finally {
        await engine.dispose();
      }
      const sqlite = new BetterSqlite3(path.join(dataDir, DB_FILE), { readonly: true });
      try {
        const db = asReadConnection(sqlite);
        const policy = { allowSensitivity: allow, sensitivityEnable: true };
        const seed = { path: 'notes/Seed.md' } as Parameters<typeof graphList>[3][number];
        const filters = { ...policy, includeGlobs: [], excludeGlobs: [], types: [], languages: [], tags: [], roots: [] };
        return graphList(db, storedGraph(db, policy), 'kestrel migration', [seed], filters).map((c) => c.path);
      } finally {
        sqlite.close();
      }
    };
    const without = await linked(base, []);
    expect(without).toEqual(['notes/Alpha.md', 'notes/Beta.md']);
    expect(await linked({ ...base, ...restricted }, [])).toEqual(without);
    expect(await linked({ ...base, ...restricted }, ['confidential'])).toEqual(without);
    // Whoever sees the restricted notes sees Alpha linked to five notes, which weakens each link.
    expect(await linked({ ...base, ...restricted }, ['restricted'])).toEqual(['notes/Beta.md', 'notes/Alpha.md']);
  });

  it('follow the links a chat model adds to a note', async () => {
    // The model finds the codename Kestrel in the stand-up note, which the rules found nothing in.
    const chat = extractingChat('codename kestrel', { entities: [{ name: 'Kestrel', type: 'project' }], relations: [] });
    const vault = temp.make('syn-degrees-llm-', { ...VAULT, 'notes/Standup.md': '# Standup\n\nthe codename kestrel came up again.\n' });
    const dataDir = temp.make();
    const engine = createEngine({ dataDir, ...NO_MODELS, chat });
    try {
      await engine.index([vault]);
      const before = degrees(dataDir).live;
      await engine.extractGraphWithModel({ budget_ms: 60_000 });
      const d = degrees(dataDir);
      expect(d.live['notes/Standup.md']).toBe(before['notes/Standup.md']! + 1);
      expect(d.stored).toEqual(d.live);
    } finally {
      await engine.dispose();
    }
  });
});
