/**
 * How a reader of the stored graph (stored.ts) reads a node's edges: the relations of visible
 * documents that touch it, each end resolved to its node (stored-names.ts), in the order they are
 * stated; and how it tells a hub or a node's type without reading them.
 */
import { adjacentRelations, documentsStating, documentsStatingEach, visibleMentioned, visibleNotesAtEach, visibleNotesStating, type AdjacentRelationRow, type GraphEntityRow, type GraphNoteRow } from '../store/queries/graph.ts';
import { MAX_EVIDENCE, mostUsedForm, UNRESOLVED_TYPES } from './links.ts';
import { noteLabel } from './names.ts';
import { noteId, splitId, type Adjacency, type ReaderContext, type Role } from './stored-memo.ts';
import type { NameResolver } from './stored-names.ts';

/** Node id prefixes of entity nodes: people, projects and plain names share `entity`; the rest keep their type. */
const ENTITY_NAMESPACES = new Set(['entity', 'tag', ...UNRESOLVED_TYPES]);

const ROLES: ReadonlySet<string> = new Set<Role>(['person', 'project', 'organization']);
/** A note's own tag that says what it is about. */
const ROLE_TAGS: Record<string, Role> = { person: 'person', project: 'project', company: 'organization', organization: 'organization', organisation: 'organization', org: 'organization' };

export interface EdgeReader {
  /**
   * Reads the edges of these nodes (those not read yet) in a few statements for all of them: their
   * documents, their entities, then every relation that touches one of them, each kept for the nodes
   * it touches as the node's own read would find it.
   */
  readAll(wanted: readonly string[]): void;
  /** The node's edges (read when first asked), or null where it is no node. */
  read(id: string): Adjacency | null;
  /** read(id), for a node that must exist. */
  must(id: string): Adjacency;
  hasNode(id: string): boolean;
  /**
   * Whether a node's notes alone put it past `cap` neighbours (a tag or a name on thousands of notes):
   * counted once, its edges not read. The documents that state anything about its entities are
   * counted from an index first (ten times cheaper than reading the relations): no more than `cap`
   * settles it for any caller; more settles it for a caller who sees every document (a hub: more
   * than `cap` notes name it); another caller's visible notes are counted.
   */
  pastCap(id: string, cap: number): boolean;
  /** pastCap for each of these nodes, their documents counted in one statement for all of them. */
  pastCapAll(ids: readonly string[], cap: number): void;
  /** Whether the node's type is one of `types`; an entity node's edges are read only where its stored types disagree. */
  typeIn(id: string, types: ReadonlySet<string>): boolean;
}

/** A node as readAll reads it: its id, namespace and key, and (a note) its visible documents. */
export interface NodeToRead {
  id: string;
  ns: string;
  key: string;
  notes: GraphNoteRow[];
}

/**
 * A node's edges, label and role from the relations that touch it (by document and sequence):
 * `mine` are the entities that stand for it (`ids` theirs), `rows` the relations read for it.
 */
export function adjacencyOf(ctx: ReaderContext, names: Pick<NameResolver, 'resolveId'>, node: NodeToRead, mine: readonly GraphEntityRow[], ids: ReadonlySet<number>, rows: readonly AdjacentRelationRow[]): Adjacency | null {
  const { id, ns, key, notes } = node;
  const { entities } = ctx.memo;
  const edges: Adjacency['edges'] = new Map();
  let specific: string | undefined;
  const seen = new Set<number>();
  /** The node's entities in the order first stated, and how many notes state each (its most used form names the node). */
  const forms: GraphEntityRow[] = [];
  const formDocs = new Map<number, number>();
  const lastDoc = new Map<number, number>();
  const count = (entityId: number | null, doc: number) => {
    if (entityId === null || !ids.has(entityId) || lastDoc.get(entityId) === doc) return;
    lastDoc.set(entityId, doc);
    formDocs.set(entityId, (formDocs.get(entityId) ?? 0) + 1);
  };
  let role: Role | null = null;
  let tagRole: Role | null = null;
  const docs = new Set(notes.map((d) => d.id));
  const saw = (entityId: number | null) => {
    if (entityId === null || !ids.has(entityId) || seen.has(entityId)) return;
    seen.add(entityId);
    const e = entities.get(entityId)!;
    forms.push(e);
    if (specific === undefined && e.type !== 'ref' && e.type !== 'name') specific = e.type;
  };
  for (const r of rows) {
    saw(r.src);
    saw(r.dst);
    count(r.src, r.doc);
    count(r.dst, r.doc);
    role ??= roleOfRow(entities, ids, r);
    if (tagRole === null && r.src === null && docs.has(r.doc) && entities.get(r.dst)!.type === 'tag') tagRole = ROLE_TAGS[entities.get(r.dst)!.key] ?? null;
    addEdge(edges, id, r, r.src === null ? noteId(r.path) : names.resolveId(r.src), names.resolveId(r.dst));
  }
  if (ns === 'note') return { attributes: { label: noteLabel(notes[0]!.path, notes[0]!.title), kind: 'note', type: 'note', locator: notes[0]!.path }, role: role ?? tagRole, edges };
  // Entities only mentioned (no relation) still make the node, and still give it their type: asked
  // of those its relations did not state (most nodes' relations state them all).
  const unstated = [...ids].filter((e) => !seen.has(e));
  if (unstated.length > 0) {
    const mentioned = new Set(visibleMentioned(ctx.db, ctx.policy, unstated));
    for (const e of mine) if (mentioned.has(e.id)) saw(e.id);
  }
  if (seen.size === 0) return null;
  const kind = ns === 'tag' ? 'tag' : 'entity';
  const type = ns === 'entity' ? (specific ?? 'entity') : ns;
  return { attributes: { label: kind === 'tag' ? `#${key}` : mostUsedForm(forms, formDocs), kind, type, locator: null }, role: ROLES.has(type) ? (type as Role) : null, edges };
}

/** The role a relation gives the node whose entities are `ids`: the type of its end that is one of them, where that type is a role. */
function roleOfRow(entities: ReadonlyMap<number, GraphEntityRow>, ids: ReadonlySet<number>, r: AdjacentRelationRow): Role | null {
  const dstType = entities.get(r.dst)!.type;
  if (ids.has(r.dst) && ROLES.has(dstType)) return dstType as Role;
  const srcType = r.src === null ? undefined : entities.get(r.src)?.type;
  if (r.src !== null && ids.has(r.src) && srcType !== undefined && ROLES.has(srcType)) return srcType as Role;
  return null;
}

/** Keeps the relation `r` (from `source` to `target`) as evidence of node `id`'s edge to its other end, if it joins two nodes of which `id` is one. */
function addEdge(edges: Adjacency['edges'], id: string, r: AdjacentRelationRow, source: string | null, target: string | null): void {
  if (!source || !target || source === target) return;
  const other = source === id ? target : target === id ? source : null;
  if (other === null) return;
  const edge = edges.get(other);
  if (!edge) edges.set(other, { rows: [r], ends: [[source, target]] });
  else if (edge.rows.length < MAX_EVIDENCE) {
    edge.rows.push(r);
    edge.ends.push([source, target]);
  }
}

/** The nodes of `todo` with their visible documents; the ids that are no node are kept as such. */
function nodesToRead(ctx: ReaderContext, todo: readonly string[]): NodeToRead[] {
  const paths = todo.filter((id) => splitId(id)[0] === 'note').map((id) => splitId(id)[1]);
  const notesAt = new Map<string, GraphNoteRow[]>();
  if (paths.length > 0) {
    for (const d of visibleNotesAtEach(ctx.db, ctx.policy, paths)) {
      const list = notesAt.get(d.path);
      if (list) list.push(d);
      else notesAt.set(d.path, [d]);
    }
  }
  const nodes: NodeToRead[] = [];
  for (const id of todo) {
    const [ns, key] = splitId(id);
    const notes = ns === 'note' ? (notesAt.get(key) ?? []) : [];
    if (ns === 'note' ? notes.length > 0 : ENTITY_NAMESPACES.has(ns)) nodes.push({ id, ns, key, notes });
    else ctx.memo.adjacency.set(id, null);
  }
  return nodes;
}

/**
 * What adjacentRelations gives for each node alone, in the order of `rows`: the relations to or from
 * one of its entities, or stated by its own documents (a relation of another node's adds nothing to
 * this one; left out, it is not resolved again). One pass over the rows for all the nodes: a
 * question's shared names are read together, a hundred nodes and thousands of relations.
 */
export function rowsByNode(nodes: readonly NodeToRead[], nodeEntities: ReadonlyMap<string, readonly GraphEntityRow[]>, rows: readonly AdjacentRelationRow[]): AdjacentRelationRow[][] {
  const byEntity = new Map<number, number[]>();
  const byDoc = new Map<number, number[]>();
  const put = (map: Map<number, number[]>, key: number, i: number) => {
    const list = map.get(key);
    if (!list) map.set(key, [i]);
    else if (list[list.length - 1] !== i) list.push(i);
  };
  nodes.forEach((n, i) => {
    for (const e of nodeEntities.get(n.id) ?? []) put(byEntity, e.id, i);
    for (const d of n.notes) put(byDoc, d.id, i);
  });
  const out: AdjacentRelationRow[][] = nodes.map(() => []);
  const hit = new Set<number>();
  for (const r of rows) {
    hit.clear();
    for (const i of byEntity.get(r.dst) ?? []) hit.add(i);
    if (r.src !== null) for (const i of byEntity.get(r.src) ?? []) hit.add(i);
    else for (const i of byDoc.get(r.doc) ?? []) hit.add(i);
    for (const i of hit) out[i]!.push(r);
  }
  return out;
}

/** The edge reading of one reader. */
export function edgeReader(ctx: ReaderContext, names: NameResolver): EdgeReader {
  const { db, policy } = ctx;
  const { entities, adjacency, nodeEntities, hubs } = ctx.memo;

  const readAll = (wanted: readonly string[]): void => {
    const todo = [...new Set(wanted)].filter((id) => !adjacency.has(id) && id.includes(':'));
    if (todo.length === 0) return;
    const nodes = nodesToRead(ctx, todo);
    if (nodes.length === 0) return;
    names.entitiesOfEach(nodes);
    const entityIds = new Set<number>();
    const docIds = new Set<number>();
    for (const n of nodes) {
      if (n.ns !== 'note' && nodeEntities.get(n.id)!.length === 0) continue;
      for (const e of nodeEntities.get(n.id)!) entityIds.add(e.id);
      for (const d of n.notes) docIds.add(d.id);
    }
    const found = entityIds.size === 0 && docIds.size === 0 ? [] : adjacentRelations(db, policy, [...entityIds], [...docIds]);
    names.readAhead(names.rememberRows(found));
    // A relation to an entity that is not stored is none (as a join with the entities would drop it).
    const all = found.filter((r) => entities.has(r.dst));
    const rowsOf = nodes.length === 1 ? [all] : rowsByNode(nodes, nodeEntities, all);
    nodes.forEach((n, i) => {
      const mine = nodeEntities.get(n.id)!;
      const ids = new Set(mine.map((e) => e.id));
      adjacency.set(n.id, adjacencyOf(ctx, names, n, mine, ids, n.ns !== 'note' && ids.size === 0 ? [] : rowsOf[i]!));
    });
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

  const pastCap = (id: string, cap: number): boolean => {
    if (splitId(id)[0] === 'note') return false;
    const k = `${cap}\u0000${id}`;
    let hub = hubs.get(k);
    if (hub === undefined) {
      const ids = names.entitiesOf(id, []).map((e) => e.id);
      hub = ids.length > 0 && documentsStating(db, ids, cap + 1) > cap && (names.source() === 'all' || visibleNotesStating(db, policy, ids, cap + 1) > cap);
      hubs.set(k, hub);
    }
    return hub;
  };

  const pastCapAll = (wanted: readonly string[], cap: number): void => {
    const todo = [...new Set(wanted)].filter((id) => splitId(id)[0] !== 'note' && !hubs.has(`${cap}\u0000${id}`));
    if (todo.length === 0) return;
    names.entitiesOfEach(todo.map((id) => ({ id, notes: [] })));
    const entityIds = new Map(todo.map((id) => [id, names.entitiesOf(id, []).map((e) => e.id)]));
    const stating = documentsStatingEach(db, new Map([...entityIds].filter(([, ids]) => ids.length > 0)), cap + 1);
    for (const id of todo) {
      const ids = entityIds.get(id)!;
      const hub = ids.length > 0 && (stating.get(id) ?? 0) > cap && (names.source() === 'all' || visibleNotesStating(db, policy, ids, cap + 1) > cap);
      hubs.set(`${cap}\u0000${id}`, hub);
    }
  };

  const typeIn = (id: string, types: ReadonlySet<string>): boolean => {
    const [ns] = splitId(id);
    if (ns !== 'entity') return types.has(ns);
    if (adjacency.has(id)) return types.has(must(id).attributes.type);
    // The node's type is that of the first entity with a specific type it was stated with, else
    // 'entity': one of these. When they all agree on the answer, their order does not matter.
    const candidates = [...new Set(names.entitiesOf(id, []).map((e) => (e.type === 'ref' || e.type === 'name' ? 'entity' : e.type)))];
    if (candidates.every((t) => types.has(t))) return true;
    if (candidates.every((t) => !types.has(t))) return false;
    return types.has(must(id).attributes.type);
  };

  return { readAll, read, must, hasNode: (id) => id.includes(':') && read(id) !== null, pastCap, pastCapAll, typeIn };
}
