/**
 * scripts/electron-download.mjs, the step of scripts/setup.sh that gets Electron's binary where the
 * network allows it: without a network it must decide in seconds, say so in one line and never fail
 * setup. The servers here never answer 200, so no download starts.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { electronBinary } from '../scripts/electron-binary.mjs';
import { electronUrl } from '../scripts/electron-download.mjs';

const REPO = path.resolve(import.meta.dirname, '..');
const SCRIPT = path.join(REPO, 'scripts', 'electron-download.mjs');
const installed = electronBinary() !== null;

const servers: http.Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

/** A local "mirror": `handler` answers each request (or not); `requests` counts them. */
async function mirror(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests };
}

function run(env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ code: number | null; out: string; ms: number }> {
  const started = performance.now();
  const clean = { ...process.env };
  for (const k of ['ELECTRON_MIRROR', 'ELECTRON_SKIP_BINARY_DOWNLOAD', 'SYNAPSIS_OFFLINE', 'npm_config_electron_mirror', 'ELECTRON_CUSTOM_DIR']) delete clean[k];
  const child = spawn(process.execPath, [SCRIPT, ...args], { env: { ...clean, ...env } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, ms: performance.now() - started })));
}

describe('electron-download', () => {
  it("is the only way Electron's installer runs: npm never runs it, setup runs it with a timeout", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean> };
    expect(pkg.allowScripts.electron).toBe(false);
    const setup = fs.readFileSync(path.join(REPO, 'scripts', 'setup.sh'), 'utf8');
    expect(setup).toMatch(/ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci/);
    expect(setup).toContain('node scripts/electron-download.mjs');
  });

  it('asks for the binary where Electron\'s installer would download it, a mirror included', () => {
    expect(electronUrl('40.10.2', {}, 'linux', 'x64')).toBe('https://github.com/electron/electron/releases/download/v40.10.2/electron-v40.10.2-linux-x64.zip');
    expect(electronUrl('40.10.2', { ELECTRON_MIRROR: 'http://m.local/electron' }, 'darwin', 'arm64')).toBe('http://m.local/electron/v40.10.2/electron-v40.10.2-darwin-arm64.zip');
  });

  it.skipIf(!installed)('says the desktop app is there when the binary is installed', async () => {
    const r = await run({});
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^setup: Electron's binary is installed .*npm start opens the desktop app\n$/);
  });

  describe.skipIf(installed)('without the binary', () => {
    it('gives up at once on a mirror that refuses connections, in one line, exit 0', async () => {
      const closed = await mirror(() => {});
      const url = closed.url;
      await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
      const r = await run({ ELECTRON_MIRROR: url });
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^setup: Electron's binary cannot be downloaded here \(127\.0\.0\.1:\d+: ECONNREFUSED\): .*npm run web\n$/);
      expect(r.ms).toBeLessThan(5000);
      expect(electronBinary()).toBeNull();
    });

    it('does not hang on a mirror that never answers: the probe times out', async () => {
      const silent = await mirror(() => {});
      const r = await run({ ELECTRON_MIRROR: silent.url }, ['--probe-timeout', '1']);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/cannot be downloaded here \(127\.0\.0\.1:\d+: no answer in 1 s\)/);
      expect(r.ms).toBeLessThan(6000);
      expect(silent.requests).toEqual([expect.stringMatching(/^HEAD \/v[\d.]+\/electron-v[\d.]+-\w+-\w+\.zip$/)]);
    });

    it('names the HTTP status when the mirror lacks the file', async () => {
      const missing = await mirror((_req, res) => res.writeHead(404).end());
      const r = await run({ ELECTRON_MIRROR: missing.url });
      expect(r.out).toMatch(/cannot be downloaded here \(127\.0\.0\.1:\d+: HTTP 404\)/);
    });

    it('asks nothing of the network with SYNAPSIS_OFFLINE=1 or ELECTRON_SKIP_BINARY_DOWNLOAD', async () => {
      const watched = await mirror((_req, res) => res.writeHead(404).end());
      const offline = await run({ ELECTRON_MIRROR: watched.url, SYNAPSIS_OFFLINE: '1' });
      expect(offline.out).toBe("setup: Electron's binary not downloaded (SYNAPSIS_OFFLINE=1): npm start will say so; the same app runs in the browser with npm run web\n");
      const skipped = await run({ ELECTRON_MIRROR: watched.url, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
      expect(skipped.out).toMatch(/not downloaded \(ELECTRON_SKIP_BINARY_DOWNLOAD is set\)/);
      expect(watched.requests).toEqual([]);
    });
  });
});
