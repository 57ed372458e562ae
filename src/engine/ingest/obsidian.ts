/**
 * Obsidian vaults: a folder holding `.obsidian/` (the root itself or a folder above it) is a vault,
 * and a note of it opens in Obsidian through `obsidian://open?vault=<folder name>&file=<path in the vault>`.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Folders above a root searched for `.obsidian/` (a root may be a folder inside a vault). */
const LEVELS_UP = 6;

/** The vault folder that holds this root (its absolute path), or null. */
export function obsidianVaultOf(root: string): string | null {
  let dir = path.resolve(root);
  for (let i = 0; i <= LEVELS_UP; i++) {
    try {
      if (fs.statSync(path.join(dir, '.obsidian')).isDirectory()) return dir;
    } catch {
      // not here
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

/** Roots with the Obsidian vault each lies in (what "Open in Obsidian" needs to know). */
export function withVaults<R extends { path: string }>(roots: readonly R[]): (R & { obsidian_vault: string | null })[] {
  return roots.map((r) => ({ ...r, obsidian_vault: obsidianVaultOf(r.path) }));
}

/** Obsidian's address for a note of a vault: the vault by its folder name, the file by its path inside it (no .md, as Obsidian writes it). */
export function obsidianUrl(vault: string, absFile: string): string {
  const file = path.relative(vault, absFile).split(path.sep).join('/').replace(/\.md$/i, '');
  return `obsidian://open?vault=${encodeURIComponent(path.basename(vault))}&file=${encodeURIComponent(file)}`;
}
