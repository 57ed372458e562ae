import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
import { documentFrequencies, ftsTokens, idf, readVarint, rowLengths, tableStats, termScore } from './bm25.ts';
import { searchLexical, type LexicalOptions } from './lexical.ts';
import { asReadConnection } from '../store/connection.ts';
import { phraseStats } from '../store/queries/fts.ts';

describe('BM25 as FTS5 computes it', () => {
  it('reads SQLite varints', () => {
    expect(readVarint(Uint8Array.from([0x05]), 0)).toEqual([5, 1]);
    expect(readVarint(Uint8Array.from([0x81, 0x00]), 0)).toEqual([128, 2]);
    expect(readVarint(Uint8Array.from([0x82, 0x83, 0x04]), 0)).toEqual([2 * 128 * 128 + 3 * 128 + 4, 3]);
  });

  it('reproduces bm25() with column weights from the shadow tables', () => {
    const db = new BetterSqlite3(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(title, heading, body, tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1)");
    db.exec('CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, t, row)');
    const rows = [
      ['cache', 'offline', 'the cache keeps notes offline cache cache'],
      ['sync', '', 'sync relay and cache'],
      ['notes', 'index', 'nothing about it here at all, really nothing'],
      ['café', 'menu', 'coffee and cafe notes'],
    ];
    const ins = db.prepare('INSERT INTO t (rowid, title, heading, body) VALUES (?, ?, ?, ?)');
    rows.forEach((r, i) => ins.run(i + 1, ...r));
    const stats = tableStats(asReadConnection(db), 't');
    expect(stats.rows).toBe(4);
    const all = rows.map((r) => r.flatMap((c) => ftsTokens(c)));
    expect(stats.avgdl).toBeCloseTo(all.reduce((a, r) => a + r.length, 0) / 4, 10);
    const lengths = rowLengths(asReadConnection(db), 't', [1, 2, 3, 4]);
    expect([...lengths.values()]).toEqual(all.map((r) => r.length));
    const w = [2, 1.5, 1];
    for (const term of ['cache', 'cafe', 'notes']) {
      const df = documentFrequencies(asReadConnection(db), 'temp.v', [term]).get(term)!;
      const expected = db.prepare('SELECT rowid, -bm25(t, 2, 1.5, 1) AS s FROM t WHERE t MATCH ? ORDER BY rowid').all(`"${term}"`) as { rowid: number; s: number }[];
      expect(expected.length).toBe(df);
      for (const { rowid, s } of expected) {
        const f = rows[rowid - 1]!.reduce((sum, col, c) => sum + w[c]! * ftsTokens(col).filter((x) => x === term).length, 0);
        expect(termScore(idf(stats.rows, df), f, lengths.get(rowid)!, stats.avgdl)).toBeCloseTo(s, 9);
      }
    }
    db.close();
  });
});

describe('ftsTokens', () => {
  it('makes of analyzed text the tokens the word index holds: marks kept, Latin diacritics folded', () => {
    const db = new BetterSqlite3(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(body, tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'")`);
    db.exec('CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, t, row)');
    const texts = ['район новый', 'café crème', 'हिन्दी राजभाषा', 'คืน เงิน', '退款 七天', 'ёлка 47'];
    for (const t of texts) db.prepare('INSERT INTO t (body) VALUES (?)').run(t);
    const held = (db.prepare('SELECT term FROM temp.v').all() as { term: string }[]).map((r) => r.term).sort();
    expect(texts.flatMap((t) => ftsTokens(t)).sort()).toEqual(held);
    expect(ftsTokens('район')).toEqual(['район']);
    db.close();
  });
});

describe('document frequencies', () => {
  it('are remembered until the store changes, on this connection or another', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'syn-df-')), 'df.db');
    const a = new BetterSqlite3(file);
    const b = new BetterSqlite3(file);
    try {
      a.pragma('journal_mode = WAL');
      a.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'unicode61')");
      for (const db of [a, b]) db.exec('CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, t, row)');
      const ins = a.prepare('INSERT INTO t (body) VALUES (?)');
      ins.run('relay sync');
      ins.run('relay');
      const df = (db: typeof a) => Object.fromEntries(documentFrequencies(asReadConnection(db), 'temp.v', ['relay', 'sync', 'okapi']));
      expect(df(a)).toEqual({ relay: 2, sync: 1, okapi: 0 });
      expect(df(b)).toEqual({ relay: 2, sync: 1, okapi: 0 });
      // Remembered: the vocab table is not read again while nothing changed.
      const read = vi.spyOn(a, 'prepare');
      df(a);
      expect(read.mock.calls.filter(([sql]) => String(sql).includes('temp.v'))).toEqual([]);
      read.mockRestore();
      // A commit on this connection, then one on the other: each is seen at once by both.
      ins.run('okapi relay');
      expect(df(a)).toEqual({ relay: 3, sync: 1, okapi: 1 });
      expect(df(b)).toEqual({ relay: 3, sync: 1, okapi: 1 });
      b.prepare("DELETE FROM t WHERE body = 'relay sync'").run();
      expect(df(a)).toEqual({ relay: 2, sync: 0, okapi: 1 });
      expect(df(b)).toEqual({ relay: 2, sync: 0, okapi: 1 });
    } finally {
      a.close();
      b.close();
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});

describe('one phrase ranked for chosen rows (phraseStats)', () => {
  it('gives each listed row its bm25 rank and the hidden rows\' hits, however few or many rows are listed', () => {
    const db = new BetterSqlite3(':memory:');
    try {
      db.exec("CREATE VIRTUAL TABLE chunks_fts USING fts5(title, heading, body, tokenize = 'unicode61')");
      const ins = db.prepare('INSERT INTO chunks_fts (rowid, title, heading, body) VALUES (?, ?, ?, ?)');
      for (let i = 1; i <= 60; i++) ins.run(i, i % 7 === 0 ? 'relay' : 'note', '', `relay ${'word '.repeat(i % 5)}${i % 3 === 0 ? 'relay' : ''}`);
      const direct = (ids: number[]) =>
        new Map((db.prepare('SELECT rowid AS id, bm25(chunks_fts, 2, 1.5, 1) AS rank FROM chunks_fts WHERE chunks_fts MATCH ?').all('"relay"') as { id: number; rank: number }[]).filter((r) => ids.includes(r.id)).map((r) => [r.id, r.rank]));
      const conn = asReadConnection(db);
      // Three rows listed: the phrase is looked up per row; forty: its 60 matches are read once.
      for (const ids of [[3, 14, 59], Array.from({ length: 40 }, (_, i) => i + 2), [1, 2, 999]]) {
        const got = phraseStats(conn, 'chunks_fts', '"relay"', ids, [7, 21, 22]);
        expect(got.ranks).toEqual(direct(ids));
        expect(got.hits).toBe(60);
        expect(got.hiddenHits).toBe(3);
      }
      const many = Array.from({ length: 50 }, (_, i) => i + 1);
      expect(phraseStats(conn, 'chunks_fts', '"relay"', [5], many).hiddenHits).toBe(50);
      expect(phraseStats(conn, 'chunks_fts', '"okapi"', [5], many)).toEqual({ ranks: new Map(), hits: 0, hiddenHits: 0 });
      // The counts are remembered until the store changes.
      ins.run(61, 'okapi', '', 'relay');
      expect(phraseStats(conn, 'chunks_fts', '"okapi"', [61], many).hits).toBe(1);
      expect(phraseStats(conn, 'chunks_fts', '"relay"', [61], [61]).hits).toBe(61);
      expect(phraseStats(conn, 'chunks_fts', '"relay"', [61], [61]).hiddenHits).toBe(1);
    } finally {
      db.close();
    }
  });
});

describe('pruned lexical search', () => {
  const temp = new TempDirs();
  let db: BetterSqlite3.Database;
  const base: LexicalOptions = { allowSensitivity: [], sensitivityEnable: true, includeGlobs: [], excludeGlobs: [], types: [], languages: [], tags: [], roots: [], k: 5 };

  beforeAll(async () => {
    // 400 notes: "common" words in most of them, "rare" words in a few.
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) {
      const words = [i % 2 ? 'harbor' : 'meadow', i % 3 ? 'lantern' : 'pebble', 'orchard'];
      if (i % 50 === 0) words.push('zeppelin');
      if (i % 80 === 0) words.push('quokka');
      files[`n${i}.md`] = `# Note ${i}\n\n${words.join(' ')} ${'filler '.repeat(i % 7)}\n`;
    }
    const dataDir = temp.make('syn-prune-data-');
    const engine = createEngine({ dataDir, env: {} });
    await engine.index([temp.make('syn-prune-', files)]);
    await engine.dispose();
    db = new BetterSqlite3(path.join(dataDir, 'synapsis.db'));
    expect(fs.existsSync(path.join(dataDir, 'synapsis.db'))).toBe(true);
  });
  afterAll(() => {
    db.close();
    temp.cleanup();
  });

  it('leaves common terms out of the MATCH and gives candidates their full-query scores', () => {
    const q = 'orchard harbor lantern zeppelin quokka';
    const full = searchLexical(asReadConnection(db), q, { ...base, prune: false });
    const pruned = searchLexical(asReadConnection(db), q, { ...base, pruneMinRows: 0 });
    expect(full.pruned).toBe(false);
    expect(pruned.pruned).toBe(true);
    const fullScores = new Map(full.chunks.map((c) => [c.locator, c.score]));
    expect(pruned.chunks.map((c) => c.locator)).toEqual(full.chunks.map((c) => c.locator));
    for (const c of pruned.chunks) expect(c.score).toBeCloseTo(fullScores.get(c.locator)!, 3);
    // Too few clauses, or a small index under the default threshold: the full query runs.
    expect(searchLexical(asReadConnection(db), 'orchard zeppelin', { ...base, pruneMinRows: 0 }).pruned).toBe(false);
    expect(searchLexical(asReadConnection(db), q, base).pruned).toBe(false);
  });
});
