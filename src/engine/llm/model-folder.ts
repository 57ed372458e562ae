import fs from 'node:fs';
import path from 'node:path';

/** The GGUF files of a folder (a USB stick, a network share) and its subfolders, a few levels down, in name order. */
export function ggufFilesIn(dir: string, depth = 3): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && depth > 0 && !entry.name.startsWith('.')) found.push(...ggufFilesIn(full, depth - 1));
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.gguf')) found.push(full);
  }
  return found;
}
