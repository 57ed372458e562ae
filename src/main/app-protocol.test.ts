import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, isAppUrl, rendererFile, serveAppRequest } from './app-protocol.ts';

const DEV = 'http://localhost:5173';
const DIR = path.resolve('/srv/app/renderer');

/** The sources a CSP directive allows, e.g. connect-src -> ["'self'"]. */
function directive(policy: string, name: string): string[] | undefined {
  const found = policy
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name);
  return found?.slice(1);
}

describe('isAppUrl', () => {
  it("allows the app's files, devtools and the dev server's own origin", () => {
    expect(isAppUrl('app://synapsis/index.html')).toBe(true);
    expect(isAppUrl('app://synapsis/assets/index-abc.js', DEV)).toBe(true);
    expect(isAppUrl('devtools://devtools/bundled/inspector.html')).toBe(true);
    expect(isAppUrl('http://localhost:5173/', DEV)).toBe(true);
    expect(isAppUrl('http://localhost:5173/src/main.tsx?t=1', DEV)).toBe(true);
    expect(isAppUrl('http://localhost:5173/', `${DEV}/`)).toBe(true);
  });

  it('refuses URLs that merely start with the dev server address', () => {
    expect(isAppUrl('http://localhost:51730/', DEV)).toBe(false);
    expect(isAppUrl('http://localhost:5173.attacker.example/', DEV)).toBe(false);
    expect(isAppUrl('http://localhost:5173@attacker.example/', DEV)).toBe(false);
    expect(isAppUrl('https://localhost:5173/', DEV)).toBe(false);
  });

  it('refuses everything else, and the dev server when not developing', () => {
    for (const url of ['http://localhost:5173/', 'https://example.com/', 'file:///etc/passwd', 'app://synapsis.example/', 'app://other/index.html', 'ws://127.0.0.1:8080/', 'not a url', ''])
      expect(isAppUrl(url), url).toBe(false);
    expect(isAppUrl('http://localhost:5173/', '')).toBe(false);
  });
});

describe('rendererFile', () => {
  it('maps app:// paths into the renderer folder and nothing outside it', () => {
    expect(rendererFile(DIR, 'app://synapsis/')).toBe(path.join(DIR, 'index.html'));
    expect(rendererFile(DIR, 'app://synapsis/assets/a.js')).toBe(path.join(DIR, 'assets', 'a.js'));
    // Dot segments are resolved against the folder's root, so they cannot climb out of it.
    expect(rendererFile(DIR, 'app://synapsis/..%2F..%2Fetc%2Fpasswd')).toBe(path.join(DIR, 'etc', 'passwd'));
    expect(rendererFile(DIR, 'app://synapsis/%E0%A4%A')).toBeNull();
    expect(rendererFile(DIR, 'app://other/index.html')).toBeNull();
  });
});

describe('serveAppRequest', () => {
  const files: Record<string, string> = { [path.join(DIR, 'index.html')]: '<!doctype html>', [path.join(DIR, 'assets', 'a.js')]: 'export {}' };
  const read = async (file: string) => {
    const text = files[file];
    if (text === undefined) throw new Error('ENOENT');
    return new TextEncoder().encode(text);
  };

  it('sends the Content-Security-Policy as a header on pages, scripts and errors', async () => {
    for (const [url, status, type] of [
      ['app://synapsis/index.html', 200, 'text/html; charset=utf-8'],
      ['app://synapsis/assets/a.js', 200, 'text/javascript; charset=utf-8'],
      ['app://synapsis/missing.js', 404, 'text/plain; charset=utf-8'],
      ['app://synapsis/..%2F..%2Fsecret', 404, 'text/plain; charset=utf-8'],
    ] as const) {
      const res = await serveAppRequest(DIR, url, read);
      expect(res.status, url).toBe(status);
      expect(res.headers.get('content-type'), url).toBe(type);
      expect(res.headers.get('content-security-policy'), url).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
    }
    expect(await (await serveAppRequest(DIR, 'app://synapsis/', read)).text()).toBe('<!doctype html>');
  });

  it('lets the page connect nowhere but its own files: no WebSocket, no other host or port', () => {
    expect(directive(CONTENT_SECURITY_POLICY, 'connect-src')).toEqual(["'self'"]);
    expect(directive(CONTENT_SECURITY_POLICY, 'script-src')).toEqual(["'self'"]);
    expect(directive(CONTENT_SECURITY_POLICY, 'object-src')).toEqual(["'none'"]);
    expect(directive(CONTENT_SECURITY_POLICY, 'frame-ancestors')).toEqual(["'none'"]);
  });
});

describe("the renderer page's own policy (meta tag: the dev server and web mode)", () => {
  it('allows connections to its own origin only, not every port on 127.0.0.1', () => {
    const html = fs.readFileSync(path.resolve(import.meta.dirname, '..', 'renderer', 'index.html'), 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBeDefined();
    expect(directive(meta!, 'connect-src')).toEqual(["'self'"]);
    expect(directive(meta!, 'script-src')).toEqual(["'self'"]);
  });
});
