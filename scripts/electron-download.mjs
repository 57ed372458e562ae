// Fetches Electron's binary for `npm start` when the network allows it, and otherwise says in one
// line that the app runs in web mode. scripts/setup.sh runs `npm ci` with
// ELECTRON_SKIP_BINARY_DOWNLOAD=1 (so it never waits on GitHub) and then this; SYNAPSIS_OFFLINE=1
// or ELECTRON_SKIP_BINARY_DOWNLOAD in the caller's environment skips it.
//
//   node scripts/electron-download.mjs [--probe-timeout 5] [--timeout 300]
//
// A HEAD request to the binary's address (ELECTRON_MIRROR is honoured, as by Electron's own
// installer) decides within --probe-timeout seconds; only then does Electron's installer
// (node_modules/electron/install.js: checksum-verified download, cached in ~/.cache/electron) run,
// for at most --timeout seconds. It never fails setup: without the binary, web mode is the app.
/* global fetch, AbortSignal */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { clearTimeout, setTimeout } from 'node:timers';
import { URL, fileURLToPath } from 'node:url';
import { electronBinary } from './electron-binary.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { 'probe-timeout': { type: 'string', default: '5' }, timeout: { type: 'string', default: '300' } } });
const probeMs = Number(values['probe-timeout']) * 1000;
const timeoutMs = Number(values.timeout) * 1000;
const WEB = 'npm start will say so; the same app runs in the browser with npm run web';
const say = (line) => console.log(`setup: ${line}`);

/** Where Electron's installer downloads the binary from (@electron/get's default layout). */
export function electronUrl(version, env = process.env, platform = process.platform, arch = process.arch) {
  const mirror = env.ELECTRON_MIRROR ?? env.npm_config_electron_mirror ?? 'https://github.com/electron/electron/releases/download/';
  const dir = env.ELECTRON_CUSTOM_DIR ?? `v${version}`;
  return `${mirror.endsWith('/') ? mirror : `${mirror}/`}${dir}/electron-v${version}-${platform}-${arch}.zip`;
}

async function main() {
  const installed = electronBinary();
  if (installed) return say(`Electron's binary is installed (${path.relative(REPO, installed)}): npm start opens the desktop app`);
  // Any value but empty or 0 is offline, as in the app (llm/download.ts downloadsDisabled).
  const skip = ![undefined, '', '0'].includes(process.env.SYNAPSIS_OFFLINE) ? `SYNAPSIS_OFFLINE=${process.env.SYNAPSIS_OFFLINE}` : process.env.ELECTRON_SKIP_BINARY_DOWNLOAD ? 'ELECTRON_SKIP_BINARY_DOWNLOAD is set' : null;
  if (skip) return say(`Electron's binary not downloaded (${skip}): ${WEB}`);
  const electronDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const { version } = JSON.parse(fs.readFileSync(path.join(electronDir, 'package.json'), 'utf8'));
  const url = electronUrl(version);
  try {
    const response = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(probeMs) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  } catch (error) {
    const reason = error.name === 'TimeoutError' ? `no answer in ${probeMs / 1000} s` : (error.cause?.code ?? error.message);
    return say(`Electron's binary cannot be downloaded here (${new URL(url).host}: ${reason}): ${WEB}`);
  }
  say(`downloading Electron ${version}'s binary (at most ${timeoutMs / 1000} s)`);
  const child = spawn(process.execPath, [path.join(electronDir, 'install.js')], { cwd: electronDir, stdio: 'inherit', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '' } });
  const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
  const code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(signal ? signal : c)));
  clearTimeout(timer);
  const binary = electronBinary();
  if (binary) return say(`Electron's binary is installed (${path.relative(REPO, binary)}): npm start opens the desktop app`);
  say(`Electron's binary download did not finish (${code === 'SIGTERM' ? `stopped after ${timeoutMs / 1000} s` : `exit ${code}`}): ${WEB}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
