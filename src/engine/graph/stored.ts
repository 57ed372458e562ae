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
import { entitiesByKeys, entitiesByWords, entitiesNameContaining, statedCountsOf, storedNoteDegrees, visibleEntityMentions, visibleNotesByWords, visibleNotesNameContaining, visibleRelationExists } from '../store/queries/graph.ts';
import { storedNoteLinks } from '../store/queries/note-links.ts';
import type { VisibilityPolicy } from '../store/visibility.ts';
import type { Evidence, NodeAttributes } from './links.ts';
import { normalizeName, noteLabel, wordsKey } from './names.ts';
import { edgeReader, type EdgeReader } from './stored-edges.ts';
import { boundMemo, createGraphMemo, noteId, splitId, type GraphMemo, type ReaderContext, type Role } from './stored-memo.ts';
import { nameResolver, type NameResolver } from './stored-names.ts';

export { createGraphMemo, MAX_MEMO_NODES, type Adjacency, type GraphMemo, type Role } from './stored-memo.ts';

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
  /**
   * The links of these note nodes as the graph list weighs them (note-links.ts linksOf: far note →
   * summed weight), kept with the index (graph/degrees.ts) for a caller whose degrees are kept
   * (noteDegrees): the notes left out have none kept for this caller, and the caller walks their
   * edges. A note past MAX_SOURCE_DEGREE keeps none (an empty map). The stored degrees of these
   * notes and of the notes they link to are kept for noteDegrees and pastDegree as they are read.
   */
  noteLinks(ids: readonly string[]): Map<string, ReadonlyMap<string, number>>;
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


/** Notes naming an entity past which it is known to be a node without its edges read (byWords). */
const HUB_KNOWN = 60;

/** The parts of one reader: its context, how it resolves names, how it reads edges. */
interface Parts {
  ctx: ReaderContext;
  names: NameResolver;
  edges: EdgeReader;
}

/** A reader of the stored graph for one caller: a fresh memo by default (one question). */
export function storedGraph(db: ReadConnection, policy: VisibilityPolicy, memo: GraphMemo = createGraphMemo()): LinkGraph {
  boundMemo(memo);
  const ctx: ReaderContext = { db, policy, memo };
  const names = nameResolver(ctx);
  const parts: Parts = { ctx, names, edges: edgeReader(ctx, names) };
  const nodesBefore = memo.adjacency.size;
  return {
    hasRelations: () => visibleRelationExists(db, policy),
    ...nodeQuestions(parts),
    ...degreeQuestions(parts),
    ...nameQuestions(parts),
    get nodesRead() {
      return memo.adjacency.size - nodesBefore;
    },
  };
}

/** A node's kind, type, role, neighbours and edges. */
function nodeQuestions({ edges }: Parts): Pick<LinkGraph, 'hasNode' | 'attributes' | 'kind' | 'type' | 'typeIn' | 'role' | 'neighbors' | 'prefetch' | 'strength' | 'firstStated' | 'evidence'> {
  const { must } = edges;
  return {
    hasNode: edges.hasNode,
    attributes: (id) => must(id).attributes,
    kind(id) {
      const [ns] = splitId(id);
      return ns === 'note' ? 'note' : ns === 'tag' ? 'tag' : 'entity';
    },
    type(id) {
      const [ns] = splitId(id);
      if (ns === 'note') return 'note';
      if (ns !== 'entity') return ns;
      return must(id).attributes.type;
    },
    typeIn: edges.typeIn,
    role: (id) => must(id).role,
    neighbors: (id) => [...must(id).edges.keys()],
    prefetch: edges.readAll,
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
  };
}

/** Degrees: read from the edges, from the counts kept with the index, or capped. */
function degreeQuestions({ ctx, names, edges }: Parts): Pick<LinkGraph, 'degree' | 'noteDegrees' | 'noteLinks' | 'degreeAtMost' | 'pastDegree' | 'prefetchDegrees'> {
  const { adjacency, degrees } = ctx.memo;
  const { must, pastCap } = edges;
  return {
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
        const from = names.source();
        if (from !== null) {
          const paths = wanted.map((id) => id.slice('note:'.length));
          for (const r of storedNoteDegrees(ctx.db, paths, from)) {
            degrees.set(noteId(r.path), r.degree);
            out.set(noteId(r.path), r.degree);
          }
        }
      }
      let rest = ids.filter((id) => !out.has(id));
      // A note written since the degrees were last counted (an index run under way, which counts them
      // at its end): the things it states stand for its degree. Reading each such note's links took
      // most of a question's time while a first run indexed thousands of notes.
      if (rest.length > 0 && names.source() !== null) {
        const notes = rest.filter((id) => id.startsWith('note:')).map((id) => id.slice('note:'.length));
        for (const r of statedCountsOf(ctx.db, notes)) out.set(noteId(r.path), r.n);
        rest = rest.filter((id) => !out.has(id));
      }
      // The rest (a caller whose degrees are not kept: it counts its own) are read together.
      edges.readAll(rest);
      for (const id of rest) out.set(id, must(id).edges.size);
      return out;
    },
    noteLinks(ids) {
      const from = ids.length === 0 ? null : names.source();
      if (from === null) return new Map();
      // Read once per note for this caller and state of the index (the memo's lifetime).
      const out = new Map<string, ReadonlyMap<string, number>>();
      for (const id of ids) {
        const known = ctx.memo.links.get(id);
        if (known) out.set(id, known);
      }
      const paths = ids.filter((id) => !out.has(id) && splitId(id)[0] === 'note').map((id) => splitId(id)[1]);
      if (paths.length === 0) return out;
      const kept = storedNoteLinks(ctx.db, paths, from, ctx.memo.docPaths, 'note:');
      // The degrees read with them are the stored ones noteDegrees and pastDegree would read.
      for (const [id, d] of kept.degrees) if (!ctx.memo.degrees.has(id)) ctx.memo.degrees.set(id, d);
      for (const [id, links] of kept.links) {
        ctx.memo.links.set(id, links);
        out.set(id, links);
      }
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
      if (splitId(id)[0] !== 'note') return pastCap(id, cap);
      if (!degrees.has(id)) {
        const from = names.source();
        if (from === null) return false;
        for (const r of storedNoteDegrees(ctx.db, [id.slice('note:'.length)], from)) degrees.set(noteId(r.path), r.degree);
      }
      return (degrees.get(id) ?? 0) > cap;
    },
    prefetchDegrees(ids, cap, types) {
      const fresh = [...new Set(ids)].filter((id) => id.includes(':') && !adjacency.has(id));
      names.entitiesOfEach(fresh.filter((id) => splitId(id)[0] !== 'note').map((id) => ({ id, notes: [] })));
      const typed = fresh.filter((id) => edges.typeIn(id, types));
      edges.pastCapAll(typed, cap);
      edges.readAll(typed.filter((id) => !pastCap(id, cap)));
    },
  };
}

/** Nodes by name: what a user or a question names, suggestions, and where a node is named. */
function nameQuestions({ ctx, names, edges }: Parts): Pick<LinkGraph, 'findNode' | 'suggestNames' | 'byWords' | 'mentionsOf'> {
  const { db, policy } = ctx;
  const { hasNode, must } = edges;
  return {
    findNode(name) {
      const raw = name.trim().replace(/^\[\[|\]\]$/g, '');
      if (raw.includes(':') && hasNode(raw)) return raw;
      if (hasNode(noteId(raw))) return noteId(raw);
      for (const key of [normalizeName(raw), normalizeName(raw.replace(/\.[^./]+$/, ''))]) {
        const found = nodesNamed({ ctx, names, edges }, key);
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
      for (const e of names.remember(entitiesNameContaining(db, wanted, 200))) {
        if (out.length >= limit) break;
        const id = names.resolve(e);
        if (!id || id.startsWith('note:') || !hasNode(id)) continue;
        const label = must(id).attributes.label;
        if (normalizeName(label).includes(wanted) && !out.includes(label)) out.push(label);
      }
      return out;
    },
    byWords: (words) => byWords({ ctx, names, edges }, words),
    mentionsOf(id, limit = 50) {
      if (!hasNode(id)) return [];
      const ids = (ctx.memo.nodeEntities.get(id) ?? []).map((e) => e.id);
      if (ids.length === 0) return [];
      return visibleEntityMentions(db, policy, ids, limit).map((r) => ({ locator: `${r.path}#${r.fragment}`, path: r.path, line: r.line }));
    },
  };
}

/** Nodes with a name of these words, notes first (latest indexed first), then entities (LinkGraph.byWords). */
function byWords({ ctx, names, edges }: Parts, words: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const put = (w: string, id: string, first: boolean) => {
    const list = out.get(w) ?? [];
    if (list.includes(id)) return;
    if (first) list.unshift(id);
    else list.push(id);
    out.set(w, list);
  };
  if (words.length === 0) return out;
  for (const n of visibleNotesByWords(ctx.db, ctx.policy, words)) put(n.words, noteId(n.path), true);
  for (const e of names.remember(entitiesByWords(ctx.db, words))) {
    const id = names.resolve(e);
    // A name that resolves to a note is found by the note's own names.
    // (A hub is one without reading its edges: more notes than the cap name it.)
    if (id && !id.startsWith('note:') && (edges.pastCap(id, HUB_KNOWN) || edges.hasNode(id))) put(wordsKey(e.key), id, false);
  }
  return out;
}

/**
 * Nodes one of whose names folds to `key`, as links.ts byName lists them: the notes (the latest
 * indexed first), then entity nodes.
 */
function nodesNamed({ ctx, names, edges }: Parts, key: string): string[] {
  if (!key) return [];
  const note = names.noteNamed(key, 'last');
  const out: string[] = [];
  if (note && edges.hasNode(note)) out.push(note);
  // Tags are also named with their '#'.
  const plain = key.startsWith('#') ? key.slice(1) : key;
  for (const e of names.remember(entitiesByKeys(ctx.db, [plain]))) {
    if (e.key !== plain) continue;
    const id = names.resolve(e);
    if (!id || id.startsWith('note:') || out.includes(id)) continue;
    if (key.startsWith('#') && !id.startsWith('tag:')) continue;
    if (edges.hasNode(id)) out.push(id);
  }
  return out;
}
