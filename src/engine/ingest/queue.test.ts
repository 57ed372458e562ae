import fs from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { GatedEmbedder } from '../../../test/helpers/gated-embedder.ts';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { HashedEmbedder } from '../../cli/bench/hashed-embedder.ts';
import type { IndexStatus } from '../../shared/contract.ts';
import { createEngine, type Engine } from '../engine.ts';
import { Store } from '../store/store.ts';
import { jobsOfChange, readFolderBacklog } from './queue.ts';

const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
});
afterAll(() => temp.cleanup());

function notes(count: number, word: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) files[`n${i}.md`] = `# Note ${i}\n\nThe ${word} ledger entry ${i} talks about harbour cranes and tide tables.\n`;
  return files;
}

function open(embedder: GatedEmbedder): Engine {
  const engine = createEngine({ dataDir: temp.make('syn-queue-data-'), env: { SYN_SENTENCE_VECTORS: 'false' }, embedder });
  engines.push(engine);
  return engine;
}

const bm25 = async (engine: Engine, query: string) => (await engine.retrieve(query, { mode: 'bm25' })).chunks.length;

describe('index queue: lexical work first', () => {
  it('a folder added while another is embedding is searchable by words before that embedding continues', async () => {
    const embedder = new GatedEmbedder(64);
    const engine = open(embedder);
    const a = temp.make('syn-queue-a-', notes(100, 'alpha'));
    const b = temp.make('syn-queue-b-', { 'fresh.md': '# Fresh\n\nThe quokkazebra migration plan is written here.\n' });
    const firstBatch = embedder.nextBatch();
    const runA = engine.index([a]);
    await firstBatch; // folder A's words are indexed; its first batch of passages is being embedded
    expect(await bm25(engine, 'alpha')).toBeGreaterThan(0);
    const during = engine.indexStatus().progress;
    expect(during).toMatchObject({ phase: 'passages', state: 'running' });
    // The folder row says what runs, not "up to date" (its words are done, its passages are not).
    expect(during.folders).toEqual([expect.objectContaining({ phase: 'passages', state: 'running', total: 100 })]);

    // Each later batch records whether folder B can be found by its words when it starts.
    const seenAtBatch: boolean[] = [];
    embedder.beforeBatch = async () => void seenAtBatch.push((await bm25(engine, 'quokkazebra')) > 0);
    const runB = engine.index([b]);
    expect(engine.indexStatus().running).toBe(true);
    embedder.letThrough();
    const [reportA, reportB] = await Promise.all([runA, runB]);

    // A's run stopped embedding after its batch in flight to let B's words in; B's run embedded the rest.
    expect(reportA.embed_pending).toBeGreaterThan(0);
    expect(reportB.embed_pending).toBe(0);
    expect(seenAtBatch.length).toBeGreaterThan(0);
    expect(seenAtBatch[0]).toBe(true);
    expect(await bm25(engine, 'quokkazebra')).toBe(1);
    const health = await engine.health();
    expect(health.models.embedders[0]!.pending).toBe(0);
    const after = engine.indexStatus().progress;
    expect(after).toMatchObject({ phase: 'done', state: 'done', eta_s: null });
    expect(after.folders.map((f) => f.phase)).toEqual(['done', 'done']);
    expect(health.progress).toEqual(after);
  });

  it('pause, resume and restart: the status says what happens, at once', async () => {
    const embedder = new GatedEmbedder(64);
    const engine = open(embedder);
    const a = temp.make('syn-queue-p-', notes(70, 'bravo'));
    const statuses: IndexStatus[] = [];
    engine.on('index/status', (s) => statuses.push(s));
    const firstBatch = embedder.nextBatch();
    const run = engine.index([a]);
    await firstBatch;
    const paused = engine.pause();
    expect(paused.paused).toBe(true);
    expect(paused.progress.state).toBe('paused');
    embedder.letThrough();
    await run;
    // Stopped: the passages still waiting are shown, paused, with no rate and no ETA.
    const held = engine.indexStatus();
    expect(held).toMatchObject({ running: false, paused: true });
    expect(held.progress).toMatchObject({ phase: 'passages', state: 'paused', rate_per_s: null, eta_s: null });
    expect(held.progress.total).toBeGreaterThan(0);
    expect(held.progress.folders[0]).toMatchObject({ phase: 'passages', state: 'paused' });

    // Resume answers with a run on its way (not "watching" or idle), and so does the event it sends.
    statuses.length = 0;
    const resumed = await engine.resume();
    expect(resumed.running).toBe(true);
    expect(resumed.paused).toBe(false);
    expect(statuses[0]).toMatchObject({ running: true, paused: false });
    await expect.poll(() => engine.indexStatus().running, { timeout: 20_000 }).toBe(false);
    expect(engine.indexStatus().progress).toMatchObject({ phase: 'done', state: 'done' });
    // The last status sent says done: nothing stale is left for the app to show.
    expect(statuses.at(-1)!.progress).toMatchObject({ phase: 'done', eta_s: null });
  });

  it('a reader beside the writer (synapsis health beside the app) shows the writer\'s numbers', async () => {
    const embedder = new GatedEmbedder(64);
    const writer = open(embedder);
    const a = temp.make('syn-queue-w-', notes(40, 'delta'));
    const firstBatch = embedder.nextBatch();
    const run = writer.index([a]);
    await firstBatch;
    const reader = createEngine({ dataDir: writer.dataDir, env: { SYN_SENTENCE_VECTORS: 'false' }, embedder: new HashedEmbedder(64), readOnly: true });
    engines.push(reader);
    try {
      const mine = writer.indexStatus().progress;
      expect(mine).toMatchObject({ phase: 'passages', state: 'running', total: 40 });
      expect((await reader.health()).progress).toEqual(mine);
    } finally {
      embedder.letThrough();
      await run;
    }
    expect((await reader.health()).progress).toMatchObject({ phase: 'done', state: 'done' });
  });

  it('after a restart, the passages an interrupted run left are shown as waiting, per folder', async () => {
    const embedder = new GatedEmbedder(64);
    const dataDir = temp.make('syn-queue-r-');
    const a = temp.make('syn-queue-ra-', notes(50, 'charlie'));
    const first = createEngine({ dataDir, env: { SYN_SENTENCE_VECTORS: 'false' }, embedder });
    const firstBatch = embedder.nextBatch();
    const run = first.index([a]);
    await firstBatch;
    first.pause();
    embedder.letThrough();
    await run;
    await first.dispose();
    const again = createEngine({ dataDir, env: { SYN_SENTENCE_VECTORS: 'false' }, embedder: new HashedEmbedder(64) });
    engines.push(again);
    const status = again.indexStatus();
    expect(status.progress).toMatchObject({ phase: 'passages', state: 'waiting', done: 0, total: 18 });
    expect(status.progress.folders).toEqual([expect.objectContaining({ phase: 'passages', state: 'waiting', total: 18 })]);
    // Folder changes show at once: one added waits to be scanned; one removed is gone with its backlog.
    const b = temp.make('syn-queue-rb-', notes(3, 'echo'));
    again.addRoot(b);
    expect(again.indexStatus().progress.folders.map((f) => [f.phase, f.state, f.total])).toEqual([
      ['passages', 'waiting', 18],
      ['scan', 'waiting', 1],
    ]);
    again.removeRoot(a);
    expect(again.indexStatus().progress).toMatchObject({ phase: 'scan', state: 'waiting', folders: [expect.objectContaining({ root: fs.realpathSync(b), phase: 'scan' })] });
  });
});

describe('index queue parts', () => {
  it("a watcher's change: existing allowed files are indexed, gone or excluded known ones removed, a removed folder's notes removed", () => {
    const root = temp.make('syn-queue-change-', { 'a.md': 'a', 'b.md': 'b', 'skip/c.md': 'c', 'dir/d.md': 'd', 'dir/e.md': 'e' });
    const store = new Store(temp.make('syn-queue-change-data-'));
    try {
      const r = store.addRoot(root, [], ['skip/**']);
      const write = (p: string) => store.writeDocument({ rootId: r.id, path: p, docId: p, type: 'markdown', language: null, title: null, contentHash: p, mtimeMs: 1, size: 1, status: 'indexed' }, []);
      for (const p of ['b.md', 'gone.md', 'skip/c.md', 'dir/d.md', 'dir/e.md', 'other/f.md']) write(p);
      fs.rmSync(`${root}/dir`, { recursive: true });
      const jobs = jobsOfChange(store, r, { root: r, paths: ['a.md', 'b.md', 'gone.md', 'skip/c.md', 'never.md'], removedDirs: ['dir'] }, []);
      expect(new Map(jobs.map((j) => [j.path, j.kind]))).toEqual(
        new Map([
          ['a.md', 'upsert'],
          ['b.md', 'upsert'],
          ['gone.md', 'delete'],
          ['skip/c.md', 'delete'],
          ['dir/d.md', 'delete'],
          ['dir/e.md', 'delete'],
        ]),
      );
    } finally {
      store.dispose();
    }
  });

  it('the backlog per folder: files queued, and a folder never scanned', () => {
    const store = new Store(temp.make('syn-queue-backlog-data-'));
    try {
      const scanned = store.addRoot(temp.make('syn-queue-scanned-'), [], []);
      const fresh = store.addRoot(temp.make('syn-queue-fresh-'), [], []);
      store.setSetting(`walk_issues:${scanned.id}`, []);
      store.enqueueJobs([
        { rootId: scanned.id, path: 'x.md', kind: 'upsert' },
        { rootId: scanned.id, path: 'y.md', kind: 'delete' },
      ]);
      const backlog = readFolderBacklog(store, []);
      expect(backlog.get(scanned.path)).toEqual({ scan: 0, words: 2, passages: 0, sentences: 0 });
      expect(backlog.get(fresh.path)).toEqual({ scan: 1, words: 0, passages: 0, sentences: 0 });
    } finally {
      store.dispose();
    }
  });
});
