// `npm run dist`: packages the desktop app for this platform with electron-builder
// (build/electron-builder.yml). Without Electron's binary (offline installs) it stops at once.
import { spawnSync } from 'node:child_process';
import { electronBinary } from './electron-binary.mjs';

if (!electronBinary()) {
  console.error(
    "npm run dist: Electron's binary is not installed here (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1, e.g. offline), so the app cannot be packaged on this machine.\n" +
      'Package on a machine where `npm ci` could download Electron (and its headers, to rebuild better-sqlite3 for Electron).\n' +
      'Meanwhile: `npm run demo:bundle` writes a portable web-mode demo, and test/packaging.test.ts checks the packaging configuration.',
  );
  process.exit(1);
}
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run('npx', ['electron-vite', 'build']);
run('npx', ['electron-builder', '--config', 'build/electron-builder.yml', ...process.argv.slice(2)]);
