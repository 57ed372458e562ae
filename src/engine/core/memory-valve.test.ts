import { describe, expect, it } from 'vitest';
import { createMemoryValve, fullCollection } from './memory-valve.ts';

const MB = 1024 * 1024;

/** A valve over a heap size the test sets, whose collections free `freed` MB each (down to `kept`). */
function rig(limit: number, step: number, kept: number, freed: number) {
  let heap = 0;
  let collections = 0;
  const valve = createMemoryValve({
    limit: limit * MB,
    step: step * MB,
    heap: () => heap,
    collect: () => () => {
      collections++;
      heap = Math.max(kept * MB, heap - freed * MB);
    },
  });
  return {
    at(mb: number) {
      heap = mb * MB;
      return valve.check();
    },
    get collections() {
      return collections;
    },
    get heap() {
      return heap / MB;
    },
  };
}

describe('the memory valve of an index run', () => {
  it('collects only past the bound, and the heap falls back under it', () => {
    const r = rig(768, 256, 300, 600);
    expect(r.at(500)).toBe(false);
    expect(r.at(768)).toBe(false);
    expect(r.at(900)).toBe(true);
    expect(r.heap).toBe(300);
    expect(r.at(700)).toBe(false);
    expect(r.at(800)).toBe(true);
    expect(r.collections).toBe(2);
  });

  it('backs off by a step when what is kept is past the bound, instead of collecting every batch', () => {
    const r = rig(768, 256, 900, 200);
    expect(r.at(1000)).toBe(true);
    expect(r.heap).toBe(900);
    // Kept 900 MB: the next collection waits for 900 + 256.
    expect(r.at(1100)).toBe(false);
    expect(r.at(1156)).toBe(false);
    expect(r.at(1157)).toBe(true);
    expect(r.collections).toBe(2);
  });

  it('does nothing where the runtime gives no collection', () => {
    const valve = createMemoryValve({ limit: 1, heap: () => 2, collect: () => null });
    expect(valve.check()).toBe(false);
  });

  it('gets V8’s full collection at run time', () => {
    const gc = fullCollection();
    expect(typeof gc).toBe('function');
    expect(() => gc!()).not.toThrow();
  });
});
