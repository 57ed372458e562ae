import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBridgeCore, createClient, RpcError, type ServerMessage } from '../../shared/rpc.ts';
import { QuotingChat } from '../../../test/helpers/chat.ts';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
import { EngineHost } from './engine-host.ts';
import { serveRpc } from './rpc-server.ts';

const temp = new TempDirs();
const hosts: EngineHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
  temp.cleanup();
});

const NOTES = {
  'relay.md': '# Relay\n\nThe relay listens on port 7443 behind the firewall.\n',
  'secret.md': '---\nsensitivity: restricted\n---\n# Salaries\n\nThe relay budget is secret.\n',
};

/** A client and the engine's server joined by an in-memory pipe that round-trips JSON, as the real transports do. */
function connect(options: { chatDelayMs?: number; env?: NodeJS.ProcessEnv } = {}) {
  const vault = temp.make('rpc-vault-', NOTES);
  const dataDir = temp.make('rpc-data-');
  const host = new EngineHost({ create: () => createEngine({ dataDir, env: {}, chat: new QuotingChat(options.chatDelayMs ?? 0) }) });
  hosts.push(host);
  const sent: ServerMessage[] = [];
  let core: ReturnType<typeof createBridgeCore> | null = null;
  const server = serveRpc({
    host,
    shell: 'test',
    version: '9.9.9',
    ...(options.env ? { env: options.env } : {}),
    send: (m) => {
      sent.push(m);
      queueMicrotask(() => core?.receive(JSON.parse(JSON.stringify(m))));
    },
  });
  core = createBridgeCore((m) => queueMicrotask(() => server.receive(JSON.parse(JSON.stringify(m)))), 'test');
  return { client: createClient(core.bridge), core, server, sent, vault, dataDir, host };
}

describe('serveRpc', () => {
  it('answers contract methods with their typed results and streams index progress as events', async () => {
    const { client, vault } = connect();
    const progress: string[] = [];
    client.on('index/progress', (e) => progress.push(e.stage));
    const statuses: boolean[] = [];
    client.on('index/status', (s) => statuses.push(s.running));
    const report = await client.call('index/run', { sources: [vault] });
    expect(report.indexed).toBe(2);
    expect(progress).toContain('done');
    expect(statuses).toEqual(expect.arrayContaining([true, false]));
    const result = await client.call('search/query', { query: 'relay port' });
    expect(result.chunks.map((c) => c.path)).toEqual(['relay.md']);
    // A host told not to watch (synapsis web --no-watch) says so, so the UI never turns watching on.
    expect(await client.call('app/info', {})).toMatchObject({ shell: 'test', version: '9.9.9', watch: false });
  });

  it('turns invalid requests and unknown methods into E_SYN_BAD_REQUEST errors, not crashes', async () => {
    const { client, core } = connect();
    await expect(client.call('search/query', { query: 42 } as never)).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST', message: expect.stringContaining('query') });
    const unknown = await core.bridge.request('fs/readFile', { path: '/etc/passwd' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'E_SYN_BAD_REQUEST', message: 'Unknown method "fs/readFile"' } });
    await expect(client.call('source/open', { locator: 'x', extra: 1 } as never)).rejects.toBeInstanceOf(RpcError);
  });

  it('ignores messages that are not protocol messages', async () => {
    const { server, client } = connect();
    for (const junk of [null, 42, 'x', { type: 'request' }, { type: 'request', id: 'a', method: 'health/get' }, { type: 'evil', id: 1 }]) server.receive(junk);
    expect((await client.call('index/status', {})).running).toBe(false);
  });

  it('streams answer tokens to the asking request only and cancels generation on request', async () => {
    const { client, vault, sent } = connect({ chatDelayMs: 30 });
    await client.call('index/run', { sources: [vault] });
    const tokens: string[] = [];
    const envelope = await client.call('answer/ask', { query: 'Which port does the relay listen on?' }, { onToken: (t) => tokens.push(t.text) });
    expect(tokens.join('')).toContain('7443');
    expect(envelope.citations[0]?.path).toBe('relay.md');
    // Tokens travel as progress of the request, never as a broadcast event.
    expect(sent.some((m) => m.type === 'event' && m.event === 'answer/token')).toBe(false);

    const controller = new AbortController();
    const cancelled = client.call('answer/ask', { query: 'Which port does the relay listen on?' }, { signal: controller.signal, onToken: () => controller.abort() });
    expect((await cancelled).cancelled).toBe(true);
  });

  it('keeps restricted notes out unless the request allows them', async () => {
    const { client, vault, sent } = connect();
    await client.call('index/run', { sources: [vault] });
    const hidden = await client.call('search/query', { query: 'relay budget secret' });
    expect(hidden.chunks.map((c) => c.path)).not.toContain('secret.md');
    await expect(client.call('source/get', { locator: 'secret.md' })).rejects.toMatchObject({ code: 'E_SYN_NOT_FOUND' });
    const allowed = await client.call('search/query', { query: 'relay budget secret', context: { allow_sensitivity: ['restricted'] } });
    expect(allowed.chunks.map((c) => c.path)).toContain('secret.md');
    await client.call('search/query', { query: 'salary', context: { include_globs: ['secret*'] } });
    // Retrieval events carry a client's query and what the policy hid: no other client hears them.
    expect(sent.filter((m) => m.type === 'event' && String(m.event).startsWith('syn.retrieve.'))).toEqual([]);
    expect(sent.some((m) => m.type === 'event' && m.event === 'syn.index.completed')).toBe(true);
  });

  it('opens a cited file with SYNAPSIS_EDITOR at its line, passing the path as one argument, and refuses paths outside the roots', async () => {
    const out = temp.make('rpc-editor-');
    const record = path.join(out, 'args.json');
    const editor = path.join(out, 'editor.mjs');
    fs.writeFileSync(editor, `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`);
    const { client, vault } = connect({ env: { SYNAPSIS_EDITOR: `${process.execPath} ${editor} --goto {file}:{line}` } });
    await client.call('index/run', { sources: [vault] });
    const opened = await client.call('source/open', { locator: 'relay.md#L3-L3' });
    expect(opened).toMatchObject({ opened: true, line: 3, file: fs.realpathSync(path.join(vault, 'relay.md')) });
    await expect.poll(() => fs.existsSync(record)).toBe(true);
    await expect.poll(() => fs.readFileSync(record, 'utf8')).toBe(JSON.stringify(['--goto', `${fs.realpathSync(path.join(vault, 'relay.md'))}:3`]));
    await expect(client.call('source/open', { locator: '../../etc/passwd' })).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST' });
    await expect(client.call('source/open', { locator: '/etc/passwd' })).rejects.toMatchObject({ code: 'E_SYN_NOT_FOUND' });
    await expect(client.call('source/open', { locator: 'secret.md' })).rejects.toMatchObject({ code: 'E_SYN_NOT_FOUND' });
  });

  it('pauses indexing between files and resumes the queue', async () => {
    const { client, vault, host } = connect();
    const engine = await host.engine();
    engine.addRoot(vault);
    expect((await client.call('index/pause', {})).paused).toBe(true);
    const report = await client.call('index/run', {});
    expect(report.indexed).toBe(0);
    expect((await client.call('index/status', {})).pending_jobs).toBe(2);
    const done = new Promise<void>((resolve) => client.on('syn.index.completed', (r) => r.indexed === 2 && resolve()));
    expect((await client.call('index/resume', {})).paused).toBe(false);
    await done;
    expect((await client.call('index/status', {})).pending_jobs).toBe(0);
  });

  it('restarts the engine and keeps event subscriptions; pending requests fail cleanly when the pipe closes', async () => {
    const { client, vault, core } = connect();
    expect((await client.call('app/restart', {})).restarted).toBe(true);
    const stages: string[] = [];
    client.on('index/progress', (e) => stages.push(e.stage));
    await client.call('index/run', { sources: [vault] });
    expect(stages).toContain('done');
    const hanging = core.bridge.request('health/get', {});
    core.close('test closed it');
    expect(await hanging).toMatchObject({ ok: false, error: { code: 'E_SYN_DISCONNECTED' } });
  });

  it('offers no demo, but keeps answering app/info, when the tour file is damaged', async () => {
    const dir = temp.make('rpc-demo-');
    fs.writeFileSync(path.join(dir, 'tour.json'), '{ not json');
    fs.writeFileSync(path.join(dir, 'questions.json'), '[]');
    const errors: unknown[] = [];
    const host = new EngineHost({
      create: () => createEngine({ dataDir: temp.make('rpc-user-'), env: {} }),
      demo: { vault: dir, questionsFile: path.join(dir, 'questions.json'), tourFile: path.join(dir, 'tour.json'), dataDir: path.join(dir, 'demo') },
      onError: (e) => errors.push(e),
    });
    hosts.push(host);
    expect(host.demoStatus()).toMatchObject({ available: false, tour: [] });
    expect(String(errors[0])).toMatch(/tour\.json is missing or malformed/);
  });
});
