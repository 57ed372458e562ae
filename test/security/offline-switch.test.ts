import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import type { CatalogModel } from '../../src/engine/llm/catalog.ts';
import { downloadsDisabled, pullModel } from '../../src/engine/llm/download.ts';
import { serveModels } from '../helpers/model-server.ts';
import { SHARED_DIR, TempDirs } from '../helpers/tmp.ts';

/**
 * SYNAPSIS_OFFLINE turns downloads off on an air-gapped site. People write it many ways: only `1`
 * used to count, so `true`, `yes`, `TRUE` or `on` still contacted a mirror and showed the download
 * button. Any value but empty or `0` now means offline, in the engine, the CLI and the setup scripts.
 */
const OFFLINE = ['1', 'true', 'yes', 'TRUE', 'on', 'offline', ' 0', 'false'];
const ONLINE = [undefined, '', '0'];
const REPO = path.resolve(import.meta.dirname, '..', '..');

const temp = new TempDirs();
afterAll(() => temp.cleanup());
afterEach(() => {
  delete process.env.SYNAPSIS_OFFLINE;
});

const stories = fs.readFileSync(path.join(SHARED_DIR, 'models', 'stories260K.gguf'));
const model: CatalogModel = {
  id: 'stories', role: 'chat', name: 'stories', file: 'stories.gguf', languages: ['en'], size_bytes: stories.length, size_exact: false, license: 'MIT',
  sha256: null, architecture: 'llama', uri: null, good_for: 'tests', ram_bytes: 0, recommended: true,
};

async function cli(args: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

function script(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const clean = { ...process.env };
  for (const k of ['SYNAPSIS_OFFLINE', 'SYNAPSIS_MODEL_MIRROR', 'ELECTRON_MIRROR', 'ELECTRON_SKIP_BINARY_DOWNLOAD', 'npm_config_electron_mirror']) delete clean[k];
  const child = spawn(process.execPath, [path.join(REPO, 'scripts', name), ...args], { env: { ...clean, ...env } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('exit', () => resolve(out)));
}

describe('SYNAPSIS_OFFLINE', () => {
  it('is offline for any value but empty or 0', () => {
    for (const value of OFFLINE) expect(downloadsDisabled({ SYNAPSIS_OFFLINE: value }), JSON.stringify(value)).toBe(true);
    for (const value of ONLINE) expect(downloadsDisabled(value === undefined ? {} : { SYNAPSIS_OFFLINE: value }), JSON.stringify(value)).toBe(false);
  });

  it.each(OFFLINE)('%j: a pull asks nothing of a mirror, and the CLI has no pull', async (value) => {
    const server = await serveModels({ 'stories.gguf': stories });
    try {
      await expect(pullModel(model, { modelsDir: temp.make('syn-offline-'), mirror: server.url, env: { SYNAPSIS_OFFLINE: value } })).rejects.toThrow(
        `Downloads are turned off on this installation (SYNAPSIS_OFFLINE=${value})`,
      );
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
    process.env.SYNAPSIS_OFFLINE = value;
    expect((await cli(['models', '--help'])).out).not.toMatch(/^\s+pull\b/m);
    expect((await cli(['models', 'catalog'])).out).toContain(`downloads are off (SYNAPSIS_OFFLINE=${value}): synapsis models add <folder>`);
  });

  it('the setup scripts download nothing either', async () => {
    const server = await serveModels({});
    try {
      const missing = path.join(temp.make('syn-offline-shared-'), 'none');
      const target = temp.make('syn-offline-target-');
      const models = await script('setup-models.mjs', ['--shared', missing, '--target', target], { SYNAPSIS_OFFLINE: 'yes', SYNAPSIS_MODEL_MIRROR: server.url });
      expect(models).toMatch(/none imported .*SYNAPSIS_OFFLINE=yes/);
      const electron = await script('electron-download.mjs', [], { SYNAPSIS_OFFLINE: 'true', ELECTRON_MIRROR: server.url });
      expect(electron).toMatch(/(not downloaded \(SYNAPSIS_OFFLINE=true\))|is installed/);
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
