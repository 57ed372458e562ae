import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TempDirs, writeFiles } from '../../../test/helpers/tmp.ts';
import { chunkingParams, loadConfig } from '../core/config.ts';
import { createEngine, type Engine } from '../engine.ts';
import { EventBus } from '../core/events.ts';
import { Store } from '../store/store.ts';
import { searchLexical } from '../search/lexical.ts';
import { compactLexicalIndex, indexRoots, paramsHashOf } from './indexer.ts';
import { sqliteOf } from '../store/connection.ts';

const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  temp.cleanup();
});
const engineAt = (dataDir: string) => {
  const e = createEngine({ dataDir, env: {} });
  engines.push(e);
  return e;
};

function folder(n = 30) {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`n${String(i).padStart(2, '0')}.md`] = `# Note ${i}\n\nUnique word w${i}x and shared text about relays.\n`;
  return temp.make('syn-idx-', files);
}

describe('indexer', () => {
  it('writes a manifest that is identical for the same folder in another data dir', async () => {
    const root = folder();
    const a = engineAt(temp.make('syn-a-'));
    const b = engineAt(temp.make('syn-b-'));
    await a.index([root]);
    await b.index([root]);
    const ma = fs.readFileSync(path.join(a.dataDir, 'index', a.indexVersion, 'manifest.json'), 'utf8');
    const mb = fs.readFileSync(path.join(b.dataDir, 'index', b.indexVersion, 'manifest.json'), 'utf8');
    expect(ma).toBe(mb);
    expect(JSON.parse(ma)).toMatchObject({ index_version: a.indexVersion, embed_model_id: 'none', chunk_count: 30, document_count: 30 });
  });

  it('resumes an interrupted run from the persisted queue and ends where a clean run ends', async () => {
    const root = folder();
    const clean = engineAt(temp.make('syn-clean-'));
    await clean.index([root]);

    const dataDir = temp.make('syn-int-');
    const store = new Store(dataDir);
    const config = loadConfig({}, {});
    const r = store.addRoot(fs.realpathSync(root), [], []);
    let calls = 0;
    const partial = await indexRoots({ store, config, events: new EventBus(), paramsHash: paramsHashOf(chunkingParams(config)), shouldStop: () => ++calls > 12 }, [r]);
    expect(partial.indexed).toBe(12);
    expect(store.countPendingJobs()).toBe(18);
    store.dispose();

    const resumed = engineAt(dataDir);
    expect((await resumed.health()).pending_jobs).toBe(18);
    const report = await resumed.index([]);
    expect(report.indexed).toBe(18);
    expect((await resumed.health()).pending_jobs).toBe(0);
    expect(resumed.manifest()).toEqual(clean.manifest());
    expect(resumed.manifest()?.chunk_count).toBe(30);
  });

  it('compacts the BM25 index into one b-tree after a large run, with rankings and deletions unchanged', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 240; i++) files[`n${String(i).padStart(3, '0')}.md`] = `# Note ${i}\n\nRelay ${i % 7 === 0 ? 'relay relay' : ''} sync w${i % 13}x and the ${i % 5 === 0 ? 'retry queue' : 'cache'}.\n`;
    const root = temp.make('syn-compact-', files);
    const config = loadConfig({}, {});
    const run = async (compactMinChunks: number, failing = false) => {
      const store = new Store(temp.make('syn-cd-'));
      if (failing) store.compactLexicalStep = () => { throw new Error('SQLITE_FULL: database or disk is full'); };
      const r = store.addRoot(fs.realpathSync(root), [], []);
      const report = await indexRoots({ store, config, events: new EventBus(), paramsHash: paramsHashOf(chunkingParams(config)), compactMinChunks }, [r]);
      expect(report.indexed).toBe(240);
      return store;
    };
    // A compaction that fails (a full disk) does not fail the run: its work is committed and searchable.
    const failed = await run(1, true);
    expect(failed.lexicalSegments()).toBeGreaterThan(1);
    failed.dispose();
    const loose = await run(Number.POSITIVE_INFINITY);
    const compact = await run(1);
    try {
      // 240 files in batches of 40: six commits, six segments before automerge.
      expect(loose.lexicalSegments()).toBeGreaterThan(1);
      expect(compact.lexicalSegments()).toBe(1);
      const filters = { allowSensitivity: [], sensitivityEnable: true, includeGlobs: [], excludeGlobs: [], types: [], languages: [], tags: [], roots: [] };
      const ranking = (store: Store, q: string) => searchLexical(store.db, q, { ...filters, k: 20, prune: false }).chunks.map((c) => [c.locator, c.score]);
      for (const q of ['relay', 'retry queue', 'w3x sync', 'cache relay w12x']) expect(ranking(compact, q)).toEqual(ranking(loose, q));
      // Compacting the loose one by hand ends in the same place; a compact index has nothing to do.
      expect(await compactLexicalIndex({ store: loose })).toBeGreaterThan(1);
      expect(loose.lexicalSegments()).toBe(1);
      expect(ranking(loose, 'relay w12x')).toEqual(ranking(compact, 'relay w12x'));
      expect(await compactLexicalIndex({ store: compact })).toBe(0);
      // A document deleted from a compacted index is gone from its results.
      expect(ranking(compact, 'w0x').map(([l]) => l)).toContain('n000.md#L1-L3');
      compact.deleteDocuments([compact.documentByPath(1, 'n000.md')!.id]);
      expect(ranking(compact, 'w0x').map(([l]) => l)).not.toContain('n000.md#L1-L3');
      // A run that adds less than a tenth of the index leaves it to automerge, however low the floor.
      const extra = compact.addRoot(fs.realpathSync(temp.make('syn-compact-extra-', { 'x1.md': '# Extra\n\nRelay one.\n', 'x2.md': '# Extra\n\nRelay two.\n' })), [], []);
      const small = await indexRoots({ store: compact, config, events: new EventBus(), paramsHash: paramsHashOf(chunkingParams(config)), compactMinChunks: 1 }, [extra]);
      expect(small.chunks_added).toBe(2);
      expect(compact.lexicalSegments()).toBeGreaterThan(1);
      expect(await compactLexicalIndex({ store: compact })).toBeGreaterThan(1);
    } finally {
      loose.dispose();
      compact.dispose();
    }
  });

  it('takes over a renamed or moved file without re-parsing it', async () => {
    const root = folder(3);
    const engine = engineAt(temp.make('syn-mv-'));
    await engine.index([root]);
    fs.mkdirSync(path.join(root, 'archive'));
    fs.renameSync(path.join(root, 'n01.md'), path.join(root, 'archive', 'renamed.md'));
    const report = await engine.index([]);
    expect(report).toMatchObject({ indexed: 1, removed: 0, chunks_added: 0 });
    const hit = (await engine.retrieve('w1x')).chunks;
    expect(hit.map((c) => c.locator)).toEqual(['archive/renamed.md#L1-L3']);
    expect((await engine.health()).documents.total).toBe(3);
  });

  it('says which lines of a file cut at the chunk cap are not searchable', async () => {
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i + 1} of a long log with some words in it`);
    const root = temp.make('syn-cut-', { 'long.txt': `${lines.join('\n')}\n` });
    const engine = createEngine({ dataDir: temp.make('syn-cut-data-'), env: { SYN_MAX_CHUNKS_PER_FILE: '3', SYN_CHUNK_SIZE: '500', SYN_CHUNK_OVERLAP: '0' } });
    engines.push(engine);
    const report = await engine.index([root]);
    const issue = report.issues.find((i) => i.path === path.join(root, 'long.txt'));
    expect(issue).toMatchObject({ status: 'warning', reason: expect.stringMatching(/only the first 3 chunks were indexed: lines (\d+)-401 are not searchable/) });
    const firstLost = Number(/lines (\d+)-/.exec(issue!.reason)![1]);
    expect((await engine.retrieve(`"line ${firstLost - 1} of"`)).chunks).toHaveLength(1);
    expect((await engine.retrieve(`"line ${firstLost} of"`)).chunks).toHaveLength(0);
    expect((await engine.health()).issues).toContainEqual(issue);
  });

  it('records an empty file as indexed with no chunks, and invalid UTF-8 with a note', async () => {
    const root = temp.make('syn-odd-', { 'empty.md': '', 'bad.txt': Buffer.from([0x66, 0x6f, 0xff, 0xfe, 0x6f, 0x0a]) });
    const engine = engineAt(temp.make('syn-odd-data-'));
    const report = await engine.index([root]);
    expect(report).toMatchObject({ indexed: 2, failed: 0, chunks_total: 1 });
    // Indexed, but not as written: the run and health both say so.
    const warning = { path: path.join(root, 'bad.txt'), status: 'warning', reason: 'invalid UTF-8 replaced with U+FFFD' };
    expect(report.issues).toEqual([warning]);
    expect((await engine.health()).issues).toEqual([warning]);
    expect((await engine.retrieve('fo')).chunks[0]?.text).toBe('fo\uFFFD\uFFFDo');
  });

  it('drops a file deleted between the scan and its turn in the queue', async () => {
    const root = folder(5);
    const engine = engineAt(temp.make('syn-del-'));
    await engine.index([root]);
    writeFiles(root, { 'late.md': '# Late\n\ncontent' });
    const sub = engine.on('index/progress', (e) => {
      if (e.stage === 'scan') fs.rmSync(path.join(root, 'late.md'), { force: true });
    });
    const report = await engine.index([]);
    sub.dispose();
    expect(report.failed).toBe(0);
    expect((await engine.health()).documents.total).toBe(5);
  });

  it('records the language of every chunk it writes', async () => {
    const root = temp.make('syn-lang-', {
      'en.md': '# Relay outage\n\nThe relay was down for 47 minutes because the TLS certificate had expired.\n',
      'ru.md': '# Встреча с партнёрами\n\nПартнёр готов запустить пилот на 1200 полевых планшетах в трёх регионах.\n',
      'numbers.txt': '2026-05-01 47 1200 3.14\n',
    });
    const dataDir = temp.make('syn-lang-data-');
    const store = new Store(dataDir);
    try {
      const config = loadConfig({}, {});
      const r = store.addRoot(fs.realpathSync(root), [], []);
      await indexRoots({ store, config, events: new EventBus(), paramsHash: paramsHashOf(chunkingParams(config)) }, [r]);
      const rows = sqliteOf(store.db).prepare('SELECT d.path, c.id, c.lang FROM chunks c JOIN documents d ON d.id = c.document_id ORDER BY d.path').all() as { path: string; id: number; lang: string }[];
      expect(rows.map((c) => [c.path, c.lang])).toEqual([['en.md', 'en'], ['numbers.txt', 'und'], ['ru.md', 'ru']]);
      expect(store.languageCounts()).toEqual([{ lang: 'en', chunks: 1 }, { lang: 'ru', chunks: 1 }, { lang: 'und', chunks: 1 }]);
      expect(store.chunkLanguages(rows.map((c) => c.id))).toEqual(new Map(rows.map((c) => [c.id, c.lang])));
    } finally {
      store.dispose();
    }
  });
});

