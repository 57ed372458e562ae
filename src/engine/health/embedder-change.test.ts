/**
 * Another embedder file (a Q4_0 imported, then a Q8_0 of the same model downloaded, or another
 * model): its vectors are made again, never mixed with the old file's. Real files: MiniLM first,
 * then multilingual-e5-small, both 384-dimensional, so a mix-up would not fail on the dimension.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SHARED_DIR, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../engine.ts';
import { ModelRegistry } from '../llm/registry.ts';
import { Store } from '../store/store.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());
const MODELS = path.join(SHARED_DIR, 'models');

const NOTES = {
  'bread.md': '# Sourdough\n\nFeed the starter the night before, knead the dough and bake the loaf at 230 degrees for forty minutes.\n',
  'bike.md': '# Bicycle repair\n\nTo fix a flat tyre, take the wheel off, find the puncture in the inner tube and glue a patch on it.\n',
  'tax.md': '# Taxes\n\nThe annual tax return is due in April; keep the receipts of deductible expenses in the blue folder.\n',
  'garden.md': '# Garden\n\nTomatoes need sun and water every morning; prune the side shoots so the plant grows tall.\n',
};

/** Chunks with a stored vector of each model, read from the store itself. */
function vectorsByModel(dataDir: string, ids: string[]): Record<string, number> {
  const store = new Store(dataDir, { reader: true });
  try {
    return Object.fromEntries(ids.map((id) => [id, store.countEmbeddedChunks(id)]));
  } finally {
    store.dispose();
  }
}

async function withEngine<T>(dataDir: string, fn: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = createEngine({ dataDir, env: {} });
  try {
    return await fn(engine);
  } finally {
    await engine.dispose();
  }
}

describe('a different embedder file', () => {
  it('embeds every chunk again with the new file, says so in health meanwhile, and never searches the old vectors with its queries', async () => {
    const vault = temp.make('syn-swap-vault-', NOTES);
    const dataDir = temp.make('syn-swap-data-');
    const registry = new ModelRegistry(path.join(dataDir, 'models'));
    const minilm = await registry.add(path.join(MODELS, 'all-MiniLM-L6-v2.Q8_0.gguf'));

    const before = await withEngine(dataDir, async (engine) => {
      await engine.index([vault]);
      const health = await engine.health();
      expect(health.models.embedders.map((e) => [e.id, e.vectors, e.pending])).toEqual([[minilm.id, 4, 0]]);
      return { indexVersion: health.index_version };
    });
    expect(vectorsByModel(dataDir, [minilm.id])).toEqual({ [minilm.id]: 4 });

    // The other file arrives (downloaded or imported): it is the embedder from the next start on.
    const e5 = await registry.add(path.join(MODELS, 'multilingual-e5-small.Q4_0.gguf'));
    expect(e5.id).not.toBe(minilm.id);
    await withEngine(dataDir, async (engine) => {
      const health = await engine.health();
      expect(health.index_version).not.toBe(before.indexVersion);
      expect(health.models.embedders.map((e) => [e.id, e.vectors, e.pending])).toEqual([[e5.id, 0, 4]]);
      expect(health.degradations).toContain(
        'the embedding model file changed (all-MiniLM-L6-v2 (Q8_0) → multilingual-e5-small (Q4_0)): vectors are kept per file and never mixed, so 4 chunks wait to be embedded again with the new file (the next indexing run does it); until then meaning search covers the 0 chunks embedded so far and word search covers every note',
      );
      expect(health.degradations.join('\n')).not.toMatch(/chunks wait for embeddings/);
      // Before the new vectors exist: the old file's 384-d vectors are not searched with the new file's query...
      const dense = await engine.call('search/query', { query: 'how do I repair a flat bicycle tyre', mode: 'dense', k: 4 });
      expect(dense.chunks).toEqual([]);
      // ...and words still find every note.
      const words = await engine.call('search/query', { query: 'puncture inner tube', mode: 'bm25', k: 4 });
      expect(words.chunks[0]?.path).toBe('bike.md');

      // The next indexing run embeds them again, with progress in the passages phase.
      const stages: string[] = [];
      const off = engine.on('index/progress', (p) => void stages.push(p.stage));
      const report = await engine.index([vault]);
      off.dispose();
      expect(report).toMatchObject({ embedded: 4, embed_pending: 0 });
      expect(stages).toContain('embed');
      const after = await engine.health();
      expect(after.models.embedders.map((e) => [e.id, e.vectors, e.pending])).toEqual([[e5.id, 4, 0]]);
      expect(after.degradations.join('\n')).not.toMatch(/embedding model file changed|wait for embeddings/);
      const found = await engine.call('search/query', { query: 'how do I repair a flat bicycle tyre', mode: 'dense', k: 4 });
      expect(found.meta.dense_models).toEqual(['multilingual-e5-small.Q4_0']);
      expect(found.chunks[0]?.path).toBe('bike.md');
      expect(found.chunks).toHaveLength(4);
    });
    // Each file's vectors are kept under its own id: the four chunks have a vector of each.
    expect(vectorsByModel(dataDir, [minilm.id, e5.id])).toEqual({ [minilm.id]: 4, [e5.id]: 4 });

    // Back to the first file: its vectors are still there, nothing is embedded again.
    registry.remove(e5.id);
    await withEngine(dataDir, async (engine) => {
      const health = await engine.health();
      expect(health.index_version).toBe(before.indexVersion);
      expect(health.models.embedders.map((e) => [e.id, e.vectors, e.pending])).toEqual([[minilm.id, 4, 0]]);
      expect(health.degradations.join('\n')).not.toMatch(/embedding model file changed/);
      expect(await engine.index([vault])).toMatchObject({ embedded: 0, embed_pending: 0 });
    });
  }, 120_000);
});
