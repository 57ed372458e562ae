/**
 * The knowledge graph as a graphology graph, loaded from the stored facts (entities, relations,
 * mentions; see store/migrations/006-graph.ts) of the documents the caller may see. Notes are nodes
 * named by title, file name, path and front-matter aliases; a stored name that matches one of them
 * (a [[link]], a `people:` entry, "Maya Chen" in running text) becomes that note, any other name an
 * entity node. Capitalised names found in running text (extraction keeps only those used
 * mid-sentence) count once two notes name them, unless the word is one the vault mostly writes in
 * lower case (names.ts isCommonWord).
 * Every edge keeps its evidence: the relation, its direction, and the locator of the stating lines.
 */
import Graph from 'graphology';
import type { ReadConnection } from '../store/connection.ts';
import { documentsWriting, entitiesMentionedOutside, entityMentions, graphDocuments, graphEntities, graphRelations, type GraphEntityRow } from '../store/queries/graph.ts';
import { isCommonWord, normalizeName, noteLabel, noteNames, refBaseKey, wordsKey } from './names.ts';

export { normalizeName, wordsKey };

export type NodeKind = 'note' | 'tag' | 'entity';

export interface NodeAttributes {
  label: string;
  kind: NodeKind;
  /** 'note', or the entity's type (person, project, name, date, module, …). */
  type: string;
  /** The note's path, null for entities. */
  locator: string | null;
}

export interface Evidence {
  /** Node ids, in the direction the relation reads ("note → decided_by → person"). */
  source: string;
  target: string;
  relation: string;
  locator: string;
  origin: 'rule' | 'llm';
}

export interface EdgeAttributes {
  /** Rows of the relation table that state this edge (at most MAX_EVIDENCE). */
  rows: number[];
}

/** The relations as loaded, for evidence on demand: row i's ends are source[i] and target[i]. */
export interface RelationTable {
  rows: [documentId: number, srcId: number | null, dstId: number, type: string, startLine: number, endLine: number, fragment: string | null, origin: 'rule' | 'llm'][];
  source: string[];
  target: string[];
  pathOf: Map<number, string>;
}

export type KnowledgeGraphStructure = Graph<NodeAttributes, EdgeAttributes>;

export interface KnowledgeGraph {
  graph: KnowledgeGraphStructure;
  /** Node ids by folded name (labels, aliases, file names), notes first. */
  byName: Map<string, string[]>;
  /** The same, keyed by the name's words only (punctuation dropped): how names are found in a question. */
  byWords: Map<string, string[]>;
  relations: RelationTable;
  /** The stored entity ids each entity node stands for (a name seen as a link, a person and a plain name). */
  entityIds: Map<string, number[]>;
}

/** The evidence of an edge: each stated relation once, in the order the notes state them. */
export function evidenceOf(kg: KnowledgeGraph, attributes: EdgeAttributes): Evidence[] {
  const out: Evidence[] = [];
  const seen = new Set<string>();
  for (const i of attributes.rows) {
    const [doc, , , type, start, end, fragment, origin] = kg.relations.rows[i]!;
    const locator = `${kg.relations.pathOf.get(doc)}#${fragment ?? `L${start}-L${end}`}`;
    const key = `${type}\u0000${locator}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ source: kg.relations.source[i]!, target: kg.relations.target[i]!, relation: type, locator, origin });
  }
  return out;
}

/** Evidence kept per edge; the first ones are the earliest stated. */
export const MAX_EVIDENCE = 12;
/** Entity types that never resolve to a note (the status "accepted" is not a note called Accepted). */
export const UNRESOLVED_TYPES: ReadonlySet<string> = new Set(['tag', 'date', 'status', 'module', 'symbol']);

export function loadKnowledgeGraph(db: ReadConnection, visible: (sensitivity: string | null) => boolean): KnowledgeGraph {
  const graph: KnowledgeGraphStructure = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  const byName = new Map<string, string[]>();
  const byWords = new Map<string, string[]>();
  const put = (map: Map<string, string[]>, key: string, id: string, first: boolean) => {
    if (!key) return;
    const list = map.get(key) ?? [];
    if (list.includes(id)) return;
    if (first) list.unshift(id);
    else list.push(id);
    map.set(key, list);
  };
  const addName = (name: string, id: string, first = false) => {
    put(byName, normalizeName(name), id, first);
    put(byWords, wordsKey(name), id, first);
  };

  const indexed = graphDocuments(db);
  const docs = indexed.filter((d) => visible(d.sensitivity));
  const noteOf = new Map<number, string>();
  const pathOf = new Map<number, string>();
  const noteByKey = new Map<string, string>();
  for (const d of docs) {
    const label = noteLabel(d.path, d.title);
    const id = `note:${d.path}`;
    noteOf.set(d.id, id);
    pathOf.set(d.id, d.path);
    if (!graph.hasNode(id)) graph.addNode(id, { label, kind: 'note', type: 'note', locator: d.path });
    for (const name of noteNames(d.path, d.title, d.meta_json)) {
      const key = normalizeName(name);
      if (key && !noteByKey.has(key)) noteByKey.set(key, id);
      addName(name, id, true);
    }
  }

  const entities = new Map<number, GraphEntityRow>();
  for (const e of graphEntities(db)) entities.set(e.id, e);
  // Raw rows and evidence kept as row numbers: building an object and a locator string per relation
  // took two thirds of the load; the few edges a question shows build theirs on demand (evidenceOf).
  const rows = graphRelations(db);
  const { nameDocs, entityDocs } = countNamings(rows, entities, noteOf);

  // How many visible notes write a word in lower case: a name a few notes capitalise and more write in lower case is a word.
  const lowerDocs = (word: string) => {
    const docs = documentsWriting(db, word);
    return docs === null ? null : docs.filter((d) => noteOf.has(d)).length;
  };
  const nodeOfEntity = new Map<number, string | null>();
  const entityIds = new Map<string, number[]>();
  const entityNode = (entityId: number): string | null => {
    const cached = nodeOfEntity.get(entityId);
    if (cached !== undefined) return cached;
    const e = entities.get(entityId);
    let id: string | null = null;
    if (e) {
      const note = UNRESOLVED_TYPES.has(e.type) ? undefined : (noteByKey.get(e.key) ?? (e.type === 'ref' ? noteByKey.get(refBaseKey(e.type, e.name)!) : undefined));
      if (note) id = note;
      else if (e.type === 'name' && (nameDocs.get(e.node_key) ?? 0) < 2) id = null;
      else if (e.type === 'name' && isCommonWord(e.name, nameDocs.get(e.node_key)!, lowerDocs)) id = null;
      else {
        const kind: NodeKind = e.type === 'tag' ? 'tag' : 'entity';
        // People, projects and plain names share one node per name and its forms; dates, modules and the like keep their type.
        const ns = kind === 'tag' ? 'tag' : UNRESOLVED_TYPES.has(e.type) ? e.type : 'entity';
        id = `${ns}:${e.node_key}`;
        addName(e.name, id);
        if (!graph.hasNode(id)) {
          graph.addNode(id, { label: kind === 'tag' ? `#${e.key}` : e.name, kind, type: e.type === 'ref' || e.type === 'name' ? 'entity' : e.type, locator: null });
          if (kind === 'tag') addName(`#${e.key}`, id);
        } else if (ns === 'entity' && (graph.getNodeAttribute(id, 'type') === 'entity') && e.type !== 'ref' && e.type !== 'name') {
          // A name first seen as a plain link gets the more specific type a front-matter field gives it.
          graph.setNodeAttribute(id, 'type', e.type);
        }
      }
    }
    nodeOfEntity.set(entityId, id);
    if (id) {
      const list = entityIds.get(id);
      if (list) list.push(entityId);
      else entityIds.set(id, [entityId]);
    }
    return id;
  };

  const table: RelationTable = { rows, source: [], target: [], pathOf };
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const note = noteOf.get(r[0]);
    if (!note) continue;
    const source = r[1] === null ? note : entityNode(r[1]);
    const target = entityNode(r[2]);
    if (!source || !target || source === target) continue;
    table.source[i] = source;
    table.target[i] = target;
    const edge = graph.edge(source, target);
    if (edge === undefined) graph.addEdge(source, target, { rows: [i] });
    else {
      const list = graph.getEdgeAttribute(edge, 'rows');
      if (list.length < MAX_EVIDENCE) list.push(i);
    }
  }
  // Every entity that resolves to a node, not only those that made an edge (for mentionsOf); with
  // hidden notes, only entities a visible note names: one named only by a restricted note (a person
  // in its front matter, a code word) would otherwise show up as a node of its own.
  if (docs.length === indexed.length) {
    for (const id of entities.keys()) entityNode(id);
  } else {
    const named = new Set<number>();
    for (const [doc, src, dst] of rows) {
      if (!noteOf.has(doc)) continue;
      if (src !== null) named.add(src);
      named.add(dst);
    }
    const hidden = indexed.filter((d) => !noteOf.has(d.id)).map((d) => d.id);
    for (const id of entitiesMentionedOutside(db, hidden)) named.add(id);
    for (const id of named) entityNode(id);
  }
  // A node of several forms of a name shows the one the most visible notes use (the first stated of those).
  for (const [id, list] of entityIds) {
    if (list.length < 2 || !id.startsWith('entity:')) continue;
    graph.setNodeAttribute(id, 'label', mostUsedForm(list.map((e) => entities.get(e)!), entityDocs));
  }
  return { graph, byName, byWords, relations: table, entityIds };
}

/**
 * Capitalised names worth a node: named by two visible notes or more (one note's name joins nothing),
 * the forms of one name together (name-forms.ts), by node key; counted from the rows already read
 * rather than by a second pass over the relations. Each entity's visible notes, too: the node shows
 * its most used form.
 */
function countNamings(rows: readonly RelationTable['rows'][number][], entities: ReadonlyMap<number, GraphEntityRow>, noteOf: ReadonlyMap<number, string>) {
  const nameDocs = new Map<string, number>();
  const entityDocs = new Map<number, number>();
  // Rows come by document: a repeat within one note is adjacent in time.
  const lastDoc = new Map<string, number>();
  const lastEntityDoc = new Map<number, number>();
  const countEntity = (id: number, doc: number) => {
    if (lastEntityDoc.get(id) === doc) return;
    lastEntityDoc.set(id, doc);
    entityDocs.set(id, (entityDocs.get(id) ?? 0) + 1);
  };
  for (const [doc, src, dst] of rows) {
    if (!noteOf.has(doc)) continue;
    countEntity(dst, doc);
    if (src !== null) countEntity(src, doc);
    const e = entities.get(dst);
    if (e?.type !== 'name' || lastDoc.get(e.node_key) === doc) continue;
    lastDoc.set(e.node_key, doc);
    nameDocs.set(e.node_key, (nameDocs.get(e.node_key) ?? 0) + 1);
  }
  return { nameDocs, entityDocs };
}

/** The name of the entity the most notes name (`docs`: visible notes by entity id); of equals, the first. */
export function mostUsedForm(list: readonly Pick<GraphEntityRow, 'id' | 'name'>[], docs: ReadonlyMap<number, number>): string {
  let best = list[0]!;
  for (const e of list) if ((docs.get(e.id) ?? 0) > (docs.get(best.id) ?? 0)) best = e;
  return best.name;
}

/**
 * The node a user means by a name: a note by title, alias, file name or path, a #tag, or an entity;
 * notes win over entities of the same name.
 */
export function findNode(kg: KnowledgeGraph, name: string): string | null {
  const raw = name.trim().replace(/^\[\[|\]\]$/g, '');
  if (kg.graph.hasNode(raw)) return raw;
  if (kg.graph.hasNode(`note:${raw}`)) return `note:${raw}`;
  const ids = kg.byName.get(normalizeName(raw)) ?? kg.byName.get(normalizeName(raw.replace(/\.[^./]+$/, ''))) ?? [];
  return ids.find((id) => kg.graph.hasNode(id)) ?? null;
}

/** Names in the graph that contain the asked one (for "did you mean"). */
export function suggestNames(kg: KnowledgeGraph, name: string, limit = 5): string[] {
  const wanted = normalizeName(name.replace(/^#|^\[\[|\]\]$/g, ''));
  if (wanted.length < 3) return [];
  const out: string[] = [];
  kg.graph.forEachNode((_, a) => {
    if (out.length < limit && normalizeName(a.label).includes(wanted)) out.push(a.label);
  });
  return out;
}

/** Where visible notes name an entity: the lines of its relations and of its mentions in other chunks, in note order. */
export function mentionsOf(db: ReadConnection, kg: KnowledgeGraph, node: string, limit = 50): { locator: string; path: string; line: number }[] {
  const ids = kg.entityIds.get(node) ?? [];
  if (ids.length === 0) return [];
  const rows = entityMentions(db, ids);
  const out: { locator: string; path: string; line: number }[] = [];
  for (const r of rows) {
    const p = kg.relations.pathOf.get(r.doc);
    if (p === undefined) continue; // a note this caller may not see
    out.push({ locator: `${p}#${r.fragment}`, path: p, line: r.line });
    if (out.length >= limit) break;
  }
  return out;
}
