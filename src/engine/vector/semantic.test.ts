import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { HashedEmbedder } from '../../cli/bench/hashed-embedder.ts';
import { SemanticIndex } from './semantic.ts';
import { Store } from '../store/store.ts';
import { sqliteOf } from '../store/connection.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

/** The synthetic embedder, failing every input that contains one of `failing`, and recording what it embedded. */
class FlakyEmbedder extends HashedEmbedder {
  failing = new Set<string>();
  embedded: string[] = [];
  override async embedMany(texts: readonly string[]): Promise<PromiseSettledResult<Float32Array>[]> {
    return texts.map((t) => {
      if ([...this.failing].some((w) => t.includes(w))) return { status: 'rejected' as const, reason: new Error(`cannot embed ${t}`) };
      this.embedded.push(t);
      return { status: 'fulfilled' as const, value: this.vector(t) };
    });
  }
}

function setup() {
  const dir = temp.make('syn-semantic-');
  const store = new Store(dir);
  const root = store.addRoot('/r', [], []);
  const writeDoc = (p: string, words: string[]) =>
    store.writeDocument(
      { rootId: root.id, path: p, docId: p, type: 'markdown', language: null, title: 'T', contentHash: p, mtimeMs: 0, size: 1, status: 'indexed' },
      words.map((w, i) => ({
        ordinal: i, locator: `${p}#L${i + 1}-L${i + 1}`, sectionId: null, heading: null, startLine: i + 1, endLine: i + 1, text: w, chunkHash: `c${p}${w}`,
        textHash: `t${w}`, embedHash: `e${w}`, tags: {}, tokenCount: 1, fts: { title: '', heading: '', body: w },
      })),
    );
  const embedder = new FlakyEmbedder(16);
  const semantic = new SemanticIndex({ store, embedder, indexDir: path.join(dir, 'index'), backend: 'usearch' });
  const idsOf = (words: string[]) => words.map((w) => sqliteOf(store.db).prepare('SELECT id FROM chunks WHERE text = ?').pluck().get(w) as number);
  return { store, writeDoc, embedder, semantic, idsOf };
}

describe('SemanticIndex: how far every chunk is embedded (Store.embeddedThrough)', () => {
  it('records the mark below the first input that failed, tries that input again next run, and looks only above the mark afterwards', async () => {
    const { store, writeDoc, embedder, semantic, idsOf } = setup();
    try {
      const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
      writeDoc('a.md', words);
      const ids = idsOf(words);
      embedder.failing.add('charlie');
      expect(await semantic.embedPending()).toEqual({ embedded: 4, failed: 1 });
      expect(store.embeddedThrough(embedder.modelId, 'chunk')).toBe(ids[2]! - 1);
      expect(store.countPendingEmbeddings(embedder.modelId)).toBe(1);
      expect([...store.embeddedChunkIds(embedder.modelId)].sort((a, b) => a - b)).toEqual([ids[0], ids[1], ids[3], ids[4]]);
      expect(store.countEmbeddedChunks(embedder.modelId)).toBe(4);

      // The model can embed it now: the failed input is tried again, and the mark covers every chunk.
      embedder.failing.clear();
      embedder.embedded = [];
      expect(await semantic.embedPending()).toEqual({ embedded: 1, failed: 0 });
      expect(embedder.embedded).toEqual([expect.stringContaining('charlie')]);
      expect(store.embeddedThrough(embedder.modelId, 'chunk')).toBe(ids[4]);
      expect(store.countEmbeddedChunks(embedder.modelId)).toBe(5);

      // A new note: its chunks get higher ids, wait for vectors, and are all the next run embeds.
      writeDoc('b.md', ['foxtrot', 'golf']);
      expect(store.countPendingEmbeddings(embedder.modelId)).toBe(2);
      expect(store.embeddedChunkIds(embedder.modelId).size).toBe(5);
      embedder.embedded = [];
      expect(await semantic.embedPending()).toEqual({ embedded: 2, failed: 0 });
      expect(embedder.embedded).toHaveLength(2);
      expect(store.embeddedChunkIds(embedder.modelId)).toEqual(new Set([...ids, ...idsOf(['foxtrot', 'golf'])]));

      // Re-writing a note gives its chunks new ids above the mark: they are found again, by hash, without embedding.
      writeDoc('a.md', ['alpha', 'hotel']);
      expect(store.countPendingEmbeddings(embedder.modelId)).toBe(1);
      expect(store.embeddedChunkIds(embedder.modelId).has(idsOf(['alpha'])[0]!)).toBe(true);
      expect(store.embeddedChunkIds(embedder.modelId).has(ids[1]!)).toBe(false);
      expect(store.countEmbeddedChunks(embedder.modelId)).toBe(3);
      // Nothing pending: the mark moves to the top without a page read.
      expect(await semantic.embedPending()).toEqual({ embedded: 1, failed: 0 });
      expect(await semantic.embedPending()).toEqual({ embedded: 0, failed: 0 });
      expect(store.embeddedThrough(embedder.modelId, 'chunk')).toBe(store.maxUnitId('chunk'));
    } finally {
      await semantic.dispose();
      store.dispose();
    }
  });

  it('a pass stopped between pages marks the chunks it finished, and the next pass embeds the rest once', async () => {
    const { store, writeDoc, embedder, semantic, idsOf } = setup();
    try {
      const words = Array.from({ length: 70 }, (_, i) => `word${i}`);
      writeDoc('big.md', words);
      let pages = 0;
      const first = await semantic.embedPending(() => void pages++, () => pages > 1);
      expect(first.embedded).toBe(32);
      expect(store.embeddedThrough(embedder.modelId, 'chunk')).toBe(idsOf(['word31'])[0]);
      embedder.embedded = [];
      expect(await semantic.embedPending()).toEqual({ embedded: 38, failed: 0 });
      expect(new Set(embedder.embedded).size).toBe(38);
      expect(store.countEmbeddedChunks(embedder.modelId)).toBe(70);
    } finally {
      await semantic.dispose();
      store.dispose();
    }
  });
});

/** 60 one-line chunks embedded into an HNSW graph from the first vector (exactLimit 0), as in a large vault. */
async function storedSetup(storedCacheBytes?: number) {
  const dir = temp.make('syn-semantic-stored-');
  const store = new Store(dir);
  const root = store.addRoot('/r', [], []);
  const words = Array.from({ length: 60 }, (_, i) => `note${i} ${['relay', 'sync', 'queue', 'conflict', 'budget'][i % 5]} topic${i % 7}`);
  store.writeDocument(
    { rootId: root.id, path: 'a.md', docId: 'a.md', type: 'markdown', language: null, title: 'T', contentHash: 'a', mtimeMs: 0, size: 1, status: 'indexed' },
    words.map((w, i) => ({
      ordinal: i, locator: `a.md#L${i + 1}-L${i + 1}`, sectionId: null, heading: null, startLine: i + 1, endLine: i + 1, text: w, chunkHash: `c${i}`,
      textHash: `t${i}`, embedHash: `e${i}`, tags: {}, tokenCount: 3, fts: { title: '', heading: '', body: w },
    })),
  );
  const embedder = new HashedEmbedder(32);
  const semantic = new SemanticIndex({ store, embedder, indexDir: path.join(dir, 'index'), backend: 'usearch', exactLimit: 0, ...(storedCacheBytes !== undefined ? { storedCacheBytes } : {}) });
  await semantic.embedPending();
  const ids = sqliteOf(store.db).prepare('SELECT id FROM chunks ORDER BY id').pluck().all() as number[];
  // The graph is loaded (from the stored vectors) before a test counts reads.
  expect(await semantic.search('relay', 3, undefined, { waitForRebuild: true })).toHaveLength(3);
  /** Exact cosine ranking of these chunks for the query, from their stored vectors. */
  const exact = async (query: string, allow: ReadonlySet<number>) => {
    const q = await embedder.embed(query, 'query');
    const cos = (a: Float32Array, b: Float32Array) => {
      let d = 0, na = 0, nb = 0;
      for (let i = 0; i < a.length; i++) { d += a[i]! * b[i]!; na += a[i]! * a[i]!; nb += b[i]! * b[i]!; }
      return d / (Math.sqrt(na) * Math.sqrt(nb));
    };
    const stored = [...store.chunkVectors(embedder.modelId, [...allow])].flat();
    expect(stored).toHaveLength(allow.size);
    return stored.map(({ id, vector }) => ({ id, score: cos(q, vector) })).sort((a, b) => b.score - a.score || a.id - b.id);
  };
  return { store, semantic, ids, exact };
}

describe('SemanticIndex: filtered searches over an HNSW graph score the stored vectors of the allowed chunks', () => {
  it('answers as exactly the first time as from the vectors it remembers, reading only what it has not read yet', async () => {
    const { store, semantic, ids, exact } = await storedSetup();
    try {
      const allow = new Set(ids.filter((_, i) => i % 3 === 0));
      const expected = await exact('relay queue topic3', allow);

      const reads: number[][] = [];
      const original = store.chunkVectors.bind(store);
      store.chunkVectors = function* (model, wanted, unit) {
        reads.push([...(wanted ?? [])]);
        yield* original(model, wanted, unit);
      };
      const first = await semantic.search('relay queue topic3', 5, allow, { waitForRebuild: true });
      expect(first.map((h) => h.id)).toEqual(expected.slice(0, 5).map((e) => e.id));
      first.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 5));
      expect(reads).toEqual([[...allow]]);
      // Again, and with a wider filter: only the chunks not read before are read.
      const again = await semantic.search('relay queue topic3', 5, allow, { waitForRebuild: true });
      expect(again).toEqual(first);
      expect(reads).toHaveLength(1);
      const wider = new Set(ids.filter((_, i) => i % 3 === 0 || i % 3 === 1));
      const third = await semantic.search('relay queue topic3', 5, wider, { waitForRebuild: true });
      expect(reads[1]).toEqual(ids.filter((_, i) => i % 3 === 1));
      expect(third.map((h) => h.score)).toEqual([...third.map((h) => h.score)].sort((a, b) => b - a));
      expect(third[0]!.score).toBeGreaterThanOrEqual(first[0]!.score);
    } finally {
      await semantic.dispose();
      store.dispose();
    }
  });

  it('never loses an allowed chunk when what it remembers is full: the vectors this query needs are kept', async () => {
    // Room for 10 of the 32-d vectors only.
    const { store, semantic, ids, exact } = await storedSetup(10 * 32 * 4);
    try {
      const first = new Set(ids.slice(0, 10));
      expect(await semantic.search('relay queue topic3', 5, first, { waitForRebuild: true })).toHaveLength(5);
      // Ten new ids come first in this filter: reading them must not push out the ten remembered ones it still needs.
      const both = new Set([...ids.slice(10, 20), ...ids.slice(0, 10)]);
      const expected = await exact('relay queue topic3', both);
      const hits = await semantic.search('relay queue topic3', 20, both, { waitForRebuild: true });
      expect(hits.map((h) => h.id)).toEqual(expected.map((e) => e.id));
    } finally {
      await semantic.dispose();
      store.dispose();
    }
  });
});
