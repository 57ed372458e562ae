import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
import { graphList } from '../retrieve/graph-list.ts';
import { asReadConnection } from '../store/connection.ts';
import { DB_FILE } from '../store/database.ts';
import { PUBLIC_AUDIENCE } from '../store/queries/graph.ts';
import { extractingChat } from '../../../test/helpers/chat.ts';
import { indexedOnce, NO_MODELS } from '../../../test/helpers/engine.ts';
import type { VisibilityPolicy } from '../store/visibility.ts';
import { linksOf, MAX_SOURCE_DEGREE } from './note-links.ts';
import { storedGraph, type LinkGraph } from './stored.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const EVERY_DOCUMENT: VisibilityPolicy = { allowSensitivity: [], sensitivityEnable: false };

/** The graph without its kept links: the graph list walks every source's edges, as it does for a caller none are kept for. */
const walking = (g: LinkGraph): LinkGraph => Object.assign(Object.create(g) as LinkGraph, { noteLinks: () => new Map() });

function withDb<T>(dataDir: string, f: (db: ReturnType<typeof asReadConnection>, sqlite: BetterSqlite3.Database) => T): T {
  const sqlite = new BetterSqlite3(path.join(dataDir, DB_FILE), { readonly: true });
  try {
    return f(asReadConnection(sqlite), sqlite);
  } finally {
    sqlite.close();
  }
}

/**
 * For every note the caller sees: the links kept with the index, beside its links walked from the
 * graph as it is now (none for a note past MAX_SOURCE_DEGREE). Every note must have them kept.
 */
function keptAndWalked(dataDir: string, policy: VisibilityPolicy): { kept: Record<string, Record<string, number>>; walked: Record<string, Record<string, number>> } {
  return withDb(dataDir, (db, sqlite) => {
    const visible = policy === EVERY_DOCUMENT ? '' : "AND (sensitivity IS NULL OR sensitivity = 'public')";
    const ids = (sqlite.prepare(`SELECT DISTINCT path FROM documents WHERE status = 'indexed' ${visible} ORDER BY path`).pluck().all() as string[]).map((p) => `note:${p}`);
    const kept = storedGraph(db, policy).noteLinks(ids);
    const g = storedGraph(db, policy);
    const walked = Object.fromEntries(ids.map((id) => [id, Object.fromEntries(g.hasNode(id) && g.degree(id) <= MAX_SOURCE_DEGREE ? linksOf(g, id) : [])]));
    return { kept: Object.fromEntries(ids.map((id) => [id, Object.fromEntries(kept.get(id) ?? [['(not kept)', 0]])])), walked };
  });
}

/** The graph list of each question from each note as its one seed, with the kept links and walking the graph. */
function listsBothWays(dataDir: string, policy: VisibilityPolicy, questions: readonly string[]): { kept: string[][]; walked: string[][] } {
  return withDb(dataDir, (db, sqlite) => {
    const paths = sqlite.prepare("SELECT path FROM documents WHERE status = 'indexed' ORDER BY path").pluck().all() as string[];
    const filters = { ...policy, includeGlobs: [], excludeGlobs: [], types: [], languages: [], tags: [], roots: [] };
    const kept: string[][] = [];
    const walked: string[][] = [];
    for (const q of questions) {
      for (let i = 0; i < paths.length; i += 3) {
        const ranked = paths.slice(i, i + 6).map((p) => ({ path: p }) as Parameters<typeof graphList>[3][number]);
        const show = (list: ReturnType<typeof graphList>) => list.map((c) => `${c.path}:${c.start_line}:${c.score}`);
        kept.push(show(graphList(db, storedGraph(db, policy), q, ranked, filters)));
        walked.push(show(graphList(db, walking(storedGraph(db, policy)), q, ranked, filters)));
      }
    }
    return { kept, walked };
  });
}

const PEOPLE = ['Maya Chen', 'Priya Raman', 'Nadia Volkova', 'Tom Okafor', 'Lena Park'];
const CODENAMES = ['Kestrel', 'Osprey', 'Heron', 'Plover'];

describe('note links kept with the index', () => {
  it('give the graph list the same notes, order and scores as walking the graph, with hubs, bridge entities and restricted notes', async () => {
    const n = MAX_SOURCE_DEGREE + 3;
    const vault = temp.make('syn-links-eq-', {
      'Relay.md': '# Relay\n\nThe relay forwards encrypted frames for the Kestrel sync.\n',
      'people/Maya Chen.md': '# Maya Chen\n\nLeads the sync team on Kestrel with Priya Raman. See [[Relay]] and [[Storage]].\n',
      'decisions/Storage.md': '---\ndecided_by: Priya Raman\npeople: [Nadia Volkova]\n---\n# Storage\n\nKestrel stores frames in SQLite; Osprey reads them. [[Maya Chen]] agreed.\n',
      'notes/Osprey plan.md': '---\nproject: Osprey\npeople: [Nadia Volkova, Tom Okafor]\n---\n# Osprey plan\n\nOsprey replaces the relay for Kestrel; ask Priya Raman.\n',
      'hr/Review.md': '---\nsensitivity: restricted\npeople: [Priya Raman]\n---\n# Review\n\nPriya Raman on Kestrel and Osprey, see [[Storage]] and [[Maya Chen]].\n',
      'hr/Secret.md': '---\nsensitivity: secret\n---\n# Secret\n\nTom Okafor and Nadia Volkova on Osprey. See [[Osprey plan]].\n',
      ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`pages/p${i}.md`, `# Page ${i}\n\nGardening page ${i} about the [[Relay]]${i % 40 === 0 ? ', Kestrel and Priya Raman' : ''}.\n`])),
    });
    const dataDir = await indexedOnce(vault, temp.make());
    // The relay is a hub, whose links are not kept; a person and a codename join notes.
    const all = keptAndWalked(dataDir, EVERY_DOCUMENT);
    expect(all.kept['note:Relay.md']).toEqual({});
    expect(Object.keys(all.kept['note:decisions/Storage.md']!)).toEqual(expect.arrayContaining(['note:notes/Osprey plan.md', 'note:hr/Review.md', 'note:people/Maya Chen.md']));
    expect(all.kept).toEqual(all.walked);
    const pub = keptAndWalked(dataDir, PUBLIC_AUDIENCE);
    expect(Object.keys(pub.kept['note:decisions/Storage.md']!)).not.toContain('note:hr/Review.md');
    expect(pub.kept).toEqual(pub.walked);
    const questions = ['Who decided on Storage for Kestrel?', 'What does Osprey replace, and who asked Nadia Volkova?', 'gardening relay frames'];
    for (const policy of [EVERY_DOCUMENT, PUBLIC_AUDIENCE, { allowSensitivity: ['restricted', 'secret'], sensitivityEnable: true }, { allowSensitivity: ['restricted'], sensitivityEnable: true }]) {
      const { kept, walked } = listsBothWays(dataDir, policy, questions);
      expect(kept.flat().length).toBeGreaterThan(100);
      expect(kept).toEqual(walked);
    }
    // A caller allowed some restricted labels but not all has no kept links: it walks the graph.
    withDb(dataDir, (db) => expect(storedGraph(db, { allowSensitivity: ['restricted'], sensitivityEnable: true }).noteLinks(['note:decisions/Storage.md']).size).toBe(0));
  });

  it('stay the links walked from the graph through a random sequence of edits, renames, deletions and sensitivity changes', async () => {
    // A small deterministic generator (mulberry32), so a failure is the same on every run.
    let seed = 4801;
    const rand = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
    const vault = temp.make('syn-links-prop-', {});
    const notes = new Set<string>();
    const write = (rel: string) => {
      const others = [...notes].filter((p) => p !== rel);
      const links = Array.from({ length: Math.floor(rand() * 3) }, () => (others.length > 0 ? `[[${path.basename(pick(others), '.md')}]]` : '')).join(' ');
      const people = Array.from({ length: 1 + Math.floor(rand() * 2) }, () => pick(PEOPLE));
      const sensitivity = rand() < 0.2 ? pick(['restricted', 'secret']) : null;
      const body = `${pick(CODENAMES)} work with ${pick(PEOPLE)}; ${rand() < 0.5 ? `${pick(CODENAMES)} too. ` : ''}${links}`;
      const front = `---\n${sensitivity ? `sensitivity: ${sensitivity}\n` : ''}people: [${people.join(', ')}]\n${rand() < 0.4 ? `project: ${pick(CODENAMES)}\n` : ''}---\n`;
      fs.mkdirSync(path.dirname(path.join(vault, rel)), { recursive: true });
      fs.writeFileSync(path.join(vault, rel), `${front}# ${path.basename(rel, '.md')}\n\n${body}\n`);
      notes.add(rel);
    };
    // Some notes are named as the people are: adding or removing one moves the links that named them.
    let next = 0;
    const fresh = () => (rand() < 0.3 ? `people/${pick(PEOPLE)}.md` : `notes/n${next++}.md`);
    for (let i = 0; i < 8; i++) write(fresh());
    const dataDir = temp.make();
    const engine = createEngine({ dataDir, ...NO_MODELS });
    const ops = { add: 0, edit: 0, append: 0, rename: 0, remove: 0, restrict: 0 };
    try {
      await engine.index([vault]);
      for (let step = 0; step < 30; step++) {
        const edits = 1 + Math.floor(rand() * 2);
        for (let e = 0; e < edits; e++) {
          const op = notes.size < 4 ? 'add' : pick(['add', 'edit', 'edit', 'append', 'rename', 'remove', 'restrict'] as const);
          ops[op]++;
          if (op === 'add') write(fresh());
          else if (op === 'edit') write(pick([...notes]));
          // An edit that names nothing new: the notes that share its names keep their links.
          else if (op === 'append') fs.appendFileSync(path.join(vault, pick([...notes])), 'More words about the sync.\n');
          else if (op === 'rename') {
            const from = pick([...notes]);
            const to = fresh();
            if (notes.has(to)) continue;
            fs.mkdirSync(path.dirname(path.join(vault, to)), { recursive: true });
            fs.renameSync(path.join(vault, from), path.join(vault, to));
            notes.delete(from);
            notes.add(to);
          } else if (op === 'remove') {
            const p = pick([...notes]);
            fs.rmSync(path.join(vault, p));
            notes.delete(p);
          } else {
            const p = pick([...notes]);
            const text = fs.readFileSync(path.join(vault, p), 'utf8').replace(/^sensitivity: .*\n/m, '');
            fs.writeFileSync(path.join(vault, p), text.replace('---\n', `---\nsensitivity: ${pick(['restricted', 'secret', 'public'])}\n`));
          }
        }
        await engine.index([vault]);
        for (const policy of [EVERY_DOCUMENT, PUBLIC_AUDIENCE]) {
          const { kept, walked } = keptAndWalked(dataDir, policy);
          expect({ step, links: kept }).toEqual({ step, links: walked });
        }
      }
    } finally {
      await engine.dispose();
    }
    expect(Math.min(...Object.values(ops))).toBeGreaterThan(0);
  });

  it('follow the links a chat model adds to a note', async () => {
    // The model finds the codename Kestrel in the stand-up note, which the rules found nothing in:
    // the stand-up note is then joined to the notes that name Kestrel.
    const chat = extractingChat('codename kestrel', { entities: [{ name: 'Kestrel', type: 'project' }], relations: [] });
    const vault = temp.make('syn-links-llm-', {
      'notes/Plan.md': '---\nproject: Kestrel\n---\n# Plan\n\nThe sync plan.\n',
      'notes/Review.md': '---\nproject: Kestrel\n---\n# Review\n\nThe review of the sync.\n',
      'notes/Standup.md': '# Standup\n\nthe codename kestrel came up again.\n',
    });
    const dataDir = temp.make();
    const engine = createEngine({ dataDir, ...NO_MODELS, chat });
    try {
      await engine.index([vault]);
      expect(keptAndWalked(dataDir, EVERY_DOCUMENT).kept['note:notes/Plan.md']).not.toHaveProperty('note:notes/Standup.md');
      await engine.extractGraphWithModel({ budget_ms: 60_000 });
      const { kept, walked } = keptAndWalked(dataDir, EVERY_DOCUMENT);
      expect(kept['note:notes/Plan.md']).toHaveProperty('note:notes/Standup.md');
      expect(kept).toEqual(walked);
    } finally {
      await engine.dispose();
    }
  });
});
