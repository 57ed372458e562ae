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
