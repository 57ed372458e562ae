import type { Database, Statement } from 'better-sqlite3';

/** Distinct SQL texts remembered per connection; the oldest is dropped past this. */
const MAX_STATEMENTS = 64;

export interface StatementCache {
  /**
   * The connection's statement for this SQL, compiled on first use (`db.prepare` takes 30–90 µs
   * for the joins a search runs several times a query). It comes back with the default modes
   * (rows as objects): a caller that wants `.pluck()` or `.raw()` sets it after each call.
   */
  prepare(sql: string): Statement;
}

const caches = new WeakMap<Database, StatementCache>();

/** The statement cache of a connection (one per connection, so each thread's connection has its own). */
export function statements(db: Database): StatementCache {
  let cache = caches.get(db);
  if (!cache) {
    const byText = new Map<string, Statement>();
    cache = {
      prepare(sql) {
        let stmt = byText.get(sql);
        if (stmt === undefined) {
          if (byText.size >= MAX_STATEMENTS) byText.delete(byText.keys().next().value!);
          stmt = db.prepare(sql);
          byText.set(sql, stmt);
        } else if (stmt.reader) stmt.pluck(false).raw(false);
        return stmt;
      },
    };
    caches.set(db, cache);
  }
  return cache;
}
