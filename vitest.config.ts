import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
    exclude: ['node_modules/**', 'test/e2e/**'],
    // Only a hang is caught: in the full suite on a loaded two-core machine, tests that take 30-40 s alone
    // (the sample vault's answer eval, the graph list over 4,000 generated notes) passed a 60 s limit.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one worker on a two-core machine, which then
    // idles a core while a file waits on its child processes. Two workers there: 489 s instead of 655-767 s.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
