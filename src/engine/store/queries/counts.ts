/** What the health report and the library count: documents by status and type, chunks, languages, graph rows, the files that failed or were skipped. */
import path from 'node:path';
import type { FileIssue } from '../../../shared/contract.ts';
import { sqliteOf, type ReadConnection } from '../connection.ts';
import type { DocumentRow } from './indexing.ts';
import { listRoots } from './roots.ts';
import { getSetting } from './settings.ts';

export function documentCounts(connection: ReadConnection) {
  const rows = sqliteOf(connection).prepare('SELECT status, type, COUNT(*) AS n FROM documents GROUP BY status, type').all() as {
    status: DocumentRow['status'];
    type: string;
    n: number;
  }[];
  const counts = { total: 0, indexed: 0, skipped: 0, failed: 0, by_type: {} as Record<string, number> };
  for (const r of rows) {
    counts.total += r.n;
    counts[r.status] += r.n;
    if (r.status === 'indexed') counts.by_type[r.type] = (counts.by_type[r.type] ?? 0) + r.n;
  }
  return counts;
}

export function chunkCount(connection: ReadConnection): number {
  return (sqliteOf(connection).prepare('SELECT COUNT(*) AS n FROM chunks').get() as { n: number }).n;
}

/** Chunks per language, most first; chunks written before languages were detected count as 'und'. */
export function languageCounts(connection: ReadConnection): { lang: string; chunks: number }[] {
  // Grouped on the bare column, so SQLite reads the chunks_lang index only (not every chunk's text).
  const rows = sqliteOf(connection).prepare('SELECT lang, COUNT(*) AS n FROM chunks GROUP BY lang').all() as { lang: string | null; n: number }[];
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.lang ?? 'und', (counts.get(r.lang ?? 'und') ?? 0) + r.n);
  return [...counts].map(([lang, chunks]) => ({ lang, chunks })).sort((a, b) => b.chunks - a.chunks || a.lang.localeCompare(b.lang));
}

/** The language of each of these chunks ('und' when not detected); ids not in the store are left out. */
export function chunkLanguages(connection: ReadConnection, ids: readonly number[]): Map<number, string> {
  if (ids.length === 0) return new Map();
  const rows = sqliteOf(connection)
    .prepare("SELECT c.id, COALESCE(c.lang, 'und') AS lang FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value")
    .all(JSON.stringify(ids)) as { id: number; lang: string }[];
  return new Map(rows.map((r) => [r.id, r.lang]));
}

export function fileIssues(connection: ReadConnection, limit = 500): FileIssue[] {
  const rows = sqliteOf(connection)
    .prepare(
      `SELECT r.path AS root, d.path, d.status, d.error, d.error_code FROM documents d JOIN roots r ON r.id = d.root_id
       WHERE d.status != 'indexed' OR d.error IS NOT NULL ORDER BY r.path, d.path LIMIT ?`,
    )
    .all(limit) as { root: string; path: string; status: 'indexed' | 'skipped' | 'failed'; error: string | null; error_code: string | null }[];
  const issues: FileIssue[] = rows.map((r) => ({
    path: path.join(r.root, r.path),
    // An indexed document with an error was indexed with a warning (front matter ignored, text cut).
    status: r.status === 'indexed' ? 'warning' : r.status,
    reason: r.error ?? 'unknown',
    ...(r.error_code ? { code: r.error_code } : {}),
  }));
  for (const root of listRoots(connection)) {
    for (const w of getSetting<{ relPath: string; reason: string }[]>(connection, `walk_issues:${root.id}`) ?? []) {
      issues.push({ path: path.join(root.path, w.relPath), status: 'skipped', reason: w.reason });
    }
  }
  return issues;
}

/** Rows of the stored graph: entities, relations and mentions. */
export function graphRowCounts(connection: ReadConnection): { entities: number; relations: number; mentions: number } {
  return sqliteOf(connection)
    .prepare('SELECT (SELECT COUNT(*) FROM entities) AS entities, (SELECT COUNT(*) FROM relations) AS relations, (SELECT COUNT(*) FROM mentions) AS mentions')
    .get() as { entities: number; relations: number; mentions: number };
}
