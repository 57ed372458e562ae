// Where Electron's binary is, or null when the package was installed without it
// (ELECTRON_SKIP_BINARY_DOWNLOAD=1, as offline installs do). Used by start.mjs and dist.mjs.
import fs from 'node:fs';
import { createRequire } from 'node:module';

export function electronBinary() {
  try {
    const p = createRequire(import.meta.url)('electron');
    return typeof p === 'string' && fs.existsSync(p) ? p : null;
  } catch {
    return null;
  }
}
