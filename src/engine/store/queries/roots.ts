/**
 * The folders indexed (roots): added, found, listed and removed with everything indexed under them.
 */
import type { Root } from '../../../shared/contract.ts';
import { sqliteOf, type ReadConnection, type WriteConnection } from '../connection.ts';
import { raiseChunkHighWater } from './indexing.ts';

interface RootRow {
  id: number;
  path: string;
  include_json: string;
  exclude_json: string;
  added_at: string;
}

function toRoot(row: RootRow): Root {
  return {
    id: row.id,
    path: row.path,
    include: JSON.parse(row.include_json) as string[],
    exclude: JSON.parse(row.exclude_json) as string[],
    added_at: row.added_at,
  };
}

export function addRoot(connection: WriteConnection, rootPath: string, include: string[], exclude: string[]): Root {
  const row = sqliteOf(connection)
    .prepare(
      `INSERT INTO roots (path, include_json, exclude_json, added_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (path) DO UPDATE SET include_json = excluded.include_json, exclude_json = excluded.exclude_json
       RETURNING *`,
    )
    // all(), not get(): get() stops at the returned row, and an autocommit that then fails (a full
    // disk) went unreported while the row was rolled back.
    .all(rootPath, JSON.stringify(include), JSON.stringify(exclude), new Date().toISOString())[0] as RootRow;
  return toRoot(row);
}

export function rootByPath(connection: ReadConnection, rootPath: string): Root | null {
  const row = sqliteOf(connection).prepare('SELECT * FROM roots WHERE path = ?').get(rootPath) as RootRow | undefined;
  return row ? toRoot(row) : null;
}

export function listRoots(connection: ReadConnection): Root[] {
  return (sqliteOf(connection).prepare('SELECT * FROM roots ORDER BY path').all() as RootRow[]).map(toRoot);
}

/** Removes a root with all its documents and chunks (cascade); returns how many documents went. */
export function removeRoot(connection: WriteConnection, rootId: number): number {
  const db = sqliteOf(connection);
  return db.transaction(() => {
    raiseChunkHighWater(connection);
    const { n } = db.prepare('SELECT COUNT(*) AS n FROM documents WHERE root_id = ?').get(rootId) as { n: number };
    db.prepare('DELETE FROM roots WHERE id = ?').run(rootId);
    db.prepare('DELETE FROM settings WHERE key = ?').run(`walk_issues:${rootId}`);
    return n;
  })();
}
