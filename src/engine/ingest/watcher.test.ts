import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../engine.ts';

const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  temp.cleanup();
});

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 8000) {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting until ${what}`);
}

describe('engine.watch', () => {
  it('keeps the index current as files are edited, added, renamed, ignored and deleted', async () => {
    const root = temp.make('syn-watch-', { 'a.md': '# A\n\nalpha content\n', '.gitignore': 'secret/\n' });
    const engine = createEngine({ dataDir: temp.make('syn-watch-data-'), env: {} });
    engines.push(engine);
    await engine.index([root]);
    const watcher = await engine.watch({ debounceMs: 30 });
    const found = async (q: string) => (await engine.retrieve(q)).chunks.map((c) => c.locator);

    fs.appendFileSync(path.join(root, 'a.md'), '\nbrandnewword here\n');
    await eventually(async () => (await found('brandnewword')).length === 1, 'an edit is searchable');

    fs.writeFileSync(path.join(root, 'b.md'), '# B\n\nbetaword\n');
    await eventually(async () => (await found('betaword')).length === 1, 'a new file is searchable');

    fs.mkdirSync(path.join(root, 'secret'));
    fs.writeFileSync(path.join(root, 'secret', 'c.md'), 'hiddenword\n');
    fs.renameSync(path.join(root, 'b.md'), path.join(root, 'b2.md'));
    await eventually(async () => (await found('betaword'))[0] === 'b2.md#L1-L3', 'a rename is followed');
    expect(await found('hiddenword')).toEqual([]);

    fs.rmSync(path.join(root, 'a.md'));
    await eventually(async () => (await found('alpha')).length === 0, 'a deleted file leaves the index');
    await watcher.dispose();
    expect((await engine.health()).documents.total).toBe(1);
  });

  it('follows the folders: one added while watching is watched, one removed is not', async () => {
    const first = temp.make('syn-watch-1-', { 'a.md': '# A\n\nalpha\n' });
    const second = temp.make('syn-watch-2-', { 'b.md': '# B\n\nbeta\n' });
    const engine = createEngine({ dataDir: temp.make('syn-watch-roots-data-'), env: {} });
    engines.push(engine);
    await engine.index([first]);
    const watcher = await engine.watch({ debounceMs: 30 });
    const found = async (q: string) => (await engine.retrieve(q)).chunks.map((c) => c.locator);
    await engine.index([second]);
    fs.writeFileSync(path.join(second, 'c.md'), '# C\n\nsecondfolderword\n');
    await eventually(async () => (await found('secondfolderword')).length === 1, 'a file in the folder added while watching is searchable');
    engine.removeRoot(first);
    fs.writeFileSync(path.join(first, 'd.md'), '# D\n\nremovedfolderword\n');
    fs.writeFileSync(path.join(second, 'e.md'), '# E\n\nstillwatchedword\n');
    await eventually(async () => (await found('stillwatchedword')).length === 1, 'the remaining folder is still watched');
    expect(await found('removedfolderword')).toEqual([]);
    expect(engine.listRoots().map((r) => r.path)).toEqual([fs.realpathSync(second)]);
    expect(engine.indexStatus().watching).toBe(true);
    await watcher.dispose();
    expect(engine.indexStatus().watching).toBe(false);
  });

  it('never follows a symlink loop: a file created in a looped folder is indexed once, by its real path', async () => {
    const root = temp.make('syn-watch-loop-', { 'a.md': '# A\n\nalpha\n', 'sub/b.md': '# B\n\nbeta\n' });
    fs.symlinkSync('.', path.join(root, 'loop'));
    fs.symlinkSync('..', path.join(root, 'sub', 'up'));
    const engine = createEngine({ dataDir: temp.make('syn-watch-loop-data-'), env: {} });
    engines.push(engine);
    await engine.index([root]);
    const watcher = await engine.watch({ debounceMs: 30 });
    fs.writeFileSync(path.join(root, 'new-note.md'), '# New\n\nloopcanaryword\n');
    fs.writeFileSync(path.join(root, 'sub', 'deep.md'), '# Deep\n\ndeepcanaryword\n');
    const found = async (q: string) => (await engine.retrieve(q, {}, 50)).chunks.map((c) => c.locator.split('#')[0]);
    await eventually(async () => (await found('loopcanaryword')).length > 0 && (await found('deepcanaryword')).length > 0, 'the new files are searchable');
    // Let any duplicate events through the loop arrive and be indexed, then look.
    await new Promise((r) => setTimeout(r, 600));
    expect(await found('loopcanaryword')).toEqual(['new-note.md']);
    expect(await found('deepcanaryword')).toEqual(['sub/deep.md']);
    expect(engine.documents().map((d) => d.path).sort()).toEqual(['a.md', 'new-note.md', 'sub/b.md', 'sub/deep.md']);
    await watcher.dispose();
  });

  it('follows a folder linked from outside when asked, and still not a loop', async () => {
    const outside = temp.make('syn-watch-outside-', { 'x.md': '# X\n\nexternal\n' });
    const root = temp.make('syn-watch-follow-', { 'a.md': '# A\n\nalpha\n' });
    fs.symlinkSync('.', path.join(root, 'loop'));
    fs.symlinkSync(outside, path.join(root, 'linked'));
    const engine = createEngine({ dataDir: temp.make('syn-watch-follow-data-'), env: { SYN_FOLLOW_EXTERNAL_SYMLINKS: 'true' } });
    engines.push(engine);
    await engine.index([root]);
    const watcher = await engine.watch({ debounceMs: 30 });
    fs.writeFileSync(path.join(outside, 'y.md'), '# Y\n\nlinkedcanaryword\n');
    fs.writeFileSync(path.join(root, 'z.md'), '# Z\n\nrootcanaryword\n');
    const found = async (q: string) => (await engine.retrieve(q, {}, 50)).chunks.map((c) => c.locator.split('#')[0]);
    await eventually(async () => (await found('linkedcanaryword')).length > 0 && (await found('rootcanaryword')).length > 0, 'both new files are searchable');
    await new Promise((r) => setTimeout(r, 600));
    expect(await found('linkedcanaryword')).toEqual(['linked/y.md']);
    expect(await found('rootcanaryword')).toEqual(['z.md']);
    await watcher.dispose();
  });

  it('refuses to watch a workspace with no folder', async () => {
    const engine = createEngine({ dataDir: temp.make('syn-watch-empty-'), env: {} });
    engines.push(engine);
    await expect(engine.watch()).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST' });
  });
});
