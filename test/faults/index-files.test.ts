import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateMarkdownCorpus } from '../../src/cli/bench/corpus.ts';
import { HashedEmbedder } from '../../src/cli/bench/hashed-embedder.ts';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import type { IndexManifest } from '../../src/engine/health/manifest.ts';
import { DATA_FILE, META_FILE } from '../../src/engine/vector/common.ts';
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

let corpus: string;
/** A data dir indexed once (lexical + vectors), copied for each damage so every case starts alike. */
let pristine: string;
let indexVersion: string;
let cleanManifest: IndexManifest | null;
let cleanDense: string[];
const QUERY = 'replica snapshot latency';

beforeAll(async () => {
  corpus = temp.make('syn-files-corpus-');
  generateMarkdownCorpus(corpus, 300, 11);
  pristine = temp.make('syn-files-data-');
  const engine = open(pristine);
  await engine.index([corpus]);
  indexVersion = engine.indexVersion;
  cleanManifest = engine.manifest();
  cleanDense = (await engine.retrieve(QUERY, { mode: 'dense' }, 10)).chunks.map((c) => c.locator);
  await engine.dispose();
  engines.splice(0);
});

function damagedCopy(damage: (indexDir: string) => void): string {
  const dataDir = temp.make('syn-files-damaged-');
  fs.cpSync(pristine, dataDir, { recursive: true });
  damage(path.join(dataDir, 'index', indexVersion));
  return dataDir;
}

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const truncate = (file: string, keep: (size: number) => number) => {
  const size = fs.statSync(file).size;
  fs.truncateSync(file, keep(size));
};

describe('a damaged vector index', () => {
  const damages: [string, (dir: string) => void][] = [
    ['truncated to half', (dir) => truncate(path.join(dir, DATA_FILE), (n) => Math.floor(n / 2))],
    ['truncated to nothing', (dir) => truncate(path.join(dir, DATA_FILE), () => 0)],
    ['one byte flipped', (dir) => {
      const file = path.join(dir, DATA_FILE);
      const bytes = fs.readFileSync(file);
      bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0xff;
      fs.writeFileSync(file, bytes);
    }],
    ['data file missing', (dir) => fs.rmSync(path.join(dir, DATA_FILE))],
    ['meta file garbage', (dir) => fs.writeFileSync(path.join(dir, META_FILE), '{"format": 1, "backend": "us')],
    ['meta file of another dimension count', (dir) => {
      const meta = JSON.parse(fs.readFileSync(path.join(dir, META_FILE), 'utf8')) as { count: number };
      fs.writeFileSync(path.join(dir, META_FILE), JSON.stringify({ ...meta, count: meta.count + 5 }));
    }],
  ];

  it.each(damages)('%s: is detected at load, queries are answered lexically while it is rebuilt from stored embeddings', async (_name, damage) => {
    const dataDir = damagedCopy(damage);
    const engine = open(dataDir);
    const during = await engine.retrieve(QUERY, {}, 8);
    expect(during.chunks.length).toBe(8);
    // Lexical (and graph) lists only: no chunk carries a dense rank.
    expect(during.chunks.some((c) => c.ranks?.lexical !== undefined)).toBe(true);
    expect(during.chunks.every((c) => c.ranks?.dense === undefined)).toBe(true);
    expect(during.meta.limits).toContainEqual({ code: 'dense_failed', detail: expect.stringMatching(/being built from stored embeddings; lexical results/) });

    const after = await until(() => engine.retrieve(QUERY, {}, 8), (r) => r.meta.hybrid_used === true);
    expect(after.meta.hybrid_used).toBe(true);
    expect((await engine.retrieve(QUERY, { mode: 'dense' }, 10)).chunks.map((c) => c.locator)).toEqual(cleanDense);
    const health = await engine.health();
    expect(health.degradations.join(' ')).toMatch(/vector index rebuilt from stored embeddings: The vector index in .* cannot be (used|read)/);
    expect(health.vectors.count).toBe(health.chunks);
    await engine.dispose();

    // The rebuilt index was saved: the next start loads it as it is.
    const next = open(dataDir);
    expect((await next.retrieve(QUERY, {}, 8)).meta.hybrid_used).toBe(true);
    expect((await next.health()).degradations.join(' ')).not.toMatch(/rebuilt/);
  });

  it('a dense-only query waits for the rebuild instead of answering nothing', async () => {
    const engine = open(damagedCopy((dir) => truncate(path.join(dir, DATA_FILE), (n) => n - 7)));
    expect((await engine.retrieve(QUERY, { mode: 'dense' }, 10)).chunks.map((c) => c.locator)).toEqual(cleanDense);
  });
});

describe('a damaged manifest', () => {
  const damages: [string, (file: string) => void][] = [
    ['garbage', (file) => fs.writeFileSync(file, '\u0000\u0001 not json')],
    ['torn in half', (file) => truncate(file, (n) => n >> 1)],
    ['empty', (file) => fs.writeFileSync(file, '')],
    ['naming another index version', (file) => fs.writeFileSync(file, JSON.stringify({ ...cleanManifest, index_version: 'ffffffffffffffff' }))],
    ['missing its hashes', (file) => fs.writeFileSync(file, JSON.stringify({ ...cleanManifest, hashes: { chunks: 'x' } }))],
  ];

  it.each(damages)('%s: is set aside and rolled back to the last committed state of the store', async (_name, damage) => {
    const dataDir = damagedCopy((dir) => damage(path.join(dir, 'manifest.json')));
    const engine = open(dataDir);
    expect(engine.manifest()).toEqual(cleanManifest);
    expect((await engine.health()).degradations.join(' ')).toMatch(/index manifest was corrupt \(.+\): set aside as manifest.json.corrupt and rebuilt from the store/);
    expect(fs.existsSync(path.join(dataDir, 'index', indexVersion, 'manifest.json.corrupt'))).toBe(true);
    expect((await engine.retrieve(QUERY, {}, 5)).chunks).toHaveLength(5);
    // The next indexing run changes nothing and clears the note.
    const report = await engine.index([corpus]);
    expect(report).toMatchObject({ indexed: 0, failed: 0, embedded: 0 });
    expect(engine.manifest()).toEqual(cleanManifest);
    expect((await engine.health()).degradations.join(' ')).not.toMatch(/manifest/);
  });

  it('an intact manifest is left alone', async () => {
    const dataDir = damagedCopy(() => {});
    const file = path.join(dataDir, 'index', indexVersion, 'manifest.json');
    const before = fs.statSync(file).mtimeMs;
    const engine = open(dataDir);
    expect(engine.manifest()).toEqual(cleanManifest);
    expect((await engine.health()).degradations).toEqual([]);
    expect(fs.statSync(file).mtimeMs).toBe(before);
  });
});
