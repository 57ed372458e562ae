import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TempDirs } from '../../test/helpers/tmp.ts';
import { isHostMethod, isMethod } from '../shared/contract.ts';
import { createBridgeCore, createClient, RpcError } from '../shared/rpc.ts';
import { createEngine, EngineHost, serveRpc } from '../engine/index.ts';
import { createRendererGate, gatedReceiver, isGrantMessage, RENDERER_METHODS, WEB_ONLY_METHODS } from './renderer-gate.ts';

const RENDERER_SRC = path.resolve(import.meta.dirname, '..', 'renderer', 'src');

/** Every contract method named in a string literal of the renderer's sources (tests excluded). */
function methodsTheRendererNames(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        for (const m of fs.readFileSync(file, 'utf8').matchAll(/'([a-z]+\/[A-Za-z]+)'/g)) if (isMethod(m[1]!) || isHostMethod(m[1]!)) found.add(m[1]!);
      }
    }
  };
  walk(RENDERER_SRC);
  return [...found].sort();
}

describe('RENDERER_METHODS', () => {
  it('is exactly the set of contract methods the renderer calls', () => {
    const used = methodsTheRendererNames();
    // The scan finds what it should: calls made directly and through switchWorkspace's union type.
    expect(used).toEqual(expect.arrayContaining(['index/addRoot', 'models/add', 'demo/start', 'answer/ask']));
    expect([...RENDERER_METHODS, ...WEB_ONLY_METHODS].sort()).toEqual(used);
  });

  it('leaves out methods the UI does not need', () => {
    for (const method of ['graph/extract', 'graph/path', 'graph/neighbors', 'index/roots', ...WEB_ONLY_METHODS]) expect(RENDERER_METHODS.has(method), method).toBe(false);
  });
});

describe('createRendererGate', () => {
  const request = (method: string, params: unknown = {}, id = 7) => ({ type: 'request', id, method, params });

  it('refuses a method outside the list with E_SYN_BAD_REQUEST, answering the same request id', () => {
    const verdict = createRendererGate().check(request('graph/extract', {}, 41));
    expect(verdict).toMatchObject({ type: 'response', id: 41, ok: false, error: { code: 'E_SYN_BAD_REQUEST', retryable: false } });
  });

  it('passes listed methods, cancels and anything that is not a request (the server ignores those)', () => {
    const gate = createRendererGate();
    expect(gate.check(request('search/query', { query: 'x' }))).toBe('pass');
    expect(gate.check({ type: 'cancel', id: 3 })).toBe('pass');
    expect(gate.check('garbage')).toBe('pass');
    expect(gate.check(request('graph/extract', {}, Number.NaN))).toBe('drop');
  });

  it('adds a folder or imports a model only for a path picked in the dialog of that kind', () => {
    const gate = createRendererGate();
    expect(gate.check(request('index/addRoot', { path: '/home/u/notes' }))).toMatchObject({ ok: false, error: { code: 'E_SYN_BAD_REQUEST' } });
    expect(gate.check(request('models/add', { path: '/tmp/evil.gguf' }))).toMatchObject({ ok: false, error: { code: 'E_SYN_BAD_REQUEST' } });
    expect(gate.check(request('index/addRoot', {}))).toMatchObject({ ok: false });
    gate.grant('folder', '/home/u/notes');
    gate.grant('model', '/home/u/m.gguf');
    expect(gate.check(request('index/addRoot', { path: '/home/u/notes', exclude: ['*.log'] }))).toBe('pass');
    expect(gate.check(request('models/add', { path: '/home/u/m.gguf' }))).toBe('pass');
    // A grant is for its own dialog and its exact path.
    expect(gate.check(request('models/add', { path: '/home/u/notes' }))).toMatchObject({ ok: false });
    expect(gate.check(request('index/addRoot', { path: '/home/u/m.gguf' }))).toMatchObject({ ok: false });
    expect(gate.check(request('index/addRoot', { path: '/home/u' }))).toMatchObject({ ok: false });
    expect(gate.check(request('index/addRoot', { path: '/home/u/notes/../..' }))).toMatchObject({ ok: false });
  });

  it('imports a folder of models only once it was picked in the model-folder dialog; catalog and download need no path', () => {
    const gate = createRendererGate();
    gate.grant('folder', '/home/u/notes');
    expect(gate.check(request('models/importFolder', { path: '/home/u/notes' }))).toMatchObject({ ok: false, error: { message: expect.stringContaining('Choose a folder of models with Browse… first') } });
    gate.grant('modelFolder', '/media/usb/models');
    expect(gate.check(request('models/importFolder', { path: '/media/usb/models' }))).toBe('pass');
    expect(gate.check(request('index/addRoot', { path: '/media/usb/models' }))).toMatchObject({ ok: false });
    for (const method of ['models/catalog', 'models/download', 'models/cancelDownload']) expect(gate.check(request(method, {})), method).toBe('pass');
  });
});

describe('isGrantMessage', () => {
  it('accepts only a well-formed grant', () => {
    expect(isGrantMessage({ type: 'grant', kind: 'folder', path: '/a' })).toBe(true);
    expect(isGrantMessage({ type: 'grant', kind: 'model', path: '/a.gguf' })).toBe(true);
    expect(isGrantMessage({ type: 'grant', kind: 'modelFolder', path: '/media/usb' })).toBe(true);
    for (const bad of [null, 'grant', { type: 'grant', kind: 'root', path: '/a' }, { type: 'grant', kind: 'folder', path: '' }, { type: 'grant', kind: 'folder' }, { type: 'connect' }]) expect(isGrantMessage(bad)).toBe(false);
  });
});

describe('the engine behind the gate', () => {
  const temp = new TempDirs();
  const hosts: EngineHost[] = [];
  afterEach(async () => {
    for (const h of hosts.splice(0)) await h.dispose();
    temp.cleanup();
  });

  function connect() {
    const vault = temp.make('gate-vault-', { 'a.md': '# A\n\nThe relay listens on port 7443.\n' });
    const dataDir = temp.make('gate-data-');
    const host = new EngineHost({ create: () => createEngine({ dataDir, env: {} }) });
    hosts.push(host);
    const gate = createRendererGate();
    let core: ReturnType<typeof createBridgeCore> | null = null;
    const toClient = (m: unknown) => queueMicrotask(() => core?.receive(JSON.parse(JSON.stringify(m))));
    const server = serveRpc({ host, shell: 'electron', version: '1', send: toClient });
    const receive = gatedReceiver(gate, (m) => server.receive(m), toClient);
    core = createBridgeCore((m) => queueMicrotask(() => receive(JSON.parse(JSON.stringify(m)))), 'electron');
    return { client: createClient(core.bridge), gate, vault };
  }

  it('never adds a folder the user did not pick, and adds it once picked', async () => {
    const { client, gate, vault } = connect();
    const refused = await client.call('index/addRoot', { path: vault }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RpcError);
    expect((refused as RpcError).code).toBe('E_SYN_BAD_REQUEST');
    expect((await client.call('health/get', {})).roots).toEqual([]);
    gate.grant('folder', vault);
    await client.call('index/addRoot', { path: vault });
    expect((await client.call('health/get', {})).roots.map((r) => r.path)).toEqual([fs.realpathSync(vault)]);
  });

  it('answers a method the UI does not use with an error, not a result', async () => {
    const { client } = connect();
    await expect(client.call('index/roots', {})).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST', message: expect.stringContaining('index/roots') });
    await expect(client.call('models/add', { path: '/etc/passwd' })).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST' });
  });
});
