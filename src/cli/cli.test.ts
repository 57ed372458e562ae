import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../test/helpers/tmp.ts';
import { runCli } from './main.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());
const BIN = path.resolve(import.meta.dirname, '..', '..', 'bin', 'synapsis.js');

async function cli(args: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

describe('synapsis CLI', () => {
  const vault = temp.make('syn-cli-vault-', {
    'a.md': '# Alpha\n\nThe launch date is 2026-05-01.\n',
    'b.txt': 'Beta notes mention the launch too.\n',
  });

  it('runs as a bin: --help with examples, exit 0', () => {
    const r = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toMatch(/index \[options\] \[paths\.\.\.\]/);
  });

  it('indexes then reports documents in health, as JSON', async () => {
    const dataDir = temp.make('syn-cli-data-');
    const index = await cli(['index', vault, '--data-dir', dataDir, '--json', '--quiet']);
    expect(index.code).toBe(0);
    expect(JSON.parse(index.out)).toMatchObject({ indexed: 2, failed: 0 });
    const health = await cli(['health', '--data-dir', dataDir, '--json']);
    expect(health.code).toBe(0);
    expect(JSON.parse(health.out).documents).toMatchObject({ total: 2, indexed: 2 });
    const search = await cli(['search', 'launch date', '--data-dir', dataDir, '--k', '1']);
    expect(search.code).toBe(0);
    expect(search.out).toMatch(/^1\. a\.md#L1-L3 {2}\(score/);
  });

  it('prints plain progress lines when stderr is not a terminal', () => {
    const dataDir = temp.make('syn-cli-data-');
    const r = spawnSync(process.execPath, [BIN, 'index', vault, '--data-dir', dataDir], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/indexing: done 2\/2 files/);
    expect(r.stdout).toMatch(/indexed 2, unchanged 0/);
  });

  it('exits 2 on bad usage and bad input, 1 on failures, with a clear message', async () => {
    expect((await cli(['search'])).code).toBe(2);
    expect((await cli(['frobnicate'])).code).toBe(2);
    expect((await cli(['search', 'x', '--k', 'zero', '--data-dir', temp.make()])).code).toBe(2);
    const missing = await cli(['index', path.join(vault, 'nope'), '--data-dir', temp.make()]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/E_SYN_BAD_REQUEST.*No such folder/);
    const json = await cli(['index', path.join(vault, 'nope'), '--data-dir', temp.make(), '--json']);
    expect(JSON.parse(json.out).error).toMatchObject({ code: 'E_SYN_BAD_REQUEST', retryable: false });
    const notADir = temp.make('syn-cli-file-', { 'synapsis.db': 'garbage that is not sqlite '.repeat(100) });
    const broken = await cli(['health', '--data-dir', notADir]);
    expect(broken.code).toBe(1);
    expect(broken.err).toMatch(/E_SYN_STORE_FAILED/);
  });

  it('asks a question, prints a cited answer, and keeps a trace that traces and health --metrics report', async () => {
    const dataDir = temp.make('syn-cli-data-');
    expect((await cli(['index', vault, '--data-dir', dataDir, '--quiet'])).code).toBe(0);
    const human = await cli(['ask', 'What is the launch date?', '--data-dir', dataDir]);
    expect(human.code).toBe(0);
    expect(human.out).toMatch(/The launch date is 2026-05-01\. \[1\]/);
    expect(human.out).toMatch(/\[1\] a\.md:1-3/);
    expect(human.out).toMatch(/extractive .*verdict APPROVE/);
    const json = await cli(['ask', 'What is the launch date?', '--data-dir', dataDir, '--json']);
    const envelope = JSON.parse(json.out);
    expect(envelope.answer_mode).toBe('extractive');
    expect(envelope.citations[0]).toMatchObject({ n: 1, locator: 'a.md#L1-L3', start_line: 1, end_line: 3, stale: false });
    const traces = JSON.parse((await cli(['traces', '--data-dir', dataDir, '--json'])).out);
    expect(traces).toHaveLength(2);
    expect(traces[0].trace_id).toBe(envelope.trace_id);
    const metrics = await cli(['health', '--metrics', '--data-dir', dataDir]);
    expect(metrics.out).toContain('synapsis_answers_total{answer_mode="extractive",verdict="APPROVE"} 2');
    expect((await cli(['ask', '', '--data-dir', dataDir])).code).toBe(2);
  });
});
