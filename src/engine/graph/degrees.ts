/**
 * How many neighbours each note has, kept with the index (migrations 012 and 013). The graph list
 * divides a link's weight by the square root of both ends' degrees, and counting a linked note's
 * neighbours means reading its whole adjacency: on 50,000 notes that was as much work as the rest of
 * a graph query. Two degrees are counted here, after an index run: in the graph of every indexed
 * document, and in the public graph (the documents a caller allowed no restricted label sees), so
 * that a restricted note never weighs in what such a caller is shown. Where no document is
 * restricted the two are the same count. A caller allowed some restricted labels but not all counts
 * its own (stored.ts noteDegrees).
 *
 * Which degrees a run changes: the notes it wrote, moved or deleted, and the notes linked to them
 * before the run and after it, in either graph (a new note can take over a name others link to; a
 * deleted one leaves its links' names to resolve elsewhere; a note that becomes restricted leaves
 * the public graph, and names that resolved to it resolve elsewhere there). Every indexed document without a stored degree is
 * counted too, which fills the table after the migration. The model stage of extraction
 * (llm-stage.ts) counts the notes it adds links to and their neighbours the same way. A name that a
 * note's edit makes common enough to join two other notes changes those notes' degrees by one until
 * they are next counted: a normalisation weight, not a fact shown to anyone.
 */
import type { ReadConnection, WriteConnection } from '../store/connection.ts';
import { hidesAnyDocument } from '../store/queries/documents.ts';
import { forgetNoteDegrees, notesWithoutDegree, PUBLIC_AUDIENCE, writeNoteDegrees } from '../store/queries/graph.ts';
import type { VisibilityPolicy } from '../store/visibility.ts';
import { createGraphMemo, storedGraph, type GraphMemo, type LinkGraph } from './stored.ts';

/** The whole graph: every indexed document counts. */
const EVERY_DOCUMENT: VisibilityPolicy = { allowSensitivity: [], sensitivityEnable: false };
/** Past this many changed notes, every degree is counted again instead of each neighbourhood read. */
export const DEGREE_NEIGHBOURHOODS_MAX = 2000;
/** Notes counted per write (each a transaction; the caller may yield between them). */
const BATCH = 500;

/** Whether the public graph is another than the whole one: some document is restricted. */
const anyRestricted = (db: ReadConnection) => hidesAnyDocument(db, PUBLIC_AUDIENCE.allowSensitivity);

/**
 * What reading the graph for degrees keeps: the whole graph's and the public graph's memos. The notes
 * notesAround reads after a run are the notes refreshNoteDegrees counts next: given the same memos,
 * it does not read them again (the graph is the same until the next write).
 */
export interface DegreeMemos {
  all: GraphMemo;
  public: GraphMemo;
}

export const createDegreeMemos = (): DegreeMemos => ({ all: createGraphMemo(), public: createGraphMemo() });

/** Notes whose edges a degree count keeps read between its batches, at most (the same bound as the notes it reads around). */
const KEPT_READ = DEGREE_NEIGHBOURHOODS_MAX;

/** These notes and the notes linked to them, as the whole graph and the public one are now (paths). */
export function notesAround(db: ReadConnection, paths: Iterable<string>, memos: DegreeMemos = createDegreeMemos()): Set<string> {
  const graphs = [storedGraph(db, EVERY_DOCUMENT, memos.all), ...(anyRestricted(db) ? [storedGraph(db, PUBLIC_AUDIENCE, memos.public)] : [])];
  const out = new Set<string>();
  for (const p of paths) {
    out.add(p);
    const id = `note:${p}`;
    for (const g of graphs) {
      if (!g.hasNode(id)) continue;
      for (const n of g.neighbors(id)) if (n.startsWith('note:')) out.add(n.slice('note:'.length));
    }
  }
  return out;
}

/**
 * Forgets the stored degrees of `stale` notes ('all': every note), then counts every indexed note
 * without one. Returns how many notes were counted. `memos`: what notesAround read of the same graph
 * (its notes are not read again).
 */
export async function refreshNoteDegrees(db: WriteConnection, stale: Iterable<string> | 'all', between?: () => Promise<void>, memos: DegreeMemos = createDegreeMemos()): Promise<number> {
  forgetNoteDegrees(db, stale === 'all' ? null : [...stale]);
  const memo = memos.all;
  const publicMemo = memos.public;
  // The stored degrees just forgotten are not taken from the memos (counts are read from the edges).
  memo.degrees.clear();
  publicMemo.degrees.clear();
  const restricted = anyRestricted(db);
  const counted = new Set<string>();
  for (;;) {
    const paths = notesWithoutDegree(db, BATCH).filter((p) => !counted.has(p));
    if (paths.length === 0) return counted.size;
    const g = storedGraph(db, EVERY_DOCUMENT, memo);
    const pg = restricted ? storedGraph(db, PUBLIC_AUDIENCE, publicMemo) : g;
    const degree = (graph: LinkGraph, p: string) => (graph.hasNode(`note:${p}`) ? graph.degree(`note:${p}`) : 0);
    writeNoteDegrees(
      db,
      paths.map((p) => ({ path: p, degree: degree(g, p), publicDegree: degree(pg, p) })),
    );
    for (const p of paths) counted.add(p);
    // The notes just counted are not read again: counting every note, or past a bound, their edges
    // would only hold memory (a 50,000-note count kept 1.1 GB of them). What resolving names needs stays.
    if (stale === 'all' || memo.adjacency.size > KEPT_READ) memo.adjacency.clear();
    if (stale === 'all' || publicMemo.adjacency.size > KEPT_READ) publicMemo.adjacency.clear();
    await between?.();
  }
}
