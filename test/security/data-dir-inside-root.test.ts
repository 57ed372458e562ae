import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import { TempDirs } from '../helpers/tmp.ts';

/**
 * A data dir kept inside an indexed folder (`synapsis index .` with the data dir in `./.synapsis`,
 * or `SYNAPSIS_DATA_DIR=vault/data`) is never indexed: its roots.json, progress.json, lock and
 * store would otherwise become documents, re-indexed after every run that rewrites them.
 */
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

const paths = (engine: Engine) => engine.documents().map((d) => d.path).sort();

describe('a data dir inside an indexed folder', () => {
  for (const where of ['data', 'notes/.synapsis', 'deep/er/store']) {
    it(`at ${where}: is not indexed, on the first run or the next`, async () => {
      const vault = temp.make('syn-selfdir-', { 'a.md': '# A\n\nalpha note\n', 'notes/b.md': '# B\n\nbeta note\n' });
      const engine = createEngine({ dataDir: path.join(vault, where), env: {}, config: { graphLlm: false } });
      engines.push(engine);
      await engine.index([vault]);
      // The second run sees roots.json and the manifest the first one wrote.
      const report = await engine.index([vault]);
      expect(paths(engine)).toEqual(['a.md', 'notes/b.md']);
      expect(report.indexed).toBe(0);
      expect((await engine.retrieve('roots', {}, 5)).chunks).toEqual([]);
    });
  }

  it('is skipped through a symlink naming it too', async () => {
    const vault = temp.make('syn-selfdir-link-', { 'a.md': '# A\n\nalpha note\n' });
    const dataDir = path.join(vault, 'data');
    fs.mkdirSync(dataDir);
    fs.symlinkSync(dataDir, path.join(vault, 'alias'));
    const engine = createEngine({ dataDir, env: {}, config: { graphLlm: false } });
    engines.push(engine);
    await engine.index([vault]);
    await engine.index([vault]);
    expect(paths(engine)).toEqual(['a.md']);
  });

  it('leaves a folder kept inside the data dir indexed and watched', async () => {
    const dataDir = temp.make('syn-selfdir-outer-');
    const vault = path.join(dataDir, 'vault');
    fs.mkdirSync(vault);
    fs.writeFileSync(path.join(vault, 'a.md'), '# A\n\nalpha note\n');
    const engine = createEngine({ dataDir, env: {}, config: { graphLlm: false } });
    engines.push(engine);
    await engine.index([vault]);
    const watcher = await engine.watch({ debounceMs: 30 });
    fs.writeFileSync(path.join(vault, 'b.md'), '# B\n\nbetawordcanary\n');
    await eventually(async () => (await engine.retrieve('betawordcanary', {}, 5)).chunks.length === 1, 'the new note is searchable');
    await watcher.dispose();
    expect(paths(engine)).toEqual(['a.md', 'b.md']);
  });

  it('is ignored by the watcher while notes beside it are followed', async () => {
    const vault = temp.make('syn-selfdir-watch-', { 'a.md': '# A\n\nalpha note\n' });
    const engine = createEngine({ dataDir: path.join(vault, 'data'), env: {}, config: { graphLlm: false } });
    engines.push(engine);
    await engine.index([vault]);
    const watcher = await engine.watch({ debounceMs: 30 });
    fs.writeFileSync(path.join(vault, 'data', 'stray.md'), '# Stray\n\nstraywordcanary\n');
    fs.writeFileSync(path.join(vault, 'b.md'), '# B\n\nbetawordcanary\n');
    await eventually(async () => (await engine.retrieve('betawordcanary', {}, 5)).chunks.length === 1, 'the new note is searchable');
    await watcher.dispose();
    expect(paths(engine)).toEqual(['a.md', 'b.md']);
    expect((await engine.retrieve('straywordcanary', {}, 5)).chunks).toEqual([]);
  });
});
