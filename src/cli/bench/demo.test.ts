import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_QUESTIONS, SAMPLE_VAULT, TempDirs } from '../../../test/helpers/tmp.ts';
import { DEMO_TOUR } from '../resources.ts';
import { benchDemo } from './demo.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe('synapsis bench demo', () => {
  it('times the first start to a ready tour and to a complete index, then later starts, in the demo dir only', async () => {
    const dataDir = path.join(temp.make('syn-bench-demo-'), 'demo');
    const lines: string[] = [];
    const r = await benchDemo({ vault: SAMPLE_VAULT, questionsFile: SAMPLE_QUESTIONS, tourFile: DEMO_TOUR, dataDir }, 1, (l) => lines.push(l));
    expect(r.models).toEqual([]);
    expect(r.first_ready_s).toBeGreaterThan(0);
    expect(r.first_ready_s).toBeLessThanOrEqual(r.first_start_s);
    expect(r.later_starts_s).toHaveLength(1);
    expect(r.later_first_search_s).toBeLessThanOrEqual(r.later_start_s);
    expect(lines[0]).toMatch(/^first start: tour ready after [\d.]+ s, index complete after [\d.]+ s$/);
    expect(fs.existsSync(path.join(dataDir, 'synapsis.db'))).toBe(true);
  }, 120_000);
});
