/**
 * The desktop packaging configuration (build/electron-builder.yml), checked where the app cannot be
 * packaged (no Electron binary): electron-builder's own schema accepts it, every platform target is
 * there, native code is unpacked from the asar, and no model, source or test file would ship.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import picomatch from 'picomatch';
import YAML from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDistArgs, stageModels, withModelsConfig } from '../scripts/dist-models.mjs';
import { catalogModel, MODEL_CATALOG } from '../src/engine/llm/catalog.ts';
import { SHARED_DIR, TempDirs } from './helpers/tmp.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const config = YAML.parse(fs.readFileSync(path.join(REPO, 'build', 'electron-builder.yml'), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const require = createRequire(import.meta.url);

/**
 * electron-builder's file rule: production node_modules are in unless a pattern takes them out,
 * app files are out unless a pattern brings them in; the last pattern that matches decides.
 */
function shipped(file: string, patterns: string[], platform = { os: 'linux', arch: 'x64' }): boolean {
  let included = file.startsWith('node_modules/');
  for (const raw of patterns) {
    const negated = raw.startsWith('!');
    const pattern = (negated ? raw.slice(1) : raw).replaceAll('${os}', platform.os).replaceAll('${arch}', platform.arch);
    if (picomatch(pattern, { dot: true })(file)) included = !negated;
  }
  return included;
}

describe('build/electron-builder.yml', () => {
  it('is accepted by electron-builder\'s configuration schema (and a wrong key is not)', async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as { validateConfiguration(c: unknown, logger: unknown): Promise<void> };
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    await expect(validateConfiguration(structuredClone(config), new DebugLogger(false))).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...structuredClone(config), linux: { ...config.linux, bogus: true } }, new DebugLogger(false))).rejects.toThrow(/configuration/);
  });

  it('names the app and builds AppImage and .deb, a .dmg for arm64 and x64, and an NSIS installer', () => {
    expect(config.appId).toBe('app.synapsis.desktop');
    expect(config.productName).toBe('Synapsis');
    const targets = (platform: string) => (config[platform].target as { target: string; arch: string[] }[]).map((t) => `${t.target}:${t.arch.join('+')}`);
    expect(targets('linux')).toEqual(['AppImage:x64+arm64', 'deb:x64+arm64']);
    expect(targets('mac')).toEqual(['dmg:arm64+x64']);
    expect(targets('win')).toEqual(['nsis:x64']);
    for (const platform of ['linux', 'mac', 'win']) expect(fs.existsSync(path.join(REPO, config[platform].icon))).toBe(true);
  });

  it('opens .md files (file association)', () => {
    expect(config.fileAssociations.map((a: { ext: string }) => a.ext)).toContain('md');
  });

  it('unpacks every native module of the production dependencies from the asar', () => {
    const prodDirs = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: REPO, encoding: 'utf8' })
      .split('\n')
      .filter((d) => d.includes(`${path.sep}node_modules${path.sep}`))
      .map((d) => path.relative(REPO, d).split(path.sep).join('/'));
    const natives: string[] = [];
    const walk = (dir: string, depth: number) => {
      if (depth > 6) return;
      for (const entry of fs.readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
        if (entry.name === 'node_modules') continue;
        const rel = `${dir}/${entry.name}`;
        if (entry.isDirectory()) walk(rel, depth + 1);
        else if (entry.name.endsWith('.node')) natives.push(rel);
      }
    };
    for (const dir of prodDirs) walk(dir, 0);
    // better-sqlite3 is the store itself; it must be among them.
    expect(natives.some((f) => f.startsWith('node_modules/better-sqlite3/'))).toBe(true);
    const unpacked = (file: string) => (config.asarUnpack as string[]).some((p) => picomatch(p, { dot: true })(file) || picomatch(`${p}/**`, { dot: true })(file));
    expect(natives.filter((f) => !unpacked(f))).toEqual([]);
    for (const dir of ['node_modules/node-llama-cpp/bins/x.node', 'node_modules/@node-llama-cpp/linux-x64/bins/libllama.so', 'node_modules/usearch/build/Release/usearch.node']) expect(unpacked(dir)).toBe(true);
  });

  it('ships the built app and no model, source, test or map file', () => {
    const files = config.files as string[];
    for (const f of ['out/main/index.js', 'out/main/engine-process.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'out/renderer/assets/index-abc.js', 'package.json']) expect(shipped(f, files), f).toBe(true);
    expect(shipped('node_modules/better-sqlite3/lib/index.js', files)).toBe(true);
    for (const f of ['src/engine/engine.ts', 'test/packaging.test.ts', 'docs/benchmarks.md', 'out/main/index.js.map', 'out/cli/main.js', 'out/models/all-MiniLM-L6-v2.Q8_0.gguf', 'models/e5.gguf', 'node_modules/foo/model.gguf', 'resources/sample-vault/notes.md', '.ci/run', 'README.md']) {
      expect(shipped(f, files), f).toBe(false);
    }
    // node-llama-cpp's binaries: the packaged platform's only.
    expect(shipped('node_modules/@node-llama-cpp/linux-x64/bins/libllama.so', files)).toBe(true);
    expect(shipped('node_modules/@node-llama-cpp/win-x64/bins/llama.dll', files)).toBe(false);
    // The demo's files travel as extra resources, beside the asar; models never do.
    const extra = (config.extraResources as { from: string }[]).map((r) => r.from);
    expect(extra).toEqual(['resources/sample-vault', 'resources/sample-vault.questions.json', 'resources/demo-tour.json']);
    for (const from of extra) expect(fs.existsSync(path.join(REPO, from))).toBe(true);
  });
});

describe('npm run dist -- --with-models DIR (scripts/dist-models.mjs)', () => {
  const temp = new TempDirs();
  afterAll(() => temp.cleanup());
  const stories = fs.readFileSync(path.join(SHARED_DIR, 'models', 'stories260K.gguf'));
  const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

  it('takes its own option out of electron-builder\'s arguments, and names a missing folder', () => {
    expect(parseDistArgs(['--linux', 'deb', '--with-models', '/srv/models', '--x64'])).toEqual({ withModels: '/srv/models', builderArgs: ['--linux', 'deb', '--x64'] });
    expect(parseDistArgs(['--with-models=/m'])).toEqual({ withModels: '/m', builderArgs: [] });
    expect(parseDistArgs(['--mac'])).toEqual({ withModels: null, builderArgs: ['--mac'] });
    expect(() => parseDistArgs(['--with-models'])).toThrow('--with-models needs a folder');
    expect(() => parseDistArgs(['--with-models', '--linux'])).toThrow('--with-models needs a folder');
    expect(() => parseDistArgs(['--with-models', 'a', '--with-models', 'b'])).toThrow('given twice');
  });

  it('stages the folder\'s GGUF files with a manifest, each pinned one checked against the catalog\'s sha256', () => {
    const dir = temp.make('dist-models-');
    fs.copyFileSync(path.join(SHARED_DIR, 'models', 'multilingual-e5-small.Q4_0.gguf'), path.join(dir, 'multilingual-e5-small.Q4_0.gguf'));
    fs.writeFileSync(path.join(dir, 'custom.gguf'), stories);
    fs.writeFileSync(path.join(dir, 'README.txt'), 'not a model');
    const staging = path.join(temp.make('dist-staging-'), 'models');
    const models = stageModels(dir, staging, MODEL_CATALOG);
    expect(models).toEqual([
      { file: 'custom.gguf', sha256: sha(stories), size_bytes: stories.length, verified: false },
      { file: 'multilingual-e5-small.Q4_0.gguf', sha256: catalogModel('multilingual-e5-small')!.sha256, size_bytes: 73_578_784, id: 'multilingual-e5-small', role: 'embed', languages: ['*'], verified: true },
    ]);
    expect(fs.readdirSync(staging).sort()).toEqual(['custom.gguf', 'models.json', 'multilingual-e5-small.Q4_0.gguf']);
    expect(JSON.parse(fs.readFileSync(path.join(staging, 'models.json'), 'utf8'))).toEqual(models);
  });

  it('refuses a file named like a catalog model that is not its exact file, an empty folder and a missing one', () => {
    const dir = temp.make('dist-models-bad-');
    fs.writeFileSync(path.join(dir, 'multilingual-e5-small.Q4_0.gguf'), stories);
    const staging = path.join(temp.make('dist-staging-bad-'), 'models');
    expect(() => stageModels(dir, staging, MODEL_CATALOG)).toThrow(/multilingual-e5-small\.Q4_0\.gguf is not the catalog's multilingual-e5-small \(sha256 [0-9a-f]{64}, expected ae11659d/);
    expect(fs.existsSync(staging)).toBe(false);
    expect(() => stageModels(temp.make('dist-empty-'), staging, MODEL_CATALOG)).toThrow(/no \.gguf files in/);
    expect(() => stageModels(path.join(dir, 'nope'), staging, MODEL_CATALOG)).toThrow(/no such folder/);
  });

  it('ships the staged models as extra resources in models/, a configuration electron-builder accepts', async () => {
    const staged = withModelsConfig(structuredClone(config), '/tmp/stage/models');
    expect((staged.extraResources as { from: string; to: string }[]).map((r) => [r.from, r.to])).toEqual([
      ['resources/sample-vault', 'sample-vault'],
      ['resources/sample-vault.questions.json', 'sample-vault.questions.json'],
      ['resources/demo-tour.json', 'demo-tour.json'],
      ['/tmp/stage/models', 'models'],
    ]);
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as { validateConfiguration(c: unknown, logger: unknown): Promise<void> };
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    await expect(validateConfiguration(staged, new DebugLogger(false))).resolves.toBeUndefined();
    // The base configuration is left as it was: installers carry models only when asked.
    expect((config.extraResources as unknown[]).length).toBe(3);
  });
});
