import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_VAULT, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../../engine/engine.ts';
import { ANALYZER_SETTING } from '../../engine/search/lexical-upgrade.ts';
import { ANALYZER_VERSION } from '../../engine/search/analyzer.ts';
import { peekSetting } from '../../engine/store/database.ts';
import { benchUpgrade } from './upgrade.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe('bench upgrade', () => {
  it('rebuilds a copy of the store on a worker thread and in line, leaving the kept data dir as it was', async () => {
    const dataDir = temp.make('syn-bench-upgrade-');
    const engine = createEngine({ dataDir, env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } });
    try {
      await engine.index([SAMPLE_VAULT]);
    } finally {
      await engine.dispose();
    }
    const before = fs.statSync(`${dataDir}/synapsis.db`).mtimeMs;
    const r = await benchUpgrade({ dataDir, inLine: true });
    expect(r.notes).toBeGreaterThan(40);
    expect(r.chunks).toBeGreaterThan(r.notes);
    expect(r.off_thread.result).toBe('upgraded');
    expect(r.off_thread.progress_reports).toBeGreaterThanOrEqual(1);
    expect(r.in_line?.ms).toBeGreaterThan(0);
    // The copy was rebuilt and removed; the kept store still says the current analyzer wrote it.
    expect(peekSetting(dataDir, ANALYZER_SETTING)).toEqual({ state: 'read', value: ANALYZER_VERSION });
    expect(fs.statSync(`${dataDir}/synapsis.db`).mtimeMs).toBe(before);
  });
});
