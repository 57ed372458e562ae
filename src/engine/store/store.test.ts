import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BULK_CHECKPOINT_PAGES, BULK_MIN_FREE_BYTES, CHUNK_VECTORS_BY_ID_SQL, CHUNK_VECTORS_PAGE_SQL, DEFAULT_CHECKPOINT_PAGES, embeddedAboveSql, Store } from './store.ts';
import BetterSqlite3 from 'better-sqlite3';
import { sqliteOf } from './connection.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function storeWithVectors(chunks: number): Store {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-store-'));
  dirs.push(dir);
  const store = new Store(dir);
  const root = store.addRoot('/r', [], []);
  store.writeDocument(
    { rootId: root.id, path: 'a.md', docId: 'a.md', type: 'markdown', language: null, title: 'A', contentHash: 'h', mtimeMs: 0, size: 1, status: 'indexed' },
    Array.from({ length: chunks }, (_, i) => ({
      ordinal: i,
      locator: `a.md#L${i + 1}-L${i + 1}`,
      sectionId: null,
      heading: null,
      startLine: i + 1,
      endLine: i + 1,
      text: `chunk ${i}`,
      chunkHash: `c${i}`,
      textHash: `t${i}`,
      // Two chunks share each text: the vector is stored once and read for both.
      embedHash: `e${Math.floor(i / 2)}`,
      tags: {},
      tokenCount: 2,
      fts: { title: 'a', heading: '', body: `chunk ${i}` },
    })),
  );
  store.writeEmbeddings('m', Array.from({ length: Math.ceil(chunks / 2) }, (_, i) => ({ hash: `e${i}`, vector: new Float32Array([i, 1]) })));
  return store;
}

describe('store: vectors and pending embeddings', () => {
  it('reads vectors by chunk id and by id range, looking each vector up by key (never a scan of all vectors)', () => {
    const store = storeWithVectors(10);
    try {
      const ids = sqliteOf(store.db).prepare('SELECT id FROM chunks ORDER BY id').pluck().all() as number[];
      const byId = [...store.chunkVectors('m', [ids[3]!, ids[4]!])].flat();
      expect(byId.map((r) => [r.id, Array.from(r.vector)])).toEqual([
        [ids[3], [1, 1]],
        [ids[4], [2, 1]],
      ]);
      expect([...store.chunkVectors('m')].flat()).toHaveLength(10);
      for (const [sql, params] of [
        [CHUNK_VECTORS_BY_ID_SQL, ['[1]', 'm']],
        [CHUNK_VECTORS_PAGE_SQL, ['m', 0]],
      ] as const) {
        const plan = (sqliteOf(store.db).prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((p) => p.detail);
        expect(plan.at(-1)).toMatch(/SEARCH e USING PRIMARY KEY \(model_id=\? AND text_hash=\?\)/);
      }
    } finally {
      store.dispose();
    }
  });

  it('reads the rows above the embedded mark first and each vector by key, for chunks and sentences', () => {
    const store = storeWithVectors(10);
    try {
      for (const table of ['chunks', 'chunk_sentences']) {
        for (const select of ['c.id', 'COUNT(*)'] as const) {
          const plan = (sqliteOf(store.db).prepare(`EXPLAIN QUERY PLAN ${embeddedAboveSql(table, select)}`).all('m', 5) as { detail: string }[]).map((p) => p.detail);
          expect(plan).toEqual([expect.stringMatching(/^SEARCH c USING INTEGER PRIMARY KEY \(rowid>\?\)/), expect.stringMatching(/^SEARCH e USING PRIMARY KEY \(model_id=\? AND text_hash=\?\)/)]);
        }
      }
      const ids = sqliteOf(store.db).prepare('SELECT id FROM chunks ORDER BY id').pluck().all() as number[];
      store.markEmbeddedThrough('m', 'chunk', ids[5]!);
      store.markEmbeddedThrough('m', 'chunk', ids[2]!); // never moves back
      expect(store.embeddedThrough('m', 'chunk')).toBe(ids[5]);
      expect(store.embeddedThrough('m', 'sentence')).toBe(0);
      expect(store.embeddedChunkIds('m')).toEqual(new Set(ids));
      expect(store.countEmbeddedChunks('m')).toBe(10);
      expect(store.embeddingDimension('m')).toBe(2);
      expect(store.embeddingDimension('other')).toBeNull();
    } finally {
      store.dispose();
    }
  });

  it('pages pending embeddings by chunk id', () => {
    const store = storeWithVectors(10);
    try {
      sqliteOf(store.db).prepare("DELETE FROM embeddings WHERE text_hash IN ('e3', 'e4')").run();
      const first = store.pendingEmbeddings('m', 2);
      expect(first.map((r) => r.hash)).toEqual(['e3', 'e3']);
      const next = store.pendingEmbeddings('m', 10, first.at(-1)!.id);
      expect(next.map((r) => r.hash)).toEqual(['e4', 'e4']);
      expect(store.pendingEmbeddings('m', 10, next.at(-1)!.id)).toEqual([]);
    } finally {
      store.dispose();
    }
  });

  it('counts chunks by language (NULL as und) and reads the language of given chunks', () => {
    const store = storeWithVectors(4);
    try {
      const ids = sqliteOf(store.db).prepare('SELECT id FROM chunks ORDER BY id').pluck().all() as number[];
      const setLang = sqliteOf(store.db).prepare('UPDATE chunks SET lang = ? WHERE id = ?');
      // Two Russian, one undetected (NULL, as written before migration 008), one 'und'.
      setLang.run('ru', ids[0]);
      setLang.run('ru', ids[1]);
      setLang.run('und', ids[3]);
      expect(store.languageCounts()).toEqual([
        { lang: 'ru', chunks: 2 },
        { lang: 'und', chunks: 2 },
      ]);
      expect(store.chunkLanguages([ids[0]!, ids[2]!, 999_999])).toEqual(new Map([[ids[0], 'ru'], [ids[2], 'und']]));
      expect(store.chunkLanguages([])).toEqual(new Map());
    } finally {
      store.dispose();
    }
  });
});

describe('store: sentence spans and their vectors', () => {
  it('splits unsplit prose chunks a page at a time (code into none), pages pending sentence inputs, and maps sentences to chunks', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-store-'));
    dirs.push(dir);
    const store = new Store(dir);
    try {
      const root = store.addRoot('/r', [], []);
      const chunk = (text: string, i: number) => ({
        ordinal: i, locator: `L${i}`, sectionId: null, heading: 'H', startLine: 1, endLine: 1, text, chunkHash: `c${text}`, textHash: `t${text}`,
        embedHash: `e${text}`, tags: {}, tokenCount: 2, fts: { title: '', heading: '', body: text },
      });
      const doc = (p: string, type: string, texts: string[]) =>
        store.writeDocument({ rootId: root.id, path: p, docId: p, type, language: null, title: 'T', contentHash: p, mtimeMs: 0, size: 1, status: 'indexed' }, texts.map(chunk));
      doc('a.md', 'markdown', ['one. two', 'solo']);
      doc('b.py', 'code', ['x = 1. y = 2']);
      const split = (text: string) => (text.includes('.') ? text.split('. ').map((_, i, all) => ({ start: all.slice(0, i).join('. ').length + (i ? 2 : 0), end: all.slice(0, i + 1).join('. ').length })) : []);
      const hashOf = (title: string | null, heading: string | null, text: string) => `${title}|${heading}|${text}`;
      expect(store.countUnsplitChunks()).toBe(3);
      expect(store.splitSentences(split, hashOf, 2)).toBe(2);
      expect(store.splitSentences(split, hashOf, 2)).toBe(1);
      expect(store.splitSentences(split, hashOf, 2)).toBe(0);
      expect(store.countUnsplitChunks()).toBe(0);
      expect(sqliteOf(store.db).prepare('SELECT sentences FROM chunks ORDER BY id').pluck().all()).toEqual([2, 0, 0]);
      const pending = store.pendingEmbeddings('m', 10, 0, 'sentence');
      expect(pending.map((p) => [p.text, p.hash, p.title, p.heading])).toEqual([
        ['one', 'T|H|one', 'T', 'H'],
        ['two', 'T|H|two', 'T', 'H'],
      ]);
      expect(store.countPendingEmbeddings('m', 'sentence')).toBe(2);
      store.writeEmbeddings('m', [{ hash: 'T|H|two', vector: new Float32Array([1, 0]) }]);
      expect(store.pendingEmbeddings('m', 10, 0, 'sentence').map((p) => p.text)).toEqual(['one']);
      expect(store.countEmbeddedChunks('m', 'sentence')).toBe(1);
      const [sid] = [...store.embeddedChunkIds('m', 'sentence')];
      expect([...store.chunkVectors('m', [sid!], 'sentence')].flat().map((r) => Array.from(r.vector))).toEqual([[1, 0]]);
      const chunkId = sqliteOf(store.db).prepare('SELECT id FROM chunks ORDER BY id').pluck().get() as number;
      expect(store.sentenceChunks([sid!, 999])).toEqual(new Map([[sid!, chunkId]]));
      expect(store.sentencesOfChunks([chunkId]).length).toBe(2);
      // Of these chunks, the sentences still waiting for a vector: "one" (two has its own); "solo" has none to make.
      const solo = sqliteOf(store.db).prepare("SELECT id FROM chunks WHERE text = 'solo'").pluck().get() as number;
      expect(store.sentencesWaiting('m', [chunkId, solo])).toBe(1);
      expect(store.sentencesWaiting('other-model', [chunkId])).toBe(2);
      // Re-indexing the document replaces its chunks: their sentences go, the new chunks wait to be split.
      doc('a.md', 'markdown', ['three. four']);
      expect(sqliteOf(store.db).prepare('SELECT COUNT(*) FROM chunk_sentences').pluck().get()).toBe(0);
      expect(store.countUnsplitChunks()).toBe(1);
      // A chunk not split yet counts as one sentence waiting.
      const fresh = sqliteOf(store.db).prepare('SELECT id FROM chunks WHERE sentences IS NULL').pluck().get() as number;
      expect(store.sentencesWaiting('m', [fresh])).toBe(1);
    } finally {
      store.dispose();
    }
  });
});

describe('Store memory map', () => {
  it('maps the configured size, unmaps for an indexing run and maps the same size again', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-store-'));
    dirs.push(dir);
    const store = new Store(dir, { mmapBytes: 64 * 1024 * 1024 });
    const mapped = () => sqliteOf(store.db).pragma('mmap_size', { simple: true });
    expect(mapped()).toBe(64 * 1024 * 1024);
    store.setMemoryMapped(false);
    expect(mapped()).toBe(0);
    store.setMemoryMapped(true);
    expect(mapped()).toBe(64 * 1024 * 1024);
    store.dispose();
  });
});

describe('store: a batch of documents in one transaction', () => {
  const segments = (store: Store, table: 'chunks_fts' | 'chunks_tri') =>
    sqliteOf(store.db).prepare(`SELECT count(DISTINCT segid) FROM ${table}_idx`).pluck().get() as number;
  const doc = (rootId: number, p: string) => ({ rootId, path: p, docId: p, type: 'markdown', language: null, title: p, contentHash: p, mtimeMs: 0, size: 1, status: 'indexed' as const });
  const chunks = (p: string) =>
    Array.from({ length: 3 }, (_, i) => ({
      ordinal: i,
      locator: `${p}#L${i + 1}-L${i + 1}`,
      sectionId: null,
      heading: null,
      startLine: i + 1,
      endLine: i + 1,
      text: `${p} chunk ${i} CreateFileW`,
      chunkHash: `c-${p}-${i}`,
      textHash: `t-${p}-${i}`,
      embedHash: `e-${p}-${i}`,
      tags: {},
      tokenCount: 4,
      fts: { title: p, heading: '', body: `${p} chunk ${i} createfilew` },
    }));

  it('adds one segment to each lexical index, not one per document, and every document is found', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-store-'));
    dirs.push(dir);
    const store = new Store(dir);
    const root = store.addRoot('/r', [], []);
    const db = sqliteOf(store.db);
    // Merging would hide how many segments were written: neither index merges here.
    for (const table of ['chunks_fts', 'chunks_tri']) db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('automerge', 0); INSERT INTO ${table} (${table}, rank) VALUES ('crisismerge', 100)`);
    const found = (term: string) => [
      db.prepare('SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?').pluck().get(`"${term.toLowerCase()}"`),
      db.prepare('SELECT count(*) FROM chunks_tri WHERE chunks_tri MATCH ?').pluck().get(`"${term}"`),
    ];
    const paths = Array.from({ length: 12 }, (_, i) => `n${i}.md`);
    store.writeDocument(doc(root.id, 'first.md'), chunks('first.md'));
    store.writeDocument(doc(root.id, 'n0.md'), chunks('n0.md'));
    expect([segments(store, 'chunks_fts'), segments(store, 'chunks_tri')]).toEqual([2, 2]);

    store.transaction(() => {
      // New notes, a note written before (replaced), one written twice and one written then deleted in the batch.
      for (const p of paths) store.writeDocument(doc(root.id, p), chunks(p));
      store.writeDocument(doc(root.id, 'n1.md'), chunks('n1.md'));
      store.writeDocument(doc(root.id, 'gone.md'), chunks('gone.md'));
      store.deleteDocuments([store.documentByPath(root.id, 'first.md')!.id, store.documentByPath(root.id, 'gone.md')!.id]);
    });
    expect([segments(store, 'chunks_fts'), segments(store, 'chunks_tri')]).toEqual([3, 3]);
    expect(found('CreateFileW')).toEqual([36, 36]);
    expect(found('first.md')).toEqual([0, 0]);
    expect(found('gone.md')).toEqual([0, 0]);
    expect(found('n1.md')).toEqual([3, 3]);
    for (const table of ['chunks_fts', 'chunks_tri']) db.prepare(`INSERT INTO ${table} (${table}) VALUES ('integrity-check')`).run();
    store.dispose();
  });

  it('undoes every document of the batch when one of them fails', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-store-'));
    dirs.push(dir);
    const store = new Store(dir);
    const root = store.addRoot('/r', [], []);
    expect(() =>
      store.transaction(() => {
        store.writeDocument(doc(root.id, 'a.md'), chunks('a.md'));
        // The same chunk hash twice is fine, a chunk without text is not (NOT NULL): the write fails halfway.
        store.writeDocument(doc(root.id, 'b.md'), [...chunks('b.md'), { ...chunks('b.md')[0]!, ordinal: 3, text: null as unknown as string }]);
      }),
    ).toThrow();
    const db = sqliteOf(store.db);
    expect(db.prepare('SELECT count(*) FROM documents').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM chunks').pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM chunks_tri WHERE chunks_tri MATCH 'CreateFileW'").pluck().get()).toBe(0);
    store.dispose();
  });
});

describe('store: bulk writes of an indexing run', () => {
  it('checkpoints every 64 MB of WAL during the run, then copies the WAL into the store and truncates it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-store-'));
    dirs.push(dir);
    const store = new Store(dir);
    const root = store.addRoot('/r', [], []);
    const db = sqliteOf(store.db);
    const wal = () => fs.statSync(`${store.file}-wal`).size;
    const checkpointPages = () => db.pragma('wal_autocheckpoint', { simple: true });
    expect(checkpointPages()).toBe(DEFAULT_CHECKPOINT_PAGES);

    // A disk without room for a 64 MB WAL keeps SQLite's interval.
    store.setBulkWrites(true, BULK_MIN_FREE_BYTES - 1);
    expect(checkpointPages()).toBe(DEFAULT_CHECKPOINT_PAGES);
    store.setBulkWrites(true, BULK_MIN_FREE_BYTES);
    expect(checkpointPages()).toBe(BULK_CHECKPOINT_PAGES);
    // About 2,000 pages: past SQLite's default interval, so only the run's setting leaves them all in the WAL.
    const body = 'слово '.repeat(700);
    for (let b = 0; b < 10; b++) {
      store.transaction(() => {
        for (let i = 0; i < 50; i++) {
          const p = `n${b}-${i}.md`;
          store.writeDocument({ rootId: root.id, path: p, docId: p, type: 'markdown', language: null, title: p, contentHash: p, mtimeMs: 0, size: 1, status: 'indexed' }, [
            { ordinal: 0, locator: `${p}#L1-L1`, sectionId: null, heading: null, startLine: 1, endLine: 1, text: `${p} ${body}`, chunkHash: `c${p}`, textHash: `t${p}`, embedHash: `e${p}`, tags: {}, tokenCount: 700, fts: { title: p, heading: '', body } },
          ]);
        }
      });
    }
    expect(wal()).toBeGreaterThan(DEFAULT_CHECKPOINT_PAGES * 4096);

    store.setBulkWrites(false);
    expect(checkpointPages()).toBe(DEFAULT_CHECKPOINT_PAGES);
    expect(wal()).toBe(0);
    // Everything is in the store file itself: a copy of it alone holds every document.
    const copy = path.join(dir, 'copy.db');
    fs.copyFileSync(store.file, copy);
    const other = new BetterSqlite3(copy, { readonly: true });
    expect(other.prepare('SELECT count(*) FROM documents').pluck().get()).toBe(500);
    other.close();
    store.dispose();
  });
});
