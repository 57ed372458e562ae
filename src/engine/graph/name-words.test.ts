import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs, writeFiles } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
import { asReadConnection } from '../store/connection.ts';
import { DB_FILE } from '../store/database.ts';
import { visibleDocumentsWriting, visibleDocumentsWritingEach, wordGlobs } from '../store/queries/graph.ts';
import { allowedParam, visibleSql } from '../store/visibility.ts';
import { Store } from '../store/store.ts';
import type { VisibilityPolicy } from '../store/visibility.ts';
import { loadKnowledgeGraph } from './links.ts';
import { lowerCaseForm, writtenWordsOf } from './names.ts';
import { storedGraph } from './stored.ts';
import { visibleTo } from '../store/visibility.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());
const noModels = { env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } as NodeJS.ProcessEnv };

const POLICIES: Record<string, VisibilityPolicy> = {
  everyone: { allowSensitivity: [], sensitivityEnable: false },
  public: { allowSensitivity: [], sensitivityEnable: true },
  restricted: { allowSensitivity: ['restricted'], sensitivityEnable: true },
};

const VAULT = {
  'Alpha.md': '# Alpha\n\nWe asked Falcon about the relay. Falcon said yes, and Kestrel agreed.\n',
  'Beta.md': '# Beta\n\nThe team met Falcon and Kestrel today.\n',
  'Gamma.md': '# Gamma\n\nA falcon flew over the relay (falcon) at noon. The kestrel too.\n',
  'Delta.md': '---\nsensitivity: restricted\n---\n# Delta\n\nThe falcon, a falcon. Another kestrel.\n',
  'Epsilon.md': '# Epsilon\n\nSee github.com/falcon and the /falcon/ folder, the falcon-based pipeline, FALCON.\n',
};

/**
 * The reference the kept counts are held to: the visible indexed documents whose chunks write `word`
 * exactly so, up to `cap`, found through the full-text index by its term and tested with the GLOBs.
 */
function writingInChunks(sqlite: BetterSqlite3.Database, policy: VisibilityPolicy, term: string, word: string, cap: number): number {
  return sqlite
    .prepare(
      `SELECT COUNT(*) FROM (SELECT DISTINCT c.document_id FROM chunks_fts CROSS JOIN chunks c ON c.id = chunks_fts.rowid CROSS JOIN documents d ON d.id = c.document_id
        WHERE chunks_fts MATCH @match AND ((' ' || c.text || ' ') GLOB @glob OR (' ' || c.text || ' ') GLOB @globStop) AND d.status = 'indexed' AND ${visibleSql(policy)} LIMIT @cap)`,
    )
    .pluck()
    .get({ match: `"${term}"`, ...wordGlobs(word), cap, allowed: allowedParam(policy) }) as number;
}

/** Every single-word name's count of lower-case writings, per caller: as kept with the index, and as the chunks say (a copy without the kept counts). */
function counts(dataDir: string): { kept: Record<string, number | null>; chunks: Record<string, number | null>; counted: number } {
  const file = path.join(dataDir, DB_FILE);
  const copy = path.join(temp.make(), DB_FILE);
  const read = (dbFile: string, fromChunks: boolean) => {
    const sqlite = new BetterSqlite3(dbFile, { readonly: true });
    try {
      const names = sqlite.prepare("SELECT DISTINCT name FROM entities WHERE type = 'name' ORDER BY name").pluck().all() as string[];
      const out: Record<string, number | null> = {};
      for (const name of names) {
        const form = lowerCaseForm(name);
        if (!form) continue;
        for (const [who, policy] of Object.entries(POLICIES)) out[`${form.word} ${who}`] = fromChunks ? writingInChunks(sqlite, policy, form.term, form.word, 100) : visibleDocumentsWriting(asReadConnection(sqlite), policy, form.word, 100);
      }
      return { out, counted: sqlite.prepare('SELECT COUNT(*) FROM counted_words').pluck().get() as number };
    } finally {
      sqlite.close();
    }
  };
  const kept = read(file, false);
  const writer = new BetterSqlite3(file, { readonly: true });
  try {
    writer.prepare('VACUUM INTO ?').run(copy);
  } finally {
    writer.close();
  }
  const plain = new BetterSqlite3(copy);
  plain.exec('DELETE FROM counted_words; DELETE FROM lower_writings;');
  plain.close();
  return { kept: kept.out, chunks: read(copy, true).out, counted: kept.counted };
}

async function index(dataDir: string, vault: string): Promise<void> {
  const engine = createEngine({ dataDir, ...noModels });
  try {
    await engine.index([vault]);
  } finally {
    await engine.dispose();
  }
}

describe('writtenWordsOf', () => {
  it('finds a word where the chunks\' GLOB finds it', () => {
    const sqlite = new BetterSqlite3(':memory:');
    const glob = sqlite.prepare("SELECT (' ' || @text || ' ') GLOB @glob OR (' ' || @text || ' ') GLOB @globStop");
    const texts = [
      'falcon', 'Falcon', 'the falcon.', 'the falcon.x', 'a falcon, then', '(falcon)', '«falcon»', '“falcon”', '*falcon*', '_falcon_', "falcon's",
      'github.com/falcon', '/falcon/', 'falcon-based', 'falcons', 'FALCON', 'x\nfalcon\n', 'tab\tfalcon\t', 'the falcon.\nNext', 'Tesla falcon?', 'falcon!',
      'a.falcon b', 'ёфалькон', 'про фалькон.', 'фалькон', 'Фалькон',
    ];
    for (const word of ['falcon', 'фалькон']) {
      for (const text of texts) {
        const sql = (glob.pluck().get({ text, ...wordGlobs(word) }) as number) === 1;
        expect([text, writtenWordsOf(text, new Set([word])).has(word)]).toEqual([text, sql]);
      }
    }
    sqlite.close();
  });
});

describe('lower-case writings of names kept with the index', () => {
  it('count what the chunks count, for every caller, after an index run and after edits', async () => {
    const vault = temp.make('syn-vault-', VAULT);
    const dataDir = temp.make();
    await index(dataDir, vault);
    const first = counts(dataDir);
    expect(first.counted).toBeGreaterThanOrEqual(2);
    expect(first.kept).toEqual(first.chunks);
    // Gamma writes "falcon" in lower case; the restricted Delta too, seen only by a caller allowed it;
    // an address, a path, a compound and capitals are not lower-case writings of the word.
    expect(first.kept).toMatchObject({ 'falcon everyone': 2, 'falcon public': 1, 'falcon restricted': 2, 'kestrel public': 1, 'kestrel restricted': 2 });

    // Edits: a note stops writing the word, another starts, one goes.
    writeFiles(vault, { 'Gamma.md': '# Gamma\n\nA hawk flew over the relay.\n', 'Zeta.md': '# Zeta\n\nThe falcon is back; a kestrel. Falcon again.\n' });
    fs.rmSync(path.join(vault, 'Delta.md'));
    await index(dataDir, vault);
    const second = counts(dataDir);
    expect(second.kept).toEqual(second.chunks);
    expect(second.kept).toMatchObject({ 'falcon everyone': 1, 'falcon public': 1, 'falcon restricted': 1, 'kestrel everyone': 1 });
  }, 60_000);

  it('are read for several words together as for each alone, counted words only, up to the cap', async () => {
    const vault = temp.make('syn-vault-', VAULT);
    const dataDir = temp.make();
    await index(dataDir, vault);
    const sqlite = new BetterSqlite3(path.join(dataDir, DB_FILE), { readonly: true });
    try {
      const counted = sqlite.prepare('SELECT word FROM counted_words ORDER BY word').pluck().all() as string[];
      expect(counted).toEqual(expect.arrayContaining(['falcon', 'kestrel']));
      const db = asReadConnection(sqlite);
      for (const [who, policy] of Object.entries(POLICIES)) {
        for (const cap of [1, 2, 25]) {
          const together = new Map(visibleDocumentsWritingEach(db, policy, [...counted, 'hawk'], cap).map((r) => [r.word, r.n]));
          // A word not counted with the index is left out, and counts as none alone.
          expect(together.has('hawk')).toBe(false);
          expect(visibleDocumentsWriting(db, policy, 'hawk', cap)).toBeNull();
          const alone = new Map(counted.map((w) => [w, visibleDocumentsWriting(db, policy, w, cap)]));
          expect([who, cap, together]).toEqual([who, cap, alone]);
        }
      }
      expect(visibleDocumentsWritingEach(db, POLICIES.everyone!, ['falcon', 'kestrel'], 25)).toEqual([
        { word: 'falcon', n: 2 },
        { word: 'kestrel', n: 2 },
      ]);
      expect(visibleDocumentsWritingEach(db, POLICIES.everyone!, ['falcon'], 1)).toEqual([{ word: 'falcon', n: 1 }]);
    } finally {
      sqlite.close();
    }
  }, 60_000);

  it('come out the same from one pass over the chunks as from the full-text index', async () => {
    const vault = temp.make('syn-vault-', VAULT);
    const dataDir = temp.make();
    await index(dataDir, vault);
    const byIndex = counts(dataDir).kept;
    const sqlite = new BetterSqlite3(path.join(dataDir, DB_FILE));
    const words = sqlite.prepare('SELECT word FROM counted_words').pluck().all() as string[];
    sqlite.exec('DELETE FROM counted_words; DELETE FROM lower_writings;');
    sqlite.close();
    const store = new Store(dataDir);
    try {
      expect(store.uncountedNameWords().sort()).toEqual([...words].sort());
      const counted = () => {
        const reader = new BetterSqlite3(path.join(dataDir, DB_FILE), { readonly: true });
        try {
          return reader.prepare('SELECT COUNT(*) FROM counted_words').pluck().get() as number;
        } finally {
          reader.close();
        }
      };
      // Two chunks a page: several pages, the words marked counted only at the end.
      let pages = 0;
      for (let after = store.countWordsInChunks(new Set(words), 0, 2); after !== null; after = store.countWordsInChunks(new Set(words), after, 2)) {
        pages++;
        expect(counted()).toBe(0);
      }
      expect(pages).toBeGreaterThan(1);
      expect(counted()).toBe(words.length);
    } finally {
      store.dispose();
    }
    expect(counts(dataDir).kept).toEqual(byIndex);
  }, 60_000);

  it('decide which names are common words; a word not counted yet makes its name none', async () => {
    // Falcon and Osprey: names two notes use, that fewer write in lower case. Kestrel: as many notes write "kestrel".
    const vault = temp.make('syn-vault-', {
      'Alpha.md': '# Alpha\n\nWe asked Falcon about the relay. Falcon said yes, and Kestrel agreed.\n',
      'Beta.md': '# Beta\n\nThe team met Falcon and Kestrel today.\n',
      'Gamma.md': '# Gamma\n\nA kestrel flew over the relay at noon, and a falcon.\n',
      'Iota.md': '# Iota\n\nThe kestrel came back.\n',
      'Eta.md': '# Eta\n\nWe called Osprey about the relay.\n',
      'Theta.md': '# Theta\n\nThe team met Osprey again.\n',
    });
    const dataDir = temp.make();
    await index(dataDir, vault);
    const nodes = (file: string) => {
      const sqlite = new BetterSqlite3(file, { readonly: true });
      try {
        const db = asReadConnection(sqlite);
        const policy = POLICIES.everyone!;
        const stored = storedGraph(db, policy);
        const loaded = loadKnowledgeGraph(db, visibleTo(policy)).graph;
        return ['entity:falcon', 'entity:kestrel', 'entity:osprey'].map((id) => [id, stored.hasNode(id), loaded.hasNode(id)]);
      } finally {
        sqlite.close();
      }
    };
    // Counted at the end of the run: Falcon and Osprey are nodes of both readers, Kestrel a common word.
    expect(nodes(path.join(dataDir, DB_FILE))).toEqual([
      ['entity:falcon', true, true],
      ['entity:kestrel', false, false],
      ['entity:osprey', true, true],
    ]);
    // As while a first run is under way (nothing counted yet): neither is a node, for either reader.
    const copy = path.join(temp.make(), DB_FILE);
    const source = new BetterSqlite3(path.join(dataDir, DB_FILE), { readonly: true });
    source.prepare('VACUUM INTO ?').run(copy);
    source.close();
    const plain = new BetterSqlite3(copy);
    plain.exec('DELETE FROM counted_words; DELETE FROM lower_writings;');
    plain.close();
    expect(nodes(copy)).toEqual([
      ['entity:falcon', false, false],
      ['entity:kestrel', false, false],
      ['entity:osprey', false, false],
    ]);
  }, 60_000);
});
