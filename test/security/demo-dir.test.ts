import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.ts';
import { prepareDemoDir } from '../../src/engine/host/demo.ts';
import { EngineHost } from '../../src/engine/host/engine-host.ts';
import { SAMPLE_QUESTIONS, TempDirs } from '../helpers/tmp.ts';

/**
 * The web demo's default data dir lies in the shared temp folder under a name anyone can guess
 * (synapsis-demo-<user>). Another user who makes it first must not get the demo's store: the demo
 * creates it 0700, and refuses one that is a link, belongs to someone else or anyone can write to.
 */
const TOUR = path.resolve(import.meta.dirname, '..', '..', 'resources', 'demo-tour.json');
const temp = new TempDirs();
const hosts: EngineHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
  temp.cleanup();
});

function hostWithDemoAt(demoDir: string) {
  const vault = temp.make('demo-dir-vault-', { 'a.md': '# Relay\n\nThe relay listens on port 7443.\n' });
  const userDir = temp.make('demo-dir-user-');
  const host = new EngineHost({ create: () => createEngine({ dataDir: userDir, env: {} }), demo: { vault, questionsFile: SAMPLE_QUESTIONS, tourFile: TOUR, dataDir: demoDir } });
  hosts.push(host);
  return { host, userDir };
}

const mode = (dir: string) => fs.statSync(dir).mode & 0o777;

describe.skipIf(process.platform === 'win32')('the demo data dir', () => {
  it('is created 0700 whatever the umask', async () => {
    const demoDir = path.join(temp.make('demo-dir-parent-'), 'synapsis-demo-me');
    const { host } = hostWithDemoAt(demoDir);
    const old = process.umask(0o000);
    try {
      await host.startDemo();
    } finally {
      process.umask(old);
    }
    expect(mode(demoDir)).toBe(0o700);
    expect(fs.existsSync(path.join(demoDir, 'synapsis.db'))).toBe(true);
  });

  it('refuses one anyone can write to, writes nothing there, and keeps the user workspace', async () => {
    const demoDir = path.join(temp.make('demo-dir-parent-'), 'synapsis-demo-me');
    fs.mkdirSync(demoDir);
    fs.chmodSync(demoDir, 0o777);
    const { host, userDir } = hostWithDemoAt(demoDir);
    await expect(host.startDemo()).rejects.toMatchObject({ code: 'E_SYN_STORE_FAILED', message: expect.stringContaining('anyone can write to it') });
    expect(fs.readdirSync(demoDir)).toEqual([]);
    expect((await host.engine()).dataDir).toBe(path.resolve(userDir));
    await expect(host.resetDemo()).rejects.toMatchObject({ code: 'E_SYN_STORE_FAILED' });
  });

  it('refuses one that belongs to another user', async () => {
    const demoDir = path.join(temp.make('demo-dir-parent-'), 'synapsis-demo-me');
    fs.mkdirSync(demoDir, { mode: 0o755 });
    const uid = process.getuid!();
    if (uid === 0) {
      // As root the real case: the folder handed to nobody (65534) beforehand.
      fs.chownSync(demoDir, 65534, 65534);
      const { host } = hostWithDemoAt(demoDir);
      await expect(host.startDemo()).rejects.toThrow(/belongs to another user \(uid 65534\)/);
      expect(fs.readdirSync(demoDir)).toEqual([]);
    } else {
      // Elsewhere a user cannot give a folder away: the owner expected is another uid instead.
      expect(() => prepareDemoDir(demoDir, uid + 1)).toThrow(/belongs to another user/);
    }
  });

  it('refuses a link, even to a folder of this user', async () => {
    const target = temp.make('demo-dir-target-');
    const demoDir = path.join(temp.make('demo-dir-parent-'), 'synapsis-demo-me');
    fs.symlinkSync(target, demoDir);
    const { host } = hostWithDemoAt(demoDir);
    await expect(host.startDemo()).rejects.toThrow(/symbolic link/);
    expect(fs.readdirSync(target)).toEqual([]);
  });

  it('closes one of this user that others can read (made by an older version) to 0700', async () => {
    const demoDir = path.join(temp.make('demo-dir-parent-'), 'synapsis-demo-me');
    fs.mkdirSync(demoDir);
    fs.chmodSync(demoDir, 0o755);
    const { host } = hostWithDemoAt(demoDir);
    await host.startDemo();
    expect(mode(demoDir)).toBe(0o700);
  });
});
