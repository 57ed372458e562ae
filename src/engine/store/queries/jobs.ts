/** Index jobs: the files waiting to be indexed or removed, kept across restarts. */
import { sqliteOf, type ReadConnection, type WriteConnection } from '../connection.ts';

export interface IndexJob {
  id: number;
  root_id: number;
  path: string;
  kind: 'upsert' | 'delete';
  attempts: number;
}

/** Persists work to do in one transaction; an existing job for the same file is replaced. */
export function enqueueJobs(connection: WriteConnection, jobs: readonly { rootId: number; path: string; kind: 'upsert' | 'delete' }[]): void {
  if (jobs.length === 0) return;
  const db = sqliteOf(connection);
  const insert = db.prepare(
    `INSERT INTO index_jobs (root_id, path, kind, enqueued_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (root_id, path) DO UPDATE SET kind = excluded.kind, enqueued_at = excluded.enqueued_at`,
  );
  const now = new Date().toISOString();
  db.transaction(() => {
    for (const j of jobs) insert.run(j.rootId, j.path, j.kind, now);
  })();
}

/** Pending jobs of the given roots: upserts first (so a move is seen before its delete), oldest first. */
export function pendingJobs(connection: ReadConnection, rootIds: readonly number[]): IndexJob[] {
  if (rootIds.length === 0) return [];
  return sqliteOf(connection)
    .prepare(
      `SELECT id, root_id, path, kind, attempts FROM index_jobs
        WHERE root_id IN (SELECT value FROM json_each(?)) ORDER BY kind = 'delete', id`,
    )
    .all(JSON.stringify(rootIds)) as IndexJob[];
}

export function countPendingJobs(connection: ReadConnection): number {
  return (sqliteOf(connection).prepare('SELECT COUNT(*) AS n FROM index_jobs').get() as { n: number }).n;
}

export function completeJob(connection: WriteConnection, id: number): void {
  sqliteOf(connection).prepare('DELETE FROM index_jobs WHERE id = ?').run(id);
}

export function noteJobAttempt(connection: WriteConnection, id: number): void {
  sqliteOf(connection).prepare('UPDATE index_jobs SET attempts = attempts + 1 WHERE id = ?').run(id);
}

/** Files queued per root id. */
export function pendingJobsByRoot(connection: ReadConnection): Map<number, number> {
  const rows = sqliteOf(connection).prepare('SELECT root_id AS root, COUNT(*) AS n FROM index_jobs GROUP BY root_id').all() as { root: number; n: number }[];
  return new Map(rows.map((r) => [r.root, r.n]));
}
