import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATA_FILE, META_FILE } from './common.ts';
import { FaissVectorIndex } from './faiss.ts';
import { createVectorIndex, loadVectorIndex } from './index.ts';
import type { VectorIndex } from './types.ts';
import { UsearchVectorIndex } from './usearch.ts';

/** Deterministic pseudo-random vectors (mulberry32), so failures reproduce. */
function randomVectors(count: number, dim: number, seed: number): Float32Array[] {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
  return Array.from({ length: count }, () => Float32Array.from({ length: dim }, next));
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}

function bruteForce(ids: number[], vectors: Float32Array[], query: Float32Array, k: number, allow?: (id: number) => boolean): number[] {
  return ids
    .map((id, i) => ({ id, s: cosine(vectors[i]!, query) }))
    .filter((h) => !allow || allow(h.id))
    .sort((x, y) => y.s - x.s)
    .slice(0, k)
    .map((h) => h.id);
}

const BACKENDS: { name: string; exact: boolean; make: (dim: number) => VectorIndex }[] = [
  { name: 'usearch (exact)', exact: true, make: (dimension) => new UsearchVectorIndex({ dimension }) },
  { name: 'usearch (hnsw)', exact: false, make: (dimension) => new UsearchVectorIndex({ dimension, exactLimit: 0 }) },
  { name: 'faiss (flat)', exact: true, make: (dimension) => new FaissVectorIndex({ dimension }) },
];

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-vec-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(BACKENDS)('VectorIndex: $name', ({ make, exact }) => {
  const dim = 24;
  const ids = Array.from({ length: 600 }, (_, i) => i * 3 + 1);
  const vectors = randomVectors(ids.length, dim, 7);
  const queries = randomVectors(20, dim, 99);

  function filled(): VectorIndex {
    const index = make(dim);
    index.add(ids, vectors);
    return index;
  }

  it('finds a stored vector first, with cosine similarity 1', () => {
    const index = filled();
    // An exact index always does; an HNSW graph built on two threads nearly always (a fresh clone's
    // CI once saw one stored vector of its own query ranked below another): counted over 20 of them.
    let first = 0;
    for (const at of Array.from({ length: 20 }, (_, i) => i * 29 + 3)) {
      const hits = index.search(vectors[at]!, 3);
      expect(hits[1]!.score).toBeLessThanOrEqual(hits[0]!.score);
      if (hits[0]!.id === ids[at]) {
        first++;
        expect(hits[0]!.score).toBeCloseTo(1, 4);
      }
    }
    expect(first / 20).toBeGreaterThanOrEqual(exact ? 1 : 0.9);
    expect(index.stats()).toMatchObject({ count: ids.length, dimension: dim });
  });

  it('ranks like brute-force cosine search', () => {
    const index = filled();
    let overlap = 0;
    for (const q of queries) {
      const got = index.search(q, 10).map((h) => h.id);
      const want = bruteForce(ids, vectors, q, 10);
      if (exact) expect(got).toEqual(want);
      overlap += got.filter((id) => want.includes(id)).length;
    }
    expect(overlap / (queries.length * 10)).toBeGreaterThanOrEqual(exact ? 1 : 0.95);
  });

  it('returns only allowed ids, still the best of them, with a set or a predicate', () => {
    const index = filled();
    const allowedSet = new Set(ids.filter((id) => id % 7 === 0));
    let found = 0;
    let bestFound = 0;
    for (const q of queries.slice(0, 5)) {
      const want = bruteForce(ids, vectors, q, 5, (id) => allowedSet.has(id));
      const bySet = index.search(q, 5, allowedSet).map((h) => h.id);
      const byPredicate = index.search(q, 5, (id) => id % 7 === 0).map((h) => h.id);
      for (const id of [...bySet, ...byPredicate]) expect(allowedSet.has(id)).toBe(true);
      if (exact) {
        expect(bySet).toEqual(want);
        expect(byPredicate).toEqual(want);
      }
      // A graph search is approximate (its build order depends on thread timing): the best allowed
      // hit comes first nearly always (CI once saw one query of five miss it), and nearly all of the
      // rest are found.
      bestFound += Number(bySet[0] === want[0]) + Number(byPredicate[0] === want[0]);
      found += bySet.filter((id) => want.includes(id)).length + byPredicate.filter((id) => want.includes(id)).length;
    }
    expect(bestFound / 10).toBeGreaterThanOrEqual(exact ? 1 : 0.8);
    expect(found / 50).toBeGreaterThanOrEqual(exact ? 1 : 0.9);
    expect(index.search(queries[0]!, 5, new Set([ids[3]!]))).toEqual([expect.objectContaining({ id: ids[3] })]);
    expect(index.search(queries[0]!, 5, new Set())).toEqual([]);
  });

  it('removes ids incrementally and never returns them again', () => {
    const index = filled();
    const gone = ids.slice(0, 300);
    expect(index.remove([...gone, 999_999])).toBe(300);
    expect(index.remove(gone)).toBe(0);
    expect(index.stats().count).toBe(300);
    expect(index.has(gone[0]!)).toBe(false);
    expect(index.has(ids[400]!)).toBe(true);
    for (const q of queries) {
      const got = index.search(q, 10).map((h) => h.id);
      expect(got.some((id) => gone.includes(id))).toBe(false);
      if (exact) expect(got).toEqual(bruteForce(ids.slice(300), vectors.slice(300), q, 10));
    }
    expect(index.search(vectors[450]!, 1)[0]!.id).toBe(ids[450]);
  });

  it('replaces the vector of an id that is added again', () => {
    const index = filled();
    index.add([ids[0]!], [vectors[500]!]);
    expect(index.stats().count).toBe(ids.length);
    const hits = index.search(vectors[500]!, 2).map((h) => h.id);
    expect(hits).toContain(ids[0]);
    expect(index.search(vectors[0]!, 1)[0]!.id).not.toBe(ids[0]);
  });

  it('handles k of zero, k beyond the count, and an empty index', () => {
    const index = make(dim);
    expect(index.search(queries[0]!, 5)).toEqual([]);
    index.add(ids.slice(0, 3), vectors.slice(0, 3));
    expect(index.search(queries[0]!, 0)).toEqual([]);
    expect(
      index
        .search(queries[0]!, 50)
        .map((h) => h.id)
        .sort((a, b) => a - b),
    ).toEqual(ids.slice(0, 3));
  });

  it('refuses a vector of another dimension and adds nothing of that batch', () => {
    const index = filled();
    expect(() => index.add([5000, 5001], [new Float32Array(dim), new Float32Array(dim + 1)])).toThrow(
      expect.objectContaining({ code: 'E_SYN_INDEX_VERSION_MISMATCH' }),
    );
    expect(index.has(5000)).toBe(false);
    expect(index.stats().count).toBe(ids.length);
    expect(() => index.search(new Float32Array(dim - 1), 3)).toThrow(expect.objectContaining({ code: 'E_SYN_INDEX_VERSION_MISMATCH' }));
    expect(() => index.add([1.5], [new Float32Array(dim)])).toThrow(expect.objectContaining({ code: 'E_SYN_BAD_REQUEST' }));
  });

  it('saves and loads the same index, incremental changes included', () => {
    const dir = tempDir();
    const index = filled();
    index.remove(ids.slice(0, 10));
    index.save(dir);
    const loaded = loadVectorIndex(dir);
    expect(loaded.backend).toBe(index.backend);
    expect(loaded.stats()).toMatchObject({ count: ids.length - 10, dimension: dim, kind: index.stats().kind });
    expect(new Set(loaded.ids())).toEqual(new Set(ids.slice(10)));
    for (const q of queries.slice(0, 5)) expect(loaded.search(q, 10)).toEqual(index.search(q, 10));
    // Incremental after load, saved again over the old files.
    loaded.add([10_000], [vectors[0]!]);
    loaded.remove([ids[20]!]);
    loaded.save(dir);
    const again = loadVectorIndex(dir);
    expect(again.has(10_000)).toBe(true);
    expect(again.has(ids[20]!)).toBe(false);
    expect(again.search(vectors[0]!, 1)[0]!.id).toBe(10_000);
  });

  it('reports a missing, truncated or garbled index as unavailable instead of loading it', () => {
    const dir = tempDir();
    expect(() => loadVectorIndex(dir)).toThrow(expect.objectContaining({ code: 'E_SYN_VECTORSTORE_UNAVAILABLE' }));
    filled().save(dir);
    const data = path.join(dir, DATA_FILE);
    const bytes = fs.readFileSync(data);
    fs.writeFileSync(data, bytes.subarray(0, bytes.length >> 1));
    expect(() => loadVectorIndex(dir)).toThrow(/interrupted save or a damaged file/);
    fs.writeFileSync(data, bytes);
    expect(loadVectorIndex(dir).stats().count).toBe(ids.length);
    fs.writeFileSync(path.join(dir, META_FILE), '{"format":1,');
    expect(() => loadVectorIndex(dir)).toThrow(expect.objectContaining({ code: 'E_SYN_VECTORSTORE_UNAVAILABLE' }));
  });

  it('throws once disposed', () => {
    const index = filled();
    index.dispose();
    expect(() => index.search(queries[0]!, 3)).toThrow(expect.objectContaining({ code: 'E_SYN_VECTORSTORE_UNAVAILABLE' }));
  });
});

describe('usearch backend', () => {
  it('switches from exact search to an HNSW graph when the corpus outgrows exactLimit, keeping every id', () => {
    const dim = 16;
    const vectors = randomVectors(300, dim, 3);
    const ids = vectors.map((_, i) => i);
    const index = new UsearchVectorIndex({ dimension: dim, exactLimit: 200 });
    index.add(ids.slice(0, 150), vectors.slice(0, 150));
    expect(index.stats().kind).toBe('exact');
    index.add(ids.slice(150), vectors.slice(150));
    expect(index.stats()).toMatchObject({ kind: 'hnsw', count: 300 });
    expect(new Set(index.ids())).toEqual(new Set(ids));
    expect(index.search(vectors[10]!, 1)[0]!.id).toBe(10);
    expect(index.search(vectors[250]!, 1)[0]!.id).toBe(250);
  });
});

describe('createVectorIndex', () => {
  it('opens usearch for auto and the named backend otherwise', () => {
    expect(createVectorIndex({ backend: 'auto', dimension: 8 }).backend).toBe('usearch');
    expect(createVectorIndex({ backend: 'usearch', dimension: 8 }).backend).toBe('usearch');
    expect(createVectorIndex({ backend: 'faiss', dimension: 8 }).backend).toBe('faiss');
  });

  it('loads an index with the backend that wrote it', () => {
    const dir = tempDir();
    const faiss = createVectorIndex({ backend: 'faiss', dimension: 4 });
    faiss.add([7], [new Float32Array([1, 0, 0, 0])]);
    faiss.save(dir);
    expect(loadVectorIndex(dir).backend).toBe('faiss');
  });
});
