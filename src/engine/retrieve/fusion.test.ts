import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ndcgAt } from '../../cli/eval/metrics.ts';
import {
  compareIds,
  effectiveNormalization,
  fuseReciprocalRank,
  fuseWeighted,
  fuseWeightedLists,
  normalizeMinMax,
  normalizeZScore,
  type ItemId,
  type RankedList,
  type ScoredItem,
  ZSCORE_MIN_ITEMS,
} from './fusion.ts';

const ranked = (name: string, ids: ItemId[]): RankedList => ({
  name,
  items: ids.map((id, i) => ({ id, score: ids.length - i })),
});

const idArb: fc.Arbitrary<ItemId> = fc.oneof(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), fc.integer({ min: 0, max: 6 }));
const itemArb: fc.Arbitrary<ScoredItem> = fc.record({ id: idArb, score: fc.double({ min: -50, max: 50, noNaN: true }) });
const listsArb = fc
  .uniqueArray(fc.constantFrom('bm25', 'dense', 'trigram', 'graph'), { maxLength: 4 })
  .chain((names) => fc.tuple(...names.map((name) => fc.array(itemArb, { maxLength: 12 }).map((items) => ({ name, items })))))
  .map((lists) => lists as RankedList[]);

const unionOf = (lists: readonly RankedList[]) => new Set(lists.flatMap((l) => l.items.map((i) => i.id)));
const dedup = <T>(xs: readonly T[]) => [...new Set(xs)];

describe('fuseReciprocalRank', () => {
  it('sums 1 / (k + rank) over the lists (hand-computed, k = 60)', () => {
    const fused = fuseReciprocalRank([ranked('bm25', ['x', 'y', 'z']), ranked('dense', ['y', 'w'])]);
    expect(fused.map((f) => f.id)).toEqual(['y', 'x', 'w', 'z']);
    expect(fused[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 12); // 0.032522...
    expect(fused[1]!.score).toBeCloseTo(1 / 61, 12); // 0.016393...
    expect(fused[2]!.score).toBeCloseTo(1 / 62, 12); // 0.016129...
    expect(fused[3]!.score).toBeCloseTo(1 / 63, 12); // 0.015873...
    expect(fused[0]!.ranks).toEqual({ bm25: 2, dense: 1 });
    expect(fused[0]!.scores).toEqual({ bm25: 2, dense: 2 });
    expect(fused[3]!.ranks).toEqual({ bm25: 3 });
  });

  it('uses the k it is given', () => {
    const fused = fuseReciprocalRank([ranked('a', ['x', 'y'])], 1);
    expect(fused.map((f) => f.score)).toEqual([1 / 2, 1 / 3]);
  });

  it('breaks equal scores by id, numbers before strings', () => {
    const fused = fuseReciprocalRank([ranked('bm25', ['b', 2]), ranked('dense', [10, 'a'])]);
    // b and 10 both rank first once; a and 2 both rank second once.
    expect(fused.map((f) => f.id)).toEqual([10, 'b', 2, 'a']);
  });

  it('counts an id repeated within one list at its best rank only', () => {
    const fused = fuseReciprocalRank([ranked('bm25', ['x', 'y', 'x'])]);
    expect(fused).toHaveLength(2);
    expect(fused[0]).toMatchObject({ id: 'x', score: 1 / 61, ranks: { bm25: 1 } });
  });

  it('returns nothing for no lists or empty lists, and rejects a bad k or duplicate list names', () => {
    expect(fuseReciprocalRank([])).toEqual([]);
    expect(fuseReciprocalRank([ranked('a', [])])).toEqual([]);
    expect(() => fuseReciprocalRank([ranked('a', ['x'])], -1)).toThrow(RangeError);
    expect(() => fuseReciprocalRank([ranked('a', ['x']), ranked('a', ['y'])])).toThrow(RangeError);
  });

  it('property: the output is a permutation of the union of the inputs, without duplicates', () => {
    fc.assert(
      fc.property(listsArb, (lists) => {
        const ids = fuseReciprocalRank(lists).map((f) => f.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(new Set(ids)).toEqual(unionOf(lists));
      }),
    );
  });

  it('property: fusing one list returns its order (first occurrences)', () => {
    fc.assert(
      fc.property(fc.array(itemArb, { maxLength: 20 }), (items) => {
        const fused = fuseReciprocalRank([{ name: 'only', items }]);
        expect(fused.map((f) => f.id)).toEqual(dedup(items.map((i) => i.id)));
      }),
    );
  });

  it('property: monotone in rank: of two items found by the same lists, the better ranked in each comes first', () => {
    fc.assert(
      fc.property(listsArb, (lists) => {
        const fused = fuseReciprocalRank(lists);
        const position = new Map(fused.map((f, i) => [f.id, i]));
        for (const a of fused) {
          for (const b of fused) {
            const names = Object.keys(a.ranks);
            const sameLists = names.length === Object.keys(b.ranks).length && names.every((n) => n in b.ranks);
            if (!sameLists || a.id === b.id) continue;
            if (names.every((n) => a.ranks[n]! < b.ranks[n]!)) expect(position.get(a.id)!).toBeLessThan(position.get(b.id)!);
          }
        }
      }),
    );
  });

  it('property: the ranks kept for explain point back at each list', () => {
    fc.assert(
      fc.property(listsArb, (lists) => {
        for (const f of fuseReciprocalRank(lists)) {
          for (const [name, rank] of Object.entries(f.ranks)) {
            const list = lists.find((l) => l.name === name)!;
            expect(list.items.findIndex((i) => i.id === f.id)).toBe(rank - 1);
            expect(f.scores[name]).toBe(list.items[rank - 1]!.score);
          }
        }
      }),
    );
  });

  it('property: scores are sorted, ties broken by id, and swapping two lists changes nothing', () => {
    fc.assert(
      fc.property(fc.array(itemArb, { maxLength: 12 }), fc.array(itemArb, { maxLength: 12 }), (x, y) => {
        const one = fuseReciprocalRank([{ name: 'bm25', items: x }, { name: 'dense', items: y }]);
        const two = fuseReciprocalRank([{ name: 'dense', items: y }, { name: 'bm25', items: x }]);
        expect(two.map((f) => f.id)).toEqual(one.map((f) => f.id));
        for (let i = 1; i < one.length; i++) {
          const [p, q] = [one[i - 1]!, one[i]!];
          expect(p.score > q.score || (p.score === q.score && compareIds(p.id, q.id) < 0)).toBe(true);
        }
      }),
    );
  });

  it('beats both single lists on nDCG@10 when each list finds the relevant documents the other ranks low', () => {
    // Each retriever puts its own false positives on top and the relevant documents r1..r4 in the
    // middle or past rank 10; only documents both retrievers found rise to the top when fused.
    const qrels = new Map([['r1', 1], ['r2', 1], ['r3', 1], ['r4', 1]]);
    const dense = ['n1', 'r1', 'n2', 'r2', 'n3', 'r3', 'n4', 'n5', 'n6', 'n7', 'r4'];
    const sparse = ['n8', 'r2', 'n9', 'r1', 'n10', 'r4', 'n11', 'n12', 'n13', 'n14', 'r3'];
    const fused = fuseReciprocalRank([ranked('dense', dense), ranked('bm25', sparse)]).map((f) => String(f.id));

    const nDense = ndcgAt(dense, qrels, 10);
    const nSparse = ndcgAt(sparse, qrels, 10);
    const nFused = ndcgAt(fused, qrels, 10);
    // Relevant at ranks 2, 4 and 6, the fourth past 10: (1/log2 3 + 1/log2 5 + 1/log2 7) / IDCG@4.
    expect(nDense).toBeCloseTo(1.41782 / 2.56161, 4);
    expect(nSparse).toBeCloseTo(1.41782 / 2.56161, 4);
    expect(nFused).toBe(1);
    expect(nFused).toBeGreaterThan(Math.max(nDense, nSparse));

    const weighted = fuseWeighted(ranked('dense', dense).items, ranked('bm25', sparse).items).map((f) => String(f.id));
    expect(ndcgAt(weighted, qrels, 10)).toBeGreaterThan(Math.max(nDense, nSparse));
  });
});

describe('normalizeMinMax', () => {
  it('maps the lowest score to 0 and the highest to 1, keeping the best score of a repeated id', () => {
    const n = normalizeMinMax([{ id: 'a', score: 1 }, { id: 'b', score: 4 }, { id: 'a', score: 2 }, { id: 'c', score: 6 }]);
    expect(n).toEqual(new Map([['a', 0], ['b', 0.5], ['c', 1]]));
  });

  it('maps a list of equal scores (or a single item) to 1 and rejects non-finite scores', () => {
    expect(normalizeMinMax([{ id: 1, score: -3 }, { id: 2, score: -3 }])).toEqual(new Map([[1, 1], [2, 1]]));
    expect(normalizeMinMax([{ id: 1, score: 0 }])).toEqual(new Map([[1, 1]]));
    expect(() => normalizeMinMax([{ id: 1, score: Number.NaN }])).toThrow(RangeError);
  });
});

describe('fuseWeighted', () => {
  it('normalises each list then weighs 0.7 dense + 0.3 sparse, a missing side counting 0 (hand-computed)', () => {
    const dense = [{ id: 'a', score: 0.9 }, { id: 'b', score: 0.5 }, { id: 'c', score: 0.1 }];
    const sparse = [{ id: 'b', score: 12 }, { id: 'd', score: 4 }];
    const fused = fuseWeighted(dense, sparse);
    expect(fused.map((f) => f.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(fused[0]).toEqual({ id: 'a', score: 0.7, dense: 1, sparse: null });
    expect(fused[1]!.score).toBeCloseTo(0.7 * 0.5 + 0.3 * 1, 12);
    expect(fused[1]).toMatchObject({ dense: 0.5, sparse: 1 });
    // c (dense 0) and d (sparse 0) tie at 0: broken by id.
    expect(fused.slice(2)).toEqual([
      { id: 'c', score: 0, dense: 0, sparse: null },
      { id: 'd', score: 0, dense: null, sparse: 0 },
    ]);
  });

  it('gives every item of an all-equal list the full weight of that list', () => {
    const fused = fuseWeighted([{ id: 'a', score: 0.4 }, { id: 'b', score: 0.4 }], [{ id: 'c', score: 0 }]);
    expect(fused).toEqual([
      { id: 'a', score: 0.7, dense: 1, sparse: null },
      { id: 'b', score: 0.7, dense: 1, sparse: null },
      { id: 'c', score: 0.3, dense: null, sparse: 1 },
    ]);
  });

  it('takes other weights and rejects negative ones', () => {
    const fused = fuseWeighted([{ id: 'a', score: 1 }, { id: 'b', score: 0 }], [{ id: 'b', score: 1 }, { id: 'a', score: 0 }], {
      dense: 0.2,
      sparse: 0.8,
    });
    expect(fused.map((f) => [f.id, f.score])).toEqual([['b', 0.8], ['a', 0.2]]);
    expect(() => fuseWeighted([], [], { dense: -1, sparse: 1 })).toThrow(RangeError);
  });

  it('property: a permutation of the union, scores within [0, dense + sparse weight], sorted with id tie-break', () => {
    fc.assert(
      fc.property(fc.array(itemArb, { maxLength: 15 }), fc.array(itemArb, { maxLength: 15 }), (dense, sparse) => {
        const fused = fuseWeighted(dense, sparse);
        const ids = fused.map((f) => f.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(new Set(ids)).toEqual(new Set([...dense, ...sparse].map((i) => i.id)));
        for (const f of fused) {
          expect(f.score).toBeGreaterThanOrEqual(0);
          expect(f.score).toBeLessThanOrEqual(1 + 1e-12);
          expect(f.score).toBeCloseTo(0.7 * (f.dense ?? 0) + 0.3 * (f.sparse ?? 0), 12);
        }
        for (let i = 1; i < fused.length; i++) {
          const [p, q] = [fused[i - 1]!, fused[i]!];
          expect(p.score > q.score || (p.score === q.score && compareIds(p.id, q.id) < 0)).toBe(true);
        }
      }),
    );
  });

  it('property: fusing a list with nothing keeps its order by score', () => {
    // Integer scores: min-max rounding can merge two nearly equal doubles, which the id then orders.
    const intItem = fc.record({ id: idArb, score: fc.integer({ min: -1000, max: 1000 }) });
    fc.assert(
      fc.property(fc.uniqueArray(intItem, { selector: (i) => i.id, maxLength: 15 }), (items) => {
        const expected = [...items].sort((a, b) => b.score - a.score || compareIds(a.id, b.id)).map((i) => i.id);
        expect(fuseWeighted(items, []).map((f) => f.id)).toEqual(expected);
      }),
    );
  });
});

describe('fuseReciprocalRank with list weights', () => {
  it('a list of weight 0 adds nothing, though its items still appear (score 0) with their ranks', () => {
    const fused = fuseReciprocalRank([{ ...ranked('bm25', ['x', 'y']), weight: 0 }, ranked('dense', ['y', 'z'])]);
    expect(fused.map((f) => f.id)).toEqual(['y', 'z', 'x']);
    expect(fused[0]!.score).toBeCloseTo(1 / 61, 12);
    expect(fused[1]!.score).toBeCloseTo(1 / 62, 12);
    expect(fused[2]).toMatchObject({ id: 'x', score: 0, ranks: { bm25: 1 } });
  });

  it('weight 2 doubles each 1 / (k + rank) term of its list (hand-computed, k = 60)', () => {
    const fused = fuseReciprocalRank([{ ...ranked('bm25', ['y', 'x']), weight: 2 }, ranked('dense', ['x', 'y'])]);
    // Unweighted, x and y would tie and x would win on id; the doubled list puts y first.
    expect(fused.map((f) => f.id)).toEqual(['y', 'x']);
    expect(fused[0]!.score).toBeCloseTo(2 / 61 + 1 / 62, 12);
    expect(fused[1]!.score).toBeCloseTo(2 / 62 + 1 / 61, 12);
    expect(fuseReciprocalRank([{ ...ranked('a', ['p', 'q']), weight: 2 }], 1).map((f) => f.score)).toEqual([2 / 2, 2 / 3]);
  });

  it('an explicit weight of 1 is the same as no weight', () => {
    const lists = [ranked('bm25', ['a', 'b', 'c']), ranked('dense', ['c', 'a'])];
    expect(fuseReciprocalRank(lists.map((l) => ({ ...l, weight: 1 })))).toEqual(fuseReciprocalRank(lists));
  });

  it('rejects a negative, NaN or infinite weight', () => {
    for (const weight of [-1, -1e-9, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => fuseReciprocalRank([{ ...ranked('a', ['x']), weight }])).toThrow(RangeError);
    }
  });
});

describe('normalizeZScore', () => {
  it('maps scores to mean 0 and unit (population) standard deviation (hand-computed)', () => {
    const n = normalizeZScore([{ id: 'a', score: 1 }, { id: 'b', score: 2 }, { id: 'c', score: 3 }, { id: 'd', score: 4 }]);
    const sd = Math.sqrt(1.25);
    expect(n.get('a')).toBeCloseTo(-1.5 / sd, 12);
    expect(n.get('b')).toBeCloseTo(-0.5 / sd, 12);
    expect(n.get('c')).toBeCloseTo(0.5 / sd, 12);
    expect(n.get('d')).toBeCloseTo(1.5 / sd, 12);
  });

  it('property: any list with two distinct scores comes out with mean 0 and standard deviation 1', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.record({ id: fc.integer({ min: 0, max: 40 }), score: fc.integer({ min: -1000, max: 1000 }) }), { selector: (i) => i.id, minLength: 2, maxLength: 20 }), (items) => {
        fc.pre(new Set(items.map((i) => i.score)).size > 1);
        const values = [...normalizeZScore(items).values()];
        const mean = values.reduce((s, v) => s + v, 0) / values.length;
        const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
        expect(mean).toBeCloseTo(0, 9);
        expect(sd).toBeCloseTo(1, 9);
      }),
    );
  });

  it('maps equal scores (or a single item) to 0, and nothing to an empty map', () => {
    expect(normalizeZScore([{ id: 1, score: 7 }, { id: 2, score: 7 }])).toEqual(new Map([[1, 0], [2, 0]]));
    expect(normalizeZScore([{ id: 'x', score: -3 }])).toEqual(new Map([['x', 0]]));
    expect(normalizeZScore([])).toEqual(new Map());
  });

  it('keeps the best score of a repeated id and rejects non-finite scores', () => {
    // Best scores a = 5, b = 3: mean 4, sd 1.
    expect(normalizeZScore([{ id: 'a', score: 1 }, { id: 'b', score: 3 }, { id: 'a', score: 5 }])).toEqual(new Map([['a', 1], ['b', -1]]));
    expect(() => normalizeZScore([{ id: 1, score: Number.POSITIVE_INFINITY }])).toThrow(RangeError);
  });
});

describe('fuseWeightedLists', () => {
  const list = (name: string, items: [ItemId, number][], weight?: number): RankedList => ({ name, ...(weight !== undefined ? { weight } : {}), items: items.map(([id, score]) => ({ id, score })) });

  it('minmax: sums each list\'s normalised score, an item a list misses counting its floor 0 (hand-computed)', () => {
    const a = list('a', [['p', 10], ['q', 5], ['r', 0]]);
    const b = list('b', [['q', 4], ['s', 2]]);
    expect(fuseWeightedLists([a, b])).toEqual([
      { id: 'q', score: 1.5 },
      { id: 'p', score: 1 },
      { id: 'r', score: 0 },
      { id: 's', score: 0 },
    ]);
  });

  it('minmax: weights scale each list\'s contribution, and weight 0 silences a list', () => {
    const fused = fuseWeightedLists([list('a', [['p', 10], ['q', 5], ['r', 0]], 3), list('b', [['q', 4], ['s', 2]])], 'minmax');
    expect(fused.map((f) => [f.id, f.score])).toEqual([['p', 3], ['q', 2.5], ['r', 0], ['s', 0]]);
    const silenced = fuseWeightedLists([list('a', [['p', 10], ['q', 5]], 0), list('b', [['s', 4], ['q', 2]])]);
    // Unsilenced, p would lead (1 + 0) level with s; silenced, p and q count only b's floor 0.
    expect(silenced.map((f) => [f.id, f.score])).toEqual([['s', 1], ['p', 0], ['q', 0]]);
  });

  it('zscore: an item a list misses counts that list\'s lowest z-score, not 0 (hand-computed)', () => {
    // a: mean 2, sd √(2/3): p = +1.2247, q = 0, r = −1.2247 (the floor). b: mean 5, sd 5: s = +1, p = −1 (the floor).
    const z = Math.sqrt(1.5);
    const fused = fuseWeightedLists([list('a', [['p', 3], ['q', 2], ['r', 1]]), list('b', [['s', 10], ['p', 0]])], 'zscore', 0);
    expect(fused.map((f) => f.id)).toEqual(['p', 's', 'q', 'r']);
    const score = Object.fromEntries(fused.map((f) => [f.id, f.score]));
    expect(score.p).toBeCloseTo(z - 1, 12);
    expect(score.s).toBeCloseTo(-z + 1, 12);
    expect(score.q).toBeCloseTo(0 - 1, 12);
    expect(score.r).toBeCloseTo(-z - 1, 12);
    // Had a missing item counted 0, s (1 + 0) would lead p (1.2247 − 1).
  });

  it('zscore: weights scale each list\'s contribution', () => {
    const z = Math.sqrt(1.5);
    const fused = fuseWeightedLists([list('a', [['p', 3], ['q', 2], ['r', 1]], 0.5), list('b', [['s', 10], ['p', 0]], 4)], 'zscore', 0);
    const score = Object.fromEntries(fused.map((f) => [f.id, f.score]));
    expect(fused[0]!.id).toBe('s');
    expect(score.s).toBeCloseTo(0.5 * -z + 4 * 1, 12);
    expect(score.p).toBeCloseTo(0.5 * z + 4 * -1, 12);
    expect(score.q).toBeCloseTo(0.5 * 0 + 4 * -1, 12);
  });

  it('zscore falls back to min-max when a list has fewer than ZSCORE_MIN_ITEMS candidates: a lone exact match keeps a whole list of credit', () => {
    // The lexical list found one note; a dense list ranks four near-random neighbours.
    const lexical = list('lexical', [['exact', 7.5]]);
    const dense = list('dense', [['c', 0.31], ['b', 0.3], ['exact', 0.22], ['d', 0.1]]);
    expect(effectiveNormalization([lexical, dense], 'zscore')).toBe('minmax');
    expect(fuseWeightedLists([lexical, dense], 'zscore')).toEqual(fuseWeightedLists([lexical, dense], 'minmax'));
    expect(fuseWeightedLists([lexical, dense], 'zscore')[0]!.id).toBe('exact');
    // With raw z-scores the lone hit gets one deviation and the dense list's top outranks it.
    expect(fuseWeightedLists([lexical, dense], 'zscore', 0)[0]!.id).toBe('c');
    // Lists of ZSCORE_MIN_ITEMS or more keep z-scores.
    const long = (name: string, shift: number) => list(name, Array.from({ length: ZSCORE_MIN_ITEMS }, (_, i) => [`d${i}`, (i * 7 + shift) % 11] as [ItemId, number]));
    expect(effectiveNormalization([long('a', 0), long('b', 3)], 'zscore')).toBe('zscore');
    expect(effectiveNormalization([long('a', 0), long('b', 3)], 'minmax')).toBe('minmax');
  });

  it('breaks equal scores by id (numbers before strings), whatever order the lists come in', () => {
    const x = list('x', [['b', 1], [2, 0.5], ['a', 0]]);
    const y = list('y', [['a', 1], [2, 0.5], ['b', 0]]);
    for (const normalize of ['minmax', 'zscore'] as const) {
      const one = fuseWeightedLists([x, y], normalize, 0);
      const two = fuseWeightedLists([y, x], normalize, 0);
      expect(one.map((f) => f.id)).toEqual([2, 'a', 'b']);
      expect(two).toEqual(one);
    }
  });

  it('keeps the best score of an id repeated in a list, returns nothing for no lists, and rejects a bad weight', () => {
    expect(fuseWeightedLists([list('a', [['p', 1], ['q', 3], ['p', 5]])])).toEqual([{ id: 'p', score: 1 }, { id: 'q', score: 0 }]);
    expect(fuseWeightedLists([])).toEqual([]);
    expect(fuseWeightedLists([list('a', [])], 'zscore')).toEqual([]);
    expect(() => fuseWeightedLists([list('a', [['p', 1]], -0.5)])).toThrow(RangeError);
    expect(() => fuseWeightedLists([list('a', [['p', 1]], Number.NaN)], 'zscore')).toThrow(RangeError);
  });

  it('property: with minmax and weights 0.7 / 0.3 it scores like fuseWeighted (lists that are empty or not all equal)', () => {
    // Not all equal once each id keeps its best score (an all-equal list's floor is 1, not 0).
    const spread = (items: readonly ScoredItem[]) => items.length === 0 || [...normalizeMinMax(items).values()].includes(0);
    fc.assert(
      fc.property(fc.array(itemArb, { maxLength: 12 }), fc.array(itemArb, { maxLength: 12 }), (dense, sparse) => {
        fc.pre(spread(dense) && spread(sparse));
        const many = fuseWeightedLists([{ name: 'dense', weight: 0.7, items: dense }, { name: 'sparse', weight: 0.3, items: sparse }], 'minmax');
        const two = new Map(fuseWeighted(dense, sparse).map((f) => [f.id, f.score]));
        expect(new Set(many.map((f) => f.id))).toEqual(new Set(two.keys()));
        for (const f of many) expect(f.score).toBeCloseTo(two.get(f.id)!, 9);
      }),
    );
  });
});

describe('fuseWeightedLists with a list of one hit', () => {
  it('gives min-max credit to what the list found, none to what it did not', () => {
    const fused = fuseWeightedLists([
      { name: 'lexical', items: [{ id: 'x', score: 7 }] },
      { name: 'dense', items: [{ id: 'y', score: 0.9 }, { id: 'x', score: 0.89 }, { id: 'z', score: 0.1 }] },
    ]);
    expect(fused.map((f) => f.id)).toEqual(['x', 'y', 'z']);
    expect(fused[0]!.score).toBeCloseTo(1 + 0.79 / 0.8, 9);
    expect(fused[1]!.score).toBe(1);
  });

  it('puts what a z-scored list of equal hits did not find below its hits', () => {
    const fused = fuseWeightedLists(
      [
        { name: 'lexical', items: [{ id: 'x', score: 3 }, { id: 'w', score: 3 }] },
        { name: 'dense', items: [{ id: 'y', score: 0.5 }, { id: 'x', score: 0.5 }] },
      ],
      'zscore',
    );
    expect(fused.map((f) => f.id)).toEqual(['x', 'w', 'y']);
  });
});
