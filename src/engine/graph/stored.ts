/**
 * The knowledge graph read where it is stored (issue 29): the nodes and edges one question touches,
 * read from the indexed tables (migration 010) for the documents the caller may see, and remembered
 * for that question only. No process loads the whole graph to search or to answer.
 *
 * It is the graph `loadKnowledgeGraph` (links.ts) builds, node for node and edge for edge: the same
 * ids, labels, types, neighbours (in the order their first relation is stated), degrees and
 * evidence; stored.test.ts compares the two on every node of a vault, with and without hidden notes.
 */
import type { ReadConnection } from '../store/connection.ts';
import {
  adjacentRelations,
  entitiesById,
  entitiesByKeys,
  entitiesByWords,
  entitiesNameContaining,
  visibleDocumentsNamingEach,
  visibleDocumentsWriting,
  visibleEntityMentions,
  visibleMentioned,
  visibleNoteNamed,
  visibleNotesAtEach,
  visibleNotesByWords,
  visibleNotesNamed,
  visibleNotesStating,
  documentsStating,
  documentsNamingEach,
  visibleNotesNameContaining,
  visibleRelationExists,
  storedNoteDegrees,
  PUBLIC_AUDIENCE,
  type AdjacentRelationRow,
  type GraphEntityRow,
  type GraphNoteRow,
} from '../store/queries/graph.ts';
import { hiddenDocumentCount } from '../store/queries/documents.ts';
import type { VisibilityPolicy } from '../store/visibility.ts';
import { MAX_EVIDENCE, UNRESOLVED_TYPES, type Evidence, type NodeAttributes } from './links.ts';
import { isCommonWord, NAME_DOCS_CAP, normalizeName, noteLabel, noteNameKeys, refBaseKey, wordsKey } from './names.ts';

/** Node id prefixes of entity nodes: people, projects and plain names share `entity`; the rest keep their type. */
const ENTITY_NAMESPACES = new Set(['entity', 'tag', ...UNRESOLVED_TYPES]);

export interface Adjacency {
  attributes: NodeAttributes;
  /** What the node stands for, where the notes say so: person, project or organization (see role()). */
  role: Role | null;
  /** Neighbour → the relations that state the edge (at most MAX_EVIDENCE, earliest first). */
  edges: Map<string, { rows: AdjacentRelationRow[]; ends: [string, string][] }>;
}

/** What the graph questions and the graph list read: the graph of one caller, node by node. */
export interface LinkGraph {
  /** Whether the caller's graph has any stated relation at all. */
  hasRelations(): boolean;
  hasNode(id: string): boolean;
  attributes(id: string): NodeAttributes;
  /** The node's kind without reading its edges (entity nodes' type may need them: see type()). */
  kind(id: string): NodeAttributes['kind'];
  type(id: string): string;
  degree(id: string): number;
  /**
   * The degrees of these note nodes. The counts kept with the index (graph/degrees.ts) are read for
   * the notes whose edges were not read yet: the whole graph's where the caller sees every indexed
   * document, the public graph's where it sees what every caller sees (restricted notes hidden). For
   * a caller allowed some restricted notes but not all, and for a note without a stored count, the
   * edges are read.
   */
  noteDegrees(ids: readonly string[]): Map<string, number>;
  /** The degree when it is at most `cap`, else cap + 1; a hub's edges are not all read for it. */
  degreeAtMost(id: string, cap: number): number;
  /**
   * Whether the node is known, without reading its edges, to have more than `cap` neighbours: a
   * note by the degree kept with the index for this caller, an entity by the notes that name it
   * (as degreeAtMost tells a hub). False where that is not known: the caller reads the edges.
   */
  pastDegree(id: string, cap: number): boolean;
  /**
   * Reads together what typeIn(id, types) and degreeAtMost(id, cap) ask of these nodes: the entities
   * each stands for, then the edges of those of these types not past the cap (a hub is told by
   * counting its notes, as degreeAtMost tells it, and its edges are not read).
   */
  prefetchDegrees(ids: readonly string[], cap: number, types: ReadonlySet<string>): void;
  /** Whether the node's type is one of `types`; an entity node's edges are read only where its stored types disagree. */
  typeIn(id: string, types: ReadonlySet<string>): boolean;
  /**
   * What the node stands for: an entity's own type when it is a person, project or organization; for
   * a note, the type visible notes give it in a typed field (`people: [Maya Chen]` makes the note
   * Maya Chen a person), else what its own tags say (`tags: [project]`); null otherwise.
   */
  role(id: string): Role | null;
  /** Neighbours in the order the graph's edges were first stated. */
  neighbors(id: string): string[];
  /**
   * Reads the edges of these nodes together, in a few statements for all of them, as each alone
   * would be read when first asked: for a caller about to ask of several (a question's seed notes).
   */
  prefetch(ids: readonly string[]): void;
  /** Relations kept as evidence of the edge (at most MAX_EVIDENCE). */
  strength(a: string, b: string): number;
  /** Document and sequence of the relation that first states the edge (the order edges are listed in). */
  firstStated(a: string, b: string): readonly [number, number];
  /** The evidence of the edge between two nodes: each stated relation once, in note order. */
  evidence(a: string, b: string): Evidence[];
  /** The node a user means by a name (notes win over entities of the same name). */
  findNode(name: string): string | null;
  /** Labels that contain the asked name (for "did you mean"). */
  suggestNames(name: string, limit?: number): string[];
  /** Nodes with a name of these words, notes first (latest indexed first), then entities. */
  byWords(words: readonly string[]): Map<string, string[]>;
  /** Where visible notes name an entity node. */
  mentionsOf(id: string, limit?: number): { locator: string; path: string; line: number }[];
  /** Nodes whose edges were read so far (tests assert a question reads only what it touches). */
  readonly nodesRead: number;
}

const noteId = (p: string) => `note:${p}`;

/** Which stored degree is a caller's: the whole graph's, the public graph's, or neither. */
type DegreeSource = 'all' | 'public' | null;

/**
 * The whole graph's degrees where the caller sees every document; the public graph's where it
 * hides as many documents as a caller allowed no restricted label (its allowed labels reveal none
 * of them: what it hides is a subset of those, so the same set); else neither.
 */
function degreeSourceOf(db: ReadConnection, policy: VisibilityPolicy): DegreeSource {
  if (!policy.sensitivityEnable) return 'all';
  const hidden = hiddenDocumentCount(db, policy.allowSensitivity);
  if (hidden === 0) return 'all';
  return policy.allowSensitivity.length === 0 || hidden === hiddenDocumentCount(db, PUBLIC_AUDIENCE.allowSensitivity) ? 'public' : null;
}

export type Role = 'person' | 'project' | 'organization';
const ROLES: ReadonlySet<string> = new Set<Role>(['person', 'project', 'organization']);
/** A note's own tag that says what it is about. */
const ROLE_TAGS: Record<string, Role> = { person: 'person', project: 'project', company: 'organization', organization: 'organization', organisation: 'organization', org: 'organization' };

/**
 * What a reader has read: the nodes, their edges and how names resolved. Valid for one caller and
 * one state of the index; kept between questions (graph/cache.ts) until indexing changes the facts,
 * so the hubs every question meets are read once.
 */
export interface GraphMemo {
  entities: Map<number, GraphEntityRow>;
  resolved: Map<number, string | null>;
  noteOfKey: Map<string, string | null>;
  nameCounts: Map<number, number>;
  adjacency: Map<string, Adjacency | null>;
  nodeEntities: Map<string, GraphEntityRow[]>;
  /** Node and cap → whether its notes alone put it past the cap (degreeAtMost's count of a hub, read once). */
  hubs: Map<string, boolean>;
  /** Note → its stored degree (noteDegrees). */
  degrees: Map<string, number>;
  /** Which stored degrees are the caller's (null: none), once asked. */
  degreeSource: Map<'source', DegreeSource>;
}

export function createGraphMemo(): GraphMemo {
  return { entities: new Map(), resolved: new Map(), noteOfKey: new Map(), nameCounts: new Map(), adjacency: new Map(), nodeEntities: new Map(), hubs: new Map(), degrees: new Map(), degreeSource: new Map() };
}

/** Notes naming an entity past which it is known to be a node without its edges read (byWords). */
const HUB_KNOWN = 60;

/** Nodes a memo keeps at most; past that it starts again (a bound on memory, not a cache policy). */
export const MAX_MEMO_NODES = 20_000;

/** A reader of the stored graph for one caller: a fresh memo by default (one question). */
export function storedGraph(db: ReadConnection, policy: VisibilityPolicy, memo: GraphMemo = createGraphMemo()): LinkGraph {
  if (memo.adjacency.size > MAX_MEMO_NODES || memo.entities.size > MAX_MEMO_NODES * 20 || memo.hubs.size > MAX_MEMO_NODES || memo.degrees.size > MAX_MEMO_NODES * 5) {
    for (const map of Object.values(memo)) (map as Map<unknown, unknown>).clear();
  }
  const { entities, resolved, noteOfKey, nameCounts, adjacency, nodeEntities, hubs, degrees, degreeSource } = memo;
  const nodesBefore = adjacency.size;

  const remember = (rows: GraphEntityRow[]) => {
    for (const e of rows) entities.set(e.id, e);
    return rows;
  };
  /** Reads the entities of these relations not read yet (by id, at once); returns them. */
  const rememberRows = (rows: readonly AdjacentRelationRow[]): GraphEntityRow[] => {
    const missing = new Set<number>();
    for (const r of rows) {
      if (!entities.has(r.dst)) missing.add(r.dst);
      if (r.src !== null && !entities.has(r.src)) missing.add(r.src);
    }
    return missing.size === 0 ? [] : remember(entitiesById(db, [...missing]));
  };
  const entity = (id: number): GraphEntityRow | undefined => {
    if (!entities.has(id)) remember(entitiesById(db, [id]));
    return entities.get(id);
  };
  /** The note a name resolves to: the first visible one (by id) that answers to it. */
  const noteNamed = (key: string, order: 'first' | 'last' = 'first'): string | null => {
    const k = `${order}\u0000${key}`;
    let id = noteOfKey.get(k);
    if (id === undefined) {
      const p = visibleNoteNamed(db, policy, key, order);
      id = p === null ? null : noteId(p);
      noteOfKey.set(k, id);
    }
    return id;
  };

  /** Which stored counts are this caller's (noteDegrees), asked once. */
  const source = (): DegreeSource => {
    let s = degreeSource.get('source');
    if (s === undefined) degreeSource.set('source', (s = degreeSourceOf(db, policy)));
    return s;
  };

  /** How many documents this caller sees (at most NAME_DOCS_CAP) name each plain name: from the relations index alone for a caller who sees every document (the same count). */
  const namingCounts = (ids: readonly number[]) => (source() === 'all' ? documentsNamingEach(db, ids, NAME_DOCS_CAP) : visibleDocumentsNamingEach(db, policy, ids, NAME_DOCS_CAP));

  /** Reads at once what resolving these entities needs: the notes their names claim, how many notes name each plain name. */
  const prepare = (list: readonly GraphEntityRow[]) => {
    const keys = new Set<string>();
    const names: number[] = [];
    for (const e of list) {
      if (resolved.has(e.id)) continue;
      if (!UNRESOLVED_TYPES.has(e.type)) {
        keys.add(e.key);
        const base = refBaseKey(e.type, e.name);
        if (base !== null) keys.add(base);
      }
      if (e.type === 'name' && !nameCounts.has(e.id)) names.push(e.id);
    }
    const missing = [...keys].filter((k) => !noteOfKey.has(`first\u0000${k}`));
    if (missing.length > 0) for (const r of visibleNotesNamed(db, policy, missing)) noteOfKey.set(`first\u0000${r.key}`, r.path === null ? null : noteId(r.path));
    if (names.length > 0) for (const r of namingCounts(names)) nameCounts.set(r.id, r.n);
  };

  /** The node a stored entity stands for (links.ts entityNode), or null. */
  const resolve = (e: GraphEntityRow): string | null => {
    let id = resolved.get(e.id);
    if (id !== undefined) return id;
    id = null;
    const note = UNRESOLVED_TYPES.has(e.type) ? null : (noteNamed(e.key) ?? (e.type === 'ref' ? noteNamed(refBaseKey(e.type, e.name)!) : null));
    if (note) id = note;
    else if (e.type === 'name') {
      let n = nameCounts.get(e.id);
      if (n === undefined) nameCounts.set(e.id, (n = namingCounts([e.id])[0]!.n));
      if (n >= 2 && !isCommonWord(e.name, n, (term, word, cap) => visibleDocumentsWriting(db, policy, term, word, cap))) id = `entity:${e.key}`;
    } else {
      const ns = e.type === 'tag' ? 'tag' : UNRESOLVED_TYPES.has(e.type) ? e.type : 'entity';
      id = `${ns}:${e.key}`;
    }
    resolved.set(e.id, id);
    return id;
  };
  const resolveId = (entityId: number): string | null => {
    const e = entity(entityId);
    return e ? resolve(e) : null;
  };

  const split = (id: string): [string, string] => {
    const i = id.indexOf(':');
    return [id.slice(0, i), id.slice(i + 1)];
  };

  /**
   * The stored entities each node stands for, by id: the entities named as the node is (a note by
   * each of its names), read for all the nodes at once; of those, the ones that resolve to the node
   * (an entity that resolves to a node is named as that node is).
   */
  const entitiesOfEach = (nodes: readonly { id: string; notes: readonly GraphNoteRow[] }[]): void => {
    const todo = nodes.filter((n) => !nodeEntities.has(n.id));
    if (todo.length === 0) return;
    const keys = new Set<string>();
    for (const { id, notes } of todo) {
      const [ns, key] = split(id);
      if (ns !== 'note') keys.add(key);
      else for (const d of notes) for (const n of noteNameKeys(d.path, d.title, d.meta_json)) keys.add(n.key);
    }
    const found = remember(entitiesByKeys(db, [...keys]));
    prepare(found);
    for (const { id } of todo) nodeEntities.set(id, found.filter((e) => resolve(e) === id));
  };
  const entitiesOf = (id: string, notes: GraphNoteRow[]): GraphEntityRow[] => {
    entitiesOfEach([{ id, notes }]);
    return nodeEntities.get(id)!;
  };

  /**
   * Reads the edges of these nodes (those not read yet) in a few statements for all of them: their
   * documents, their entities, then every relation that touches one of them, each kept for the nodes
   * it touches as the node's own read would find it.
   */
  const readAll = (wanted: readonly string[]): void => {
    const todo = [...new Set(wanted)].filter((id) => !adjacency.has(id) && id.includes(':'));
    if (todo.length === 0) return;
    const paths = todo.filter((id) => split(id)[0] === 'note').map((id) => split(id)[1]);
    const notesAt = new Map<string, GraphNoteRow[]>();
    if (paths.length > 0) {
      for (const d of visibleNotesAtEach(db, policy, paths)) {
        const list = notesAt.get(d.path);
        if (list) list.push(d);
        else notesAt.set(d.path, [d]);
      }
    }
    const nodes: { id: string; ns: string; key: string; notes: GraphNoteRow[] }[] = [];
    for (const id of todo) {
      const [ns, key] = split(id);
      const notes = ns === 'note' ? (notesAt.get(key) ?? []) : [];
      if (ns === 'note' ? notes.length > 0 : ENTITY_NAMESPACES.has(ns)) nodes.push({ id, ns, key, notes });
      else adjacency.set(id, null);
    }
    if (nodes.length === 0) return;
    entitiesOfEach(nodes);
    const entityIds = new Set<number>();
    const docIds = new Set<number>();
    for (const n of nodes) {
      if (n.ns !== 'note' && nodeEntities.get(n.id)!.length === 0) continue;
      for (const e of nodeEntities.get(n.id)!) entityIds.add(e.id);
      for (const d of n.notes) docIds.add(d.id);
    }
    const found = entityIds.size === 0 && docIds.size === 0 ? [] : adjacentRelations(db, policy, [...entityIds], [...docIds]);
    prepare(rememberRows(found));
    // A relation to an entity that is not stored is none (as a join with the entities would drop it).
    const all = found.filter((r) => entities.has(r.dst));
    for (const n of nodes) {
      const mine = nodeEntities.get(n.id)!;
      const ids = new Set(mine.map((e) => e.id));
      const docs = new Set(n.notes.map((d) => d.id));
      // What adjacentRelations gives for this node alone: to or from one of its entities, or stated by its own
      // documents (a relation of another node's adds nothing to this one; left out, it is not resolved again).
      const rows = n.ns !== 'note' && ids.size === 0 ? [] : nodes.length === 1 ? all : all.filter((r) => ids.has(r.dst) || (r.src !== null && ids.has(r.src)) || (r.src === null && docs.has(r.doc)));
      adjacency.set(n.id, adjacencyOf(n.id, n.ns, n.key, n.notes, mine, ids, rows));
    }
  };

  /** A node's edges, label and role from the relations that touch it (by document and sequence). */
  const adjacencyOf = (id: string, ns: string, key: string, notes: readonly GraphNoteRow[], mine: readonly GraphEntityRow[], ids: ReadonlySet<number>, rows: readonly AdjacentRelationRow[]): Adjacency | null => {
    const edges: Adjacency['edges'] = new Map();
    let first: GraphEntityRow | undefined;
    let specific: string | undefined;
    const seen = new Set<number>();
    let role: Role | null = null;
    let tagRole: Role | null = null;
    const docs = new Set(notes.map((d) => d.id));
    const saw = (entityId: number | null) => {
      if (entityId === null || !ids.has(entityId) || seen.has(entityId)) return;
      seen.add(entityId);
      const e = entities.get(entityId)!;
      first ??= e;
      if (specific === undefined && e.type !== 'ref' && e.type !== 'name') specific = e.type;
    };
    for (const r of rows) {
      saw(r.src);
      saw(r.dst);
      if (role === null) {
        const dstType = entities.get(r.dst)!.type;
        const srcType = r.src === null ? undefined : entities.get(r.src)?.type;
        if (ids.has(r.dst) && ROLES.has(dstType)) role = dstType as Role;
        else if (r.src !== null && ids.has(r.src) && srcType !== undefined && ROLES.has(srcType)) role = srcType as Role;
      }
      if (tagRole === null && r.src === null && docs.has(r.doc) && entities.get(r.dst)!.type === 'tag') tagRole = ROLE_TAGS[entities.get(r.dst)!.key] ?? null;
      const source = r.src === null ? noteId(r.path) : resolveId(r.src);
      const target = resolveId(r.dst);
      if (!source || !target || source === target) continue;
      const other = source === id ? target : target === id ? source : null;
      if (other === null) continue;
      const edge = edges.get(other);
      if (!edge) edges.set(other, { rows: [r], ends: [[source, target]] });
      else if (edge.rows.length < MAX_EVIDENCE) {
        edge.rows.push(r);
        edge.ends.push([source, target]);
      }
    }
    if (ns === 'note') return { attributes: { label: noteLabel(notes[0]!.path, notes[0]!.title), kind: 'note', type: 'note', locator: notes[0]!.path }, role: role ?? tagRole, edges };
    if (ids.size > 0) {
      // Entities only mentioned (no relation) still make the node, and still give it their type.
      const mentioned = new Set(visibleMentioned(db, policy, [...ids]));
      for (const e of mine) if (mentioned.has(e.id)) saw(e.id);
      if (seen.size > 0) {
        const kind = ns === 'tag' ? 'tag' : 'entity';
        const type = ns === 'entity' ? (specific ?? 'entity') : ns;
        return { attributes: { label: kind === 'tag' ? `#${key}` : first!.name, kind, type, locator: null }, role: ROLES.has(type) ? (type as Role) : null, edges };
      }
    }
    return null;
  };

  const read = (id: string): Adjacency | null => {
    if (!adjacency.has(id)) readAll([id]);
    return adjacency.get(id) ?? null;
  };

  const must = (id: string): Adjacency => {
    const a = read(id);
    if (!a) throw new Error(`graph node ${id} does not exist`);
    return a;
  };

  const hasNode = (id: string) => id.includes(':') && read(id) !== null;

  /**
   * Whether a node's notes alone put it past `cap` neighbours (a tag or a name on thousands of notes):
   * counted once, its edges not read. The documents that state anything about its entities are
   * counted from an index first (ten times cheaper than reading the relations): no more than `cap`
   * settles it for any caller; more settles it for a caller who sees every document (a hub: more
   * than `cap` notes name it); another caller's visible notes are counted.
   */
  const pastCap = (id: string, cap: number): boolean => {
    if (split(id)[0] === 'note') return false;
    const k = `${cap}\u0000${id}`;
    let hub = hubs.get(k);
    if (hub === undefined) {
      const ids = entitiesOf(id, []).map((e) => e.id);
      hub = ids.length > 0 && documentsStating(db, ids, cap + 1) > cap && (source() === 'all' || visibleNotesStating(db, policy, ids, cap + 1) > cap);
      hubs.set(k, hub);
    }
    return hub;
  };

  const typeIn = (id: string, types: ReadonlySet<string>): boolean => {
    const [ns] = split(id);
    if (ns !== 'entity') return types.has(ns);
    if (adjacency.has(id)) return types.has(must(id).attributes.type);
    // The node's type is that of the first entity with a specific type it was stated with, else
    // 'entity': one of these. When they all agree on the answer, their order does not matter.
    const candidates = [...new Set(entitiesOf(id, []).map((e) => (e.type === 'ref' || e.type === 'name' ? 'entity' : e.type)))];
    if (candidates.every((t) => types.has(t))) return true;
    if (candidates.every((t) => !types.has(t))) return false;
    return types.has(must(id).attributes.type);
  };

  const byWords = (words: readonly string[]): Map<string, string[]> => {
    const out = new Map<string, string[]>();
    const put = (w: string, id: string, first: boolean) => {
      const list = out.get(w) ?? [];
      if (list.includes(id)) return;
      if (first) list.unshift(id);
      else list.push(id);
      out.set(w, list);
    };
    if (words.length === 0) return out;
    for (const n of visibleNotesByWords(db, policy, words)) put(n.words, noteId(n.path), true);
    for (const e of remember(entitiesByWords(db, words))) {
      const id = resolve(e);
      // A name that resolves to a note is found by the note's own names.
      // (A hub is one without reading its edges: more notes than the cap name it.)
      if (id && !id.startsWith('note:') && (pastCap(id, HUB_KNOWN) || hasNode(id))) put(wordsKey(e.key), id, false);
    }
    return out;
  };

  return {
    hasRelations: () => visibleRelationExists(db, policy),
    hasNode,
    attributes: (id) => must(id).attributes,
    kind(id) {
      const [ns] = split(id);
      return ns === 'note' ? 'note' : ns === 'tag' ? 'tag' : 'entity';
    },
    type(id) {
      const [ns] = split(id);
      if (ns === 'note') return 'note';
      if (ns !== 'entity') return ns;
      return must(id).attributes.type;
    },
    degree: (id) => must(id).edges.size,
    noteDegrees(ids) {
      const out = new Map<string, number>();
      const wanted: string[] = [];
      for (const id of ids) {
        const known = adjacency.get(id);
        if (known) out.set(id, known.edges.size);
        else if (degrees.has(id)) out.set(id, degrees.get(id)!);
        else if (id.startsWith('note:')) wanted.push(id);
      }
      if (wanted.length > 0) {
        const from = source();
        if (from !== null) {
          const paths = wanted.map((id) => id.slice('note:'.length));
          for (const r of storedNoteDegrees(db, paths, from)) {
            degrees.set(noteId(r.path), r.degree);
            out.set(noteId(r.path), r.degree);
          }
        }
      }
      for (const id of ids) if (!out.has(id)) out.set(id, must(id).edges.size);
      return out;
    },
    degreeAtMost(id, cap) {
      const known = adjacency.get(id);
      if (known) return Math.min(known.edges.size, cap + 1);
      if (pastCap(id, cap)) return cap + 1;
      return Math.min(must(id).edges.size, cap + 1);
    },
    pastDegree(id, cap) {
      const known = adjacency.get(id);
      if (known !== undefined) return known !== null && known.edges.size > cap;
      if (split(id)[0] !== 'note') return pastCap(id, cap);
      if (!degrees.has(id)) {
        const from = source();
        if (from === null) return false;
        for (const r of storedNoteDegrees(db, [id.slice('note:'.length)], from)) degrees.set(noteId(r.path), r.degree);
      }
      return (degrees.get(id) ?? 0) > cap;
    },
    prefetchDegrees(ids, cap, types) {
      const fresh = [...new Set(ids)].filter((id) => id.includes(':') && !adjacency.has(id));
      entitiesOfEach(fresh.filter((id) => split(id)[0] !== 'note').map((id) => ({ id, notes: [] })));
      readAll(fresh.filter((id) => typeIn(id, types) && !pastCap(id, cap)));
    },
    typeIn: (id, types) => typeIn(id, types),
    role: (id) => must(id).role,
    neighbors: (id) => [...must(id).edges.keys()],
    prefetch: (ids) => readAll(ids),
    strength: (a, b) => must(a).edges.get(b)?.rows.length ?? 0,
    firstStated(a, b) {
      const r = must(a).edges.get(b)?.rows[0];
      return r ? [r.doc, r.seq] : [Infinity, Infinity];
    },
    evidence(a, b) {
      const edge = must(a).edges.get(b);
      if (!edge) return [];
      const out: Evidence[] = [];
      const seen = new Set<string>();
      edge.rows.forEach((r, i) => {
        const locator = `${r.path}#${r.fragment ?? `L${r.start}-L${r.end}`}`;
        const k = `${r.type}\u0000${locator}`;
        if (seen.has(k)) return;
        seen.add(k);
        const [source, target] = edge.ends[i]!;
        out.push({ source, target, relation: r.type, locator, origin: r.origin });
      });
      return out;
    },
    findNode(name) {
      const raw = name.trim().replace(/^\[\[|\]\]$/g, '');
      if (raw.includes(':') && hasNode(raw)) return raw;
      if (hasNode(noteId(raw))) return noteId(raw);
      for (const key of [normalizeName(raw), normalizeName(raw.replace(/\.[^./]+$/, ''))]) {
        const found = nodesNamed(key);
        if (found.length > 0) return found[0]!;
      }
      return null;
    },
    suggestNames(name, limit = 5) {
      const wanted = normalizeName(name.replace(/^#|^\[\[|\]\]$/g, ''));
      if (wanted.length < 3) return [];
      const out: string[] = [];
      for (const d of visibleNotesNameContaining(db, policy, wanted, 200)) {
        const label = noteLabel(d.path, d.title);
        if (out.length < limit && normalizeName(label).includes(wanted) && !out.includes(label)) out.push(label);
      }
      for (const e of remember(entitiesNameContaining(db, wanted, 200))) {
        if (out.length >= limit) break;
        const id = resolve(e);
        if (!id || id.startsWith('note:') || !hasNode(id)) continue;
        const label = must(id).attributes.label;
        if (normalizeName(label).includes(wanted) && !out.includes(label)) out.push(label);
      }
      return out;
    },
    byWords,
    mentionsOf(id, limit = 50) {
      if (!hasNode(id)) return [];
      const ids = (nodeEntities.get(id) ?? []).map((e) => e.id);
      if (ids.length === 0) return [];
      return visibleEntityMentions(db, policy, ids, limit).map((r) => ({ locator: `${r.path}#${r.fragment}`, path: r.path, line: r.line }));
    },
    get nodesRead() {
      return adjacency.size - nodesBefore;
    },
  };

  /**
   * Nodes one of whose names folds to `key`, as links.ts byName lists them: the notes (the latest
   * indexed first), then entity nodes.
   */
  function nodesNamed(key: string): string[] {
    if (!key) return [];
    const note = noteNamed(key, 'last');
    const out: string[] = [];
    if (note && hasNode(note)) out.push(note);
    // Tags are also named with their '#'.
    const plain = key.startsWith('#') ? key.slice(1) : key;
    for (const e of remember(entitiesByKeys(db, [plain]))) {
      if (e.key !== plain) continue;
      const id = resolve(e);
      if (!id || id.startsWith('note:') || out.includes(id)) continue;
      if (key.startsWith('#') && !id.startsWith('tag:')) continue;
      if (hasNode(id)) out.push(id);
    }
    return out;
  }
}
