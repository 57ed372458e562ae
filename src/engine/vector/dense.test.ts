import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SHARED_DIR, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../engine.ts';

// stories260K gives real embeddings from a real GGUF through node-llama-cpp, with no meaning: these
// tests prove the dense path's plumbing (embed, cache, index, filter, fuse), not its quality.
const MODEL = path.join(SHARED_DIR, 'models', 'stories260K.gguf');
const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
});
afterAll(() => temp.cleanup());

function vault() {
  return temp.make('syn-dense-vault-', {
    'a.md': '# Storage\n\nThe team chose SQLite for the offline cache.\n',
    'b.md': '# Travel\n\nMaya flies to Lisbon in May for the offsite.\n',
    'c.md': '# Garden\n\nTomatoes need sun and water every day.\n',
    'hr/pay.md': '---\nsensitivity: restricted\n---\n# Pay\n\nSalary bands are secret.\n',
  });
}

function open(dataDir: string, config: Record<string, unknown> = { embedModel: MODEL }) {
  const engine = createEngine({ dataDir, env: {}, config: { llmThreads: 1, gpu: 'off', ...config } });
  engines.push(engine);
  return engine;
}

describe('dense retrieval with a real GGUF embedder', () => {
  it('embeds chunks once, indexes their vectors, and searches them with filters and fusion', async () => {
    const root = vault();
    const dataDir = temp.make('syn-dense-data-');
    const engine = open(dataDir);
    const report = await engine.index([root]);
    expect(report.embedded).toBe(4);
    expect(report.embed_pending).toBe(0);
    const health = await engine.health();
    // Health counts what the caller may see: the restricted note's vector is not counted.
    expect(health.vectors).toMatchObject({ count: 3, dimension: 64, pending: 0 });
    expect(health.models.embed?.id).toBe('270cba1bd5109f42');
    expect(health.degradations.join()).not.toMatch(/no embedding model/);

    const dense = await engine.retrieve('offline cache', { mode: 'dense' }, 10);
    expect(dense.meta.mode).toBe('dense');
    expect(dense.chunks.map((c) => c.path).sort()).toEqual(['a.md', 'b.md', 'c.md']); // restricted stays hidden
    expect(dense.chunks.every((c) => c.ranks?.dense !== undefined && c.score <= 1.0001)).toBe(true);
    const allowed = await engine.retrieve('salary', { mode: 'dense', allow_sensitivity: ['restricted'] }, 10);
    expect(allowed.chunks.map((c) => c.path)).toContain('hr/pay.md');
    const onlyB = await engine.retrieve('anything', { mode: 'dense', include_globs: ['b.md'] }, 3);
    expect(onlyB.chunks.map((c) => c.path)).toEqual(['b.md']);

    const hybrid = await engine.retrieve('SQLite offline cache', {}, 3);
    expect(hybrid.meta).toMatchObject({ mode: 'hybrid', hybrid_used: true, rerank_used: false });
    expect(hybrid.meta.limits).toContainEqual({ code: 'no_rerank_model', detail: 'rerank: no rerank model configured' });
    expect(hybrid.chunks[0]!.path).toBe('a.md'); // first in the lexical list, present in the dense one
    expect(hybrid.chunks[0]!.ranks).toMatchObject({ lexical: 1 });
    expect(hybrid.meta.timings).toHaveProperty('dense_ms');

    // Unchanged files, and a moved file, re-embed nothing; a deleted file leaves the vector index.
    expect((await engine.index([root])).embedded).toBe(0);
    fs.renameSync(path.join(root, 'c.md'), path.join(root, 'c-moved.md'));
    fs.rmSync(path.join(root, 'b.md'));
    const again = await engine.index([root]);
    expect(again.embedded).toBe(0);
    // a.md and the moved c.md; the restricted note's vector is there but not counted for this caller.
    expect((await engine.health()).vectors.count).toBe(2);
    const after = await engine.retrieve('anything', { mode: 'dense' }, 10);
    expect(after.chunks.map((c) => c.path).sort()).toEqual(['a.md', 'c-moved.md']);
  });

  it('reloads the vector index from disk, and rebuilds it from stored embeddings when it is corrupt', async () => {
    const root = vault();
    const dataDir = temp.make('syn-dense-data-');
    const first = open(dataDir);
    await first.index([root]);
    const dir = path.join(dataDir, 'index', first.indexVersion);
    await first.dispose();

    const second = open(dataDir);
    expect((await second.retrieve('cache', { mode: 'dense' }, 5)).chunks).toHaveLength(3);
    expect((await second.health()).degradations.join()).not.toMatch(/rebuilt/);
    await second.dispose();

    for (const f of fs.readdirSync(dir).filter((f) => f.startsWith('vectors'))) fs.writeFileSync(path.join(dir, f), 'garbage');
    const third = open(dataDir);
    expect((await third.retrieve('cache', { mode: 'dense' }, 5)).chunks).toHaveLength(3);
    expect((await third.health()).degradations.join()).toMatch(/rebuilt from stored embeddings/);
  });

  it('refuses a store whose vectors do not match the model dimension, saying what to do', async () => {
    const root = vault();
    const dataDir = temp.make('syn-dense-data-');
    const engine = open(dataDir);
    await engine.index([root]);
    await engine.dispose();
    const db = new BetterSqlite3(path.join(dataDir, 'synapsis.db'));
    db.prepare("UPDATE embeddings SET dim = 32, vector = zeroblob(128) WHERE text_hash = (SELECT text_hash FROM embeddings LIMIT 1)").run();
    db.close();
    fs.rmSync(path.join(dataDir, 'index'), { recursive: true, force: true });
    const reopened = open(dataDir);
    fs.writeFileSync(path.join(root, 'd.md'), '# New\n\nA new note.\n');
    await expect(reopened.index([root])).rejects.toMatchObject({ code: 'E_SYN_INDEX_VERSION_MISMATCH', message: expect.stringMatching(/dimension 32.*produces 64/) });
  });

  it('works lexically without a model and says so; dense mode then fails clearly', async () => {
    const engine = open(temp.make('syn-dense-data-'), {});
    await engine.index([vault()]);
    const result = await engine.retrieve('SQLite', {}, 3);
    expect(result.meta.mode).toBe('bm25');
    expect(result.chunks[0]!.path).toBe('a.md');
    expect((await engine.health()).degradations.join()).toMatch(/no embedding model/);
    await expect(engine.retrieve('SQLite', { mode: 'dense' })).rejects.toMatchObject({ code: 'E_SYN_MODEL_UNAVAILABLE' });
  });
});
