/**
 * The links the graph list reads of each note (migration 020), kept by graph/degrees.ts with the
 * degrees: per source note and audience, each linked note with its summed weight (graph/note-links.ts
 * linksOf). `note_degrees.links` says they are counted: 0 where the public graph gives the note the
 * same links as the whole one (only the whole graph's are kept), 1 where its public links are kept apart.
 */
import { sqliteOf, type ReadConnection, type WriteConnection } from '../connection.ts';
import { statements } from '../statements.ts';
import { allowedParam, visibleSql } from '../visibility.ts';
import { PUBLIC_AUDIENCE } from './graph.ts';

/** The audiences of kept links: the whole graph's, the public graph's. */
const LINK_AUDIENCE = { all: 0, public: 1 } as const;

/** A note's links as degrees.ts counts them: far path → summed weight, in each graph (public null: the same). */
export interface NoteLinksRow {
  path: string;
  all: ReadonlyMap<string, number>;
  public: ReadonlyMap<string, number> | null;
}

/** Stores the links of the notes at these paths (every indexed document there), and marks them counted. */
export function writeNoteLinks(connection: WriteConnection, rows: readonly NoteLinksRow[]): void {
  const db = sqliteOf(connection);
  const fars = new Set<string>();
  for (const r of rows) for (const m of [r.all, r.public]) if (m) for (const p of m.keys()) fars.add(p);
  const idOf = new Map(
    (
      db
        .prepare("SELECT p.value AS path, MIN(d.id) AS id FROM json_each(?) p CROSS JOIN documents d ON d.path = p.value WHERE +d.status = 'indexed' GROUP BY p.value")
        .all(JSON.stringify([...fars])) as { path: string; id: number }[]
    ).map((r) => [r.path, r.id]),
  );
  const docs = db.prepare("SELECT id FROM documents WHERE path = ? AND +status = 'indexed'").pluck();
  const put = db.prepare('INSERT OR REPLACE INTO note_links (source_id, audience, far_id, weight) VALUES (?, ?, ?, ?)');
  const mark = db.prepare('UPDATE note_degrees SET links = ? WHERE document_id = ?');
  db.transaction(() => {
    for (const r of rows) {
      for (const source of docs.all(r.path) as number[]) {
        for (const [audience, links] of [[LINK_AUDIENCE.all, r.all], [LINK_AUDIENCE.public, r.public]] as const) {
          if (links) for (const [far, w] of links) if (idOf.has(far)) put.run(source, audience, idOf.get(far)!, w);
        }
        mark.run(r.public ? 1 : 0, source);
      }
    }
  })();
}

/**
 * The kept links of the notes at these paths, in the graph of every indexed document (`all`) or of
 * what every caller may see (`public`), where every such indexed document at the path has them
 * counted: source path → far path → summed weight. A path left out is not counted (or not visible).
 */
export function storedNoteLinks(connection: ReadConnection, paths: readonly string[], audience: 'all' | 'public'): Map<string, Map<string, number>> {
  const db = statements(sqliteOf(connection));
  const policy = PUBLIC_AUDIENCE;
  const sources = db
    .prepare(
      `SELECT d.path AS path, MIN(d.id) AS id, MAX(n.links) AS apart FROM json_each(@paths) p CROSS JOIN documents d ON d.path = p.value LEFT JOIN note_degrees n ON n.document_id = d.id
        WHERE +d.status = 'indexed' ${audience === 'public' ? `AND ${visibleSql(policy)}` : ''} GROUP BY d.path HAVING COUNT(n.links) = COUNT(*)`,
    )
    .all({ paths: JSON.stringify(paths), ...(audience === 'public' ? { allowed: allowedParam(policy) } : {}) }) as { path: string; id: number; apart: number }[];
  const out = new Map<string, Map<string, number>>();
  if (sources.length === 0) return out;
  const wanted = sources.map((s) => [s.id, audience === 'public' && s.apart === 1 ? LINK_AUDIENCE.public : LINK_AUDIENCE.all]);
  const pathOf = new Map(sources.map((s) => [s.id, s.path]));
  for (const s of sources) out.set(s.path, new Map());
  const rows = db
    .prepare(
      `SELECT l.source_id, f.path, l.weight FROM json_each(@wanted) w CROSS JOIN note_links l ON l.source_id = w.value ->> 0 AND l.audience = w.value ->> 1
         CROSS JOIN documents f ON f.id = l.far_id WHERE +f.status = 'indexed'`,
    )
    .raw(true)
    .all({ wanted: JSON.stringify(wanted) }) as [number, string, number][];
  for (const [source, far, w] of rows) out.get(pathOf.get(source)!)!.set(far, w);
  return out;
}

/** Forgets the kept links of the notes at these paths (all of them with `paths` null). */
export function forgetNoteLinks(connection: WriteConnection, paths: readonly string[] | null): void {
  const db = sqliteOf(connection);
  if (paths === null) db.prepare('DELETE FROM note_links').run();
  else if (paths.length > 0) db.prepare('DELETE FROM note_links WHERE source_id IN (SELECT d.id FROM json_each(?) p CROSS JOIN documents d ON d.path = p.value)').run(JSON.stringify(paths));
}
