import { describe, expect, it } from 'vitest';
import { boundedMemo } from './memo.ts';

describe('boundedMemo', () => {
  it('computes an answer once per key, and empties itself when full', () => {
    const memo = boundedMemo<number>(2);
    let calls = 0;
    const len = (s: string) => memo(s, () => (calls++, s.length));
    expect([len('a'), len('bb'), len('a'), len('bb')]).toEqual([1, 2, 1, 2]);
    expect(calls).toBe(2);
    // A third key empties it: the first two are computed again.
    len('ccc');
    len('a');
    expect(calls).toBe(4);
  });

  it('keeps a falsy answer as an answer', () => {
    const memo = boundedMemo<boolean>(10);
    let calls = 0;
    memo('x', () => (calls++, false));
    expect(memo('x', () => (calls++, true))).toBe(false);
    expect(calls).toBe(1);
  });
});
