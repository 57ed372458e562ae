import { describe, expect, it } from 'vitest';
import { mean, mrrAt, ndcgAt, percentile, recallAt } from './metrics.ts';

const rel = (entries: [string, number][]) => new Map(entries);

describe('ranking metrics (hand-computed)', () => {
  it('nDCG@10 of a perfect ranking is 1 and of a ranking with no relevant document is 0', () => {
    expect(ndcgAt(['a', 'b', 'x'], rel([['a', 1], ['b', 1]]), 10)).toBe(1);
    expect(ndcgAt(['x', 'y'], rel([['a', 1]]), 10)).toBe(0);
  });

  it('nDCG@10 with relevant documents at ranks 2 and 4 out of 3 judged relevant', () => {
    // DCG = 1/log2(3) + 1/log2(5) = 0.63093 + 0.43068 = 1.06161
    // IDCG = 1 + 1/log2(3) + 1/log2(4) = 1 + 0.63093 + 0.5 = 2.13093
    const v = ndcgAt(['x', 'a', 'y', 'b', 'z'], rel([['a', 1], ['b', 1], ['c', 1]]), 10);
    expect(v).toBeCloseTo(1.06161 / 2.13093, 4);
  });

  it('nDCG uses linear graded gain like trec_eval and cuts at k', () => {
    // ranking b(1), a(2): DCG = 1 + 2/log2(3) = 2.26186; IDCG = 2 + 1/log2(3) = 2.63093
    expect(ndcgAt(['b', 'a'], rel([['a', 2], ['b', 1]]), 10)).toBeCloseTo(2.26186 / 2.63093, 4);
    // the relevant document at rank 3 does not count at k = 2
    expect(ndcgAt(['x', 'y', 'a'], rel([['a', 1]]), 2)).toBe(0);
    // a judged-irrelevant document (grade 0) adds nothing to either side
    expect(ndcgAt(['n', 'a'], rel([['a', 1], ['n', 0]]), 10)).toBeCloseTo(1 / Math.log2(3), 6);
  });

  it('recall@k counts the relevant documents found in the top k', () => {
    const r = rel([['a', 1], ['b', 1], ['c', 1], ['d', 1]]);
    const ranked = ['a', 'x', 'b', 'y', 'c'];
    expect(recallAt(ranked, r, 1)).toBe(0.25);
    expect(recallAt(ranked, r, 3)).toBe(0.5);
    expect(recallAt(ranked, r, 5)).toBe(0.75);
    expect(recallAt(ranked, rel([]), 5)).toBe(0);
  });

  it('MRR@10 is the reciprocal rank of the first relevant document within 10', () => {
    expect(mrrAt(['x', 'y', 'a', 'b'], rel([['a', 1], ['b', 1]]), 10)).toBeCloseTo(1 / 3, 10);
    expect(mrrAt(['a'], rel([['a', 1]]), 10)).toBe(1);
    const late = [...'abcdefghij'].map((c) => `x${c}`).concat('a');
    expect(mrrAt(late, rel([['a', 1]]), 10)).toBe(0);
  });

  it('percentiles use the nearest rank', () => {
    const v = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(v, 50)).toBe(5);
    expect(percentile(v, 95)).toBe(10);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
    expect(mean([1, 2, 3, 6])).toBe(3);
  });
});
