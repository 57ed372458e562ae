/**
 * The store's connections as the rest of the engine holds them: opaque handles that only the store
 * layer's queries (src/engine/store/queries) can run SQL on. A `ReadConnection` is all the searches
 * and the lexical worker get; a `WriteConnection` is the writer's (Store), and where a read handle is
 * wanted a write handle does too. The handle is the connection itself, typed apart: no wrapper on
 * the hot path (the statement cache, statements.ts, keys on the same object).
 */
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { MMAP_SIZE, setMemoryMap } from './database.ts';

declare const READ: unique symbol;
declare const WRITE: unique symbol;

/** A connection the holder may read through the store layer's queries. */
export interface ReadConnection {
  readonly [READ]: true;
}

/** The writer's connection: reads as a ReadConnection, writes only through Store. */
export interface WriteConnection extends ReadConnection {
  readonly [WRITE]: true;
}

/** The SQLite connection behind a handle: for the store layer's own modules only. */
export const sqliteOf = (connection: ReadConnection): Database => connection as unknown as Database;

/** A connection opened by the store layer (or a test's in-memory database) as a read handle. */
export const asReadConnection = (db: Database): ReadConnection => db as unknown as ReadConnection;

/** The writer's connection as a write handle (Store). */
export const asWriteConnection = (db: Database): WriteConnection => db as unknown as WriteConnection;

/**
 * A second connection to an existing store that only reads (the lexical worker's): WAL lets it read
 * the last committed state while the engine's connection writes. Same busy timeout and memory map
 * as the engine's connection (database.ts).
 */
export function openReadConnection(file: string, mmapBytes = MMAP_SIZE): ReadConnection {
  const db = new BetterSqlite3(file, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  setMemoryMap(db, mmapBytes);
  return asReadConnection(db);
}
