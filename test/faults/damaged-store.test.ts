import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateMarkdownCorpus } from '../../src/cli/bench/corpus.ts';
import { HashedEmbedder } from '../../src/cli/bench/hashed-embedder.ts';
import { runCli } from '../../src/cli/main.ts';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import { DB_FILE } from '../../src/engine/store/database.ts';
import { rebuildStore } from '../../src/engine/store/repair.ts';
import { DATA_FILE } from '../../src/engine/vector/common.ts';
import { isSynapsisError } from '../../src/shared/errors.ts';
import { TempDirs } from '../helpers/tmp.ts';

const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
});
afterAll(() => temp.cleanup());

function open(dataDir: string): Engine {
  const engine = createEngine({ dataDir, env: {}, embedder: new HashedEmbedder(64) });
  engines.push(engine);
  return engine;
}

async function close(engine: Engine): Promise<void> {
  engines.splice(engines.indexOf(engine), 1);
  await engine.dispose();
}

let corpus: string;
/** A data dir indexed once (lexical, chunk and sentence vectors), copied for each case so every case starts alike. */
let pristine: string;
let indexVersion: string;
let cleanHybrid: string[];
let cleanDense: string[];
let cleanChunks: number;
const QUERY = 'replica snapshot latency';

const locators = async (engine: Engine, mode?: 'dense') => (await engine.retrieve(QUERY, mode ? { mode } : {}, 10)).chunks.map((c) => c.locator);

beforeAll(async () => {
  corpus = temp.make('syn-store-corpus-');
  // 500 notes: about 14,000 sentence vectors, a 3.6 MB sentence index (more than the head and tail its digest reads).
  generateMarkdownCorpus(corpus, 500, 11);
  pristine = temp.make('syn-store-data-');
  const engine = open(pristine);
  await engine.index([corpus]);
  indexVersion = engine.indexVersion;
  cleanHybrid = await locators(engine);
  cleanDense = await locators(engine, 'dense');
  cleanChunks = (await engine.health()).chunks;
  await close(engine);
});

function copy(): string {
  const dataDir = temp.make('syn-store-case-');
  fs.cpSync(pristine, dataDir, { recursive: true });
  return dataDir;
}

/**
 * Random bytes over 20 pages of the store: the root pages of the chunks and relations tables and 18
 * others. The schema's own pages (the header page and the rest of sqlite_schema) are left alone
 * unless `schema` is set: damage there stops the store from opening at all, the next case.
 */
function damagePages(file: string, schema = false): void {
  const db = new BetterSqlite3(file, { readonly: true });
  const roots = (db.prepare("SELECT rootpage FROM sqlite_master WHERE name IN ('chunks', 'relations')").pluck().all() as number[]).map((p) => p - 1);
  const schemaPages = new Set((db.prepare("SELECT pageno FROM dbstat WHERE name = 'sqlite_schema'").pluck().all() as number[]).map((p) => p - 1));
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const pages = Math.floor(fs.statSync(file).size / pageSize);
  let seed = 7;
  const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const targets = new Set(schema ? [...roots, ...[...schemaPages].filter((p) => p > 0)] : roots);
  while (targets.size < 20) {
    const page = 1 + Math.floor(rand() * (pages - 1));
    if (!schemaPages.has(page)) targets.add(page);
  }
  const fd = fs.openSync(file, 'r+');
  for (const page of targets) {
    const bytes = Buffer.alloc(pageSize);
    for (let i = 0; i < pageSize; i++) bytes[i] = Math.floor(rand() * 256);
    fs.writeSync(fd, bytes, 0, pageSize, page * pageSize);
  }
  fs.closeSync(fd);
}

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a store with damaged pages', () => {
  it('is reported by health, refused by index with a coded error, and rebuilt by repair to the clean rankings', async () => {
    const dataDir = copy();
    damagePages(path.join(dataDir, DB_FILE));

    // health: status degraded with the damage first when the rest of the report can be read, else
    // the coded error (the chunks table's root page is among the damaged ones here); the CLI exits 1.
    const engine = open(dataDir);
    const health = await engine.call('health/get', {}).then((report) => report, (error: unknown) => error);
    if (isSynapsisError(health)) expect(health.code).toBe('E_SYN_STORE_DAMAGED');
    else {
      expect((health as { status: string }).status).toBe('degraded');
      expect((health as { degradations: string[] }).degradations[0]).toMatch(/^store damaged: .*synapsis repair --data-dir /);
    }
    expect(engine.manifest()).not.toBeNull();
    // index: refused instead of "unchanged" over a broken store.
    await expect(engine.index([corpus])).rejects.toMatchObject({ code: 'E_SYN_STORE_DAMAGED' });
    // search through the contract: the coded error, whatever statement met the damage.
    const searched = await engine.call('search/query', { query: QUERY }).then(() => null, (error: unknown) => error);
    expect(isSynapsisError(searched) && searched.code).toBe('E_SYN_STORE_DAMAGED');
    await close(engine);

    const healthCli = await cli(['health', '--data-dir', dataDir]);
    expect(healthCli.code).toBe(1);
    expect(healthCli.out + healthCli.err).toMatch(/store damaged|E_SYN_STORE_DAMAGED/);
    expect(healthCli.err).not.toMatch(/SqliteError|\n\s+at /);
    for (const args of [['search', QUERY], ['index']]) {
      const run = await cli([...args, '--data-dir', dataDir]);
      expect(run.code).toBe(1);
      expect(run.err).toMatch(/^error \[E_SYN_STORE_DAMAGED\]: The store .* is damaged .*synapsis repair --data-dir/);
      expect(run.err).not.toMatch(/SqliteError|\n\s+at /);
    }
    const doctor = await cli(['doctor', '--no-llm', '--data-dir', dataDir]);
    expect(doctor.out).toMatch(/FAIL {2}store .* is damaged: .*\n\s+fix: synapsis repair --data-dir /);

    // repair: the old file kept aside, embeddings re-used, the clean rankings back.
    const rebuild = rebuildStore(dataDir);
    expect(rebuild.roots.map((r) => r.path)).toEqual([fs.realpathSync(corpus)]);
    expect(rebuild.set_aside).toMatch(/synapsis\.db\.damaged-\d{4}-/);
    expect(fs.existsSync(rebuild.set_aside!)).toBe(true);
    expect(rebuild.embeddings).toBeGreaterThan(cleanChunks);
    const repaired = open(dataDir);
    const report = await repaired.index();
    expect(report.indexed).toBe(500);
    // Only the texts whose vectors sat on a damaged page are embedded again.
    expect(report.embedded).toBeLessThan(cleanChunks / 10);
    expect(await locators(repaired)).toEqual(cleanHybrid);
    expect(await locators(repaired, 'dense')).toEqual(cleanDense);
    const after = await repaired.health();
    expect(after.chunks).toBe(cleanChunks);
    expect(after.degradations.join(' ')).not.toMatch(/store damaged/);
  });
});

/**
 * 200 random bytes inside each of 20 random pages (the schema's, the header and the roots of the
 * chunks and relations tables left alone): quick_check finds it, while many reads meet no error and
 * answer from what is left (another note as the top hit, "not found" for a note that is there).
 */
function damageInsidePages(file: string): void {
  const db = new BetterSqlite3(file, { readonly: true });
  const spared = new Set(
    (db.prepare("SELECT pageno FROM dbstat WHERE name = 'sqlite_schema'").pluck().all() as number[]).concat(
      db.prepare("SELECT rootpage FROM sqlite_master WHERE name IN ('chunks', 'relations')").pluck().all() as number[],
    ),
  );
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const pages = Math.floor(fs.statSync(file).size / pageSize);
  let seed = 11;
  const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const targets = new Set<number>();
  while (targets.size < 20) {
    const page = 2 + Math.floor(rand() * (pages - 2));
    if (!spared.has(page)) targets.add(page);
  }
  const fd = fs.openSync(file, 'r+');
  for (const page of targets) {
    const bytes = Buffer.alloc(200);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(rand() * 256);
    fs.writeSync(fd, bytes, 0, bytes.length, (page - 1) * pageSize + Math.floor(rand() * (pageSize - 200)));
  }
  fs.closeSync(fd);
}

describe('a store known to be damaged', () => {
  it('refuses search, source and ask in every later process, naming repair, until repair rebuilds it', async () => {
    const dataDir = copy();
    const before = open(dataDir);
    const hit = (await before.retrieve(QUERY, {}, 1)).chunks[0]!.locator;
    await close(before);
    damageInsidePages(path.join(dataDir, DB_FILE));

    // health finds it (or meets it reading the report).
    const healthCli = await cli(['health', '--data-dir', dataDir]);
    expect(healthCli.code).toBe(1);
    expect(healthCli.out + healthCli.err).toMatch(/store damaged|E_SYN_STORE_DAMAGED/);

    // Another engine (another process) refuses, whatever each read would meet.
    const later = open(dataDir);
    for (const request of [() => later.retrieve(QUERY, {}, 5), () => later.answer('What is the replica snapshot latency?'), async () => later.source(hit)]) {
      const error = await request().then(() => null, (e: unknown) => e);
      expect(isSynapsisError(error) && error.code).toBe('E_SYN_STORE_DAMAGED');
      expect((error as Error).message).toMatch(/is damaged .*synapsis repair --data-dir /);
    }
    await close(later);
    for (const args of [['search', QUERY], ['source', hit], ['ask', 'What is the replica snapshot latency?']]) {
      const run = await cli([...args, '--data-dir', dataDir]);
      expect(run.code, args[0]).toBe(1);
      expect(run.err).toMatch(/^error \[E_SYN_STORE_DAMAGED\]: The store .* is damaged .*synapsis repair --data-dir/);
      expect(run.out).toBe('');
    }

    // repair replaces the store file: the record no longer applies, and the clean rankings are back.
    rebuildStore(dataDir);
    const repaired = open(dataDir);
    await repaired.index();
    expect(await locators(repaired)).toEqual(cleanHybrid);
    expect(repaired.source(hit).text.length).toBeGreaterThan(0);
  });

  it('refuses a source once a search has met damage, and so does the next process', async () => {
    const dataDir = copy();
    const before = open(dataDir);
    const hit = (await before.retrieve(QUERY, {}, 1)).chunks[0]!.locator;
    await close(before);
    damagePages(path.join(dataDir, DB_FILE));
    const engine = open(dataDir);
    await expect(engine.retrieve(QUERY, {}, 5)).rejects.toMatchObject({ code: 'E_SYN_STORE_DAMAGED' });
    expect(() => engine.source(hit)).toThrow(/is damaged .*synapsis repair/);
    await close(engine);
    const next = await cli(['source', hit, '--data-dir', dataDir]);
    expect(next.code).toBe(1);
    expect(next.err).toMatch(/^error \[E_SYN_STORE_DAMAGED\]/);
  });
});

describe('a store whose schema pages are damaged', () => {
  it('is refused at open with the coded error naming repair, which rebuilds it from the recorded roots', async () => {
    const dataDir = copy();
    const file = path.join(dataDir, DB_FILE);
    const probe = new BetterSqlite3(file, { readonly: true });
    const schemaPages = probe.prepare("SELECT count(*) FROM dbstat WHERE name = 'sqlite_schema'").pluck().get() as number;
    probe.close();
    // Page 1 holds the header, which stays; a schema of more than one page is damaged beyond it.
    if (schemaPages < 2) {
      const fd = fs.openSync(file, 'r+');
      fs.writeSync(fd, Buffer.alloc(200, 0xab), 0, 200, 100 + 8);
      fs.closeSync(fd);
    } else damagePages(file, true);
    let error: unknown;
    try {
      open(dataDir);
    } catch (e) {
      error = e;
    }
    expect(isSynapsisError(error) && error.code).toBe('E_SYN_STORE_DAMAGED');
    expect((error as Error).message).toMatch(/is damaged .*synapsis repair --data-dir /);
    const health = await cli(['health', '--data-dir', dataDir]);
    expect(health.code).toBe(1);
    expect(health.err).toMatch(/E_SYN_STORE_DAMAGED/);
    expect(health.err).not.toMatch(/SqliteError|\n\s+at /);
    const rebuild = rebuildStore(dataDir);
    expect(rebuild.roots.map((r) => r.path)).toEqual([fs.realpathSync(corpus)]);
    const repaired = open(dataDir);
    await repaired.index();
    expect(await locators(repaired)).toEqual(cleanHybrid);
  });
});

describe('a lost store', () => {
  const losses: [string, (file: string) => void][] = [
    ['deleted', (file) => fs.rmSync(file)],
    ['emptied to 0 bytes', (file) => fs.writeFileSync(file, '')],
  ];

  it.each(losses)('%s: is named as lost with the command that rebuilds it from the recorded roots, never started empty', async (_name, lose) => {
    const dataDir = copy();
    lose(path.join(dataDir, DB_FILE));
    let error: unknown;
    try {
      open(dataDir);
    } catch (e) {
      error = e;
    }
    expect(isSynapsisError(error) && error.code).toBe('E_SYN_STORE_DAMAGED');
    expect((error as Error).message).toMatch(/the store was lost\. Run `synapsis repair --data-dir .*` to rebuild it from the folders it indexed \(.*syn-store-corpus-/);
    // Nothing was created in its place.
    expect(fs.existsSync(path.join(dataDir, DB_FILE)) ? fs.statSync(path.join(dataDir, DB_FILE)).size : 0).toBe(0);
    const health = await cli(['health', '--data-dir', dataDir]);
    expect(health.code).toBe(1);
    expect(health.err).toMatch(/E_SYN_STORE_DAMAGED.*was lost/);

    const rebuild = rebuildStore(dataDir);
    expect(rebuild.roots_from).toBe('recorded');
    const repaired = open(dataDir);
    await repaired.index();
    expect(await locators(repaired)).toEqual(cleanHybrid);
  });

  it('a new data dir still starts empty', async () => {
    const engine = open(temp.make('syn-store-new-'));
    expect((await engine.health()).status).toBe('ok');
  });
});

describe('a damaged sentence vector index', () => {
  const damages: [string, (file: string) => void][] = [
    ['truncated', (file) => fs.truncateSync(file, fs.statSync(file).size >> 1)],
    ['damaged in the middle', (file) => {
      const bytes = fs.readFileSync(file);
      for (let i = 0; i < 4096; i++) bytes[(bytes.length >> 1) + i] = bytes[(bytes.length >> 1) + i]! ^ 0x5a;
      fs.writeFileSync(file, bytes);
    }],
  ];

  it.each(damages)('%s: is caught at load, named in the query\'s limits and in health, and rebuilt from stored embeddings', async (_name, damage) => {
    const dataDir = copy();
    damage(path.join(dataDir, 'index', indexVersion, 'sentences', DATA_FILE));
    const engine = open(dataDir);
    const first = await engine.retrieve(QUERY, {}, 10);
    expect(first.meta.limits).toContainEqual({ code: 'sentence_vectors_rebuilding', detail: expect.stringMatching(/sentence vector index rebuilt from stored embeddings: .*; chunk vectors ranked alone meanwhile/) });
    expect((await engine.health()).degradations.join(' ')).toMatch(/sentence vector index rebuilt from stored embeddings/);
    const dense = await until(() => locators(engine, 'dense'), (l) => JSON.stringify(l) === JSON.stringify(cleanDense));
    expect(dense).toEqual(cleanDense);
  });
});
