/**
 * The tags of the documents a caller may see (the search filter's suggestions): each tag once, with
 * how many visible documents carry it. A tag only restricted notes carry is not listed unless their
 * sensitivity is allowed, by the one policy (visibility.ts).
 */
import { sqliteOf, type ReadConnection } from '../connection.ts';
import { statements } from '../statements.ts';
import { allowedParam, visibleSql, type VisibilityPolicy } from '../visibility.ts';

export interface TagCount {
  tag: string;
  count: number;
}

/** Tags a document's stored tags hold (`tags: "a,b"`), trimmed, without a leading #. */
export function tagsOfDocument(tagsJson: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(tagsJson);
  } catch {
    return [];
  }
  const list = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).tags : undefined;
  if (typeof list !== 'string') return [];
  return [...new Set(list.split(',').map((t) => t.trim().replace(/^#/, '')).filter(Boolean))];
}

/**
 * Visible tags starting with `prefix` (case-insensitive, a leading # ignored), most used first, then
 * by name; `total` counts them all, `tags` holds at most `limit`. Tags that differ only in case are
 * one tag (the filter compares them so), written as most notes write it.
 */
export function visibleTagCounts(connection: ReadConnection, policy: VisibilityPolicy, prefix: string, limit: number): { tags: TagCount[]; total: number } {
  const want = prefix.trim().replace(/^#/, '').toLowerCase();
  const stmt = statements(sqliteOf(connection))
    .prepare(`SELECT d.tags_json FROM documents d WHERE d.status = 'indexed' AND d.tags_json LIKE '%"tags"%' AND ${visibleSql(policy, 'd')}`)
    .pluck();
  // With enforcement off the WHERE names no parameter, and better-sqlite3 refuses unused ones.
  const rows = (policy.sensitivityEnable ? stmt.all({ allowed: allowedParam(policy) }) : stmt.all()) as string[];
  const byKey = new Map<string, { count: number; spellings: Map<string, number> }>();
  for (const json of rows) {
    for (const tag of tagsOfDocument(json)) {
      const key = tag.toLowerCase();
      if (!key.startsWith(want)) continue;
      const entry = byKey.get(key) ?? { count: 0, spellings: new Map<string, number>() };
      entry.count++;
      entry.spellings.set(tag, (entry.spellings.get(tag) ?? 0) + 1);
      byKey.set(key, entry);
    }
  }
  const all = [...byKey.values()].map(({ count, spellings }) => ({
    tag: [...spellings].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0],
    count,
  }));
  all.sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
  return { tags: all.slice(0, limit), total: all.length };
}
