import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DownloadProgress } from '../../shared/contract.ts';
import { createBridgeCore, createClient } from '../../shared/rpc.ts';
import { serveModels, type ModelServer } from '../../../test/helpers/model-server.ts';
import { SHARED_DIR, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
import type { CatalogModel } from '../llm/catalog.ts';
import { EngineHost } from './engine-host.ts';
import { serveRpc } from './rpc-server.ts';

const temp = new TempDirs();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
  temp.cleanup();
});

const STORIES = fs.readFileSync(path.join(SHARED_DIR, 'models', 'stories260K.gguf'));
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

const entry = (id: string, file: string, data: Buffer, over: Partial<CatalogModel> = {}): CatalogModel => ({
  id, role: 'chat', name: `${id} model`, file, languages: ['en'], size_bytes: data.length, size_exact: true, license: 'MIT',
  sha256: sha(data), architecture: 'llama', uri: null, good_for: 'tests', ram_bytes: 0, recommended: true, ...over,
});

async function serve(files: Record<string, Buffer>, options: Parameters<typeof serveModels>[1] = {}): Promise<ModelServer> {
  const server = await serveModels(files, options);
  cleanups.push(() => server.close());
  return server;
}

/** A host with an empty workspace, its RPC server and a client over an in-memory pipe; the catalog and mirror come from env. */
function connect(catalog: CatalogModel[], env: NodeJS.ProcessEnv) {
  const dataDir = temp.make('dl-data-');
  const catalogFile = path.join(temp.make('dl-catalog-'), 'catalog.json');
  fs.writeFileSync(catalogFile, JSON.stringify(catalog));
  const host = new EngineHost({ create: () => createEngine({ dataDir, env: {} }) });
  cleanups.push(() => host.dispose());
  let core: ReturnType<typeof createBridgeCore> | null = null;
  const server = serveRpc({ host, shell: 'test', version: '1', env: { SYNAPSIS_MODEL_CATALOG: catalogFile, ...env }, send: (m) => queueMicrotask(() => core?.receive(JSON.parse(JSON.stringify(m)))) });
  cleanups.push(async () => server.dispose());
  core = createBridgeCore((m) => queueMicrotask(() => server.receive(JSON.parse(JSON.stringify(m)))), 'test');
  const client = createClient(core.bridge);
  const events: DownloadProgress[] = [];
  client.on('models/download', (e) => events.push(e));
  return { client, host, dataDir, events };
}

describe('models/download (the host downloads, the engine registers)', () => {
  it('streams progress, checks the sha256, registers the model and restarts the engine with it', async () => {
    const server = await serve({ 'stories.gguf': STORIES });
    const { client, host, dataDir, events } = connect([entry('stories', 'stories.gguf', STORIES), entry('other', 'other.gguf', STORIES, { recommended: false })], { SYNAPSIS_MODEL_MIRROR: server.url });
    const before = await client.call('models/catalog', {});
    expect(before).toMatchObject({ offline: false, recommended: ['stories'], recommended_bytes: STORIES.length, download: null });
    expect(before.models.map((m) => [m.id, m.recommended, m.downloadable, m.installed, m.verified, m.license])).toEqual([
      ['stories', true, true, false, true, 'MIT'],
      ['other', false, true, false, true, 'MIT'],
    ]);
    const engineBefore = await host.engine();

    const result = await client.call('models/download', { ids: ['stories'] });

    expect(result.restarted).toBe(true);
    expect(result.models.map((m) => [m.file, m.role])).toEqual([['stories.gguf', 'chat']]);
    expect(await host.engine()).not.toBe(engineBefore);
    expect(sha(fs.readFileSync(path.join(dataDir, 'models', 'stories.gguf')))).toBe(sha(STORIES));
    expect((await client.call('models/list', {})).map((m) => m.file)).toEqual(['stories.gguf']);
    const states = events.map((e) => e.state);
    expect(states[0]).toBe('downloading');
    expect(states.slice(-3)).toEqual(['verifying', 'registering', 'done']);
    expect(states.filter((s) => s === 'verifying')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ id: 'stories', file: 'stories.gguf', downloaded_bytes: STORIES.length, total_bytes: STORIES.length, index: 1, count: 1 });
    for (let i = 1; i < events.length; i++) expect(events[i]!.downloaded_bytes).toBeGreaterThanOrEqual(events[i - 1]!.downloaded_bytes);
    const after = await client.call('models/catalog', {});
    expect(after.models.find((m) => m.id === 'stories')!.installed).toBe(true);
    expect(after.recommended).toEqual([]);
  });

  it('cancels on request, keeps what arrived, and the next download resumes instead of starting over', async () => {
    // Five of the downloader's 5 MB pieces (the last one 2 MB), sent slowly enough to cancel in the middle.
    const big = Buffer.concat([STORIES, Buffer.alloc(22 * 1024 * 1024 - STORIES.length)]);
    // 2 MB/s per connection over its three connections: the first three pieces are whole and saved at
    // 15 MB (2.5 s), the rest arrives at 4 MB/s until 22 MB (5 s). Cancelled at 17 MB, half a second after
    // the save and two before the end: only whole pieces are kept, so a cancel as a piece completes would
    // keep nothing and the next download would start over.
    const server = await serve({ 'big.gguf': big }, { bytesPerSecond: 2 * 1024 * 1024 });
    const { client, dataDir, events } = connect([entry('big', 'big.gguf', big)], { SYNAPSIS_MODEL_MIRROR: server.url });
    let cancelled: Promise<unknown> | null = null;
    client.on('models/download', (e) => {
      if (!cancelled && e.state === 'downloading' && e.downloaded_bytes >= 17 * 1024 * 1024) cancelled = client.call('models/cancelDownload', {});
    });
    await expect(client.call('models/download', { ids: ['big'] })).rejects.toThrow(/cancelled: what arrived is kept, and downloading again resumes it/);
    expect(await cancelled).toEqual({ cancelled: true });
    expect(events.at(-1)).toMatchObject({ state: 'cancelled', id: 'big' });
    expect(fs.existsSync(path.join(dataDir, 'models', 'big.gguf'))).toBe(false);
    expect(await client.call('models/list', {})).toEqual([]);
    expect(await client.call('models/cancelDownload', {})).toEqual({ cancelled: false });

    const sentBefore = server.rangedBytesSent;
    const result = await client.call('models/download', { ids: ['big'] });
    expect(result.models.map((m) => m.file)).toEqual(['big.gguf']);
    expect(sha(fs.readFileSync(path.join(dataDir, 'models', 'big.gguf')))).toBe(sha(big));
    // Resumed: the second run sent less than the whole file.
    expect(server.rangedBytesSent - sentBefore).toBeLessThan(big.length);
  });

  it('refuses a file whose sha256 is not the catalog\'s: an error naming it, nothing registered', async () => {
    const server = await serve({ 'stories.gguf': STORIES });
    const { client, dataDir, events } = connect([entry('stories', 'stories.gguf', STORIES, { sha256: 'ab'.repeat(32) })], { SYNAPSIS_MODEL_MIRROR: server.url });
    await expect(client.call('models/download', { ids: ['stories'] })).rejects.toThrow(/stories\.gguf failed its checksum .*nothing was registered/);
    expect(events.at(-1)).toMatchObject({ state: 'failed', error: expect.stringContaining('failed its checksum') });
    expect(await client.call('models/list', {})).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'models', 'stories.gguf'))).toBe(false);
  });

  it('with SYNAPSIS_OFFLINE=1 offers no download and refuses one, asking nothing of the network', async () => {
    const server = await serve({ 'stories.gguf': STORIES });
    const { client } = connect([entry('stories', 'stories.gguf', STORIES)], { SYNAPSIS_MODEL_MIRROR: server.url, SYNAPSIS_OFFLINE: '1' });
    const catalog = await client.call('models/catalog', {});
    expect(catalog).toMatchObject({ offline: true, recommended: [], recommended_bytes: 0 });
    expect(catalog.models.every((m) => !m.downloadable)).toBe(true);
    await expect(client.call('models/download', { ids: ['stories'] })).rejects.toThrow(/Downloads are turned off on this installation \(SYNAPSIS_OFFLINE=1\)/);
    expect(server.requests).toEqual([]);
  });

  it('says "no network" at once when the server cannot be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { client, events } = connect([entry('stories', 'stories.gguf', STORIES)], { SYNAPSIS_MODEL_MIRROR: `http://127.0.0.1:${port}` });
    await expect(client.call('models/download', { ids: ['stories'] })).rejects.toThrow(new RegExp(`No network connection to 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
    expect(events.at(-1)?.state).toBe('failed');
  });

  it('recommends the public file of a model whose pinned file has no public host, unless that file is here or a mirror serves it', async () => {
    // Another file of the same model (the same GGUF with padding after its tensors: another sha256).
    const q8 = Buffer.concat([STORIES, Buffer.alloc(4096)]);
    const server = await serve({ 'stories-q8.gguf': q8 });
    // Two files of one model: the one measured with (no public address) and a public one, pinned by
    // revision and sha256 at an approximate size.
    const catalog = [
      entry('stories', 'stories260K.gguf', STORIES, { role: 'embed' }),
      entry('stories-q8', 'stories-q8.gguf', q8, { role: 'embed', variant_of: 'stories', uri: `${server.url}/stories-q8.gguf`, revision: 'f'.repeat(40), size_bytes: q8.length * 1.5, size_exact: false }),
    ];
    const { client } = connect(catalog, {});
    const fresh = await client.call('models/catalog', {});
    expect(fresh.recommended).toEqual(['stories-q8']);
    expect(fresh.models.map((m) => [m.id, m.recommended, m.downloadable, m.revision])).toEqual([
      ['stories', false, false, null],
      ['stories-q8', true, true, 'f'.repeat(40)],
    ]);
    await expect(client.call('models/download', { ids: ['stories'] })).rejects.toThrow(/no public download of this exact file: .*, or download stories-q8 model, the same model with a public download/);
    // Downloaded from its own address: the sha256 decides, not the approximate size.
    const result = await client.call('models/download', { ids: fresh.recommended });
    expect(result.models.map((m) => m.file)).toEqual(['stories-q8.gguf']);
    expect((await client.call('models/catalog', {})).recommended).toEqual([]);

    // Downloads off: the line shown is the measured file, the one to import.
    const off = connect(catalog, { SYNAPSIS_OFFLINE: '1' });
    expect((await off.client.call('models/catalog', {})).models.map((m) => [m.id, m.recommended])).toEqual([
      ['stories', true],
      ['stories-q8', false],
    ]);
    // A mirror carries the pinned file: it is the recommendation there.
    const mirrored = connect(catalog, { SYNAPSIS_MODEL_MIRROR: server.url });
    expect((await mirrored.client.call('models/catalog', {})).recommended).toEqual(['stories']);
    // Imported from a folder (under another name): recommended as it is, nothing to fetch.
    const imported = connect(catalog, {});
    const stick = temp.make('dl-stick-renamed-');
    fs.copyFileSync(path.join(SHARED_DIR, 'models', 'stories260K.gguf'), path.join(stick, 'renamed.gguf'));
    await imported.client.call('models/importFolder', { path: stick });
    const after = await imported.client.call('models/catalog', {});
    expect(after.models.map((m) => [m.id, m.recommended, m.installed])).toEqual([
      ['stories', true, true],
      ['stories-q8', false, false],
    ]);
    expect(after.recommended).toEqual([]);
  });

  it('names a model the catalog lacks, and one with no download and no mirror', async () => {
    const { client } = connect([entry('stories', 'stories.gguf', STORIES)], {});
    await expect(client.call('models/download', { ids: ['nope'] })).rejects.toThrow(/No model "nope" in the catalog; known: stories/);
    await expect(client.call('models/download', { ids: ['stories'] })).rejects.toThrow(/no public download of this exact file: import it from a folder/);
    expect((await client.call('models/catalog', {})).models[0]!.downloadable).toBe(false);
  });
});

describe('models/importFolder', () => {
  it('imports every GGUF of a folder, skips what is not a model with why, and restarts the engine', async () => {
    const { client, host } = connect([entry('stories', 'stories260K.gguf', STORIES, { role: 'chat' })], {});
    const stick = temp.make('dl-stick-');
    fs.mkdirSync(path.join(stick, 'models'));
    fs.copyFileSync(path.join(SHARED_DIR, 'models', 'stories260K.gguf'), path.join(stick, 'models', 'stories260K.gguf'));
    fs.writeFileSync(path.join(stick, 'notes.gguf'), 'these are notes, not a model\n');
    const engineBefore = await host.engine();
    const result = await client.call('models/importFolder', { path: stick });
    expect(result.added.map((m) => [m.file, m.role])).toEqual([['stories260K.gguf', 'chat']]);
    expect(result.skipped).toEqual([{ file: path.join(stick, 'notes.gguf'), reason: expect.stringMatching(/^Not a GGUF model file.*notes\.gguf$/) }]);
    expect(result.restarted).toBe(true);
    expect(await host.engine()).not.toBe(engineBefore);
    expect((await client.call('models/list', {})).map((m) => m.file)).toEqual(['stories260K.gguf']);
  });

  it('refuses a file the catalog pins that is not that exact file', async () => {
    const { client } = connect([entry('stories', 'stories260K.gguf', STORIES, { sha256: 'cd'.repeat(32) })], {});
    const stick = temp.make('dl-stick-bad-');
    fs.copyFileSync(path.join(SHARED_DIR, 'models', 'stories260K.gguf'), path.join(stick, 'stories260K.gguf'));
    const result = await client.call('models/importFolder', { path: stick });
    expect(result).toMatchObject({ added: [], restarted: false, skipped: [{ reason: expect.stringContaining("not the catalog's stories model") }] });
  });

  it('names a missing folder, a file given as a folder, and a folder without models', async () => {
    const { client } = connect([entry('stories', 'stories.gguf', STORIES)], {});
    const empty = temp.make('dl-empty-');
    await expect(client.call('models/importFolder', { path: path.join(empty, 'nope') })).rejects.toThrow(/No such folder: .*nope/);
    fs.writeFileSync(path.join(empty, 'a.txt'), 'x');
    await expect(client.call('models/importFolder', { path: path.join(empty, 'a.txt') })).rejects.toThrow(/Not a folder/);
    await expect(client.call('models/importFolder', { path: empty })).rejects.toThrow(/No \.gguf model files in/);
  });
});
