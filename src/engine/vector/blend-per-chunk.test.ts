import { describe, expect, it } from 'vitest';
import { blendPerChunk, bestPerChunk } from './semantic.ts';

const hits = (...pairs: [number, number][]) => pairs.map(([id, score]) => ({ id, score }));
/** A split() that says which of the asked chunks have sentence vectors, and records what it was asked. */
function splitOf(withSentences: number[]) {
  const asked: number[][] = [];
  const split = (ids: number[]) => {
    asked.push(ids);
    return new Set(ids.filter((id) => withSentences.includes(id)));
  };
  return { split, asked };
}

describe('blendPerChunk', () => {
  it('scores a chunk both searches found as share x its own cosine + (1 - share) x its best sentence', () => {
    const { split, asked } = splitOf([1, 2]);
    const out = blendPerChunk(hits([1, 0.6], [2, 0.5]), { hits: hits([2, 0.9], [1, 0.7]), floor: 0.4 }, 0.2, split, 10);
    expect(out.map((h) => h.id)).toEqual([2, 1]);
    expect(out[0]!.score).toBeCloseTo(0.2 * 0.5 + 0.8 * 0.9, 12);
    expect(out[1]!.score).toBeCloseTo(0.2 * 0.6 + 0.8 * 0.7, 12);
    // Every chunk hit had a sentence hit: the store is not asked.
    expect(asked).toEqual([]);
  });

  it('gives a split chunk no sentence of which was found the last sentence score (nothing left out scores above it)', () => {
    const { split, asked } = splitOf([3]);
    const out = blendPerChunk(hits([1, 0.8], [3, 0.7]), { hits: hits([1, 0.9]), floor: 0.5 }, 0.5, split, 10);
    expect(asked).toEqual([[3]]);
    expect(out.find((h) => h.id === 3)!.score).toBeCloseTo(0.5 * 0.7 + 0.5 * 0.5, 12);
  });

  it('keeps the own cosine of a chunk with no sentence vectors (code, one sentence), whatever the share', () => {
    for (const share of [0, 0.2, 1]) {
      const { split } = splitOf([]);
      const out = blendPerChunk(hits([1, 0.8], [7, 0.75]), { hits: hits([1, 0.9]), floor: 0.3 }, share, split, 10);
      expect(out.find((h) => h.id === 7)!.score).toBeCloseTo(0.75, 12);
    }
  });

  it('gives a chunk only the sentence search found the last chunk hit as its own cosine', () => {
    const { split } = splitOf([1, 9]);
    const out = blendPerChunk(hits([1, 0.8], [2, 0.4]), { hits: hits([9, 0.95], [1, 0.5]), floor: 0.5 }, 0.2, split, 10);
    expect(out.find((h) => h.id === 9)!.score).toBeCloseTo(0.2 * 0.4 + 0.8 * 0.95, 12);
  });

  it('returns the chunk hits as they are when no sentence was found', () => {
    const chunkHits = hits([1, 0.8], [2, 0.4], [3, 0.1]);
    const { split, asked } = splitOf([1, 2, 3]);
    expect(blendPerChunk(chunkHits, { hits: [], floor: null }, 0.2, split, 2)).toEqual(hits([1, 0.8], [2, 0.4]));
    expect(asked).toEqual([]);
  });

  it('lets sentences stand alone when the chunk index found nothing', () => {
    const { split } = splitOf([4]);
    expect(blendPerChunk([], { hits: hits([4, 0.7]), floor: 0.7 }, 0.2, split, 5)).toEqual(hits([4, 0.7]));
  });

  it('ranks by the blended score (ties by id), each chunk once, at most k', () => {
    const { split } = splitOf([1, 2, 3, 4]);
    const out = blendPerChunk(hits([1, 0.5], [2, 0.5], [3, 0.2]), { hits: hits([2, 0.5], [1, 0.5], [4, 0.6]), floor: 0.3 }, 0.5, split, 3);
    expect(out).toHaveLength(3);
    expect(new Set(out.map((h) => h.id)).size).toBe(3);
    // 4: 0.5 x 0.2 (last chunk hit) + 0.5 x 0.6 = 0.4 < 1 and 2 (0.5 each); 3: 0.5 x 0.2 + 0.5 x 0.3 = 0.25, left out.
    expect(out.map((h) => h.id)).toEqual([1, 2, 4]);
  });

  it('share 1 ranks by the chunk vectors, share 0 by the best sentences; the better-of rule sits above both', () => {
    const chunkHits = hits([1, 0.9], [2, 0.6]);
    const sentences = { hits: hits([2, 0.95], [1, 0.7]), floor: 0.7 };
    const { split } = splitOf([1, 2]);
    expect(blendPerChunk(chunkHits, sentences, 1, split, 10).map((h) => h.id)).toEqual([1, 2]);
    expect(blendPerChunk(chunkHits, sentences, 0, split, 10).map((h) => h.id)).toEqual([2, 1]);
    const best = bestPerChunk(chunkHits, sentences.hits, 10);
    for (const share of [0, 0.2, 0.7, 1]) {
      for (const h of blendPerChunk(chunkHits, sentences, share, split, 10)) expect(h.score).toBeLessThanOrEqual(best.find((b) => b.id === h.id)!.score + 1e-12);
    }
  });
});
