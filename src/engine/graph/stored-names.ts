/**
 * How a reader of the stored graph (stored.ts) turns stored entities into nodes: the note a name
 * claims (the first visible one), else an entity node of its type; a plain name in running text
 * only where at least two visible notes use it and it is not a common word of the vault (names.ts
 * isCommonWord). What it learns is kept in the reader's memo.
 */
import { hiddenDocumentCount } from '../store/queries/documents.ts';
import {
  documentsNamingEach,
  entitiesById,
  entitiesByKeys,
  entitiesByNodeKeys,
  visibleDocumentsNamingEach,
  visibleDocumentsWriting,
  visibleDocumentsWritingEach,
  visibleNoteNamed,
  visibleNotesNamed,
  PUBLIC_AUDIENCE,
  type AdjacentRelationRow,
  type GraphEntityRow,
  type GraphNoteRow,
} from '../store/queries/graph.ts';
import { UNRESOLVED_TYPES } from './links.ts';
import { isCommonWord, lowerCaseWord, NAME_DOCS_CAP, noteNameKeys, refBaseKey } from './names.ts';
import { noteId, splitId, type DegreeSource, type ReaderContext } from './stored-memo.ts';

export interface NameResolver {
  /** Keeps these entity rows in the memo; returns them. */
  remember(rows: GraphEntityRow[]): GraphEntityRow[];
  /** Reads the entities of these relations not read yet (by id, at once); returns them. */
  rememberRows(rows: readonly AdjacentRelationRow[]): GraphEntityRow[];
  /** The note a name resolves to: the first (or last) visible one, by id, that answers to it. */
  noteNamed(key: string, order?: 'first' | 'last'): string | null;
  /** Which stored degrees are this caller's (noteDegrees), asked once. */
  source(): DegreeSource;
  /** Reads at once what resolving these entities needs: the notes their names claim, how many notes name each plain name. */
  readAhead(list: readonly GraphEntityRow[]): void;
  /** The node a stored entity stands for (links.ts entityNode), or null. */
  resolve(e: GraphEntityRow): string | null;
  resolveId(entityId: number): string | null;
  /**
   * The stored entities each node stands for, by id: the entities named as the node is (a note by
   * each of its names), read for all the nodes at once; of those, the ones that resolve to the node.
   */
  entitiesOfEach(nodes: readonly { id: string; notes: readonly GraphNoteRow[] }[]): void;
  entitiesOf(id: string, notes: readonly GraphNoteRow[]): GraphEntityRow[];
}

/**
 * The whole graph's degrees where the caller sees every document; the public graph's where it
 * hides as many documents as a caller allowed no restricted label (its allowed labels reveal none
 * of them: what it hides is a subset of those, so the same set); else neither.
 */
export function degreeSourceOf({ db, policy }: Pick<ReaderContext, 'db' | 'policy'>): DegreeSource {
  if (!policy.sensitivityEnable) return 'all';
  const hidden = hiddenDocumentCount(db, policy.allowSensitivity);
  if (hidden === 0) return 'all';
  return policy.allowSensitivity.length === 0 || hidden === hiddenDocumentCount(db, PUBLIC_AUDIENCE.allowSensitivity) ? 'public' : null;
}

/** The name resolution of one reader. */
export function nameResolver(ctx: ReaderContext): NameResolver {
  const { db, policy } = ctx;
  const { entities, resolved, noteOfKey, nameCounts, lowerCounts, nodeEntities, degreeSource } = ctx.memo;

  const remember = (rows: GraphEntityRow[]) => {
    for (const e of rows) entities.set(e.id, e);
    return rows;
  };
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
  const source = (): DegreeSource => {
    let s = degreeSource.get('source');
    if (s === undefined) degreeSource.set('source', (s = degreeSourceOf(ctx)));
    return s;
  };

  /**
   * How many documents this caller sees (at most NAME_DOCS_CAP) name each plain name, its forms
   * together (by node key): from the relations index alone for a caller who sees every document (the same count).
   */
  const namingCounts = (nodeKeys: readonly string[]) =>
    source() === 'all' ? documentsNamingEach(db, nodeKeys, NAME_DOCS_CAP) : visibleDocumentsNamingEach(db, policy, nodeKeys, NAME_DOCS_CAP);

  const readAhead = (list: readonly GraphEntityRow[]) => {
    const keys = new Set<string>();
    const names = new Set<string>();
    for (const e of list) {
      if (resolved.has(e.id)) continue;
      if (!UNRESOLVED_TYPES.has(e.type)) {
        keys.add(e.key);
        const base = refBaseKey(e.type, e.name);
        if (base !== null) keys.add(base);
      }
      if (e.type === 'name' && !nameCounts.has(e.node_key)) names.add(e.node_key);
    }
    const missing = [...keys].filter((k) => !noteOfKey.has(`first\u0000${k}`));
    if (missing.length > 0) for (const r of visibleNotesNamed(db, policy, missing)) noteOfKey.set(`first\u0000${r.key}`, r.path === null ? null : noteId(r.path));
    if (names.size > 0) for (const r of namingCounts([...names])) nameCounts.set(r.key, r.n);
    // The plain names that will be tested as common words (no note claims them, 2 to NAME_DOCS_CAP
    // notes name them): their lower-case writings counted together, each up to the notes that name
    // it (isCommonWord's cap: a count past it reads rows that change nothing), not one statement a word.
    const words = new Map<string, number>();
    for (const e of list) {
      if (e.type !== 'name' || resolved.has(e.id) || noteOfKey.get(`first\u0000${e.key}`) !== null) continue;
      const n = nameCounts.get(e.node_key);
      const word = n !== undefined && n >= 2 && n < NAME_DOCS_CAP ? lowerCaseWord(e.name) : null;
      if (word !== null && (lowerCounts.get(word)?.cap ?? 0) < n! && (words.get(word) ?? 0) < n!) words.set(word, n!);
    }
    // One statement per cap (a question's names are named by a handful of different counts).
    const byCap = new Map<number, string[]>();
    for (const [word, cap] of words) (byCap.get(cap) ?? byCap.set(cap, []).get(cap)!).push(word);
    for (const [cap, list] of byCap) for (const r of visibleDocumentsWritingEach(db, policy, list, cap)) lowerCounts.set(r.word, { n: r.n, cap });
  };
  /**
   * isCommonWord's count: as read ahead where it was counted up to this cap or more (the count up to
   * a smaller cap is the smaller of the two), else asked alone.
   */
  const lowerDocs = (word: string, cap: number) => {
    const known = lowerCounts.get(word);
    return known !== undefined && known.cap >= cap ? Math.min(known.n, cap) : visibleDocumentsWriting(db, policy, word, cap);
  };

  const resolve = (e: GraphEntityRow): string | null => {
    let id = resolved.get(e.id);
    if (id !== undefined) return id;
    id = null;
    const note = UNRESOLVED_TYPES.has(e.type) ? null : (noteNamed(e.key) ?? (e.type === 'ref' ? noteNamed(refBaseKey(e.type, e.name)!) : null));
    if (note) id = note;
    else if (e.type === 'name') {
      let n = nameCounts.get(e.node_key);
      if (n === undefined) nameCounts.set(e.node_key, (n = namingCounts([e.node_key])[0]!.n));
      if (n >= 2 && !isCommonWord(e.name, n, lowerDocs)) id = `entity:${e.node_key}`;
    } else {
      const ns = e.type === 'tag' ? 'tag' : UNRESOLVED_TYPES.has(e.type) ? e.type : 'entity';
      id = `${ns}:${e.node_key}`;
    }
    resolved.set(e.id, id);
    return id;
  };

  const entitiesOfEach = (nodes: readonly { id: string; notes: readonly GraphNoteRow[] }[]): void => {
    const todo = nodes.filter((n) => !nodeEntities.has(n.id));
    if (todo.length === 0) return;
    // An entity node is its entities' node key; a note, each of its names.
    const keys = new Set<string>();
    const nodeKeys = new Set<string>();
    for (const { id, notes } of todo) {
      const [ns, key] = splitId(id);
      if (ns !== 'note') nodeKeys.add(key);
      else for (const d of notes) for (const n of noteNameKeys(d.path, d.title, d.meta_json)) keys.add(n.key);
    }
    const byId = new Map<number, GraphEntityRow>();
    if (keys.size > 0) for (const e of entitiesByKeys(db, [...keys])) byId.set(e.id, e);
    if (nodeKeys.size > 0) for (const e of entitiesByNodeKeys(db, [...nodeKeys])) byId.set(e.id, e);
    const found = remember([...byId.values()].sort((a, b) => a.id - b.id));
    readAhead(found);
    // Each entity once (not once per node: thousands of nodes are read together when degrees and
    // links are counted), in the order found.
    const byNode = new Map<string, GraphEntityRow[]>();
    for (const e of found) {
      const node = resolve(e);
      if (node !== null) (byNode.get(node) ?? byNode.set(node, []).get(node)!).push(e);
    }
    for (const { id } of todo) nodeEntities.set(id, byNode.get(id) ?? []);
  };

  return {
    remember,
    rememberRows,
    noteNamed,
    source,
    readAhead,
    resolve,
    resolveId(entityId) {
      const e = entity(entityId);
      return e ? resolve(e) : null;
    },
    entitiesOfEach,
    entitiesOf(id, notes) {
      entitiesOfEach([{ id, notes }]);
      return nodeEntities.get(id)!;
    },
  };
}
