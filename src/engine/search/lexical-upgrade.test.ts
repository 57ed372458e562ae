import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine, prepareEngineStore } from '../engine.ts';
import { EngineHost } from '../host/engine-host.ts';
import { ANALYZER_SETTING, lexicalIndexOutdated, upgradeLexicalIndexOffThread } from './lexical-upgrade.ts';
import { lockDataDir } from '../store/data-dir-lock.ts';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

const NOTES = {
  'relay.md': '# Relay\n\nThe relay listens on port 7443 behind the firewall.\n',
  'kestrel.md': '# Kestrel\n\nKestrel is the codename of the beta, due in May.\n',
  'garden.md': '# Garden\n\nTomatoes need sun and water every morning.\n',
};

/** A data dir indexed by this version, then made to look written by an older analyzer: its word index emptied. */
async function olderStore(): Promise<{ dataDir: string; vault: string }> {
  const vault = temp.make('upgrade-vault-', NOTES);
  const dataDir = temp.make('upgrade-data-');
  const engine = createEngine({ dataDir, env: {} });
  await engine.index([vault]);
  await engine.dispose();
  const db = new Database(path.join(dataDir, 'synapsis.db'));
  db.exec("INSERT INTO chunks_fts (chunks_fts) VALUES ('delete-all')");
  db.prepare('UPDATE settings SET value_json = ? WHERE key = ?').run(JSON.stringify('an-older-analyzer'), ANALYZER_SETTING);
  db.close();
  return { dataDir, vault };
}

const hits = async (dataDir: string, query: string) => {
  const engine = createEngine({ dataDir, env: {}, readOnly: true });
  try {
    return (await engine.retrieve(query, { mode: 'bm25' }, 5)).chunks.map((c) => c.path);
  } finally {
    await engine.dispose();
  }
};

describe('the word index upgrade of an older store', () => {
  it('rebuilds it on a worker thread, reporting notes done of all, before the engine opens the store', async () => {
    const { dataDir } = await olderStore();
    expect(lexicalIndexOutdated(dataDir)).toBe(true);
    const progress: { done: number; total: number }[] = [];
    expect(await upgradeLexicalIndexOffThread(dataDir, { onProgress: (p) => progress.push(p) })).toBe('upgraded');
    expect(progress.at(-1)).toEqual({ done: 3, total: 3 });
    expect(lexicalIndexOutdated(dataDir)).toBe(false);
    // The rebuilt index finds the notes by their words; a reader could not have rebuilt it.
    expect(await hits(dataDir, 'relay firewall port')).toEqual(['relay.md']);
    expect(await upgradeLexicalIndexOffThread(dataDir)).toBe('current');
    // The data dir's lock was held for the rebuild only.
    lockDataDir(dataDir).dispose();
  });

  it('leaves the rebuild to the engine when the worker cannot run, which then does it in line', async () => {
    const { dataDir } = await olderStore();
    expect(await upgradeLexicalIndexOffThread(dataDir, { entry: async () => null })).toBe('failed');
    const inLine: number[] = [];
    const engine = createEngine({ dataDir, env: {}, onStoreUpgrade: (p) => inLine.push(p.done) });
    await engine.dispose();
    expect(inLine.at(-1)).toBe(3);
    expect(await hits(dataDir, 'tomatoes sun')).toEqual(['garden.md']);
  });

  it('has nothing to do for a new data dir or a reader', async () => {
    const dataDir = temp.make('upgrade-new-');
    expect(lexicalIndexOutdated(dataDir)).toBe(false);
    expect(await prepareEngineStore({ dataDir, env: {} })).toBe('current');
    const { dataDir: older } = await olderStore();
    expect(await prepareEngineStore({ dataDir: older, env: {}, readOnly: true })).toBe('current');
    expect(lexicalIndexOutdated(older)).toBe(true);
  });

  it('is shown by the host as indexing words while it runs, and the engine opens after it', async () => {
    const { dataDir } = await olderStore();
    const order: string[] = [];
    const host = new EngineHost({
      create: () => {
        order.push('create');
        return createEngine({ dataDir, env: {} });
      },
      beforeOpen: async (onProgress) => {
        const result = await prepareEngineStore({ dataDir, env: {} }, onProgress);
        order.push(`prepare ${result}`);
        return result;
      },
    });
    const phases: string[] = [];
    host.on('index/status', (s) => phases.push(`${s.progress.phase}${s.progress.upgrade ? ' upgrade' : ''} ${s.progress.done}/${s.progress.total}`));
    try {
      const engine = await host.engine();
      expect(order).toEqual(['prepare upgraded', 'create']);
      expect(phases.at(-1)).toBe('done 3/3');
      expect(phases.every((p) => /^(?:words upgrade|done) \d+\/3$/.test(p))).toBe(true);
      expect((await engine.retrieve('codename beta', { mode: 'bm25' }, 5)).chunks.map((c) => c.path)).toEqual(['kestrel.md']);
    } finally {
      await host.dispose();
    }
  });
});
