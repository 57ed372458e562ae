// Which code `synapsis` runs: the build of scripts/build-cli.mjs (out/cli/main.js) while it is newer
// than every source it was built from, else the TypeScript sources through tsx (development, or a
// checkout that was never built). Kept apart from bin/synapsis.js so tests can ask it.
import fs from 'node:fs';
import path from 'node:path';

/**
 * @param {string} root the repository (the folder holding package.json and src/)
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {{ built: true, file: string } | { built: false, reason: string }}
 */
export function cliEntry(root, env = process.env) {
  if (env.SYNAPSIS_FROM_SOURCE === '1') return { built: false, reason: 'SYNAPSIS_FROM_SOURCE=1' };
  const dir = path.join(root, 'out', 'cli');
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'inputs.json'), 'utf8'));
  } catch {
    return { built: false, reason: 'not built (node scripts/build-cli.mjs)' };
  }
  // The build names its sources by absolute path: a moved checkout builds again.
  if (manifest.root !== root) return { built: false, reason: `built in ${manifest.root}` };
  for (const rel of manifest.inputs) {
    let mtime;
    try {
      mtime = fs.statSync(path.join(root, rel)).mtimeMs;
    } catch {
      return { built: false, reason: `${rel} is gone since the build` };
    }
    if (mtime > manifest.built_at) return { built: false, reason: `${rel} changed since the build` };
  }
  return { built: true, file: path.join(dir, 'main.js') };
}
