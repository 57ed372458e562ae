import { describe, expect, it } from 'vitest';
import { cliStartRow, medianWallTimes } from './cli-start.ts';

describe('CLI start row', () => {
  it('states the built CLI as a ratio to node -e 0, the tsx times beside it, and meets the goal only under both limits', () => {
    const row = cliStartRow({ runs: 7, node_ms: 50, built: { help_ms: 150, search_ms: 260 }, source: { help_ms: 1500, search_ms: 1700 } });
    expect(row.measured).toBe('--help 150 ms (3.0x), search 260 ms (5.2x); through tsx: --help 1500 ms (30.0x), search 1700 ms (34.0x)');
    expect(row.target).toContain('median of 7');
    expect(row.target).toContain('node -e 0: 50 ms');
    expect(row.met).toBe(true);
    expect(cliStartRow({ runs: 7, node_ms: 50, built: { help_ms: 150, search_ms: 520 }, source: { help_ms: 1500, search_ms: 1700 } }).met).toBe(false);
  });

  it('says why the built CLI was not measured instead of passing off tsx times as its own', () => {
    const row = cliStartRow({ runs: 3, node_ms: 50, built: null, reason: 'src/cli/main.ts changed since the build', source: { help_ms: 1500, search_ms: 1700 } });
    expect(row.measured).toMatch(/^built CLI not measured: src\/cli\/main.ts changed since the build; through tsx/);
    expect(row.met).toBe(false);
  });

  it('times whole processes and fails on one that exits non-zero', () => {
    const t = medianWallTimes({ quick: { args: ['-e', '0'] }, slow: { args: ['-e', 'const t = Date.now(); while (Date.now() - t < 300);'] } }, 3);
    expect(t.slow!).toBeGreaterThan(t.quick! + 200);
    expect(() => medianWallTimes({ bad: { args: ['-e', 'process.exit(4)'] } }, 1)).toThrow(/exited with 4/);
  });
});
