import { describe, expect, it } from 'vitest';
import { relevantCount } from './search-cut.ts';

describe('relevantCount', () => {
  it('cuts at the first sharp drop in score', () => {
    // "AURORA_RELAY_PORT" over the sample vault: four passages name it, then prose about ports.
    expect(relevantCount([10.84, 10.8, 10.35, 8.84, 5.33, 4.59, 4.17, 4.16])).toBe(4);
  });

  it('keeps one passage when only one stands out', () => {
    expect(relevantCount([12, 3, 2.9, 2.8])).toBe(1);
  });

  it('cuts where the scores fall under a share of the best, even without one sharp step', () => {
    expect(relevantCount([10, 8, 6.4, 5.1, 4.2, 3.5])).toBe(4);
  });

  it('keeps a flat list whole (fused ranks score alike)', () => {
    expect(relevantCount([0.0328, 0.0323, 0.0317, 0.0312, 0.0308])).toBe(5);
    expect(relevantCount([])).toBe(0);
    expect(relevantCount([0, 0])).toBe(2);
  });
});
