/**
 * The built engine process (out/main/engine-process.js, what Electron's utilityProcess runs) loaded by
 * plain Node with a stand-in for Electron's `process.parentPort` and MessagePortMain: proves the
 * bundle starts without tsx or Electron, finds its native modules, and answers the protocol.
 * (Electron itself is not installed here; see electron.e2e.test.ts.)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stageModels } from '../../scripts/dist-models.mjs';
import { SAMPLE_VAULT, SHARED_DIR, TempDirs } from '../helpers/tmp.ts';
import { REPO } from './harness.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const SHIM = `
import { EventEmitter } from 'node:events';
import { pathToFileURL } from 'node:url';
const [bundle, vault] = process.argv.slice(2);
const parentPort = new EventEmitter();
process.parentPort = parentPort;
await import(pathToFileURL(bundle).href);
// A MessagePortMain stand-in: the engine listens with on('message', e => e.data) and answers with postMessage.
const port = new EventEmitter();
const replies = [];
port.postMessage = (m) => {
  replies.push(m);
  if (m.type === 'response') process.stdout.write(JSON.stringify(m) + '\\n');
};
port.start = () => {};
parentPort.emit('message', { data: { type: 'connect' }, ports: [port] });
const ask = (id, method, params) => port.emit('message', { data: { type: 'request', id, method, params } });
ask(1, 'index/run', { sources: [vault] });
ask(2, 'nope/nothing', {});
const waitFor = (id) => new Promise((r) => { const t = setInterval(() => { if (replies.some((m) => m.type === 'response' && m.id === id)) { clearInterval(t); r(); } }, 20); });
await waitFor(1);
ask(3, 'search/query', { query: 'relay port', k: 3 });
await waitFor(3);
process.stdout.write(JSON.stringify({ events: [...new Set(replies.filter((m) => m.type === 'event').map((m) => m.event))] }) + '\\n');
process.kill(process.pid, 'SIGTERM');
`;

describe('the built engine host (utilityProcess entry)', () => {
  it('starts from out/main/engine-process.js and serves the protocol over its port', async () => {
    const bundle = path.join(REPO, 'out', 'main', 'engine-process.js');
    expect(fs.existsSync(bundle)).toBe(true);
    const dir = temp.make('engine-process-');
    const shim = path.join(dir, 'shim.mjs');
    fs.writeFileSync(shim, SHIM);
    const child = spawn(process.execPath, [shim, bundle, SAMPLE_VAULT], { cwd: REPO, env: { ...process.env, SYNAPSIS_DATA_DIR: path.join(dir, 'data') }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    const lines = out.trim().split('\n').map((l) => JSON.parse(l));
    expect(err).toBe('');
    expect(code).toBe(0);
    const byId = Object.fromEntries(lines.filter((l) => l.type === 'response').map((l) => [l.id, l]));
    expect(byId[1]).toMatchObject({ ok: true, result: { indexed: 53 } });
    expect(byId[2]).toMatchObject({ ok: false, error: { code: 'E_SYN_BAD_REQUEST' } });
    expect(byId[3].result.chunks.length).toBe(3);
    expect(lines.at(-1).events).toEqual(expect.arrayContaining(['index/progress', 'index/status', 'syn.index.completed']));
  });

  it('on a first start imports the models an installer carries before it answers the window', async () => {
    const bundle = path.join(REPO, 'out', 'main', 'engine-process.js');
    const dir = temp.make('engine-process-models-');
    const source = path.join(dir, 'usb');
    fs.mkdirSync(source);
    fs.copyFileSync(path.join(SHARED_DIR, 'models', 'stories260K.gguf'), path.join(source, 'stories260K.gguf'));
    const resources = path.join(dir, 'resources', 'models');
    stageModels(source, resources, []);
    // The window's first request, sent the moment it connects: answered only after the import.
    const shim = path.join(dir, 'shim.mjs');
    fs.writeFileSync(
      shim,
      SHIM.slice(0, SHIM.indexOf("ask(1, 'index/run'")) +
        "ask(1, 'models/list', {});\nconst waitFor = (id) => new Promise((r) => { const t = setInterval(() => { if (replies.some((m) => m.type === 'response' && m.id === id)) { clearInterval(t); r(); } }, 20); });\nawait waitFor(1);\nprocess.kill(process.pid, 'SIGTERM');\n",
    );
    const child = spawn(process.execPath, [shim, bundle, SAMPLE_VAULT], { cwd: REPO, env: { ...process.env, SYNAPSIS_DATA_DIR: path.join(dir, 'data'), SYNAPSIS_BUNDLED_MODELS: resources }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(err).toBe('');
    expect(code).toBe(0);
    const reply = JSON.parse(out.trim().split('\n')[0]!);
    expect(reply).toMatchObject({ id: 1, ok: true, result: [{ file: 'stories260K.gguf', role: 'chat' }] });
    expect(fs.existsSync(path.join(dir, 'data', 'models', 'stories260K.gguf'))).toBe(true);
  });
});
