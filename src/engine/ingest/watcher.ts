import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Root } from '../../shared/contract.ts';
import type { Disposable } from '../core/lifecycle.ts';
import { DEFAULT_EXCLUDES, skippedDirFilter } from './walk.ts';
import picomatch from 'picomatch';

export interface RootChange {
  root: Root;
  /** Paths relative to the root that were added, changed or removed. */
  paths: string[];
  /** Folders relative to the root that were removed (everything under them is gone). */
  removedDirs: string[];
}

export interface WatcherOptions {
  /** Quiet time before a batch of changes is handed over. */
  debounceMs?: number;
  /** How long a file's size must stay still before it counts as written (awaitWriteFinish). */
  stabilityMs?: number;
  onChange(change: RootChange): Promise<void>;
  onError?(error: unknown): void;
  /**
   * Follow symlinked folders whose target lies outside the root (config followExternalSymlinks).
   * Off, no symlinked folder is followed: one pointing inside the root is a second path to a folder
   * already watched (`ln -s . loop` made `loop/loop/…/note.md` endlessly), and one pointing outside
   * is not indexed. On, links back into the root are still dropped (by their real path).
   */
  followExternalSymlinks?: boolean;
  /** Folders never watched wherever they lie (the data dir, whose files change on every run). */
  skipDirs?: readonly string[];
}

export interface RootWatcher extends Disposable {
  /** Resolves once the initial scan of every root is done and changes are being reported. */
  ready: Promise<void>;
  /**
   * Watches this set of roots from now on: a new root gets its own watcher (resolves once it is
   * ready), a removed one stops (changes still pending for it are dropped); the others keep theirs,
   * so no change of theirs is lost in between.
   */
  setRoots(roots: readonly Root[]): Promise<void>;
}

interface WatchedRoot {
  watcher: FSWatcher;
  cancel(): void;
  ready: Promise<void>;
}

/** Watches the roots with chokidar and reports debounced batches of changed paths per root. */
export function watchRoots(roots: readonly Root[], options: WatcherOptions): RootWatcher {
  const debounceMs = options.debounceMs ?? 100;
  const excluded = picomatch(DEFAULT_EXCLUDES, { dot: true });
  const watched = new Map<string, WatchedRoot>();
  let running: Promise<void> = Promise.resolve();
  let disposed = false;

  const start = (root: Root): WatchedRoot => {
    const pending = { paths: new Set<string>(), removedDirs: new Set<string>() };
    let timer: NodeJS.Timeout | null = null;
    let stopped = false;
    const flush = () => {
      timer = null;
      const change: RootChange = { root, paths: [...pending.paths].sort(), removedDirs: [...pending.removedDirs].sort() };
      pending.paths.clear();
      pending.removedDirs.clear();
      // Batches run one after another, never concurrently.
      running = running.then(() => (disposed || stopped ? undefined : options.onChange(change))).catch((error) => options.onError?.(error));
    };
    const schedule = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(flush, debounceMs);
    };
    const inSkippedDir = skippedDirFilter(options.skipDirs, root.path);
    const rel = (abs: string) => path.relative(root.path, abs).split(path.sep).join('/');
    const follow = options.followExternalSymlinks === true;
    let rootReal = root.path;
    try {
      rootReal = fs.realpathSync(root.path);
    } catch {
      // a missing root is reported by the indexer
    }
    /** A path reached through a link back into the root: the same folder under a second name. */
    const throughInternalLink = (p: string): boolean => {
      try {
        const real = fs.realpathSync(path.dirname(p));
        const inside = real === rootReal || real.startsWith(rootReal + path.sep);
        return inside && real !== path.join(rootReal, path.relative(root.path, path.dirname(p)));
      } catch {
        return false;
      }
    };
    const watcher = watch(root.path, {
      ignoreInitial: true,
      followSymlinks: follow,
      awaitWriteFinish: { stabilityThreshold: options.stabilityMs ?? 150, pollInterval: 30 },
      ignored: (p: string) => {
        const r = rel(p);
        return r !== '' && (excluded(r) || excluded(`${r}/`) || inSkippedDir(p) || (follow && throughInternalLink(p)));
      },
    });
    watcher
      .on('add', (p) => (pending.paths.add(rel(p)), schedule()))
      .on('change', (p) => (pending.paths.add(rel(p)), schedule()))
      .on('unlink', (p) => (pending.paths.add(rel(p)), schedule()))
      .on('unlinkDir', (p) => (pending.removedDirs.add(rel(p)), schedule()))
      .on('error', (error) => options.onError?.(error));
    const cancel = () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
    return { watcher, cancel, ready: new Promise<void>((resolve) => watcher.once('ready', () => resolve())) };
  };

  const stop = async (key: string) => {
    const w = watched.get(key);
    if (!w) return;
    watched.delete(key);
    w.cancel();
    await w.watcher.close();
  };

  const setRoots = async (next: readonly Root[]) => {
    if (disposed) return;
    const keep = new Set(next.map((r) => r.path));
    await Promise.all([...watched.keys()].filter((k) => !keep.has(k)).map(stop));
    const added = next.filter((r) => !watched.has(r.path)).map((r) => {
      const w = start(r);
      watched.set(r.path, w);
      return w.ready;
    });
    await Promise.all(added);
  };

  const ready = setRoots(roots);
  return {
    ready,
    setRoots,
    async dispose() {
      if (disposed) return;
      disposed = true;
      await Promise.all([...watched.keys()].map(stop));
      await running;
    },
  };
}
