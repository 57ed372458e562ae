import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { createError, type SynapsisError } from '../../shared/errors.ts';
import { MIGRATIONS } from './migrations/index.ts';
import type { Migration } from './migrations/types.ts';

export const DB_FILE = 'synapsis.db';

export interface OpenDatabaseOptions {
  /**
   * Open the store for reading beside the one writer (search, ask, MCP): the file must exist and be
   * migrated already, and nothing of the schema is written. A store that is missing, not yet
   * created, or from an older Synapsis says so and which command fixes it.
   */
  reader?: boolean;
  /** Bytes of the file read through a memory map (setMemoryMap); default MMAP_SIZE. */
  mmapBytes?: number;
}

/** The largest memory map of a connection: 0x7fff0000, SQLite's own maximum. */
export const MMAP_SIZE = 2147418112;

/**
 * Sets how much of the store a connection reads through a memory map (0: none, every page by a
 * read() into SQLite's own small page cache). Mapped pages a query touched stay in the process's
 * resident set (file-backed and shared, but counted), so the map's size bounds that part of it.
 */
export function setMemoryMap(db: Database, bytes: number): void {
  const size = Number.isFinite(bytes) ? Math.max(0, Math.min(MMAP_SIZE, Math.floor(bytes))) : MMAP_SIZE;
  db.pragma(`mmap_size = ${size}`);
}

/** Opens (creating if needed) the store in WAL mode and applies pending migrations; a reader opens it as it is. */
export function openDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS, options: OpenDatabaseOptions = {}): Database {
  const mmapBytes = options.mmapBytes ?? MMAP_SIZE;
  if (options.reader) return openReader(file, migrations, mmapBytes);
  if (file !== ':memory:') {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
    } catch (error) {
      throw createError('E_SYN_STORE_FAILED', `Cannot create the data directory ${path.dirname(file)}: ${(error as Error).message}`, undefined, error);
    }
  }
  let db: Database;
  try {
    db = new BetterSqlite3(file);
  } catch (error) {
    throw createError('E_SYN_STORE_FAILED', `Cannot open the store ${file}: ${(error as Error).message}`, { file }, error);
  }
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // Pages are read through a memory map instead of one read() call each (the size is a setting:
    // config.ts mmapMb, docs/benchmarks.md). Writes still go through the file. The data dir is local
    // anyway: WAL mode needs shared memory on one host.
    setMemoryMap(db, mmapBytes);
    migrate(db, migrations);
  } catch (error) {
    db.close();
    throw openError(file, error);
  }
  return db;
}

/** The error a damaged store becomes: what is damaged, that the notes are untouched, and the command that rebuilds it. */
export function storeDamagedError(dataDir: string, reason: string, cause?: unknown): SynapsisError {
  const file = path.join(dataDir, DB_FILE);
  return createError(
    'E_SYN_STORE_DAMAGED',
    `The store ${file} is damaged (${reason}). Your files are untouched: run \`synapsis repair --data-dir ${dataDir}\` to rebuild the store from them, ` +
      're-using every embedding that can still be read; the damaged file is kept beside it.',
    { data_dir: dataDir, file, reason },
    cause,
  );
}

function openError(file: string, error: unknown): unknown {
  const message = (error as Error).message;
  // A damaged page that opening already meets (the schema's own): the same coded error and repair as any other.
  if (/malformed/i.test(message)) return storeDamagedError(path.dirname(file), message, error);
  if (/not a database/i.test(message)) {
    return createError('E_SYN_STORE_FAILED', `The store ${file} is not a valid Synapsis database (${message}). Move it aside or choose another --data-dir.`, { file }, error);
  }
  if (isDiskFull(error)) return diskFullError(path.dirname(file), error, 'the store cannot be opened', 'start Synapsis again');
  if (/locked|busy/i.test(message)) {
    return createError('E_SYN_STORE_FAILED', `The store ${file} is locked by another process: close the other Synapsis instance and retry.`, { file }, error);
  }
  return error;
}

/** A data dir whose store does not exist yet, or is being created right now (no schema committed). */
export function noIndexError(dataDir: string): Error {
  return createError(
    'E_SYN_NOT_FOUND',
    `The data dir ${dataDir} has no index yet: \`synapsis index <folder>\` creates it (so do \`synapsis watch <folder>\` and adding a folder in the app).`,
    { data_dir: dataDir, reason: 'no_index' },
  );
}

/**
 * A reader's connection. It is read-write at the SQLite level, so that a reader may record what is
 * optional (an answer's trace) when the writer lets it, but it never creates, migrates or sets the
 * journal mode: the writer made the file a WAL database, and WAL lets this connection read the last
 * committed state while the writer commits.
 */
function openReader(file: string, migrations: readonly Migration[], mmapBytes: number): Database {
  const dataDir = path.dirname(file);
  if (!fs.existsSync(file)) throw noIndexError(dataDir);
  let db: Database;
  try {
    db = new BetterSqlite3(file, { fileMustExist: true });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_CANTOPEN' && !fs.existsSync(file)) throw noIndexError(dataDir);
    throw createError('E_SYN_STORE_FAILED', `Cannot open the store ${file}: ${(error as Error).message}`, { file }, error);
  }
  try {
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    setMemoryMap(db, mmapBytes); // as the writer's connection
    const current = schemaVersion(db);
    const known = migrations.reduce((max, m) => Math.max(max, m.version), 0);
    if (current === 0) throw noIndexError(dataDir);
    if (current > known) {
      throw createError(
        'E_SYN_STORE_FAILED',
        `The store has schema version ${current}, newer than this Synapsis understands (${known}). Upgrade Synapsis or use another --data-dir.`,
        { file },
      );
    }
    if (current < known) throw storeNeedsWriterError(dataDir, `its schema is version ${current}, this Synapsis reads version ${known}`);
  } catch (error) {
    db.close();
    throw openError(file, error);
  }
  return db;
}

/**
 * The store must be upgraded (schema, lexical index) before it can be read, and only a writer
 * upgrades it: a reader says so instead of writing the schema beside the writer.
 */
export function storeNeedsWriterError(dataDir: string, why: string): Error {
  return createError(
    'E_SYN_STORE_FAILED',
    `The store in ${dataDir} must be upgraded before it can be read (${why}): run \`synapsis index --data-dir ${dataDir}\` once to upgrade it ` +
      '(it needs the data dir to itself: close the app or a running `synapsis watch` first), then search again.',
    { data_dir: dataDir, reason: 'needs_upgrade' },
  );
}

export function schemaVersion(db: Database): number {
  const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'migrations'").get();
  if (!table) return 0;
  const row = db.prepare('SELECT MAX(version) AS v FROM migrations').get() as { v: number | null };
  return row.v ?? 0;
}

/** Applies each pending migration in its own transaction, recording it in the migrations table. */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number {
  db.exec(`CREATE TABLE IF NOT EXISTS migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const current = schemaVersion(db);
  const known = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  if (current > known) {
    throw createError(
      'E_SYN_STORE_FAILED',
      `The store has schema version ${current}, newer than this Synapsis understands (${known}). Upgrade Synapsis or use another --data-dir.`,
    );
  }
  const record = db.prepare('INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      migration.up(db);
      record.run(migration.version, migration.name, new Date().toISOString());
    })();
  }
  return schemaVersion(db);
}

/** Whether `error` (or what it wraps) says the disk is full: SQLITE_FULL from the store, ENOSPC from a file write. */
export function isDiskFull(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = (e as Error & { cause?: unknown }).cause, depth++) {
    const code = (e as Error & { code?: unknown }).code;
    if (code === 'SQLITE_FULL' || code === 'ENOSPC' || /database or disk is full|no space left on device/i.test(e.message)) return true;
  }
  return false;
}

/**
 * The error a full disk becomes: it names the data dir and says the store is intact. Each batch of
 * indexed files is one transaction and the vector index a cache, so a failed write leaves the store
 * as the last committed batch left it; the files still queued are indexed by the next run.
 */
export function diskFullError(dataDir: string, error: unknown, stopped = 'indexing stopped', next = 'run indexing again to finish') {
  return createError(
    'E_SYN_STORE_FAILED',
    `The disk holding the data dir ${dataDir} is full: ${stopped}. What was indexed before is intact; free some space and ${next}.`,
    { data_dir: dataDir, reason: (error as Error).message },
    error,
  );
}

/** Whether `error` (or what it wraps) is SQLite refusing to write a read-only file or directory. */
export function isReadOnlyStore(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = (e as Error & { cause?: unknown }).cause, depth++) {
    const code = (e as Error & { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_READONLY')) return true;
  }
  return false;
}

/** Whether `error` (or what it wraps) is SQLite giving up on a lock another connection holds. */
export function isStoreLocked(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = (e as Error & { cause?: unknown }).cause, depth++) {
    const code = (e as Error & { code?: unknown }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || (typeof code === 'string' && code.startsWith('SQLITE_BUSY_')) || /database is locked|database table is locked/i.test(e.message)) return true;
  }
  return false;
}

/** A write that failed because of the disk or another process, as the error the user should see; null for anything else. */
export function storeWriteError(dataDir: string, error: unknown, stopped?: string, next?: string) {
  if (isDiskFull(error)) return diskFullError(dataDir, error, stopped, next);
  if (isStoreLocked(error)) {
    return createError(
      'E_SYN_STORE_FAILED',
      `The store ${path.join(dataDir, DB_FILE)} is locked by another process (a SQLite tool or a backup?): ${stopped ?? 'indexing stopped'}. ` +
        'Close that program and retry; what was indexed before is intact.',
      { data_dir: dataDir, reason: (error as Error).message },
      error,
    );
  }
  return null;
}

/**
 * A setting of the store in `dataDir`, read without opening it for work (no migration, no lock, no
 * write): `missing` without a store file, `unreadable` when it cannot be read as it is (an older
 * schema, damage: opening it for work says which).
 */
export function peekSetting(dataDir: string, key: string): { state: 'missing' | 'unreadable' } | { state: 'read'; value: unknown } {
  const file = path.join(dataDir, DB_FILE);
  if (!fs.existsSync(file)) return { state: 'missing' };
  let db: Database | undefined;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    const row = db.prepare('SELECT value_json FROM settings WHERE key = ?').get(key) as { value_json: string } | undefined;
    return { state: 'read', value: row ? (JSON.parse(row.value_json) as unknown) : undefined };
  } catch {
    return { state: 'unreadable' };
  } finally {
    db?.close();
  }
}
