/**
 * One writer per data dir. SQLite alone would let two processes write the same store, each with its
 * own vector index files, watcher and indexing queue, and the second one's writes would wait on
 * busy locks or undo the first one's index files. Writers (index, watch, the app and web mode,
 * roots and models changes) take this lock; readers (search, ask, source, MCP) do not: they read
 * beside the writer through SQLite's WAL (compose/follower.ts). The lock is a file, `<data-dir>/synapsis.lock`,
 * created exclusively and holding the owner's pid: a lock whose process no longer runs (a crash,
 * kill -9) is stale and taken over. Engines of one process share the lock (benchmarks and tests open
 * a data dir twice in one process; SQLite serialises them).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createError } from '../../shared/errors.ts';
import type { Disposable } from '../core/lifecycle.ts';
import { diskFullError, isDiskFull } from './database.ts';

export const LOCK_FILE = 'synapsis.lock';

interface LockOwner {
  pid: number;
  host: string;
  started_at: string;
}

/** Data dirs this process holds, with how many engines share each. */
const held = new Map<string, number>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(file: string): LockOwner | null {
  try {
    const owner = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockOwner>;
    return Number.isInteger(owner.pid) && typeof owner.host === 'string' ? (owner as LockOwner) : null;
  } catch {
    return null;
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** A lock file written by a crashed process, or one being written right now (unreadable and fresh). */
function isStale(file: string, owner: LockOwner | null): boolean {
  if (!owner) return ageMs(file) > 2000;
  // A lock from another host (a synced folder) cannot be checked: only its own host may clear it.
  if (owner.host !== os.hostname()) return false;
  return !isAlive(owner.pid);
}

function inUse(dataDir: string, file: string, owner: LockOwner | null): Error {
  const who = owner ? `process ${owner.pid}${owner.host !== os.hostname() ? ` on ${owner.host}` : ''}, since ${owner.started_at}` : 'a process that is starting';
  return createError(
    'E_SYN_STORE_FAILED',
    `The data dir ${dataDir} is in use by another Synapsis (${who}) that writes to it; only one may write at a time. ` +
      'Search, ask and MCP work beside it; to index or change its folders or models, close that one, or choose another --data-dir. ' +
      `If no Synapsis runs, delete ${file}.`,
    { data_dir: dataDir, lock_file: file, ...(owner ? { pid: owner.pid } : {}) },
  );
}

/**
 * Takes the data dir for this process, or throws E_SYN_STORE_FAILED naming the data dir and the
 * process that has it. Dispose the handle to release (the file goes when the last engine of this
 * process releases it).
 */
export function lockDataDir(dataDir: string): Disposable {
  const dir = path.resolve(dataDir);
  const file = path.join(dir, LOCK_FILE);
  if (!held.has(dir)) acquire(dir, file);
  held.set(dir, (held.get(dir) ?? 0) + 1);
  let released = false;
  return {
    dispose() {
      if (released) return;
      released = true;
      const left = (held.get(dir) ?? 1) - 1;
      if (left > 0) {
        held.set(dir, left);
        return;
      }
      held.delete(dir);
      if (readOwner(file)?.pid === process.pid) fs.rmSync(file, { force: true });
    },
  };
}

function acquire(dir: string, file: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw createError('E_SYN_STORE_FAILED', `Cannot create the data directory ${dir}: ${(error as Error).message}`, { data_dir: dir }, error);
  }
  const me: LockOwner = { pid: process.pid, host: os.hostname(), started_at: new Date().toISOString() };
  for (let attempt = 0; attempt < 20; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(file, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw createError('E_SYN_STORE_FAILED', `Cannot create the lock file ${file}: ${(error as Error).message}`, { data_dir: dir }, error);
      }
      const owner = readOwner(file);
      if (owner?.pid === process.pid && owner.host === me.host) return; // left by an engine of this process that was not disposed
      if (!isStale(file, owner)) {
        if (!owner && attempt < 19) {
          sleep(50); // its writer is between creating and filling it
          continue;
        }
        throw inUse(dir, file, owner);
      }
      takeOver(file, owner);
      continue;
    }
    try {
      fs.writeSync(fd, JSON.stringify(me));
    } catch (error) {
      // An empty lock would read as "starting" to the next process: leave none.
      fs.closeSync(fd);
      fs.rmSync(file, { force: true });
      if (isDiskFull(error)) throw diskFullError(dir, error, 'Synapsis cannot start', 'start it again');
      throw createError('E_SYN_STORE_FAILED', `Cannot write the lock file ${file}: ${(error as Error).message}`, { data_dir: dir }, error);
    }
    fs.closeSync(fd);
    return;
  }
  throw inUse(dir, file, readOwner(file));
}

/**
 * Removes a stale lock so the next exclusive create can win. It is renamed aside first and checked:
 * when two processes race to clear the same stale lock, one of them may have renamed a lock that the
 * other had just created, and puts it back.
 */
function takeOver(file: string, stale: LockOwner | null): void {
  const aside = `${file}.stale-${process.pid}-${Date.now()}`;
  try {
    fs.renameSync(file, aside);
  } catch {
    return; // gone already: someone else cleared it
  }
  const moved = readOwner(aside);
  if (moved && stale && moved.pid !== stale.pid) {
    try {
      fs.linkSync(aside, file); // fails if a third process has created a lock meanwhile
    } catch {
      // that one wins
    }
  }
  fs.rmSync(aside, { force: true });
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
