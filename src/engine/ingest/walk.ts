import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';

/** Ignore files honoured in every folder, with .gitignore semantics (nested files, negation). */
export const IGNORE_FILES = ['.gitignore', '.synapsisignore'] as const;

interface IgnoreScope {
  /** Folder of the ignore file, relative to the root ('' for the root itself). */
  base: string;
  matcher: Ignore;
}

function loadIgnoreScope(absDir: string, relDir: string, issues: WalkIssue[]): IgnoreScope | null {
  let matcher: Ignore | null = null;
  for (const name of IGNORE_FILES) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(absDir, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') issues.push({ relPath: relDir ? `${relDir}/${name}` : name, reason: `cannot read ignore file: ${(error as Error).message}` });
      continue;
    }
    matcher = (matcher ?? ignore()).add(text);
  }
  return matcher ? { base: relDir, matcher } : null;
}

function isIgnored(scopes: readonly IgnoreScope[], relPath: string, isDir: boolean): boolean {
  for (const scope of scopes) {
    const local = scope.base ? relPath.slice(scope.base.length + 1) : relPath;
    if (local && scope.matcher.ignores(isDir ? `${local}/` : local)) return true;
  }
  return false;
}

/** Folders never worth indexing; a user's own globs add to these. */
export const DEFAULT_EXCLUDES = ['**/node_modules/**', '**/.git/**', '**/.hg/**', '**/.svn/**', '**/.obsidian/**', '**/.trash/**', '**/.DS_Store', '**/.gitignore', '**/.synapsisignore'];

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
  /** Follow symlinks whose target lies outside the root (default false: skipped, with a reason). */
  followExternalSymlinks?: boolean;
  /**
   * Folders never indexed wherever they lie, matched by their resolved path (Synapsis's own data
   * dir: a store kept inside an indexed folder would otherwise index its own files).
   */
  skipDirs?: readonly string[];
}

/**
 * The resolved paths of `dirs` (a folder that does not exist yet keeps its absolute path), less
 * those holding `root` below them: a folder kept inside the data dir is indexed like any other.
 */
function realDirs(dirs: readonly string[] | undefined, root: string): Set<string> {
  const roots = [path.resolve(root)];
  try {
    roots.push(fs.realpathSync(root));
  } catch {
    // a missing root is reported by the walk
  }
  const out = new Set<string>();
  for (const dir of dirs ?? []) {
    const names = [path.resolve(dir)];
    try {
      names.push(fs.realpathSync(dir));
    } catch {
      // not created yet: only its own path can name it
    }
    if (names.some((d) => roots.some((r) => r !== d && isInside(d, r)))) continue;
    for (const d of names) out.add(d);
  }
  return out;
}

/**
 * For single paths under `root` (the watcher, the watcher's path filter): whether one lies in one of
 * `dirs`, by its own path or the same path under the root's resolved one. Only the dirs inside the
 * root can hold such a path, and none does in the usual case (the data dir elsewhere): then it
 * answers false without a look at the file system, as it does for every path otherwise.
 */
export function skippedDirFilter(dirs: readonly string[] | undefined, root: string): (absPath: string) => boolean {
  const rootAbs = path.resolve(root);
  let rootReal = rootAbs;
  try {
    rootReal = fs.realpathSync(root);
  } catch {
    // a missing root is reported by the walk
  }
  const inside = [...realDirs(dirs, root)].filter((d) => isInside(rootAbs, d) || isInside(rootReal, d));
  if (inside.length === 0) return () => false;
  return (absPath) => {
    const p = path.resolve(absPath);
    const rel = path.relative(rootAbs, p);
    const names = rel.startsWith('..') || path.isAbsolute(rel) ? [p] : [p, path.join(rootReal, rel)];
    return names.some((n) => inside.some((d) => isInside(d, n)));
  };
}

/** The reason a symlink leaving its root is skipped; the setting that follows such links is named. */
export const EXTERNAL_SYMLINK_REASON = 'symlink to a target outside this folder: skipped (SYN_FOLLOW_EXTERNAL_SYMLINKS=true follows such links)';

/** Why a file or folder whose name is not valid UTF-8 is skipped. */
export const NOT_UTF8_REASON = 'its name is not valid UTF-8 (shown with \\xHH for the bytes that are not): skipped; rename it to index it';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A name's text, or null when its bytes are not valid UTF-8. */
function utf8Name(bytes: Buffer): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/** A name with each byte that is not part of valid UTF-8 written as \xHH (for reports only). */
export function escapedName(bytes: Buffer): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    const text = length > 0 ? utf8Name(bytes.subarray(i, i + length)) : null;
    if (text !== null && i + length <= bytes.length) {
      out += text;
      i += length;
    } else {
      out += `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`;
      i++;
    }
  }
  return out;
}

/** Whether `real` (a resolved path) lies inside `rootReal` (the root's resolved path). */
export function isInside(rootReal: string, real: string): boolean {
  return real === rootReal || real.startsWith(rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep);
}

/**
 * Lists the files under a root, following symlinks but never into a loop (each real directory is
 * visited once) and, unless asked, never out of the root. Excluded folders are pruned without
 * being read.
 */
export function walkRoot(root: string, options: WalkOptions): { files: WalkEntry[]; issues: WalkIssue[] } {
  const files: WalkEntry[] = [];
  const issues: WalkIssue[] = [];
  const isExcluded = picomatch([...DEFAULT_EXCLUDES, ...options.exclude], { dot: true });
  const isIncluded = options.include.length > 0 ? picomatch(options.include, { dot: true }) : () => true;
  const seenDirs = new Set<string>();
  const skipped = realDirs(options.skipDirs, root);
  let rootReal: string | null = null;
  try {
    rootReal = fs.realpathSync(root);
  } catch {
    // reported by visit
  }

  const visit = (absDir: string, relDir: string, inherited: readonly IgnoreScope[]) => {
    let real: string;
    try {
      real = fs.realpathSync(absDir);
    } catch (error) {
      issues.push({ relPath: relDir || '.', reason: `cannot resolve folder: ${(error as Error).message}` });
      return;
    }
    if (skipped.has(real)) return;
    if (seenDirs.has(real)) {
      if (relDir) issues.push({ relPath: relDir, reason: 'symlink loop or duplicate folder: already indexed through another path' });
      return;
    }
    seenDirs.add(real);
    let raw: fs.Dirent<Buffer>[];
    try {
      raw = fs.readdirSync(absDir, { withFileTypes: true, encoding: 'buffer' });
    } catch (error) {
      issues.push({ relPath: relDir || '.', reason: `cannot read folder: ${(error as Error).message}` });
      return;
    }
    const own = loadIgnoreScope(absDir, relDir, issues);
    const scopes = own ? [...inherited, own] : inherited;
    const entries: { name: string; entry: fs.Dirent<Buffer> }[] = [];
    for (const entry of raw) {
      const name = utf8Name(entry.name);
      // A name the file system holds as bytes that are not UTF-8 cannot be opened by a string path.
      if (name === null) issues.push({ relPath: relDir ? `${relDir}/${escapedName(entry.name)}` : escapedName(entry.name), reason: NOT_UTF8_REASON });
      else entries.push({ name, entry });
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const { name, entry } of entries) {
      const relPath = relDir ? `${relDir}/${name}` : name;
      const absPath = path.join(absDir, name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const st = fs.statSync(absPath);
          isDir = st.isDirectory();
          isFile = st.isFile();
          if (!options.followExternalSymlinks && rootReal && (isDir || isFile) && !isInside(rootReal, fs.realpathSync(absPath))) {
            if (!isExcluded(relPath) && !isExcluded(`${relPath}/`)) issues.push({ relPath, reason: EXTERNAL_SYMLINK_REASON });
            continue;
          }
        } catch {
          issues.push({ relPath, reason: 'broken symlink' });
          continue;
        }
      }
      if (isDir) {
        if (isExcluded(`${relPath}/`) || isExcluded(`${relPath}/x`) || isIgnored(scopes, relPath, true)) continue;
        visit(absPath, relPath, scopes);
      } else if (isFile) {
        if (isExcluded(relPath) || !isIncluded(relPath) || isIgnored(scopes, relPath, false)) continue;
        try {
          const st = fs.statSync(absPath);
          files.push({ relPath, absPath, size: st.size, mtimeMs: Math.trunc(st.mtimeMs) });
        } catch (error) {
          issues.push({ relPath, reason: `cannot stat file: ${(error as Error).message}` });
        }
      }
    }
  };

  visit(root, '', []);
  return { files, issues };
}

/**
 * The same rules as walkRoot for single paths (used by the watcher): default and user excludes,
 * includes, and every .gitignore / .synapsisignore on the way from the root to the file.
 */
export function createPathFilter(root: string, options: WalkOptions): (relPath: string) => boolean {
  const isExcluded = picomatch([...DEFAULT_EXCLUDES, ...options.exclude], { dot: true });
  const isIncluded = options.include.length > 0 ? picomatch(options.include, { dot: true }) : () => true;
  const inSkippedDir = skippedDirFilter(options.skipDirs, root);
  const scopeCache = new Map<string, IgnoreScope | null>();
  const scopeOf = (relDir: string) => {
    if (!scopeCache.has(relDir)) scopeCache.set(relDir, loadIgnoreScope(path.join(root, relDir), relDir, []));
    return scopeCache.get(relDir)!;
  };
  return (relPath: string) => {
    if (relPath.startsWith('..') || path.isAbsolute(relPath)) return false;
    if (isExcluded(relPath) || !isIncluded(relPath)) return false;
    if (inSkippedDir(path.join(root, relPath))) return false;
    const parts = relPath.split('/');
    const scopes: IgnoreScope[] = [];
    for (let i = 0; i < parts.length - 1; i++) {
      const dir = parts.slice(0, i).join('/');
      const scope = scopeOf(dir);
      if (scope) scopes.push(scope);
      const sub = parts.slice(0, i + 1).join('/');
      if (isExcluded(`${sub}/`) || isIgnored(scopes, sub, true)) return false;
    }
    const dirScope = scopeOf(parts.slice(0, -1).join('/'));
    if (dirScope && !scopes.includes(dirScope)) scopes.push(dirScope);
    return !isIgnored(scopes, relPath, false);
  };
}
