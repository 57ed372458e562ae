// `npm start`: launches the Electron app where Electron's binary is installed; otherwise says so.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let electronPath = null;
try {
  electronPath = require('electron');
} catch {
  electronPath = null;
}
if (typeof electronPath !== 'string') {
  console.error(
    "Electron's binary is not installed on this machine (it was skipped at install time, e.g. offline).\n" +
      'Use the command line instead: npx synapsis --help (web mode arrives with the desktop-app issue).',
  );
  process.exit(1);
}
const result = spawnSync('npx', ['electron-vite', 'preview'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
