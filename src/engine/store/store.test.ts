import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHUNK_VECTORS_BY_ID_SQL, CHUNK_VECTORS_PAGE_SQL, Store } from './store.ts';

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
      const ids = store.db.prepare('SELECT id FROM chunks ORDER BY id').pluck().all() as number[];
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
        const plan = (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((p) => p.detail);
        expect(plan.at(-1)).toMatch(/SEARCH e USING PRIMARY KEY \(model_id=\? AND text_hash=\?\)/);
      }
    } finally {
      store.dispose();
    }
  });

  it('pages pending embeddings by chunk id', () => {
    const store = storeWithVectors(10);
    try {
      store.db.prepare("DELETE FROM embeddings WHERE text_hash IN ('e3', 'e4')").run();
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
      const ids = store.db.prepare('SELECT id FROM chunks ORDER BY id').pluck().all() as number[];
      const setLang = store.db.prepare('UPDATE chunks SET lang = ? WHERE id = ?');
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
