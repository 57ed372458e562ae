import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import { TempDirs } from '../helpers/tmp.ts';

/**
 * Symlinks that leave a root: skipped at index time with a reason in health (unless
 * SYN_FOLLOW_EXTERNAL_SYMLINKS is set), and never read through at source time. Links inside the
 * root are followed as before.
 */
const temp = new TempDirs();
const engines: Engine[] = [];
afterAll(async () => {
  for (const e of engines) await e.dispose();
  temp.cleanup();
});

function vaultWithLinks() {
  const outside = temp.make('syn-outside-', { 'secret.txt': 'ocelotcanary outside the vault\n', 'dir/inner.md': '# Inner\n\nmarmosetcanary outside too\n' });
  const vault = temp.make('syn-links-vault-', { 'notes/a.md': '# A\n\ngibboncanary inside the vault\n' });
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(vault, 'passwd.txt'));
  fs.symlinkSync(path.join(outside, 'dir'), path.join(vault, 'linked'));
  fs.symlinkSync(path.join(vault, 'notes', 'a.md'), path.join(vault, 'alias.md'));
  return { vault, outside };
}

const open = (env: NodeJS.ProcessEnv = {}) => {
  const engine = createEngine({ dataDir: temp.make('syn-links-data-'), env });
  engines.push(engine);
  return engine;
};
const found = async (engine: Engine, word: string) => (await engine.retrieve(word, {}, 5)).chunks.map((c) => c.locator.split('#')[0]);

describe('symlinks out of a root', () => {
  it('are skipped with a reason, and their targets are neither searched nor served', async () => {
    const { vault } = vaultWithLinks();
    const engine = open();
    const report = await engine.index([vault]);
    expect(await found(engine, 'ocelotcanary')).toEqual([]);
    expect(await found(engine, 'marmosetcanary')).toEqual([]);
    // A link that stays inside the root is followed.
    expect((await found(engine, 'gibboncanary')).sort()).toEqual(['alias.md', 'notes/a.md']);
    for (const name of ['passwd.txt', 'linked']) {
      const issue = { path: path.join(vault, name), status: 'skipped', reason: expect.stringContaining('symlink to a target outside this folder') };
      expect(report.issues).toContainEqual(issue);
      expect((await engine.health()).issues).toContainEqual(issue);
    }
    expect(() => engine.source('passwd.txt#L1-L1')).toThrow(expect.objectContaining({ code: 'E_SYN_NOT_FOUND' }));
    expect(() => engine.source('linked/inner.md#L1-L3')).toThrow(expect.objectContaining({ code: 'E_SYN_NOT_FOUND' }));
  });

  it('are followed when SYN_FOLLOW_EXTERNAL_SYMLINKS is set', async () => {
    const { vault } = vaultWithLinks();
    const engine = open({ SYN_FOLLOW_EXTERNAL_SYMLINKS: 'true' });
    await engine.index([vault]);
    expect(await found(engine, 'ocelotcanary')).toEqual(['passwd.txt']);
    expect(await found(engine, 'marmosetcanary')).toEqual(['linked/inner.md']);
    expect(engine.source('passwd.txt#L1-L1').text).toContain('ocelotcanary');
  });

  it('never read through a file replaced by one after indexing: the indexed lines are served, marked stale', async () => {
    const { vault, outside } = vaultWithLinks();
    const engine = open();
    await engine.index([vault]);
    fs.rmSync(path.join(vault, 'notes', 'a.md'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(vault, 'notes', 'a.md'));
    const src = engine.source('notes/a.md#L1-L3');
    expect(src.stale).toBe(true);
    expect(src.text).toContain('gibboncanary');
    expect(src.text).not.toContain('ocelotcanary');
    // The next run drops the document and says why, instead of indexing the target.
    const report = await engine.index([]);
    expect(report.issues).toContainEqual({ path: path.join(vault, 'notes/a.md'), status: 'skipped', reason: expect.stringContaining('outside this folder') });
    expect(await found(engine, 'ocelotcanary')).toEqual([]);
    expect(await found(engine, 'gibboncanary')).toEqual([]);
  });
});
