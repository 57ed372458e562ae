/**
 * How many neighbours each note has, kept with the index (migration 012). The graph list divides a
 * link's weight by the square root of both ends' degrees, and counting a linked note's neighbours
 * means reading its whole adjacency: on 50,000 notes that was as much work as the rest of a graph
 * query. The degree is counted here, after an index run, in the graph of every indexed document;
 * a caller who cannot see some documents counts its own (stored.ts noteDegrees).
 *
 * Which degrees a run changes: the notes it wrote, moved or deleted, and the notes linked to them
 * before the run and after it (a new note can take over a name others link to; a deleted one
 * leaves its links' names to resolve elsewhere). Every indexed document without a stored degree is
 * counted too, which fills the table after the migration. The model stage of extraction
 * (llm-stage.ts) counts the notes it adds links to and their neighbours the same way. A name that a
 * note's edit makes common enough to join two other notes changes those notes' degrees by one until
 * they are next counted: a normalisation weight, not a fact shown to anyone.
 */
import type { ReadConnection, WriteConnection } from '../store/connection.ts';
import { forgetNoteDegrees, notesWithoutDegree, writeNoteDegrees } from '../store/queries/graph.ts';
import type { VisibilityPolicy } from '../store/visibility.ts';
import { createGraphMemo, storedGraph } from './stored.ts';

/** The whole graph: every indexed document counts. */
const EVERY_DOCUMENT: VisibilityPolicy = { allowSensitivity: [], sensitivityEnable: false };
/** Past this many changed notes, every degree is counted again instead of each neighbourhood read. */
export const DEGREE_NEIGHBOURHOODS_MAX = 2000;
/** Notes counted per write (each a transaction; the caller may yield between them). */
const BATCH = 500;

/** These notes and the notes linked to them, as the graph is now (paths). */
export function notesAround(db: ReadConnection, paths: Iterable<string>): Set<string> {
  const g = storedGraph(db, EVERY_DOCUMENT);
  const out = new Set<string>();
  for (const p of paths) {
    out.add(p);
    const id = `note:${p}`;
    if (!g.hasNode(id)) continue;
    for (const n of g.neighbors(id)) if (n.startsWith('note:')) out.add(n.slice('note:'.length));
  }
  return out;
}

/**
 * Forgets the stored degrees of `stale` notes ('all': every note), then counts every indexed note
 * without one. Returns how many notes were counted.
 */
export async function refreshNoteDegrees(db: WriteConnection, stale: Iterable<string> | 'all', between?: () => Promise<void>): Promise<number> {
  forgetNoteDegrees(db, stale === 'all' ? null : [...stale]);
  const memo = createGraphMemo();
  const counted = new Set<string>();
  for (;;) {
    const paths = notesWithoutDegree(db, BATCH).filter((p) => !counted.has(p));
    if (paths.length === 0) return counted.size;
    const g = storedGraph(db, EVERY_DOCUMENT, memo);
    writeNoteDegrees(
      db,
      paths.map((p) => ({ path: p, degree: g.hasNode(`note:${p}`) ? g.degree(`note:${p}`) : 0 })),
    );
    for (const p of paths) counted.add(p);
    await between?.();
  }
}
