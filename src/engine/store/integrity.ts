/**
 * Telling a damaged or lost store from a working one, so that Synapsis fails closed: a store with
 * damaged pages, or a data dir whose store vanished while its index files stayed, is named as such
 * with the command that rebuilds it (`synapsis repair`), instead of answering from half a store or
 * silently starting an empty one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sqliteOf, type ReadConnection } from './connection.ts';
import { createError, isSynapsisError, type SynapsisError } from '../../shared/errors.ts';
import { DB_FILE, storeDamagedError } from './database.ts';

export { storeDamagedError };

/** Every degradation line of a damaged store starts with this (the CLI's `health` exits 1 on it). */
export const STORE_DAMAGED = 'store damaged';
/** Where the roots of the last indexing run are recorded beside the store, to rebuild a lost one. */
export const ROOTS_FILE = 'roots.json';
/**
 * The largest store `health` checks page by page. quick_check reads every page: 185 ms for a 50 MB
 * store of 5,673 chunks here (about 3.7 ms per MB), so this cap keeps it under about 2 s; a larger
 * store is named as not checked, and `synapsis doctor` checks it whatever its size.
 */
export const HEALTH_CHECK_MAX_BYTES = 512 * 1024 * 1024;

export interface RootRecord {
  path: string;
  include: string[];
  exclude: string[];
}

/** Whether `error` (or what it wraps) is SQLite reading a damaged page or a file that is not a database. */
export function isStoreCorrupt(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = (e as Error & { cause?: unknown }).cause, depth++) {
    if (isSynapsisError(e) && e.code === 'E_SYN_STORE_DAMAGED') return true;
    const code = (e as Error & { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')) return true;
    if (/database disk image is malformed|file is not a database|fts5: corrupt|malformed inverted index|database corruption/i.test(e.message)) return true;
  }
  return false;
}

function firstLine(error: unknown): string {
  return ((error as Error)?.message ?? String(error)).split('\n')[0]!;
}


/**
 * `error` as the damaged-store error when SQLite found the store damaged; null for anything else,
 * and for coded errors that already say what happened (only a failed index run wrapping it is recoded).
 */
export function storeDamage(dataDir: string, error: unknown): SynapsisError | null {
  if (!isStoreCorrupt(error)) return null;
  if (isSynapsisError(error) && error.code !== 'E_SYN_INDEX_FAILED') return error.code === 'E_SYN_STORE_DAMAGED' ? error : null;
  return storeDamagedError(dataDir, firstLine(error), error);
}

export interface IntegrityReport {
  status: 'ok' | 'damaged' | 'unchecked';
  /** What quick_check or an FTS5 integrity check found (at most 10 lines), or why it was not run. */
  problems: string[];
  bytes: number;
  ms: number;
}

/**
 * SQLite's quick_check (every page's structure, at most 10 problems) and FTS5's integrity checks of
 * the lexical indexes, on the given connection. Stores above `maxBytes` are not checked (see
 * HEALTH_CHECK_MAX_BYTES). The FTS5 checks cost 16 and 106 ms at 5,673 chunks.
 */
export function checkStoreIntegrity(connection: ReadConnection, maxBytes = HEALTH_CHECK_MAX_BYTES): IntegrityReport {
  const db = sqliteOf(connection);
  const started = performance.now();
  const done = (status: IntegrityReport['status'], problems: string[], bytes: number): IntegrityReport => ({
    status,
    problems,
    bytes,
    ms: Math.round(performance.now() - started),
  });
  let bytes = 0;
  try {
    bytes = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
    if (bytes > maxBytes) return done('unchecked', [`the store holds ${Math.round(bytes / 2 ** 20)} MB, above the ${Math.round(maxBytes / 2 ** 20)} MB checked here`], bytes);
    const rows = (db.pragma('quick_check(10)') as { quick_check: string }[])
      .flatMap((r) => String(r.quick_check).split('\n'))
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('***'));
    if (rows.length !== 1 || rows[0] !== 'ok') return done('damaged', rows.slice(0, 10), bytes);
    const fts = (table: string, check: () => unknown): string | null => {
      if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)) return null;
      try {
        check();
        return null;
      } catch (error) {
        // Busy or read-only: the pages passed quick_check, and only damage is reported here.
        return isStoreCorrupt(error) ? `${table}: ${firstLine(error)}` : null;
      }
    };
    // The FTS5 checks are written as INSERTs and so take the write lock: never wait for it (a
    // reader beside an indexing writer skips them; quick_check has read every page already).
    db.pragma('busy_timeout = 0');
    let lexical: string | null;
    try {
      lexical =
        fts('chunks_fts', () => db.prepare("INSERT INTO chunks_fts (chunks_fts) VALUES ('integrity-check')").run()) ??
        fts('chunks_tri', () => db.prepare("INSERT INTO chunks_tri (chunks_tri) VALUES ('integrity-check')").run());
    } finally {
      db.pragma('busy_timeout = 5000'); // as openDatabase sets it
    }
    if (lexical) return done('damaged', [lexical], bytes);
    return done('ok', [], bytes);
  } catch (error) {
    if (isStoreCorrupt(error)) return done('damaged', [firstLine(error)], bytes);
    throw error;
  }
}

/**
 * Beside the store once damage is known (found by the integrity check of health, index or doctor,
 * or met by a read): every later process refuses to search, open sources or answer from that store
 * file until repair replaces it or a check finds it whole again. It names the store file by device
 * and inode, so a rebuilt store (a new file) is not refused.
 */
export const DAMAGE_FILE = 'store-damaged.json';

const storeIdentity = (dataDir: string): string | null => {
  try {
    const st = fs.statSync(path.join(dataDir, DB_FILE));
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
};

/** Records that the store is damaged (best effort: a read-only data dir still refuses in this process). */
export function recordDamage(dataDir: string, reason: string): void {
  const store = storeIdentity(dataDir);
  if (!store) return;
  const file = path.join(dataDir, DAMAGE_FILE);
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify({ store, reason, found_at: new Date().toISOString() }, null, 2)}\n`);
    fs.renameSync(tmp, file);
  } catch {
    // read-only or full: the engine that saw the damage refuses on its own
  }
}

/** Forgets recorded damage (a check found the store whole, or repair replaced it). */
export function clearDamage(dataDir: string): void {
  try {
    fs.rmSync(path.join(dataDir, DAMAGE_FILE), { force: true });
  } catch {
    // best effort, as recordDamage
  }
}

/** The damage recorded for the store file as it is now, or null (none, or recorded for a store since replaced). */
export function recordedDamage(dataDir: string): string | null {
  let parsed: { store?: unknown; reason?: unknown };
  try {
    parsed = JSON.parse(fs.readFileSync(path.join(dataDir, DAMAGE_FILE), 'utf8')) as typeof parsed;
  } catch (error) {
    // No marker is the common case; an unreadable one still says the store was found damaged.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : `${DAMAGE_FILE} is unreadable`;
  }
  if (parsed.store !== storeIdentity(dataDir)) return null;
  return typeof parsed.reason === 'string' && parsed.reason ? parsed.reason : 'recorded as damaged';
}

/** The damaged store's degradation line for health. */
export function integrityLine(report: IntegrityReport, dataDir: string): string | null {
  if (report.status !== 'damaged') return null;
  return `${STORE_DAMAGED}: ${report.problems.slice(0, 3).join('; ')}; searches may fail or miss notes until it is rebuilt: synapsis repair --data-dir ${dataDir}`;
}

/** Records the roots beside the store (best effort: a hint for rebuilding a lost store, never a reason to fail). */
export function recordRoots(dataDir: string, roots: readonly RootRecord[]): void {
  const file = path.join(dataDir, ROOTS_FILE);
  const text = `${JSON.stringify(roots.map((r) => ({ path: r.path, include: r.include, exclude: r.exclude })), null, 2)}\n`;
  try {
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return;
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  } catch {
    // A full or read-only disk: the store itself reports that where it matters.
  }
}

/** The roots recorded by the last indexing run; [] when none were recorded or the file is unreadable. */
export function recordedRoots(dataDir: string): RootRecord[] {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(path.join(dataDir, ROOTS_FILE), 'utf8'));
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((r: Partial<RootRecord>) =>
      typeof r?.path === 'string'
        ? [{ path: r.path, include: Array.isArray(r.include) ? r.include.filter((g) => typeof g === 'string') : [], exclude: Array.isArray(r.exclude) ? r.exclude.filter((g) => typeof g === 'string') : [] }]
        : [],
    );
  } catch {
    return [];
  }
}

/**
 * What in the data dir shows that it held an index: manifests naming chunks and saved vector
 * indexes. Empty for a new data dir.
 */
export function indexEvidence(dataDir: string): string[] {
  const root = path.join(dataDir, 'index');
  const found: string[] = [];
  let versions: string[];
  try {
    versions = fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return found;
  }
  for (const v of versions) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(root, v, 'manifest.json'), 'utf8')) as { chunk_count?: unknown };
      if (typeof manifest.chunk_count === 'number' && manifest.chunk_count > 0) found.push(`index/${v}/manifest.json (${manifest.chunk_count} chunks)`);
    } catch {
      // no manifest, or a torn one: the vector files may still say it
    }
    if (fs.existsSync(path.join(root, v, 'vectors.json'))) found.push(`index/${v}/vectors.json`);
  }
  return found;
}

/**
 * Refuses to start an empty store in place of a lost one: the store file is missing or empty while
 * the data dir holds an index of it (a manifest naming chunks, saved vectors). Starting afresh would
 * show an empty workspace as if that were all there is.
 */
export function assertStoreNotLost(dataDir: string): void {
  const file = path.join(dataDir, DB_FILE);
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
    size = -1;
  }
  // A store is never empty once created (the schema is written first); -wal holds pages not yet copied.
  if (size > 0 || (size === 0 && fs.existsSync(`${file}-wal`) && fs.statSync(`${file}-wal`).size > 0)) return;
  const evidence = indexEvidence(dataDir);
  if (evidence.length === 0) return;
  const roots = recordedRoots(dataDir);
  const state = size < 0 ? 'is missing' : 'is empty (0 bytes)';
  const rootsText = roots.length > 0 ? `from the folders it indexed (${roots.map((r) => r.path).join(', ')})` : 'from your folders (name them: synapsis repair <folder>...)';
  throw createError(
    'E_SYN_STORE_DAMAGED',
    `The store ${file} ${state}, but the data dir held an index (${evidence.slice(0, 2).join(', ')}): the store was lost. ` +
      `Run \`synapsis repair --data-dir ${dataDir}\` to rebuild it ${rootsText}; or delete ${path.join(dataDir, 'index')} to start an empty workspace.`,
    { data_dir: dataDir, file, reason: size < 0 ? 'store_missing' : 'store_empty', roots: roots.map((r) => r.path) },
  );
}
