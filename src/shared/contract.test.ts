import { describe, expect, it } from 'vitest';
import { answerMethods, contract, graphMethods, HOST_METHODS, indexMethods, METHODS, modelsMethods, searchMethods, sourceMethods, systemMethods, threadsMethods } from './contract.ts';

describe('contract', () => {
  it('joins every namespace once: no method is defined twice or lost', () => {
    const parts = [indexMethods, searchMethods, systemMethods, answerMethods, sourceMethods, graphMethods, modelsMethods, threadsMethods];
    const names = parts.flatMap((p) => Object.keys(p));
    expect(new Set(names).size).toBe(names.length);
    expect([...METHODS].sort()).toEqual([...names].sort());
    for (const m of METHODS) expect(contract[m].request).toBeDefined();
  });

  it('keeps host methods apart from the engine methods', () => {
    expect(HOST_METHODS.filter((m) => (METHODS as string[]).includes(m))).toEqual([]);
  });
});
