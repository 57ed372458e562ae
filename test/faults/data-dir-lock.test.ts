import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import { LOCK_FILE } from '../../src/engine/store/data-dir-lock.ts';
import { TempDirs } from '../helpers/tmp.ts';
import { exited, FIXTURES, runCliProcess, spawnTs, waitForLine } from './helpers.ts';

const HOLD = path.join(FIXTURES, 'hold-engine.ts');
const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
});
afterAll(() => temp.cleanup());

function open(dataDir: string): Engine {
  const engine = createEngine({ dataDir, env: {} });
  engines.push(engine);
  return engine;
}

describe('one Synapsis per data dir', () => {
  it('refuses a second process cleanly, naming the data dir and the process that has it', async () => {
    const dataDir = temp.make('syn-lock-');
    const child = spawnTs(HOLD, [dataDir]);
    try {
      const ready = await waitForLine(child, /^ready \d+/);
      const pid = Number(ready.split(' ')[1]);
      let caught: unknown;
      try {
        open(dataDir);
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: 'E_SYN_STORE_FAILED', details: { data_dir: dataDir, pid } });
      expect((caught as Error).message).toContain(`The data dir ${dataDir} is in use by another Synapsis (process ${pid}`);
      // The refused open left the holder's lock alone.
      expect(JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid });

      // A writer command in a third process says the same and exits non-zero without touching the store.
      const cli = await runCliProcess(['roots', 'add', dataDir, '--data-dir', dataDir]);
      expect(cli.code).not.toBe(0);
      expect(cli.stderr).toContain(`error [E_SYN_STORE_FAILED]: The data dir ${dataDir} is in use by another Synapsis`);
    } finally {
      child.stdin.end('exit\n');
      expect(await exited(child)).toEqual({ code: 0, signal: null });
    }
    // A clean exit removes the lock; the next process opens the data dir.
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    expect((await open(dataDir).health()).data_dir).toBe(dataDir);
  });

  it('is refused in the other direction too: a child process cannot open a data dir this process holds', async () => {
    const dataDir = temp.make('syn-lock-');
    open(dataDir);
    const child = spawnTs(HOLD, [dataDir]);
    const line = await waitForLine(child, /^error /);
    expect(line).toContain(`error E_SYN_STORE_FAILED The data dir ${dataDir} is in use by another Synapsis (process ${process.pid}`);
    expect((await exited(child)).code).toBe(3);
  });

  it('takes over the stale lock of a process killed with SIGKILL', async () => {
    const dataDir = temp.make('syn-lock-');
    const child = spawnTs(HOLD, [dataDir]);
    const pid = Number((await waitForLine(child, /^ready \d+/)).split(' ')[1]);
    child.kill('SIGKILL');
    expect((await exited(child)).signal).toBe('SIGKILL');
    const lockFile = path.join(dataDir, LOCK_FILE);
    expect(JSON.parse(fs.readFileSync(lockFile, 'utf8')).pid).toBe(pid); // left behind by the kill
    const engine = open(dataDir);
    expect(JSON.parse(fs.readFileSync(lockFile, 'utf8')).pid).toBe(process.pid);
    await engine.dispose();
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it('is shared by engines of one process and released when the last one is disposed', async () => {
    const dataDir = temp.make('syn-lock-');
    const lockFile = path.join(dataDir, LOCK_FILE);
    const a = open(dataDir);
    const b = open(dataDir);
    await a.dispose();
    expect(fs.existsSync(lockFile)).toBe(true);
    expect((await b.health()).status).toBeDefined();
    await b.dispose();
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it('is released when opening the store fails, so the error is the store\'s and not a lock', async () => {
    const dataDir = temp.make('syn-lock-', { 'synapsis.db': 'this is not a database, just text that is long enough to be read'.repeat(20) });
    expect(() => open(dataDir)).toThrow(/not a valid Synapsis database/);
    await new Promise((r) => setTimeout(r, 10));
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    // A child process now gets the same store error, not "in use".
    const child = spawnTs(HOLD, [dataDir]);
    expect(await waitForLine(child, /^error /)).toMatch(/E_SYN_STORE_FAILED .*not a valid Synapsis database/);
    await exited(child);
  });

  it('treats an unreadable lock file as in use while it is fresh and as stale once old', async () => {
    const dataDir = temp.make('syn-lock-');
    const lockFile = path.join(dataDir, LOCK_FILE);
    fs.writeFileSync(lockFile, '');
    const started = performance.now();
    expect(() => open(dataDir)).toThrow(/in use by another Synapsis \(a process that is starting\)/);
    expect(performance.now() - started).toBeGreaterThan(500); // it waited for the writer
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockFile, old, old);
    open(dataDir);
    expect(JSON.parse(fs.readFileSync(lockFile, 'utf8')).pid).toBe(process.pid);
  });
});
