import { defineConfig } from 'vitest/config';

/** End-to-end UI specs (test/e2e): the built renderer in Chromium via web mode, and under Electron where its binary exists. */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
