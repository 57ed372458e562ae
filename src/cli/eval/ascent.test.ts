import { describe, expect, it } from 'vitest';
import { coordinateAscent } from './tune.ts';

type P = { a: number; b: number };
const param = (name: keyof P, values: number[]) => ({ name, values, apply: (p: P, v: unknown) => ({ ...p, [name]: v as number }), show: String });

describe('coordinateAscent (synapsis tune)', () => {
  it("takes the best value of a parameter's grid, not the first that clears the bar", () => {
    // From a = 0: a = 1 gains 0.0011 (over the bar), a = 2 gains 0.0018 (but only 0.0007 over a = 1).
    const score = (p: P) => ({ 0: 0.5, 1: 0.5011, 2: 0.5018, 3: 0.4 })[p.a as 0 | 1 | 2 | 3]!;
    const r = coordinateAscent({ a: 0, b: 0 }, [param('a', [0, 1, 2, 3])], score, 0.001);
    expect(r.best).toEqual({ a: 2, b: 0 });
    expect(r.score).toBe(0.5018);
    expect(r.steps).toEqual([{ param: 'a', value: '2', ndcg_at_10: 0.5018 }]);
  });

  it('moves a parameter only for at least minGain, and goes round again while something moved', () => {
    // b pays only once a has moved; a gain below minGain leaves the start as it is.
    const score = (p: P) => 0.5 + 0.002 * p.a + (p.a === 1 ? 0.003 * p.b : 0.0001 * p.b);
    const r = coordinateAscent({ a: 0, b: 0 }, [param('b', [0, 1]), param('a', [0, 1])], score, 0.001);
    expect(r.best).toEqual({ a: 1, b: 1 });
    expect(r.steps.map((s) => s.param)).toEqual(['a', 'b']);
    const small = coordinateAscent({ a: 0, b: 0 }, [param('b', [0, 1])], score, 0.001);
    expect(small.best).toEqual({ a: 0, b: 0 });
    expect(small.steps).toEqual([]);
  });
});
