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

/** A note's links as kept: far document id and weight, flattened ([id, weight, id, weight, ...]); JSON keeps every double exact. */
const encode = (links: ReadonlyMap<string, number>, idOf: ReadonlyMap<string, number>) => JSON.stringify([...links].flatMap(([far, w]) => (idOf.has(far) ? [idOf.get(far)!, w] : [])));

/**
 * Stores the links of the notes at these paths (every indexed document there), and marks them
 * counted. A linked note is kept as the id of its first indexed document at its path: a note that is
 * moved or deleted has its linkers counted again (graph/degrees.ts).
 */
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
  // A note counted again keeps none of its links from before (an empty list has no row).
  const clear = db.prepare('DELETE FROM note_links WHERE source_id = ?');
  const put = db.prepare('INSERT INTO note_links (source_id, audience, links) VALUES (?, ?, ?)');
  const mark = db.prepare('UPDATE note_degrees SET links = ? WHERE document_id = ?');
  db.transaction(() => {
    for (const r of rows) {
      const all = r.all.size > 0 ? encode(r.all, idOf) : null;
      const pub = r.public && r.public.size > 0 ? encode(r.public, idOf) : null;
      for (const source of docs.all(r.path) as number[]) {
        clear.run(source);
        if (all !== null) put.run(source, LINK_AUDIENCE.all, all);
        if (pub !== null) put.run(source, LINK_AUDIENCE.public, pub);
        mark.run(r.public ? 1 : 0, source);
      }
    }
  })();
}

/**
 * The kept links of the notes at these paths, in the graph of every indexed document (`all`) or of
 * what every caller may see (`public`), where every such indexed document at the path has them
 * counted: source path → far path → summed weight. A path left out is not counted (or not visible).
 * `pathOf`: the paths of document ids read before (the caller keeps it for one state of the index);
 * the ones missing are read and kept there. `degrees`: the stored degrees (storedNoteDegrees) of the
 * sources, and of the linked notes read here whose path holds one indexed document. Every path
 * returned, and kept in `pathOf`, is written after `prefix` (a node id: no string made per link).
 */
export function storedNoteLinks(connection: ReadConnection, paths: readonly string[], audience: 'all' | 'public', pathOf: Map<number, string> = new Map(), prefix = ''): { links: Map<string, Map<string, number>>; degrees: Map<string, number> } {
  const db = statements(sqliteOf(connection));
  const policy = PUBLIC_AUDIENCE;
  const rows = db
    .prepare(
      `WITH src AS (SELECT d.path AS path, MIN(d.id) AS id, MAX(n.links) AS apart, MAX(n.${audience === 'public' ? 'public_degree' : 'degree'}) AS degree FROM json_each(@paths) p CROSS JOIN documents d ON d.path = p.value LEFT JOIN note_degrees n ON n.document_id = d.id
                     WHERE +d.status = 'indexed' ${audience === 'public' ? `AND ${visibleSql(policy)}` : ''} GROUP BY d.path HAVING COUNT(n.links) = COUNT(*))
       SELECT src.path, l.links, src.degree FROM src LEFT JOIN note_links l ON l.source_id = src.id AND l.audience = ${audience === 'public' ? `CASE src.apart WHEN 1 THEN ${LINK_AUDIENCE.public} ELSE ${LINK_AUDIENCE.all} END` : LINK_AUDIENCE.all}`,
    )
    .raw(true)
    .all({ paths: JSON.stringify(paths), ...(audience === 'public' ? { allowed: allowedParam(policy) } : {}) }) as [string, string | null, number][];
  const degrees = new Map(rows.map(([p, , degree]) => [prefix + p, degree]));
  const lists = rows.map(([p, text]) => [p, text === null ? [] : (JSON.parse(text) as number[])] as const);
  const missing = new Set<number>();
  for (const [, flat] of lists) for (let i = 0; i < flat.length; i += 2) if (!pathOf.has(flat[i]!)) missing.add(flat[i]!);
  if (missing.size > 0) {
    const found = db
      .prepare(
        `SELECT d.id, d.path, n.${audience === 'public' ? 'public_degree' : 'degree'}, (SELECT COUNT(*) FROM documents o WHERE o.path = d.path AND +o.status = 'indexed')
           FROM json_each(?) i CROSS JOIN documents d ON d.id = i.value LEFT JOIN note_degrees n ON n.document_id = d.id WHERE +d.status = 'indexed'`,
      )
      .raw(true)
      .all(JSON.stringify([...missing])) as [number, string, number | null, number][];
    for (const [id, p, degree, docs] of found) {
      pathOf.set(id, prefix + p);
      if (degree !== null && docs === 1) degrees.set(prefix + p, degree);
    }
  }
  const out = new Map<string, Map<string, number>>();
  for (const [p, flat] of lists) {
    const links = new Map<string, number>();
    for (let i = 0; i < flat.length; i += 2) {
      const far = pathOf.get(flat[i]!);
      if (far !== undefined) links.set(far, flat[i + 1]!);
    }
    out.set(prefix + p, links);
  }
  return { links: out, degrees };
}

/** Forgets the kept links of the notes at these paths (all of them with `paths` null). */
export function forgetNoteLinks(connection: WriteConnection, paths: readonly string[] | null): void {
  const db = sqliteOf(connection);
  if (paths === null) db.prepare('DELETE FROM note_links').run();
  else if (paths.length > 0) db.prepare('DELETE FROM note_links WHERE source_id IN (SELECT d.id FROM json_each(?) p CROSS JOIN documents d ON d.path = p.value)').run(JSON.stringify(paths));
}
