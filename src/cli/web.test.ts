import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { TempDirs } from '../../test/helpers/tmp.ts';
import { createEngine } from '../engine/engine.ts';
import { EngineHost } from '../engine/host/engine-host.ts';
import { startWebServer, staticFile, TOKEN_PROTOCOL_PREFIX, type WebServer } from './web.ts';

const temp = new TempDirs();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  temp.cleanup();
});

async function start(): Promise<{ server: WebServer; vault: string }> {
  const ui = temp.make('web-ui-', { 'index.html': '<!doctype html><title>Synapsis</title>', 'assets/app.js': 'console.log(1)' });
  const vault = temp.make('web-vault-', { 'relay.md': '# Relay\n\nThe relay listens on port 7443.\n' });
  const dataDir = temp.make('web-data-');
  const host = new EngineHost({ create: () => createEngine({ dataDir, env: {} }) });
  const server = await startWebServer({ host, staticDir: ui, port: 0, version: '1.2.3' });
  cleanups.push(() => host.dispose(), () => server.close());
  return { server, vault };
}

function get(port: number, urlPath: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, headers: { Host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens the RPC socket; resolves with the socket once open, or with the HTTP status that refused it. */
function openSocket(server: WebServer, options: { token?: string | null; origin?: string; host?: string } = {}): Promise<WebSocket | number> {
  const protocols = ['synapsis', ...(options.token === null ? [] : [`${TOKEN_PROTOCOL_PREFIX}${options.token ?? server.token}`])];
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/rpc`, protocols, {
    origin: options.origin ?? `http://127.0.0.1:${server.port}`,
    ...(options.host ? { headers: { Host: options.host } } : {}),
  });
  return new Promise((resolve) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(-1));
  });
}

type Outcome = { ok: boolean; result?: { chunks: { path: string }[] }; error?: { code: string } };
function rpc(ws: WebSocket, method: string, params: unknown): Promise<Outcome> {
  const id = Math.floor(Math.random() * 1e9);
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const m = JSON.parse(data.toString());
      if (m.type === 'response' && m.id === id) {
        ws.off('message', onMessage);
        resolve(m);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ type: 'request', id, method, params }));
  });
}

describe('synapsis web server', () => {
  it('binds loopback only and serves the UI with a strict CSP', async () => {
    const { server } = await start();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    expect(server.openUrl).toMatch(/#token=[0-9a-f]{64}$/);
    const page = await get(server.port, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain(`connect-src 'self' ws://127.0.0.1:${server.port}`);
    expect(page.headers['x-frame-options']).toBe('DENY');
    // Not reachable on another interface of this machine.
    const other = Object.values((await import('node:os')).networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal);
    if (other) {
      const refused = await new Promise<boolean>((resolve) => {
        const s = net.connect({ host: other.address, port: server.port }, () => resolve(false));
        s.on('error', () => resolve(true));
      });
      expect(refused).toBe(true);
    }
  });

  it('refuses another Host header (DNS rebinding) and never serves files outside the UI folder', async () => {
    const { server } = await start();
    expect((await get(server.port, '/', { Host: `evil.example:${server.port}` })).status).toBe(403);
    for (const p of ['/../../../../etc/passwd', '/%2e%2e/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2f..%2fetc%2fpasswd', '/%00']) {
      const res = await get(server.port, p);
      expect(res.body).not.toContain('root:');
    }
    expect((await get(server.port, '/assets/missing.js')).status).toBe(404);
    expect((await get(server.port, '/search')).body).toContain('<title>Synapsis</title>');
    const root = temp.make('static-');
    fs.writeFileSync(path.join(root, 'index.html'), 'x');
    expect(staticFile(root, '/../index.html')).toBe(path.join(root, 'index.html'));
    expect(staticFile(root, '/%E0%A4%A')).toBeNull();
  });

  it('accepts the RPC socket only with the token, from its own origin', async () => {
    const { server, vault } = await start();
    expect(await openSocket(server, { token: null })).toBe(401);
    expect(await openSocket(server, { token: 'f'.repeat(64) })).toBe(401);
    expect(await openSocket(server, { origin: 'http://evil.example' })).toBe(403);
    expect(await openSocket(server, { origin: `http://127.0.0.1:${server.port + 1}` })).toBe(403);
    expect(await openSocket(server, { host: `evil.example:${server.port}` })).toBe(403);
    const ws = await openSocket(server);
    expect(ws).toBeInstanceOf(WebSocket);
    const socket = ws as WebSocket;
    cleanups.push(async () => socket.close());
    const report = await rpc(socket, 'index/run', { sources: [vault] });
    expect(report.ok).toBe(true);
    const found = await rpc(socket, 'search/query', { query: 'relay port' });
    expect(found.result?.chunks[0]?.path).toBe('relay.md');
    expect(await rpc(socket, 'nope/nothing', {})).toMatchObject({ ok: false, error: { code: 'E_SYN_BAD_REQUEST' } });
  });

  it('says how to build the UI when it is missing', async () => {
    const host = new EngineHost({ create: () => createEngine({ dataDir: temp.make('web-data-'), env: {} }) });
    cleanups.push(() => host.dispose());
    await expect(startWebServer({ host, staticDir: temp.make('empty-ui-') })).rejects.toThrow(/npm run build/);
  });
});
