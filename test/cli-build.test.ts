/**
 * The built CLI (scripts/build-cli.mjs -> out/cli/main.js) and how bin/synapsis.js chooses between
 * it and the TypeScript sources.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEntry } from '../bin/cli-entry.js';
import { cli } from './helpers/cli.ts';
import { TempDirs } from './helpers/tmp.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const temp = new TempDirs();
afterAll(() => temp.cleanup());

/** A checkout with the real bin/ and node_modules, a stand-in CLI source and a stand-in build, each saying which it is. */
function fakeCheckout(): string {
  const root = temp.make('synapsis-bin-', {
    'package.json': '{ "type": "module" }',
    'bin/synapsis.js': fs.readFileSync(path.join(REPO, 'bin', 'synapsis.js')),
    'bin/cli-entry.js': fs.readFileSync(path.join(REPO, 'bin', 'cli-entry.js')),
    'src/cli/main.ts': "export async function runCli(argv: string[]): Promise<number> { process.stdout.write(`source ${argv.join(' ')}\\n`); return 3; }\n",
    'out/cli/main.js': "export async function runCli(argv) { process.stdout.write(`built ${argv.join(' ')}\\n`); return 3; }\n",
  });
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
  const past = new Date(Date.now() - 60_000);
  fs.utimesSync(path.join(root, 'src', 'cli', 'main.ts'), past, past);
  fs.writeFileSync(path.join(root, 'out', 'cli', 'inputs.json'), JSON.stringify({ built_at: Date.now() - 1000, root, inputs: ['src/cli/main.ts'] }));
  return root;
}

function run(root: string, env: NodeJS.ProcessEnv = {}): { out: string; code: number } {
  try {
    return { out: execFileSync(process.execPath, [path.join(root, 'bin', 'synapsis.js'), 'search', 'x'], { env: { ...process.env, SYNAPSIS_FROM_SOURCE: '', ...env }, encoding: 'utf8' }), code: 0 };
  } catch (error) {
    const e = error as { stdout: string; status: number };
    return { out: e.stdout, code: e.status };
  }
}

describe('bin/synapsis.js', () => {
  it('runs the build while it is newer than its sources, with the arguments and exit code of the CLI', () => {
    const root = fakeCheckout();
    expect(cliEntry(root, {})).toEqual({ built: true, file: path.join(root, 'out', 'cli', 'main.js') });
    expect(run(root)).toEqual({ out: 'built search x\n', code: 3 });
  });

  it('runs the sources through tsx once a source changed after the build', () => {
    const root = fakeCheckout();
    fs.utimesSync(path.join(root, 'src', 'cli', 'main.ts'), new Date(), new Date());
    expect(cliEntry(root, {})).toEqual({ built: false, reason: 'src/cli/main.ts changed since the build' });
    expect(run(root)).toEqual({ out: 'source search x\n', code: 3 });
  });

  it('runs the sources when there is no build, a source is gone, the checkout moved, or SYNAPSIS_FROM_SOURCE=1', () => {
    const root = fakeCheckout();
    expect(run(root, { SYNAPSIS_FROM_SOURCE: '1' }).out).toBe('source search x\n');
    expect(cliEntry(root, { SYNAPSIS_FROM_SOURCE: '1' })).toMatchObject({ built: false });

    const manifest = path.join(root, 'out', 'cli', 'inputs.json');
    const saved = fs.readFileSync(manifest, 'utf8');
    fs.writeFileSync(manifest, JSON.stringify({ ...JSON.parse(saved), root: '/elsewhere' }));
    expect(cliEntry(root, {})).toEqual({ built: false, reason: 'built in /elsewhere' });
    fs.writeFileSync(manifest, JSON.stringify({ ...JSON.parse(saved), inputs: ['src/cli/main.ts', 'src/cli/gone.ts'] }));
    expect(cliEntry(root, {})).toEqual({ built: false, reason: 'src/cli/gone.ts is gone since the build' });
    fs.rmSync(manifest);
    expect(cliEntry(root, {})).toMatchObject({ built: false, reason: expect.stringContaining('not built') });
    expect(run(root).out).toBe('source search x\n');
  });
});

describe('synapsis --version', () => {
  it('prints the package version and exits 0', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
    expect(await cli(['--version'])).toEqual({ code: 0, out: `${version}\n`, err: '' });
  });
});

describe('scripts/build-cli.mjs', () => {
  // Inside the checkout: the external packages resolve from its node_modules, as out/cli's do.
  const out = path.join(REPO, '.tmp', `cli-build-${process.pid}`);
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));
  execFileSync(process.execPath, [path.join(REPO, 'scripts', 'build-cli.mjs'), '--outdir', out], { cwd: REPO, stdio: 'pipe' });
  const manifest = JSON.parse(fs.readFileSync(path.join(out, 'inputs.json'), 'utf8')) as { built_at: number; root: string; inputs: string[] };
  const code = fs
    .readdirSync(out)
    .filter((f) => f.endsWith('.js'))
    .map((f) => fs.readFileSync(path.join(out, f), 'utf8'))
    .join('\n');

  it('lists the sources it read, the engine host of web mode among them, and the lockfile', () => {
    expect(manifest.root).toBe(REPO);
    expect(manifest.inputs).toEqual(expect.arrayContaining(['src/cli/main.ts', 'src/engine/engine.ts', 'src/engine/host/engine-host.ts', 'package-lock.json']));
    expect(manifest.inputs.some((p) => p.includes('node_modules'))).toBe(false);
  });

  it('leaves the native modules outside the bundle, loaded from node_modules', () => {
    for (const name of ['better-sqlite3', 'node-llama-cpp', 'faiss-node', 'usearch']) {
      expect(code, name).toMatch(new RegExp(`(from |\\()"${name}"`));
      expect(code, name).not.toContain(`node_modules/${name}/`);
    }
  });

  it('prints what the sources print', async () => {
    const run = (argv: string[]) =>
      execFileSync(process.execPath, ['--input-type=module', '-e', `const { runCli } = await import(${JSON.stringify(pathToFileURL(path.join(out, 'main.js')).href)}); process.exitCode = await runCli(${JSON.stringify(argv)});`], { cwd: REPO, encoding: 'utf8' });
    for (const argv of [['--help'], ['--version'], ['search', '--help']]) expect(run(argv), argv.join(' ')).toBe((await cli(argv)).out);
  });

  it('stops quietly when the reader closes the pipe early (`synapsis … | head`)', async () => {
    const root = fakeCheckout();
    // A command that writes far more than a pipe holds, line by line.
    fs.writeFileSync(path.join(root, 'out', 'cli', 'main.js'), "export async function runCli() { for (let i = 0; i < 200000; i++) process.stdout.write(`line ${i}\\n`); await new Promise((r) => setTimeout(r, 200)); return 0; }\n");
    const child = spawn(process.execPath, [path.join(root, 'bin', 'synapsis.js'), 'search', 'x'], { env: { ...process.env, SYNAPSIS_FROM_SOURCE: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const first = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(first).toMatch(/^line 0\n/);
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(code).toBe(0);
  });
});
