import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.ts';
import { CHILD_TEST_LIMIT_MS } from '../helpers/limits.ts';
import { TempDirs } from '../helpers/tmp.ts';
import { exited, FIXTURES, spawnTs, waitForLine } from './helpers.ts';

/** The store held by a program that is not Synapsis (a SQLite shell, a backup tool): no lock file tells. */
const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe('a store locked by another process', () => {
  it('gives a clear error when indexing, at open, and works again once released', async () => {
    const vault = temp.make('syn-locked-vault-', { 'a.md': '# A\n\nalpha words\n' });
    const dataDir = temp.make('syn-locked-data-');
    const first = createEngine({ dataDir, env: {} });
    await first.index([vault]);
    await first.dispose();

    const holder = spawnTs(path.join(FIXTURES, 'hold-sqlite-lock.ts'), [dataDir]);
    try {
      await waitForLine(holder, /^locked$/);
      let opened: ReturnType<typeof createEngine> | null = null;
      let openError: unknown = null;
      try {
        opened = createEngine({ dataDir, env: {} });
      } catch (error) {
        openError = error;
      }
      if (opened) {
        // Opened (nothing to write at start): indexing must fail clearly after the busy timeout.
        await expect(opened.index([vault])).rejects.toMatchObject({
          code: 'E_SYN_STORE_FAILED',
          message: expect.stringMatching(/The store .*synapsis\.db is locked by another process/),
        });
        await opened.dispose();
      } else {
        expect(openError).toMatchObject({ code: 'E_SYN_STORE_FAILED', message: expect.stringMatching(/locked by another process/) });
      }
    } finally {
      holder.stdin.end();
      await exited(holder);
    }
    const after = createEngine({ dataDir, env: {} });
    expect((await after.index([vault])).failed).toBe(0);
    expect((await after.retrieve('alpha', {}, 1)).chunks[0]!.path).toBe('a.md');
    await after.dispose();
  }, CHILD_TEST_LIMIT_MS);
});
