// `npm run demo:bundle`: writes one folder that runs the demo from a USB stick on a machine with no
// network: the web-mode server with its production node_modules, the built UI, the sample vault,
// the smallest shared models and a start script. The target needs only Node.js (>= 20.19, the same
// OS and CPU architecture as this machine: native modules are built for it).
//
//   node scripts/demo-bundle.mjs [--out dist/synapsis-demo] [--models ../shared/models] [--with-cuda] [--skip-build]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    out: { type: 'string', default: path.join(REPO, 'dist', 'synapsis-demo') },
    models: { type: 'string', default: process.env.SYNAPSIS_DEMO_MODELS ?? path.join(REPO, '..', 'shared', 'models') },
    'with-cuda': { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
  },
});
/** The demo's embedder (handles the Russian question); the demo answers by quoting, so no chat model ships. */
const MODELS = ['multilingual-e5-small.Q4_0.gguf'];

const fail = (message) => {
  console.error(`demo:bundle: ${message}`);
  process.exit(1);
};
const out = path.resolve(opts.out);
if (out === REPO || REPO.startsWith(out + path.sep)) fail(`refusing to write into ${out}: it holds the repository`);
if (fs.existsSync(out) && fs.readdirSync(out).length > 0 && !fs.existsSync(path.join(out, 'START-HERE.txt'))) fail(`${out} exists and is not a demo bundle; pick another --out`);

if (!opts['skip-build']) {
  const build = spawnSync('npx', ['electron-vite', 'build'], { cwd: REPO, stdio: 'inherit' });
  if (build.status !== 0) fail('the UI build failed');
}
if (!fs.existsSync(path.join(REPO, 'out', 'renderer', 'index.html'))) fail('out/renderer is missing: run npm run build');

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const copy = (from, to = from, filter = () => true) => fs.cpSync(path.join(REPO, from), path.join(out, to), { recursive: true, filter: (src) => filter(path.relative(REPO, src)) });

// The program: the CLI (run through tsx, a production dependency), without tests.
copy('bin');
copy('src', 'src', (rel) => !/\.test\.tsx?$/.test(rel));
copy('package.json');
copy('out/renderer');
copy('resources/sample-vault');
copy('resources/sample-vault.questions.json');
copy('resources/demo-tour.json');

// Production dependencies as installed here (each package once; nested node_modules are their own entries).
const prodDirs = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: REPO, encoding: 'utf8' })
  .split('\n')
  .filter((d) => d.includes(`${path.sep}node_modules${path.sep}`))
  .map((d) => path.relative(REPO, d));
const wanted = (dir) => {
  const m = /@node-llama-cpp[\\/]([^\\/]+)/.exec(dir);
  if (!m) return true;
  // Only this platform's binaries; the GPU builds (hundreds of MB) only when asked: small models run well on the CPU.
  const name = m[1];
  if (!name.startsWith(`${process.platform === 'win32' ? 'win' : process.platform === 'darwin' ? 'mac' : 'linux'}-${process.arch}`)) return false;
  return opts['with-cuda'] || !/cuda/.test(name);
};
let packages = 0;
for (const dir of prodDirs.filter(wanted)) {
  copy(dir, dir, (rel) => {
    const inner = path.relative(dir, rel);
    return !inner.split(path.sep).includes('node_modules');
  });
  packages++;
}

// The models: copied beside the program, never downloaded.
fs.mkdirSync(path.join(out, 'models'));
const shipped = [];
for (const name of MODELS) {
  const file = path.join(opts.models, name);
  if (fs.existsSync(file)) {
    fs.copyFileSync(file, path.join(out, 'models', name));
    shipped.push(name);
  } else console.warn(`demo:bundle: ${file} not found; the demo will search lexically and without the multilingual model`);
}

// Start scripts: small glue around one command.
const command = 'node bin/synapsis.js web --demo --open --port 0 --demo-models models';
fs.writeFileSync(path.join(out, 'start.sh'), `#!/bin/sh\n# Starts the Synapsis demo in your browser. Needs Node.js >= 20.19.\ncd "$(dirname "$0")" || exit 1\nexec ${command} "$@"\n`, { mode: 0o755 });
fs.writeFileSync(path.join(out, 'start.cmd'), `@echo off\r\nrem Starts the Synapsis demo in your browser. Needs Node.js >= 20.19.\r\ncd /d "%~dp0"\r\n${command.replaceAll('/', '\\')} %*\r\n`);
fs.writeFileSync(
  path.join(out, 'START-HERE.txt'),
  [
    'Synapsis demo: an air-gapped second brain, on the notes of a fictional company.',
    '',
    `Start:  ./start.sh   (Windows: start.cmd)   — needs Node.js >= 20.19 on ${process.platform}-${process.arch}.`,
    'It opens your browser at a 127.0.0.1 address with a secret token; nothing goes to the network.',
    'The demo keeps its index in the temp folder (synapsis-demo-<user>); "Reset demo" rebuilds it.',
    '',
    `Inside: the sample vault, ${shipped.length ? shipped.join(', ') : 'no model (lexical search only)'}, the UI and ${packages} npm packages.`,
    '',
  ].join('\n'),
);

const size = (dir) => fs.readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? size(path.join(dir, e.name)) : fs.statSync(path.join(dir, e.name)).size), 0);
console.log(`demo:bundle: wrote ${out} (${Math.round(size(out) / 1024 / 1024)} MB: ${packages} packages, models: ${shipped.join(', ') || 'none'})`);
console.log(`demo:bundle: run it with ${path.join(out, 'start.sh')}`);
