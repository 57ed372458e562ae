// `npm run dist [-- --with-models DIR] [electron-builder args]`: packages the desktop app for this
// platform with electron-builder (build/electron-builder.yml). --with-models DIR carries DIR's GGUF
// files (checked against the catalog's sha256) into the installers; the app imports them on its
// first start, with no network. Without Electron's binary (offline installs) it stops there.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { parseDistArgs, stageModels, withModelsConfig } from './dist-models.mjs';
import { electronBinary } from './electron-binary.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fail = (message, code) => {
  console.error(`npm run dist: ${message}`);
  process.exit(code);
};
let args;
try {
  args = parseDistArgs(process.argv.slice(2));
} catch (error) {
  fail(error.message, 2);
}

// The models are checked first, so a wrong folder is found on any machine, Electron or not.
let config = path.join('build', 'electron-builder.yml');
if (args.withModels) {
  const catalog = spawnSync(process.execPath, [path.join(REPO, 'bin', 'synapsis.js'), 'models', 'catalog', '--json'], { encoding: 'utf8' });
  if (catalog.status !== 0) fail(`the model catalog could not be read: ${catalog.stderr.trim()}`, 1);
  // Outside out/ (the app's files) and dist/ (the installers): only extraResources carries them.
  const staging = path.join(REPO, '.dist-staging', 'models');
  try {
    const models = stageModels(args.withModels, staging, JSON.parse(catalog.stdout));
    for (const m of models) console.log(`dist: carrying ${m.file} (${Math.round(m.size_bytes / 1e6)} MB, ${m.verified ? 'sha256 verified' : 'not pinned by the catalog: its header is checked at import'})`);
  } catch (error) {
    fail(error.message, 2);
  }
  config = path.join('.dist-staging', 'electron-builder.with-models.yml');
  const base = YAML.parse(fs.readFileSync(path.join(REPO, 'build', 'electron-builder.yml'), 'utf8'));
  fs.writeFileSync(path.join(REPO, config), YAML.stringify(withModelsConfig(base, staging)));
}

if (!electronBinary()) {
  fail(
    "Electron's binary is not installed here (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1, e.g. offline), so the app cannot be packaged on this machine.\n" +
      'Package on a machine where `npm ci` could download Electron (and its headers, to rebuild better-sqlite3 for Electron).\n' +
      'Meanwhile: `npm run demo:bundle` writes a portable web-mode demo, and test/packaging.test.ts checks the packaging configuration.',
    1,
  );
}
const run = (cmd, cmdArgs) => {
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', cwd: REPO });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run('npx', ['electron-vite', 'build']);
run('npx', ['electron-builder', '--config', config, ...args.builderArgs]);
