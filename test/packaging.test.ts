/**
 * The desktop packaging configuration (build/electron-builder.yml), checked where the app cannot be
 * packaged (no Electron binary): electron-builder's own schema accepts it, every platform target is
 * there, native code is unpacked from the asar, and no model, source or test file would ship.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import picomatch from 'picomatch';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';

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
    for (const f of ['out/main/index.js', 'out/main/engine-host.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'out/renderer/assets/index-abc.js', 'package.json']) expect(shipped(f, files), f).toBe(true);
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
