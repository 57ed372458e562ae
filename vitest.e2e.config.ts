import { defineConfig } from 'vitest/config';

/** End-to-end UI specs (test/e2e): the built renderer in Chromium via web mode, and under Electron where its binary exists. */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two spec files at a time: each starts its own server, data dir and browser on a free port, and a
    // spec mostly waits on the page, so a two-core machine runs the specs in 291 s instead of 412 s.
    maxWorkers: 2,
  },
});
