import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../../test/helpers/cli.ts';
import { CHILD_TEST_LIMIT_MS } from '../../test/helpers/limits.ts';
import { TempDirs } from '../../test/helpers/tmp.ts';
import { defaultDataDir, resolveDataDir } from '../engine/core/paths.ts';

const temp = new TempDirs();
const BIN = path.resolve(import.meta.dirname, '..', '..', 'bin', 'synapsis.js');
const saved = { SYN_INDEX_PATH: process.env.SYN_INDEX_PATH, SYNAPSIS_DATA_DIR: process.env.SYNAPSIS_DATA_DIR };

/** Runs the bin with only $SYN_INDEX_PATH naming the workspace; resolves with what it printed once `ready` matches. */
function spawnUntil(args: string[], dataDir: string, ready: (out: string, err: string) => boolean): Promise<{ out: string; err: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SYN_INDEX_PATH: dataDir, SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!ready(out, err)) return;
      child.kill('SIGTERM');
      child.stdin.end();
      resolve({ out, err });
    };
    child.stdout.on('data', (d: Buffer) => ((out += d.toString()), check()));
    child.stderr.on('data', (d: Buffer) => ((err += d.toString()), check()));
    child.on('error', reject);
    child.on('exit', () => resolve({ out, err }));
  });
}

describe('resolveDataDir', () => {
  it('takes --data-dir, then $SYNAPSIS_DATA_DIR, then $SYN_INDEX_PATH, then the OS app-data folder', () => {
    const env = { HOME: '/home/me', SYNAPSIS_DATA_DIR: '/a', SYN_INDEX_PATH: '/b' };
    expect(resolveDataDir('rel', env)).toBe(path.resolve('rel'));
    expect(resolveDataDir(undefined, env)).toBe('/a');
    expect(resolveDataDir(undefined, { ...env, SYNAPSIS_DATA_DIR: '' })).toBe('/b');
    expect(resolveDataDir(undefined, { HOME: '/home/me', SYN_INDEX_PATH: ' ' })).toBe(defaultDataDir({ HOME: '/home/me' }));
  });
});

describe('$SYN_INDEX_PATH names the workspace of every entry', () => {
  const vault = temp.make('syn-env-vault-', { 'a.md': '# Alpha\n\nThe launch date is 2026-05-01.\n' });
  const dataDir = temp.make('syn-env-data-');

  beforeAll(() => {
    delete process.env.SYNAPSIS_DATA_DIR;
    process.env.SYN_INDEX_PATH = dataDir;
  });
  afterEach(() => {
    process.env.SYN_INDEX_PATH = dataDir;
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    temp.cleanup();
  });

  it('the commands that open an engine (index, health, repair)', async () => {
    expect((await cli(['index', vault, '--quiet'])).code).toBe(0);
    const health = JSON.parse((await cli(['health', '--json'])).out) as { data_dir: string; documents: { indexed: number } };
    expect(health).toMatchObject({ data_dir: dataDir, documents: { indexed: 1 } });
    const repaired = JSON.parse((await cli(['repair', '--json'])).out) as { rebuild: { set_aside: string } };
    expect(path.dirname(repaired.rebuild.set_aside)).toBe(dataDir);
  });

  it('doctor, and the profiles eval looks up', async () => {
    const fresh = path.join(temp.make('syn-env-doctor-'), 'not-yet');
    process.env.SYN_INDEX_PATH = fresh;
    const doctor = JSON.parse((await cli(['doctor', '--no-llm', '--json'])).out) as { checks: { name: string; detail: string }[] };
    expect(doctor.checks.find((c) => c.name === 'store')?.detail).toContain(fresh);
    const evaluation = await cli(['eval', '--dataset', vault, '--profile', 'nope']);
    expect(evaluation.code).toBe(2);
    expect(evaluation.err).toContain(path.join(fresh, 'profiles', 'nope.json'));
  });

  it('mcp', async () => {
    const { err } = await spawnUntil(['mcp'], dataDir, (_out, e) => e.includes('over stdio'));
    expect(err).toContain(`serving ${dataDir} over stdio`);
  }, CHILD_TEST_LIMIT_MS);

  it('web', async () => {
    const ui = temp.make('syn-env-ui-', { 'index.html': '<!doctype html>' });
    const { out } = await spawnUntil(['web', '--port', '0', '--json', '--no-watch', '--ui-dir', ui], dataDir, (o) => o.includes('\n'));
    expect(JSON.parse(out.split('\n')[0]!)).toMatchObject({ data_dir: dataDir, demo: false });
  }, CHILD_TEST_LIMIT_MS);
});
