import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_VAULT, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
import { asReadConnection, type ReadConnection } from '../store/connection.ts';
import { DB_FILE } from '../store/database.ts';
import { visibleTo } from '../store/visibility.ts';
import { evidenceOf, findNode, loadKnowledgeGraph, mentionsOf, suggestNames, type KnowledgeGraph } from './links.ts';
import { storedGraph, type LinkGraph } from './stored.ts';

const temp = new TempDirs();
const noModels = { env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } as NodeJS.ProcessEnv };

// Names shared, cased and accented differently, a name in two forms (WebSocket, WebSockets), a link by path, a name two notes use, an alias two
// notes claim, and a restricted note that names people and a code word nobody else does.
const VAULT = {
  'people/Maya Chen.md': '---\naliases: [Maya, M. Chen]\ntags: [person]\n---\n# Maya Chen\n\nLeads the sync team. Works on [[Project Aurora]] with Kestrel Ops over WebSockets, for the Quokkas.\n',
  'projects/Project Aurora.md': '---\nowner: "[[Maya Chen]]"\n---\n# Project Aurora\n\nThe sync product speaks WebSocket to the relay. See [the storage note](../decisions/Storage.md) and [[people/Maya Chen]].\n',
  'decisions/Storage.md': '---\ndecided_by: M. Chen\npeople: [Priya Raman, José Núñez]\nproject: project aurora\n---\n# Storage\n\nWe chose SQLite with Kestrel Ops and the WebSocket relay. #adr #storage\n\nDiscussed with [[maya chen|Maya]] and [[Nobody Yet]].\n',
  'decisions/Storage v2.md': '---\naliases: [Maya]\npeople: [jose nunez]\n---\n# Storage v2\n\nSupersedes [[Storage]], as the Quokka team asked. #adr\n',
  'hr/Pay.md': '---\nsensitivity: restricted\npeople: [Maya Chen, Ximena Quetzal]\n---\n# Pay\n\nSalary bands for [[Maya Chen]]; codename Bluefin Lantern, with Bluefin Lantern again over WebSockets. #adr\n',
};

// "Bold" is capitalised by two notes and written in lower case by three: a word, no node. Kestrel,
// Grace (each written in lower case by one note), an acronym and a name in an address stay names.
const COMMON_WORDS = {
  'a.md': 'Use the Bold button for Kestrel notes. Write to Grace about HTML on GitHub (see github.com/acme).\n',
  'b.md': 'The Bold style and Kestrel again, with Grace and the HTML export on GitHub.\n',
  'c.md': 'Make the text bold to stress it.\n',
  'd.md': 'A bold claim, in bold type.\n',
  'e.md': 'Nothing bold here, said grace? No: kestrel and html in lower case once each, and github.com.\n',
};

let dataDirs: string[] = [];
beforeAll(async () => {
  for (const vault of [temp.make('syn-stored-', VAULT), SAMPLE_VAULT, temp.make('syn-common-', COMMON_WORDS)]) {
    const dataDir = temp.make();
    const engine = createEngine({ dataDir, ...noModels, config: { graphLlm: false } });
    await engine.index([vault]);
    await engine.dispose();
    dataDirs.push(dataDir);
  }
});
afterAll(() => {
  temp.cleanup();
  dataDirs = [];
});

/** Every node, edge and attribute of the loaded graph, as the stored reader gives them. */
function expectSameGraph(db: ReadConnection, kg: KnowledgeGraph, stored: LinkGraph): void {
  kg.graph.forEachNode((id, attributes) => {
    expect(stored.hasNode(id), id).toBe(true);
    expect(stored.attributes(id), id).toEqual(attributes);
    expect(stored.neighbors(id), id).toEqual(kg.graph.neighbors(id));
    expect(stored.degree(id), id).toBe(kg.graph.degree(id));
    for (const other of kg.graph.neighbors(id)) {
      const attrs = kg.graph.getEdgeAttributes(id, other);
      expect(stored.strength(id, other)).toBe(attrs.rows.length);
      expect(stored.evidence(id, other), `${id} — ${other}`).toEqual(evidenceOf(kg, attrs));
    }
    expect(stored.mentionsOf(id), id).toEqual(mentionsOf(db, kg, id));
  });
}

describe('stored graph reader', () => {
  for (const [name, index] of [
    ['a small vault', 0],
    ['the sample vault', 1],
  ] as const) {
    for (const allow of [[], ['restricted', 'confidential']]) {
      it(`reads the same nodes, edges and evidence as the loaded graph: ${name}, allowing [${allow.join(', ')}]`, () => {
        const sqlite = new BetterSqlite3(path.join(dataDirs[index]!, DB_FILE), { readonly: true });
        try {
          const db = asReadConnection(sqlite);
          const policy = { allowSensitivity: allow, sensitivityEnable: true };
          const kg = loadKnowledgeGraph(db, visibleTo(policy));
          expect(kg.graph.order).toBeGreaterThan(5);
          expectSameGraph(db, kg, storedGraph(db, policy));
          // Read together (all nodes at once; notes and entities in groups of three, as a question's
          // seeds are), each node's edges are what its own read finds, relations shared by two of them included.
          const together = storedGraph(db, policy);
          // A restricted note and the names only it states, read together with the rest, stay out for a caller not allowed it.
          const hidden = ['note:hr/Pay.md', 'entity:bluefin lantern', 'entity:ximena quetzal'];
          together.prefetch([...kg.graph.nodes(), ...hidden, 'note:no/such.md', 'entity:nobody at all', 'nonsense']);
          expect(together.nodesRead).toBeGreaterThanOrEqual(kg.graph.order);
          expectSameGraph(db, kg, together);
          for (const id of hidden) expect(together.hasNode(id), id).toBe(kg.graph.hasNode(id));
          const grouped = storedGraph(db, policy);
          const ids = kg.graph.nodes();
          for (let i = 0; i < ids.length; i += 3) grouped.prefetch(ids.slice(i, i + 3));
          expectSameGraph(db, kg, grouped);
          // Types and capped degrees read together are those of the loaded graph; a node past the cap is not read.
          const types = new Set(['person', 'project', 'entity', 'tag']);
          const counted = storedGraph(db, policy);
          counted.prefetchDegrees([...ids, 'entity:nobody at all'], 2, types);
          expect(counted.nodesRead).toBeLessThan(ids.length);
          for (const id of ids) {
            expect(counted.typeIn(id, types), id).toBe(types.has(kg.graph.getNodeAttributes(id).type));
            expect(counted.degreeAtMost(id, 2), id).toBe(Math.min(kg.graph.degree(id), 3));
          }
          expectSameGraph(db, kg, counted);
          // A hub told without its edges read: never a node within the cap; a note by its kept degree, exactly
          // (for a caller whose degrees are kept: one who sees no restricted note, or every one).
          for (const cap of [0, 1, 2, 4]) {
            const hubs = storedGraph(db, policy);
            for (const id of ids) {
              const past = hubs.pastDegree(id, cap);
              if (past) expect(kg.graph.degree(id), `${id} past ${cap}`).toBeGreaterThan(cap);
              if (id.startsWith('note:') && allow.length === 0) expect(past, `${id} past ${cap}`).toBe(kg.graph.degree(id) > cap);
            }
            expect(hubs.nodesRead).toBe(0);
            expect(ids.some((id) => hubs.pastDegree(id, cap))).toBe(true);
          }
          // Names resolve the same way, including ones that are not there.
          const stored = storedGraph(db, policy);
          const names = ['Maya Chen', 'maya', 'jose nunez', '#adr', 'adr', 'Storage', 'people/Maya Chen.md', 'Kestrel Ops', 'Bluefin Lantern', 'Ximena Quetzal', 'Aurora', 'Nobody Yet', 'stor', 'Priya', 'WebSockets', 'websocket'];
          kg.graph.forEachNode((id, a) => void names.push(a.label, id));
          for (const n of names) {
            expect(stored.findNode(n), n).toBe(findNode(kg, n));
            if (!findNode(kg, n)) expect(stored.suggestNames(n), n).toEqual(suggestNames(kg, n));
          }
          // A node the loaded graph does not have is not there either.
          for (const id of ['entity:bluefin lantern', 'entity:ximena quetzal', 'note:hr/Pay.md', 'entity:nobody at all', 'nonsense']) {
            expect(stored.hasNode(id), id).toBe(kg.graph.hasNode(id));
          }
        } finally {
          sqlite.close();
        }
      });
    }
  }

  it('tells a common word from a name as the loaded graph does, the words of several names counted together', () => {
    const sqlite = new BetterSqlite3(path.join(dataDirs[2]!, DB_FILE), { readonly: true });
    try {
      const db = asReadConnection(sqlite);
      const policy = { allowSensitivity: [], sensitivityEnable: true };
      const kg = loadKnowledgeGraph(db, visibleTo(policy));
      expect(kg.graph.filterNodes((id) => id.startsWith('entity:')).sort()).toEqual(['entity:github', 'entity:grace', 'entity:html', 'entity:kestrel']);
      // Every note's edges read together: the plain names they meet are resolved in one read-ahead.
      const together = storedGraph(db, policy);
      together.prefetch(kg.graph.filterNodes((id) => id.startsWith('note:')));
      expect(together.hasNode('entity:bold')).toBe(false);
      expectSameGraph(db, kg, together);
      // Each alone, and a name asked before any note is read.
      const alone = storedGraph(db, policy);
      expect(alone.hasNode('entity:bold')).toBe(false);
      expect(alone.hasNode('entity:kestrel')).toBe(true);
      expectSameGraph(db, kg, alone);
    } finally {
      sqlite.close();
    }
  });

  it('makes one node of a name’s forms, shown by the form most visible notes use', () => {
    const sqlite = new BetterSqlite3(path.join(dataDirs[0]!, DB_FILE), { readonly: true });
    try {
      const db = asReadConnection(sqlite);
      const policy = { allowSensitivity: [], sensitivityEnable: true };
      const kg = loadKnowledgeGraph(db, visibleTo(policy));
      const stored = storedGraph(db, policy);
      expect(kg.graph.hasNode('entity:websockets')).toBe(false);
      // Two visible notes write "WebSocket", one "WebSockets": one node of three notes.
      expect(kg.graph.getNodeAttribute('entity:websocket', 'label')).toBe('WebSocket');
      expect(stored.attributes('entity:websocket').label).toBe('WebSocket');
      expect(stored.neighbors('entity:websocket').sort()).toEqual(['note:decisions/Storage.md', 'note:people/Maya Chen.md', 'note:projects/Project Aurora.md']);
      expect(stored.findNode('WebSockets')).toBe('entity:websocket');
      // A name each of whose forms one note uses is named by two notes: a node.
      expect(kg.graph.hasNode('entity:quokka')).toBe(true);
      expect(stored.neighbors('entity:quokka').sort()).toEqual(['note:decisions/Storage v2.md', 'note:people/Maya Chen.md']);
      // With the restricted note, each form is written by two notes: the first stated names the node.
      const all = { allowSensitivity: ['restricted'], sensitivityEnable: true };
      expect(storedGraph(db, all).degree('entity:websocket')).toBe(4);
    } finally {
      sqlite.close();
    }
  });

  it('says what a node stands for: from typed fields of visible notes, else the note’s own tags', () => {
    const sqlite = new BetterSqlite3(path.join(dataDirs[0]!, DB_FILE), { readonly: true });
    try {
      const stored = storedGraph(asReadConnection(sqlite), { allowSensitivity: [], sensitivityEnable: true });
      // "decided_by: M. Chen" (an alias) makes the note a person; "project: project aurora" a project.
      expect(stored.role('note:people/Maya Chen.md')).toBe('person');
      expect(stored.role('note:projects/Project Aurora.md')).toBe('project');
      // An entity of a typed field is its type; a plain name, a tag and an untyped note are nothing.
      expect(stored.role('entity:priya raman')).toBe('person');
      expect(stored.role('entity:kestrel ops')).toBeNull();
      expect(stored.role('tag:adr')).toBeNull();
      expect(stored.role('note:decisions/Storage.md')).toBeNull();
    } finally {
      sqlite.close();
    }
  });

  it('reads only the nodes a question touches', () => {
    const sqlite = new BetterSqlite3(path.join(dataDirs[1]!, DB_FILE), { readonly: true });
    try {
      const db = asReadConnection(sqlite);
      const stored = storedGraph(db, { allowSensitivity: [], sensitivityEnable: true });
      const kg = loadKnowledgeGraph(db, visibleTo({ allowSensitivity: [], sensitivityEnable: true }));
      const start = kg.graph.nodes().find((id) => id.startsWith('note:') && kg.graph.degree(id) > 1)!;
      stored.neighbors(start);
      expect(stored.nodesRead).toBe(1);
      expect(kg.graph.order).toBeGreaterThan(20);
    } finally {
      sqlite.close();
    }
  });
});
