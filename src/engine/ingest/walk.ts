import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

/** Folders never worth indexing; a user's own globs add to these. */
export const DEFAULT_EXCLUDES = ['**/node_modules/**', '**/.git/**', '**/.hg/**', '**/.svn/**', '**/.obsidian/**', '**/.trash/**', '**/.DS_Store'];

export interface WalkEntry {
  /** Path relative to the root, with forward slashes. */
  relPath: string;
  absPath: string;
  size: number;
  mtimeMs: number;
}

export interface WalkIssue {
  relPath: string;
  reason: string;
}

export interface WalkOptions {
  include: string[];
  exclude: string[];
}

/**
 * Lists the files under a root, following symlinks but never into a loop (each real directory is
 * visited once). Excluded folders are pruned without being read.
 */
export function walkRoot(root: string, options: WalkOptions): { files: WalkEntry[]; issues: WalkIssue[] } {
  const files: WalkEntry[] = [];
  const issues: WalkIssue[] = [];
  const isExcluded = picomatch([...DEFAULT_EXCLUDES, ...options.exclude], { dot: true });
  const isIncluded = options.include.length > 0 ? picomatch(options.include, { dot: true }) : () => true;
  const seenDirs = new Set<string>();

  const visit = (absDir: string, relDir: string) => {
    let real: string;
    try {
      real = fs.realpathSync(absDir);
    } catch (error) {
      issues.push({ relPath: relDir || '.', reason: `cannot resolve folder: ${(error as Error).message}` });
      return;
    }
    if (seenDirs.has(real)) {
      if (relDir) issues.push({ relPath: relDir, reason: 'symlink loop or duplicate folder: already indexed through another path' });
      return;
    }
    seenDirs.add(real);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(absDir, { withFileTypes: true });
    } catch (error) {
      issues.push({ relPath: relDir || '.', reason: `cannot read folder: ${(error as Error).message}` });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const relPath = relDir ? `${relDir}/${entry.name}` : entry.name;
      const absPath = path.join(absDir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const st = fs.statSync(absPath);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          issues.push({ relPath, reason: 'broken symlink' });
          continue;
        }
      }
      if (isDir) {
        if (isExcluded(`${relPath}/`) || isExcluded(`${relPath}/x`)) continue;
        visit(absPath, relPath);
      } else if (isFile) {
        if (isExcluded(relPath) || !isIncluded(relPath)) continue;
        try {
          const st = fs.statSync(absPath);
          files.push({ relPath, absPath, size: st.size, mtimeMs: Math.trunc(st.mtimeMs) });
        } catch (error) {
          issues.push({ relPath, reason: `cannot stat file: ${(error as Error).message}` });
        }
      }
    }
  };

  visit(root, '');
  return { files, issues };
}
