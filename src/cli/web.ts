/**
 * Web mode (`synapsis web`): the desktop renderer served on 127.0.0.1 with the engine behind a
 * WebSocket that speaks the same protocol as the app's MessagePort (src/shared/rpc.ts).
 *
 * Who may talk to the engine: only a page that knows this run's secret token (printed in the URL's
 * fragment, which browsers never send to a server) and that is served from this very address. The
 * server binds loopback only, refuses a Host header other than its own (DNS rebinding), a WebSocket
 * from another Origin, and one without the token. Static files need no token: they hold no data.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EngineHost } from '../engine/host/engine-host.ts';
import { serveRpc, type HostHandlers } from '../engine/host/rpc-server.ts';
import { createError } from '../shared/errors.ts';

export const TOKEN_PROTOCOL_PREFIX = 'synapsis-token.';
/** The largest request a client may send (a question is at most 10,000 characters). */
const MAX_MESSAGE_BYTES = 1024 * 1024;

export interface WebServerOptions {
  host: EngineHost;
  /** The built renderer (out/renderer). */
  staticDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Default: 32 random bytes, hex. */
  token?: string;
  version?: string;
  handlers?: HostHandlers;
  env?: NodeJS.ProcessEnv;
}

export interface WebServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** The address to open: the token rides in the fragment, so it never reaches a server log. */
  readonly openUrl: string;
  /** Resolves when the first page connects with the token. */
  readonly connected: Promise<void>;
  close(): Promise<void>;
}

/** A page that sends the browser on to the tokened address, in a folder only this user can read. */
export interface HandoffPage {
  readonly file: string;
  /** Deletes the page and its folder (again is harmless). */
  remove(): void;
}

/**
 * Writes the handoff page for `--open`: the desktop opener and the browser get this file's path on
 * their command lines, which every user of the machine can read (/proc/<pid>/cmdline) and the
 * browser keeps, instead of the address with the token. The folder is made by mkdtemp (0700) and
 * the file 0600; the caller removes it once the browser has connected.
 */
export function writeHandoffPage(openUrl: string, tmpDir = os.tmpdir()): HandoffPage {
  if (!/^http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]+$/.test(openUrl)) throw createError('E_SYN_BAD_REQUEST', 'Only this server\'s tokened loopback address is handed over');
  const dir = fs.mkdtempSync(path.join(tmpDir, 'synapsis-open-'));
  fs.chmodSync(dir, 0o700);
  const file = path.join(dir, 'open-synapsis.html');
  // The address is checked above: nothing in it needs escaping in an attribute or a JS string.
  const html = `<!doctype html>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0; url=${openUrl}">
<title>Opening Synapsis…</title>
<script>location.replace(${JSON.stringify(openUrl)});</script>
<p>Opening Synapsis… If nothing happens, open the address <code>synapsis web</code> printed.</p>
`;
  fs.writeFileSync(file, html, { mode: 0o600, flag: 'wx' });
  let removed = false;
  return {
    file,
    remove() {
      if (removed) return;
      removed = true;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

function securityHeaders(port: number): Record<string, string> {
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
  };
}

/** The Host header a request must carry: this server's own loopback address. */
function allowedHost(hostHeader: string | undefined, port: number): boolean {
  return hostHeader === `127.0.0.1:${port}` || hostHeader === `localhost:${port}`;
}

function allowedOrigin(origin: string | undefined, port: number): boolean {
  return origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
}

function tokenMatches(offered: string, token: string): boolean {
  const a = Buffer.from(offered);
  const b = Buffer.from(token);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** The file a URL path names inside the static folder, or null (traversal, not found). */
export function staticFile(staticDir: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const root = path.resolve(staticDir);
  const file = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  try {
    const st = fs.statSync(file);
    if (st.isFile()) return file;
    if (st.isDirectory() && fs.statSync(path.join(file, 'index.html')).isFile()) return path.join(file, 'index.html');
  } catch {
    return null;
  }
  return null;
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const staticDir = path.resolve(options.staticDir);
  if (!fs.existsSync(path.join(staticDir, 'index.html'))) {
    throw createError('E_SYN_BAD_REQUEST', `The UI is not built (${path.join(staticDir, 'index.html')} is missing): run "npm run build" first, or "npm run web" which builds and starts it`);
  }
  const token = options.token ?? crypto.randomBytes(32).toString('hex');
  let port = 0;

  const server = http.createServer((req, res) => {
    const headers = securityHeaders(port);
    if (!allowedHost(req.headers.host, port)) {
      res.writeHead(403, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Forbidden: Synapsis web mode answers only at its own loopback address.\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed\n');
      return;
    }
    const urlPath = new URL(req.url ?? '/', `http://127.0.0.1:${port}`).pathname;
    // Client-side routes fall back to the app; a missing asset (with an extension) is a 404.
    const file = staticFile(staticDir, urlPath) ?? (path.extname(urlPath) ? null : path.join(staticDir, 'index.html'));
    if (!file) {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Not found\n');
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    if (req.method === 'HEAD') res.end();
    else fs.createReadStream(file).pipe(res);
  });

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    handleProtocols: (protocols) => (protocols.has('synapsis') ? 'synapsis' : false),
  });
  const sockets = new Set<WebSocket>();

  server.on('upgrade', (req, socket, head) => {
    const reject = (status: number, why: string) => {
      socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${why}\n`);
      socket.destroy();
    };
    const pathname = new URL(req.url ?? '/', `http://127.0.0.1:${port}`).pathname;
    if (pathname !== '/rpc') return reject(404, 'Not found');
    if (!allowedHost(req.headers.host, port)) return reject(403, 'Wrong Host');
    if (!allowedOrigin(req.headers.origin, port)) return reject(403, 'Cross-origin connections are refused');
    const offered = (req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .find((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX));
    if (!offered || !tokenMatches(offered.slice(TOKEN_PROTOCOL_PREFIX.length), token)) return reject(401, 'Missing or wrong token: open the address synapsis web printed');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  let onConnected = () => {};
  const connected = new Promise<void>((resolve) => (onConnected = resolve));
  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws);
    onConnected();
    const rpc = serveRpc({
      host: options.host,
      shell: 'web',
      version: options.version ?? '0.0.0',
      ...(options.handlers ? { handlers: options.handlers } : {}),
      ...(options.env ? { env: options.env } : {}),
      send: (message) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
      },
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      let message: unknown;
      try {
        message = JSON.parse(data.toString());
      } catch {
        return;
      }
      rpc.receive(message);
    });
    ws.on('close', () => {
      sockets.delete(ws);
      void rpc.dispose();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? createError('E_SYN_BAD_REQUEST', `Port ${options.port} is in use: pick another with --port, or 0 for a free one`) : error),
    );
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/`;
  return {
    url,
    port,
    token,
    openUrl: `${url}#token=${token}`,
    connected,
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
