/** `synapsis models catalog | pull | add <folder>` end to end, against a local server standing in for a model mirror. */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.ts';
import { serveModels } from './helpers/model-server.ts';
import { SHARED_DIR, TempDirs } from './helpers/tmp.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());
const MODELS = path.join(SHARED_DIR, 'models');
const E5 = 'multilingual-e5-small.Q4_0.gguf';
/** What the workspace's registry holds (read as the file: `models list` wants an indexed workspace). */
const list = (dataDir: string): { file: string; role: string; languages?: string[] }[] => {
  const file = path.join(dataDir, 'models', 'registry.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : [];
};

describe('synapsis models pull', () => {
  it('fetches the default embedder from a mirror, verifies it and registers it with its languages', async () => {
    const server = await serveModels({ [E5]: fs.readFileSync(path.join(MODELS, E5)) });
    try {
      const dataDir = temp.make('syn-pull-cli-');
      const r = await cli(['models', 'pull', 'multilingual-e5-small', '--mirror', server.url, '--data-dir', dataDir]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(new RegExp(`^pulled ${E5.replace(/\./g, '\\.')} \\(74 MB, sha256 verified, MIT\\) as embed model [0-9a-f]{16}`));
      expect(r.err).toContain('pull: multilingual-e5-small 100% (74 MB of 74 MB)');
      expect(list(dataDir)).toEqual([expect.objectContaining({ file: E5, role: 'embed', languages: ['*'] })]);
    } finally {
      await server.close();
    }
  });

  it('registers nothing when the file is not the catalog\'s (another size: checked before the checksum)', async () => {
    const server = await serveModels({ [E5]: fs.readFileSync(path.join(MODELS, 'stories260K.gguf')) });
    try {
      const dataDir = temp.make('syn-pull-cli-bad-');
      const r = await cli(['models', 'pull', 'multilingual-e5-small', '--mirror', server.url, '--data-dir', dataDir]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/E_SYN_MODEL_UNAVAILABLE.*multilingual-e5-small\.Q4_0\.gguf is \d+ bytes, not the 73578784 the catalog names: it was deleted and nothing was registered/);
      expect(list(dataDir)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('--recommended takes the measured embedder file when it is in the models dir, asking nothing of the network', async () => {
    const dataDir = temp.make('syn-pull-rec-');
    fs.mkdirSync(path.join(dataDir, 'models'));
    fs.copyFileSync(path.join(MODELS, E5), path.join(dataDir, 'models', E5));
    const r = await cli(['models', 'pull', '--recommended', '--ram', '2', '--data-dir', dataDir]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('pull: multilingual-e5-small (74 MB) into');
    expect(r.out).toMatch(new RegExp(`^present ${E5.replace(/\./g, '\\.')} \\(74 MB, sha256 verified, MIT\\) as embed model`));
    expect(list(dataDir)).toEqual([expect.objectContaining({ file: E5, role: 'embed' })]);
  });

  it('names the catalog for an unknown id, and wants ids or --recommended', async () => {
    expect(await cli(['models', 'pull', 'gpt-5'])).toMatchObject({ code: 2, err: expect.stringContaining('known: multilingual-e5-small, multilingual-e5-small-q8, qwen2.5-1.5b-instruct') });
    expect((await cli(['models', 'pull'])).code).toBe(2);
  });
});

describe('synapsis models catalog', () => {
  it('recommends the public file of the default embedder, pinned by revision and sha256, and names the one that has no public host', async () => {
    const dataDir = temp.make('syn-catalog-cli-');
    const r = await cli(['models', 'catalog', '--data-dir', dataDir]);
    expect(r.code, r.err).toBe(0);
    const block = (id: string) => r.out.split(/\n(?=\S)/).find((b) => b.startsWith(`${id} `)) ?? '';
    expect(block('multilingual-e5-small-q8')).toMatch(/^multilingual-e5-small-q8 +embed +~125 MB +MIT .*\(recommended here\)\n/);
    expect(block('multilingual-e5-small-q8')).toContain('public download pinned to revision b6cac9615d4e and sha256 e011debc1208…, checked before it is registered (size approximate)');
    expect(block('multilingual-e5-small')).not.toContain('recommended here');
    expect(block('multilingual-e5-small')).toContain('no public download of this exact file: from a folder (synapsis models add) or a mirror; multilingual-e5-small-q8 is the same model as a public download');
    // The recommended embedder is never one without a public download.
    const json = JSON.parse((await cli(['models', 'catalog', '--json', '--data-dir', dataDir])).out) as { id: string; role: string; uri: string | null; recommended_here: boolean }[];
    expect(json.filter((m) => m.role === 'embed' && m.recommended_here).map((m) => [m.id, m.uri !== null])).toEqual([['multilingual-e5-small-q8', true]]);
    // With the measured file in the models dir, that one.
    fs.mkdirSync(path.join(dataDir, 'models'));
    fs.copyFileSync(path.join(MODELS, E5), path.join(dataDir, 'models', E5));
    const here = JSON.parse((await cli(['models', 'catalog', '--json', '--data-dir', dataDir])).out) as { id: string; role: string; recommended_here: boolean }[];
    expect(here.filter((m) => m.role === 'embed' && m.recommended_here).map((m) => m.id)).toEqual(['multilingual-e5-small']);
  });
});

describe('SYNAPSIS_MODEL_CATALOG', () => {
  afterEach(() => {
    delete process.env.SYNAPSIS_MODEL_CATALOG;
  });

  it('replaces the built-in catalog for catalog and pull; a malformed one is named', async () => {
    const stories = fs.readFileSync(path.join(MODELS, 'stories260K.gguf'));
    const sha256 = (await import('node:crypto')).createHash('sha256').update(stories).digest('hex');
    const file = path.join(temp.make('syn-org-catalog-'), 'catalog.json');
    const entry = { id: 'org-chat', role: 'chat', name: 'Org chat', file: 'org-chat.gguf', languages: ['en'], size_bytes: stories.length, size_exact: true, license: 'MIT', sha256, architecture: 'llama', uri: null, good_for: 'tests', ram_bytes: 0, recommended: true };
    fs.writeFileSync(file, JSON.stringify([entry]));
    process.env.SYNAPSIS_MODEL_CATALOG = file;
    const listed = await cli(['models', 'catalog', '--json']);
    expect(JSON.parse(listed.out).map((m: { id: string }) => m.id)).toEqual(['org-chat']);
    const server = await serveModels({ 'org-chat.gguf': stories });
    try {
      const dataDir = temp.make('syn-org-pull-');
      const r = await cli(['models', 'pull', '--recommended', '--mirror', server.url, '--data-dir', dataDir]);
      expect(r.code, r.err).toBe(0);
      expect(list(dataDir)).toEqual([expect.objectContaining({ file: 'org-chat.gguf', role: 'chat' })]);
    } finally {
      await server.close();
    }
    // Without a mirror, a model with no public address is named, not fetched.
    const none = await cli(['models', 'pull', '--recommended', '--data-dir', temp.make('syn-org-none-')]);
    expect(none.code).toBe(1);
    expect(none.err).toContain('pull: skipping org-chat: no public download of this exact file; synapsis models add <folder> imports it');
    expect(none.err).toMatch(/None of the recommended models can be downloaded here/);
    fs.writeFileSync(file, JSON.stringify([{ ...entry, license: '' }]));
    expect(await cli(['models', 'catalog'])).toMatchObject({ code: 2, err: expect.stringContaining('model 1 has no valid "license"') });
  });
});

describe('SYNAPSIS_OFFLINE=1', () => {
  afterEach(() => {
    delete process.env.SYNAPSIS_OFFLINE;
  });

  it('removes pull from the CLI; the catalog says to import from a folder', async () => {
    process.env.SYNAPSIS_OFFLINE = '1';
    expect((await cli(['models', 'pull', '--recommended'])).code).toBe(2);
    expect((await cli(['models', '--help'])).out).not.toMatch(/^\s+pull\b/m);
    expect((await cli(['models', 'catalog'])).out).toContain('downloads are off (SYNAPSIS_OFFLINE=1): synapsis models add <folder>');
    // Nothing is fetched: the embedder to import is the measured file (installers and USB sticks carry it).
    const offline = JSON.parse((await cli(['models', 'catalog', '--json', '--data-dir', temp.make('syn-offline-catalog-')])).out) as { id: string; role: string; recommended_here: boolean }[];
    expect(offline.filter((m) => m.role === 'embed' && m.recommended_here).map((m) => m.id)).toEqual(['multilingual-e5-small']);
    delete process.env.SYNAPSIS_OFFLINE;
    expect((await cli(['models', '--help'])).out).toMatch(/^\s+pull\b/m);
  });
});

describe('synapsis models add <folder>', () => {
  it('imports every GGUF file of a folder and its subfolders, skipping a broken one and saying so', async () => {
    const stick = temp.make('syn-usb-', { 'README.txt': 'models for the laptop\n', 'broken.gguf': 'not a model at all' });
    fs.copyFileSync(path.join(MODELS, 'stories260K.gguf'), path.join(stick, 'stories260K.gguf'));
    fs.mkdirSync(path.join(stick, 'embed'));
    fs.copyFileSync(path.join(MODELS, E5), path.join(stick, 'embed', E5));
    const dataDir = temp.make('syn-usb-data-');
    const r = await cli(['models', 'add', stick, '--data-dir', dataDir]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^skipped .*broken\.gguf: /m);
    expect(r.out).toMatch(new RegExp(`^added ${E5.replace(/\./g, '\\.')} as embed model`, 'm'));
    expect(r.out).toMatch(/^added stories260K\.gguf as chat model/m);
    expect(list(dataDir).map((m) => m.file).sort()).toEqual([E5, 'stories260K.gguf']);
    const empty = temp.make('syn-usb-empty-');
    expect(await cli(['models', 'add', empty, '--data-dir', dataDir])).toMatchObject({ code: 1, out: expect.stringContaining('no .gguf files in') });
  });
});

describe('scripts/setup-models.mjs', () => {
  const setupModels = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    execFileSync(process.execPath, [path.join(import.meta.dirname, '..', 'scripts', 'setup-models.mjs'), ...args], { encoding: 'utf8', env: { ...process.env, SYNAPSIS_OFFLINE: '', SYNAPSIS_MODEL_MIRROR: '', ...env } });

  it('imports the GGUF files of a shared models folder and verifies the default embedder', () => {
    const shared = temp.make('syn-shared-models-', { 'notes.txt': 'x' });
    fs.copyFileSync(path.join(MODELS, E5), path.join(shared, E5));
    fs.copyFileSync(path.join(MODELS, 'stories260K.gguf'), path.join(shared, 'stories260K.gguf'));
    const target = path.join(temp.make('syn-target-'), 'models');
    expect(setupModels(['--shared', shared, '--target', target])).toMatch(/^setup: models: imported from .* 2 GGUF files \(2 copied now; multilingual-e5-small sha256 verified\)\n$/);
    expect(fs.readdirSync(target).sort()).toEqual([E5, 'stories260K.gguf']);
  });

  it('without a shared folder, downloads the default embedder, or says in one line why not', async () => {
    const target = path.join(temp.make('syn-target-dl-'), 'models');
    const missing = path.join(target, 'no-such-folder');
    expect(setupModels(['--shared', missing, '--target', target], { SYNAPSIS_OFFLINE: '1' })).toMatch(/^setup: models: none imported .*SYNAPSIS_OFFLINE=1/);
    // A server that cannot be reached (a port just closed) stands in for no network.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(setupModels(['--shared', missing, '--target', target], { SYNAPSIS_MODEL_MIRROR: `http://127.0.0.1:${port}` })).toMatch(/^setup: models: no .* and the download did not succeed \(.*No network connection to 127\.0\.0\.1.*\): the demo searches by words/);
    expect(fs.existsSync(path.join(target, E5))).toBe(false);
    const server = await serveModels({ [E5]: fs.readFileSync(path.join(MODELS, E5)) });
    try {
      const out = await new Promise<string>((resolve, reject) => {
        // Asynchronously: the server answers in this process.
        execFile(process.execPath, [path.join(import.meta.dirname, '..', 'scripts', 'setup-models.mjs'), '--shared', missing, '--target', target], { env: { ...process.env, SYNAPSIS_OFFLINE: '', SYNAPSIS_MODEL_MIRROR: server.url } }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
      });
      expect(out).toMatch(/^setup: models: downloaded multilingual-e5-small into .*models\/ \(sha256 verified\)\n$/);
      expect(fs.existsSync(path.join(target, E5))).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('synapsis models add: one embedding model per language', () => {
  it('says an English model added beside the multilingual one is not used, with what using it too gains and costs', async () => {
    const dataDir = temp.make('syn-plan-cli-');
    const first = await cli(['models', 'add', path.join(MODELS, E5), '--data-dir', dataDir]);
    expect(first.code, first.err).toBe(0);
    expect(first.out).not.toContain('Not used');
    const second = await cli(['models', 'add', path.join(MODELS, 'all-MiniLM-L6-v2.Q8_0.gguf'), '--data-dir', dataDir]);
    expect(second.code, second.err).toBe(0);
    expect(second.out).toMatch(/^added all-MiniLM-L6-v2\.Q8_0\.gguf as embed model/m);
    expect(second.out).toMatch(/Not used: multilingual-e5-small[^\n]* already covers en\. As a second model \(SYN_EMBED_MODELS=[0-9a-f]{16},[0-9a-f]{16}\)/);
    expect(second.out).toMatch(/SciFact 0\.7278 → 0\.7468/);
    expect(second.out).not.toContain('the next synapsis index uses them');
    const listed = list(dataDir).map((m) => m.file);
    expect(listed.sort()).toEqual(['all-MiniLM-L6-v2.Q8_0.gguf', E5]);
  });
});
