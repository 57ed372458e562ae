import os from 'node:os';
import path from 'node:path';

/** The OS app-data folder for Synapsis (one workspace), used when no --data-dir is given. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.SYNAPSIS_DATA_DIR) return path.resolve(env.SYNAPSIS_DATA_DIR);
  const home = os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Synapsis');
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Synapsis');
  return path.join(env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'synapsis');
}

/**
 * The data dir of a workspace, resolved the one way every entry (CLI, web, MCP, engine) uses:
 * `--data-dir`, then $SYNAPSIS_DATA_DIR, then $SYN_INDEX_PATH (the specification's name), then the
 * OS app-data folder.
 */
export function resolveDataDir(given?: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(given ?? (env.SYNAPSIS_DATA_DIR || env.SYN_INDEX_PATH?.trim() || defaultDataDir(env)));
}
