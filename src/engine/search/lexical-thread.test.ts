import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { HashedEmbedder } from '../../cli/bench/hashed-embedder.ts';
import { createEngine, type Engine } from '../engine.ts';
import { gatherLists, type PipelineDeps, type PipelineRequest } from '../retrieve/hybrid.ts';
import { DEFAULT_PROFILE } from '../retrieve/profile.ts';
import { loadConfig } from '../core/config.ts';
import { Store } from '../store/store.ts';
import { LexicalThread, workerEntry } from './lexical-thread.ts';
import { searchLexical, type LexicalFilters } from './lexical.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const NO_FILTERS: LexicalFilters = { allowSensitivity: [], sensitivityEnable: true, includeGlobs: [], excludeGlobs: [], types: [], languages: [], tags: [], roots: [] };

/** The result as it crosses threads: what a caller sees from either path must be equal. */
const plain = (r: ReturnType<typeof searchLexical>) => ({ ...r, highlight: [...r.highlight] });

async function indexedEngine(files: Record<string, string>, env: Record<string, string> = {}): Promise<{ engine: Engine; root: string }> {
  const root = temp.make('syn-lexthread-', files);
  const engine = createEngine({ dataDir: temp.make('syn-lexthread-data-'), env: { SYN_CHAT_MODEL: '', ...env }, embedder: new HashedEmbedder(64) });
  await engine.index([root]);
  return { engine, root };
}

const NOTES = {
  'alpha.md': '# Alpha\n\nThe relay server keeps the sync queue offline.\n\nRetry the sync after a conflict.\n',
  'beta.md': '# Beta\n\nMaya decided to move the sync relay to SQLite.\n',
  'ops/gamma.md': '# Gamma\n\nConflict resolution: the newest edit wins, the older one is kept aside.\n',
  'ops/delta.md': '---\nsensitivity: restricted\n---\n# Delta\n\nSalary review notes, relay budget.\n',
};

describe('the lexical thread', () => {
  it('answers exactly as searchLexical on the engine connection, filters, sensitivity and explanations included', async () => {
    const { engine } = await indexedEngine(NOTES);
    const thread = new LexicalThread(path.join(engine.dataDir, 'synapsis.db'));
    try {
      expect(await thread.started()).toBe(true);
      const cases: [string, Partial<LexicalFilters> & { explain?: boolean; k?: number }][] = [
        ['sync relay conflict', {}],
        ['sync relay conflict', { includeGlobs: ['ops/**'] }],
        ['relay', { allowSensitivity: ['restricted'] }],
        ['relay', {}],
        ['"sync queue"', { explain: true }],
        ['syn*', { k: 2 }],
        ['', {}],
      ];
      const store = new Store(engine.dataDir);
      try {
        for (const [query, extra] of cases) {
          const options = { ...NO_FILTERS, k: 10, snippets: false, ...extra };
          const here = searchLexical(store.db, query, options);
          const there = await thread.search(query, options);
          expect(plain(there.result)).toEqual(plain(here));
          expect(there.ms).toBeGreaterThanOrEqual(0);
        }
        // The restricted note is hidden unless allowed, on the worker as here.
        const hidden = await thread.search('salary', { ...NO_FILTERS, k: 10 });
        expect(hidden.result.chunks).toEqual([]);
        const allowed = await thread.search('salary', { ...NO_FILTERS, allowSensitivity: ['restricted'], k: 10 });
        expect(allowed.result.chunks.map((c) => c.path)).toEqual(['ops/delta.md']);
      } finally {
        store.dispose();
      }
    } finally {
      await thread.dispose();
      await engine.dispose();
    }
  });

  it('reads what the engine commits after it started (its own connection sees each new index run)', async () => {
    const { engine, root } = await indexedEngine(NOTES);
    const thread = new LexicalThread(path.join(engine.dataDir, 'synapsis.db'));
    try {
      expect(await thread.started()).toBe(true);
      expect((await thread.search('okapi', { ...NO_FILTERS, k: 5 })).result.chunks).toEqual([]);
      fs.writeFileSync(path.join(root, 'new.md'), '# New\n\nAn okapi walked into the relay room.\n');
      await engine.index([root]);
      const after = await thread.search('okapi', { ...NO_FILTERS, k: 5 });
      expect(after.result.chunks.map((c) => c.path)).toEqual(['new.md']);
    } finally {
      await thread.dispose();
      await engine.dispose();
    }
  });

  it('says why when it cannot start or dies, rejects what was waiting, and is not used again', async () => {
    const missing = new LexicalThread('/nonexistent/synapsis.db', async () => null);
    expect(await missing.started()).toBe(false);
    expect(missing.failure).toMatch(/not found/);
    await expect(missing.search('x', { ...NO_FILTERS, k: 1 })).rejects.toThrow(/not running/);

    const noStore = new LexicalThread(path.join(temp.make('syn-lexthread-empty-'), 'synapsis.db'));
    expect(await noStore.started()).toBe(false);
    expect(noStore.failure).toMatch(/directory does not exist|unable to open|no such file/i);

    // A worker that answers "ready" and then dies with a request waiting.
    const dying = new LexicalThread('unused', async () => ({
      code: `const { parentPort } = require('node:worker_threads'); parentPort.postMessage({ ready: true }); parentPort.on('message', () => { throw new Error('boom'); });`,
      eval: true,
    }));
    expect(await dying.started()).toBe(true);
    await expect(dying.search('x', { ...NO_FILTERS, k: 1 })).rejects.toThrow(/boom/);
    expect(dying.ready()).toBe(false);
    expect(dying.failure).toMatch(/boom/);
    await dying.dispose();

    // A worker that never answers is stopped after the timeout; what waited is rejected.
    const silent = new LexicalThread('unused', async () => ({
      code: `const { parentPort } = require('node:worker_threads'); parentPort.postMessage({ ready: true }); parentPort.on('message', () => {});`,
      eval: true,
    }), 200);
    expect(await silent.started()).toBe(true);
    await expect(silent.search('x', { ...NO_FILTERS, k: 1 })).rejects.toThrow(/did not answer within 200 ms/);
    expect(silent.ready()).toBe(false);
    await silent.dispose();
  });

  it('finds its code: the built file beside the bundle, else the TypeScript source', async () => {
    const bundle = temp.make('syn-lexthread-bundle-', { 'lexical-worker.js': '' });
    expect(await workerEntry(bundle)).toEqual({ code: path.join(bundle, 'lexical-worker.js'), eval: false });
    expect(await workerEntry(temp.make('syn-lexthread-none-'))).toBeNull();
    // Shared by several entries, this module lands in the bundle's chunks/ folder, below the built workers.
    const shared = temp.make('syn-lexthread-shared-', { 'lexical-upgrade-worker.js': '', 'chunks/store.js': '' });
    expect(await workerEntry(path.join(shared, 'chunks'), 'lexical-upgrade-worker')).toEqual({ code: path.join(shared, 'chunks', '..', 'lexical-upgrade-worker.js'), eval: false });
    const source = await workerEntry(import.meta.dirname);
    expect(source?.eval).toBe(true);
    expect(source?.code).toContain('parentPort');
  });
});

describe('hybrid retrieval with the lexical thread', () => {
  it('returns the same results with and without the thread, and uses it once it has started', async () => {
    const { engine: threaded } = await indexedEngine(NOTES, { SYN_LEXICAL_THREAD_MIN_CHUNKS: '0' });
    const { engine: inline } = await indexedEngine(NOTES, { SYN_LEXICAL_THREAD: 'false' });
    try {
      // The thread starts on the first hybrid query and answers from the first one after it is up.
      let used = false;
      for (let i = 0; i < 200 && !used; i++) {
        const r = await threaded.retrieve('sync relay conflict', { mode: 'hybrid' }, 5);
        used = r.meta.timings?.lexical_wait_ms !== undefined;
        if (!used) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(used).toBe(true);
      for (const q of ['sync relay conflict', 'Maya SQLite decision', 'newest edit wins']) {
        const a = await threaded.retrieve(q, { mode: 'hybrid', include_globs: q.startsWith('newest') ? ['ops/**'] : [] }, 5);
        const b = await inline.retrieve(q, { mode: 'hybrid', include_globs: q.startsWith('newest') ? ['ops/**'] : [] }, 5);
        expect(a.meta.timings?.lexical_wait_ms).toBeDefined();
        expect(b.meta.timings?.lexical_wait_ms).toBeUndefined();
        expect(a.chunks.map((c) => [c.chunk_id, c.score, c.snippet])).toEqual(b.chunks.map((c) => [c.chunk_id, c.score, c.snippet]));
        expect(a.chunks.length).toBeGreaterThan(0);
      }
    } finally {
      await threaded.dispose();
      await inline.dispose();
    }
  });

  it('computes the lexical list on its own thread when the worker cannot answer', async () => {
    const { engine } = await indexedEngine(NOTES);
    const store = new Store(engine.dataDir);
    try {
      const failing = { ready: () => true, search: () => Promise.reject(new Error('worker gone')) } as unknown as LexicalThread;
      const config = loadConfig({ lexicalThreadMinChunks: 0 }, {});
      const deps: PipelineDeps = { db: store.db, config, dense: [], profile: DEFAULT_PROFILE, reranker: null, lexicalThread: failing };
      const req: PipelineRequest = { query: 'sync relay', k: 5, filters: NO_FILTERS, mode: 'hybrid', retrievalMode: 'chunk_priority', explain: false, enableRerank: false, fusion: 'rrf' };
      // No dense source: nothing to overlap, so the thread is not even asked.
      const lists = await gatherLists(deps, req);
      expect(lists.timings.lexical_wait_ms).toBeUndefined();
      const withDense = await gatherLists({ ...deps, dense: [{ name: 'fake', languages: ['*'], index: { search: async () => [] } as never }] }, req);
      expect(withDense.timings.lexical_wait_ms).toBeDefined();
      expect(withDense.lexical?.chunks.map((c) => c.chunk_id)).toEqual(lists.lexical?.chunks.map((c) => c.chunk_id));
      expect(withDense.lexical!.chunks.length).toBeGreaterThan(0);
    } finally {
      store.dispose();
      await engine.dispose();
    }
  });
});
