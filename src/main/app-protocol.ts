/**
 * What the desktop window may load and how the app:// protocol answers, as plain functions (no
 * electron import) so they are tested without Electron's binary. src/main/index.ts wires them in.
 */
import fs from 'node:fs';
import path from 'node:path';

export const APP_ORIGIN = 'app://synapsis';

/**
 * The policy of every page the app serves, sent as a header (a meta tag alone applies only once the
 * HTML is parsed, and not to a response that is not HTML). The renderer reaches the engine over a
 * MessagePort, not the network, so `connect-src` names only the app's own files.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The origin of a URL (scheme, host, port), also for app:// whose origin the WHATWG parser leaves opaque; null when it does not parse. */
function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.host ? `${u.protocol}//${u.host}` : null;
  } catch {
    return null;
  }
}

/**
 * Whether the window may navigate to or request a URL: the app's own files, devtools, and the dev
 * server while developing. Origins are compared whole, so `http://localhost:5173` does not let in
 * `http://localhost:51730/` or `http://localhost:5173.example.com/`.
 */
export function isAppUrl(url: string, devUrl?: string): boolean {
  const origin = originOf(url);
  if (origin === null) return false;
  if (origin === APP_ORIGIN || origin.startsWith('devtools://')) return true;
  return devUrl !== undefined && devUrl !== '' && origin === originOf(devUrl);
}

/** A file of the built renderer for an app:// URL, or null when the URL is not the app's or its path leaves the folder. */
export function rendererFile(rendererDir: string, url: string): string | null {
  if (originOf(url) !== APP_ORIGIN) return null;
  let rel: string;
  try {
    const { pathname } = new URL(url);
    rel = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
  } catch {
    return null;
  }
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${path.posix.normalize(rel)}`);
  return file.startsWith(root + path.sep) ? file : null;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** Headers on every app:// response, error pages included. */
function headers(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

/** The app:// protocol's answer to a request: a file of the built renderer, or 404. */
export async function serveAppRequest(rendererDir: string, url: string, readFile: (file: string) => Promise<Uint8Array> = (f) => fs.promises.readFile(f)): Promise<Response> {
  const notFound = () => new Response('Not found', { status: 404, headers: headers('text/plain; charset=utf-8') });
  const file = rendererFile(rendererDir, url);
  if (!file) return notFound();
  try {
    const body = await readFile(file);
    return new Response(body as BodyInit, { headers: headers(MIME[path.extname(file)] ?? 'application/octet-stream') });
  } catch {
    return notFound();
  }
}
