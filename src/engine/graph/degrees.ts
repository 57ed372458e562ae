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
 *
 * The links the graph list reads of each note (note-links.ts linksOf, migration 020) are kept here
 * too, counted with the degrees of the same notes in both graphs: walking a seed note's relations,
 * the things it names and the notes those join was most of a graph query on a real vault. A note's
 * links also change when a note that names the same bridge entity starts or stops naming it, so the
 * notes read around a touched note include the notes sharing each bridge entity the run changed
 * (new, gone, or of another type, degree or set of notes: notesAround's `bridges`). They do not depend on the far
 * notes' degrees, which the graph list divides by when it reads them. The same common-word drift as
 * above applies to them, until the notes are next counted.
 */
import type { ReadConnection, WriteConnection } from '../store/connection.ts';
import { hidesAnyDocument } from '../store/queries/documents.ts';
import { forgetNoteDegrees, notesWithoutDegree, PUBLIC_AUDIENCE, writeNoteDegrees } from '../store/queries/graph.ts';
import { forgetNoteLinks, writeNoteLinks } from '../store/queries/note-links.ts';
import type { VisibilityPolicy } from '../store/visibility.ts';
import { bridgesOf, linksOf, MAX_SOURCE_DEGREE, prefetchLinks, type BridgeState } from './note-links.ts';
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

/** The bridge entities of the notes read around, per graph and entity (notesAround's `bridges`). */
export type Bridges = Map<string, BridgeState>;

/**
 * These notes, the notes linked to them and the notes that name a bridge entity with them (their
 * kept links go through it), as the whole graph and the public one are now (paths).
 *
 * `bridges.record`: the bridge entities are kept there instead, and the notes that share them left
 * out (read before a run changes the notes). `bridges.before`: what was kept so before the run; the
 * notes that share a bridge entity are then added only where the entity changed (it is new, gone, or
 * linksOf would read it otherwise): an edit that leaves a note's names as they were recounts no note
 * for them.
 */
export function notesAround(db: ReadConnection, paths: Iterable<string>, memos: DegreeMemos = createDegreeMemos(), bridges: { record?: Bridges; before?: Bridges } = {}): Set<string> {
  const graphs = [storedGraph(db, EVERY_DOCUMENT, memos.all), ...(anyRestricted(db) ? [storedGraph(db, PUBLIC_AUDIENCE, memos.public)] : [])];
  const out = new Set<string>();
  const ids: string[] = [];
  for (const p of paths) {
    out.add(p);
    ids.push(`note:${p}`);
  }
  const addNotes = (notes: readonly string[]) => {
    for (const n of notes) out.add(n.slice('note:'.length));
  };
  const found = new Set<string>();
  graphs.forEach((g, i) => {
    for (const [entity, now] of bridgesOf(g, ids)) {
      const key = `${i}\u0000${entity}`;
      found.add(key);
      if (bridges.record) bridges.record.set(key, now);
      else if (bridges.before?.get(key)?.state !== now.state) addNotes([...now.notes, ...(bridges.before?.get(key)?.notes ?? [])]);
    }
    for (const id of ids) {
      if (!g.hasNode(id)) continue;
      for (const n of g.neighbors(id)) if (n.startsWith('note:')) out.add(n.slice('note:'.length));
    }
  });
  // A bridge entity a touched note named before and no longer does (or that is no bridge now).
  if (bridges.before) {
    const touched = new Set(ids);
    for (const [key, was] of bridges.before) if (!found.has(key) && was.notes.some((n) => touched.has(n))) addNotes(was.notes);
  }
  return out;
}

/** A note's links as kept (far path → weight): none for a note past MAX_SOURCE_DEGREE, whose links the graph list does not read. */
function keptLinks(g: LinkGraph, p: string): Map<string, number> {
  const id = `note:${p}`;
  if (!g.hasNode(id) || g.degree(id) > MAX_SOURCE_DEGREE) return new Map();
  return new Map([...linksOf(g, id)].map(([far, w]) => [far.slice('note:'.length), w]));
}

const sameLinks = (a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>) => a.size === b.size && [...a].every(([k, w]) => b.get(k) === w);

/**
 * Forgets the stored degrees of `stale` notes ('all': every note), then counts every indexed note
 * without one. Returns how many notes were counted. `memos`: what notesAround read of the same graph
 * (its notes are not read again).
 */
export async function refreshNoteDegrees(db: WriteConnection, stale: Iterable<string> | 'all', between?: () => Promise<void>, memos: DegreeMemos = createDegreeMemos()): Promise<number> {
  const forget = stale === 'all' ? null : [...stale];
  forgetNoteDegrees(db, forget);
  forgetNoteLinks(db, forget);
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
    const ids = paths.map((p) => `note:${p}`);
    prefetchLinks(g, ids);
    if (restricted) prefetchLinks(pg, ids);
    writeNoteDegrees(
      db,
      paths.map((p) => ({ path: p, degree: degree(g, p), publicDegree: degree(pg, p) })),
    );
    writeNoteLinks(
      db,
      paths.map((p) => {
        const all = keptLinks(g, p);
        const pub = restricted ? keptLinks(pg, p) : all;
        return { path: p, all, public: sameLinks(all, pub) ? null : pub };
      }),
    );
    for (const p of paths) counted.add(p);
    // The notes just counted are not read again: counting every note, or past a bound, their edges
    // would only hold memory (a 50,000-note count kept 1.1 GB of them). What resolving names needs stays.
    if (stale === 'all' || memo.adjacency.size > KEPT_READ) memo.adjacency.clear();
    if (stale === 'all' || publicMemo.adjacency.size > KEPT_READ) publicMemo.adjacency.clear();
    await between?.();
  }
}
