/**
 * What a reader of the stored graph (stored.ts) keeps: the nodes, their edges and how names
 * resolved, for one caller and one state of the index, and what its parts share to read more.
 */
import type { ReadConnection } from '../store/connection.ts';
import type { AdjacentRelationRow, GraphEntityRow } from '../store/queries/graph.ts';
import type { VisibilityPolicy } from '../store/visibility.ts';
import type { NodeAttributes } from './links.ts';

export type Role = 'person' | 'project' | 'organization';

export interface Adjacency {
  attributes: NodeAttributes;
  /** What the node stands for, where the notes say so: person, project or organization (see role()). */
  role: Role | null;
  /** Neighbour → the relations that state the edge (at most MAX_EVIDENCE, earliest first). */
  edges: Map<string, { rows: AdjacentRelationRow[]; ends: [string, string][] }>;
}

/** Which stored degree is a caller's: the whole graph's, the public graph's, or neither. */
export type DegreeSource = 'all' | 'public' | null;

/**
 * What a reader has read: the nodes, their edges and how names resolved. Valid for one caller and
 * one state of the index; kept between questions (graph/cache.ts) until indexing changes the facts,
 * so the hubs every question meets are read once.
 */
export interface GraphMemo {
  entities: Map<number, GraphEntityRow>;
  resolved: Map<number, string | null>;
  noteOfKey: Map<string, string | null>;
  /** A plain name's node key → how many visible notes name it, its forms together (at most NAME_DOCS_CAP). */
  nameCounts: Map<string, number>;
  /** A word counted with the index → how many visible notes write it in lower case, counted up to `cap`. */
  lowerCounts: Map<string, { n: number; cap: number }>;
  adjacency: Map<string, Adjacency | null>;
  nodeEntities: Map<string, GraphEntityRow[]>;
  /** Node and cap → whether its notes alone put it past the cap (degreeAtMost's count of a hub, read once). */
  hubs: Map<string, boolean>;
  /** Note → its stored degree (noteDegrees). */
  degrees: Map<string, number>;
  /** Which stored degrees are the caller's (null: none), once asked. */
  degreeSource: Map<'source', DegreeSource>;
  /** Document id → note id, of the notes kept links name (noteLinks). */
  docPaths: Map<number, string>;
  /** Note → its kept links for this caller (noteLinks): far note → summed weight. */
  links: Map<string, ReadonlyMap<string, number>>;
}

export function createGraphMemo(): GraphMemo {
  return { entities: new Map(), resolved: new Map(), noteOfKey: new Map(), nameCounts: new Map(), lowerCounts: new Map(), adjacency: new Map(), nodeEntities: new Map(), hubs: new Map(), degrees: new Map(), degreeSource: new Map(), docPaths: new Map(), links: new Map() };
}

/** Nodes a memo keeps at most; past that it starts again (a bound on memory, not a cache policy). */
export const MAX_MEMO_NODES = 20_000;

/** Empties a memo grown past its bounds (MAX_MEMO_NODES). */
export function boundMemo(memo: GraphMemo): void {
  if (memo.adjacency.size > MAX_MEMO_NODES || memo.entities.size > MAX_MEMO_NODES * 20 || memo.hubs.size > MAX_MEMO_NODES || memo.degrees.size > MAX_MEMO_NODES * 5 || memo.links.size > MAX_MEMO_NODES) {
    for (const map of Object.values(memo)) (map as Map<unknown, unknown>).clear();
  }
}

/** What the parts of one reader share: the store, the caller's policy and what was read. */
export interface ReaderContext {
  db: ReadConnection;
  policy: VisibilityPolicy;
  memo: GraphMemo;
}

export const noteId = (p: string) => `note:${p}`;

/** A node id's namespace and key ("entity:maya chen" → ["entity", "maya chen"]). */
export function splitId(id: string): [string, string] {
  const i = id.indexOf(':');
  return [id.slice(0, i), id.slice(i + 1)];
}
