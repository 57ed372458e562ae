// `npm start`: builds and launches the Electron app where Electron's binary is installed; otherwise
// says so and how to use web mode instead.
import { spawnSync } from 'node:child_process';
import { electronBinary } from './electron-binary.mjs';

if (!electronBinary()) {
  console.error(
    "Electron's binary is not installed on this machine (setup could not download it; once online: node scripts/electron-download.mjs).\n" +
      'Start the same app in your browser instead:\n\n' +
      '  npm run web          (builds the UI, then serves it on http://127.0.0.1:4747 with a secret token; open the address it prints)\n\n' +
      'or use the command line: npx synapsis --help',
  );
  process.exit(1);
}
const build = spawnSync('npx', ['electron-vite', 'build'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const result = spawnSync('npx', ['electron-vite', 'preview'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
