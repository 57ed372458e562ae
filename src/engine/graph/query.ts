/**
 * Questions asked of the knowledge graph (issue 7, items 3 and 5): neighbourhoods (k-hop),
 * shortest paths, communities, central entities, and the subgraph around an entity or a result set
 * for the UI. Every edge returned carries its evidence (relation, direction, locator).
 * Neighbourhoods, paths and subgraphs read the stored graph node by node (stored.ts); only the
 * overview, asked for on its own, runs PageRank and Louvain over the loaded graph.
 */
import louvain from 'graphology-communities-louvain';
import pagerank from 'graphology-metrics/centrality/pagerank';
import type { GraphEdge, GraphNeighbors, GraphNode, GraphOverview, GraphPath, GraphView } from '../../shared/contract.ts';
import { prng } from '../../shared/prng.ts';
import type { KnowledgeGraph } from './links.ts';
import type { LinkGraph } from './stored.ts';

/** Nodes a neighbourhood or subgraph returns at most. */
export const MAX_GRAPH_NODES = 200;

function nodeOf(g: LinkGraph, id: string, hops: number): GraphNode {
  const a = g.attributes(id);
  return { id, label: a.label, kind: a.kind, type: a.type, role: g.role(id), hops, locator: a.locator, degree: g.degree(id) };
}

/** The evidence of the edges among `ids`, one entry per stated relation, edges in the order first stated. */
function edgesAmong(g: LinkGraph, ids: ReadonlySet<string>): GraphEdge[] {
  const pairs: { a: string; b: string; first: readonly [number, number] }[] = [];
  for (const a of ids) {
    for (const b of g.neighbors(a)) {
      if (ids.has(b) && b > a) pairs.push({ a, b, first: g.firstStated(a, b) });
    }
  }
  pairs.sort((x, y) => x.first[0] - y.first[0] || x.first[1] - y.first[1]);
  const out: GraphEdge[] = [];
  for (const { a, b } of pairs) {
    for (const e of g.evidence(a, b)) {
      out.push({
        source: g.attributes(e.source).label,
        target: g.attributes(e.target).label,
        source_id: e.source,
        target_id: e.target,
        relation: e.relation,
        locator: e.locator,
        origin: e.origin,
      });
    }
  }
  return out;
}

/** Breadth first from `starts`, both directions, until `hops` or `maxNodes`. */
function expand(g: LinkGraph, starts: readonly string[], hops: number, maxNodes: number): Map<string, number> {
  const depth = new Map<string, number>(starts.map((s) => [s, 0]));
  let frontier = [...starts];
  for (let h = 1; h <= hops && frontier.length > 0 && depth.size < maxNodes; h++) {
    const next: string[] = [];
    for (const id of frontier) {
      // Smaller neighbours first: a hub's hundred links should not crowd out a note's two.
      const around = g.neighbors(id).sort((a, b) => g.degree(a) - g.degree(b) || a.localeCompare(b));
      for (const other of around) {
        // A status value ("accepted", "active") joins notes without relating them: no node of a view unless asked for.
        if (depth.has(other) || depth.size >= maxNodes || other.startsWith('status:')) continue;
        depth.set(other, h);
        next.push(other);
      }
    }
    frontier = next;
  }
  return depth;
}

function view(g: LinkGraph, depth: Map<string, number>): GraphView {
  return withFolders({
    nodes: [...depth].map(([id, h]) => nodeOf(g, id, h)).sort((a, b) => a.hops - b.hops || a.label.localeCompare(b.label)),
    edges: edgesAmong(g, new Set(depth.keys())),
  });
}

/** Two notes of one title in a view are told apart by their folder ("Plan (projects/a)"), in its nodes and its edges. */
export function withFolders<V extends GraphView>(v: V): V {
  const count = new Map<string, number>();
  for (const n of v.nodes) if (n.kind === 'note') count.set(n.label.toLowerCase(), (count.get(n.label.toLowerCase()) ?? 0) + 1);
  if (![...count.values()].some((c) => c > 1)) return v;
  const renamed = new Map<string, string>();
  const nodes = v.nodes.map((n) => {
    if (n.kind !== 'note' || (count.get(n.label.toLowerCase()) ?? 0) < 2 || !n.locator) return n;
    const label = `${n.label} (${n.locator.split('/').slice(0, -1).join('/') || 'top folder'})`;
    renamed.set(n.id, label);
    return { ...n, label };
  });
  const edges = v.edges.map((e) => ({ ...e, source: renamed.get(e.source_id) ?? e.source, target: renamed.get(e.target_id) ?? e.target }));
  return { ...v, nodes, edges };
}

/** The neighbourhood of an entity, and the lines of visible notes that name it. */
export function neighbors(g: LinkGraph, entity: string, hops: number, options: { maxNodes?: number } = {}): GraphNeighbors {
  const { maxNodes = MAX_GRAPH_NODES } = options;
  const start = g.findNode(entity);
  if (!start) return { entity, found: false, nodes: [], edges: [], mentioned_in: [], suggestions: g.suggestNames(entity) };
  return {
    entity: g.attributes(start).label,
    found: true,
    ...view(g, expand(g, [start], hops, maxNodes)),
    mentioned_in: g.mentionsOf(start),
    suggestions: [],
  };
}

/**
 * Breadth first from both ends, the smaller fringe first, until they meet (graphology's unweighted
 * bidirectional search, over the edges read as the search reaches them).
 */
function bidirectional(g: LinkGraph, source: string, target: string): string[] | null {
  if (source === target) return [source];
  const predecessor = new Map<string, string | null>([[source, null]]);
  const successor = new Map<string, string | null>([[target, null]]);
  let forward = [source];
  let reverse = [target];
  let meet: string | null = null;
  outer: while (forward.length > 0 && reverse.length > 0) {
    const isForward = forward.length <= reverse.length;
    const current = isForward ? forward : reverse;
    const [mine, theirs] = isForward ? [predecessor, successor] : [successor, predecessor];
    const next: string[] = [];
    if (isForward) forward = next;
    else reverse = next;
    for (const node of current) {
      for (const neighbor of g.neighbors(node)) {
        if (!mine.has(neighbor)) {
          next.push(neighbor);
          mine.set(neighbor, node);
        }
        if (theirs.has(neighbor)) {
          meet = neighbor;
          break outer;
        }
      }
    }
  }
  if (meet === null) return null;
  const path: string[] = [];
  for (let n: string | null | undefined = meet; n; n = predecessor.get(n)) path.unshift(n);
  for (let n = successor.get(path[path.length - 1]!); n; n = successor.get(n)) path.push(n);
  return path;
}

/** The shortest chain of links between two entities, with the evidence of each hop. */
export function shortestPath(g: LinkGraph, from: string, to: string): GraphPath {
  const a = g.findNode(from);
  const b = g.findNode(to);
  const missing = [...(a ? [] : [from]), ...(b ? [] : [to])];
  if (!a || !b) return { from, to, found: false, nodes: [], edges: [], missing, suggestions: missing.flatMap((m) => g.suggestNames(m)) };
  const ids = bidirectional(g, a, b);
  if (!ids) return { from, to, found: false, nodes: [], edges: [], missing: [], suggestions: [] };
  const edges: GraphEdge[] = [];
  for (let i = 0; i + 1 < ids.length; i++) edges.push(...edgesAmong(g, new Set([ids[i]!, ids[i + 1]!])));
  return {
    from: g.attributes(a).label,
    to: g.attributes(b).label,
    found: true,
    nodes: ids.map((id, i) => nodeOf(g, id, i)),
    edges,
    missing: [],
    suggestions: [],
  };
}

function loadedNodeOf(kg: KnowledgeGraph, id: string, hops: number): GraphNode {
  const a = kg.graph.getNodeAttributes(id);
  return { id, label: a.label, kind: a.kind, type: a.type, hops, locator: a.locator, degree: kg.graph.degree(id) };
}

/** Node types that are values, not things (a status, a date): ranked with the rest, never listed as central or as members. */
const VALUE_TYPES: ReadonlySet<string> = new Set(['status', 'date']);

/**
 * Central entities (PageRank) and communities (Louvain) of the whole graph. Values (statuses,
 * dates) are no entities here; two notes of one title are told apart by their folder.
 */
export function overview(kg: KnowledgeGraph, limit = 10): GraphOverview {
  const g = kg.graph;
  const counts = { notes: 0, entities: 0, tags: 0 };
  const titles = new Map<string, number>();
  g.forEachNode((_, a) => {
    if (a.kind === 'note') {
      counts.notes++;
      titles.set(a.label.toLowerCase(), (titles.get(a.label.toLowerCase()) ?? 0) + 1);
    } else if (a.kind === 'tag') counts.tags++;
    else if (!VALUE_TYPES.has(a.type)) counts.entities++;
  });
  if (g.order === 0 || g.size === 0) return { ...counts, edges: g.size, central: [], communities: [] };
  const shown = (id: string) => !VALUE_TYPES.has(g.getNodeAttribute(id, 'type'));
  const labelOf = (id: string) => {
    const a = g.getNodeAttributes(id);
    if (a.kind !== 'note' || !a.locator || (titles.get(a.label.toLowerCase()) ?? 0) < 2) return a.label;
    return `${a.label} (${a.locator.split('/').slice(0, -1).join('/') || 'top folder'})`;
  };
  const rank = pagerank(g, { getEdgeWeight: null });
  const central = Object.entries(rank)
    .filter(([id]) => shown(id))
    .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
    .slice(0, limit)
    .map(([id, score]) => ({ ...loadedNodeOf(kg, id, 0), label: labelOf(id), score: Math.round(score * 1e4) / 1e4 }));
  const community = louvain(g, { getEdgeWeight: null, rng: prng(7) });
  const groups = new Map<number, string[]>();
  for (const [id, c] of Object.entries(community)) {
    if (g.degree(id) === 0) continue;
    const list = groups.get(c) ?? [];
    list.push(id);
    groups.set(c, list);
  }
  const communities = [...groups.values()]
    .filter((ids) => ids.length > 1)
    .sort((x, y) => y.length - x.length)
    .slice(0, limit)
    .map((ids, i) => {
      const top = ids.filter(shown).sort((x, y) => (rank[y] ?? 0) - (rank[x] ?? 0) || x.localeCompare(y));
      return {
        id: i + 1,
        size: ids.length,
        notes: ids.filter((id) => g.getNodeAttribute(id, 'kind') === 'note').length,
        members: top.slice(0, 8).map(labelOf),
      };
    });
  return { ...counts, edges: g.size, central, communities };
}

/**
 * The subgraph the UI draws: around an entity (k hops), or around a result set (the notes of the
 * given paths and what links them, one hop out). Only the nodes it shows are read.
 */
export function subgraph(g: LinkGraph, request: { entity?: string; paths?: readonly string[]; hops: number; maxNodes?: number }): GraphView & { missing: string[] } {
  const maxNodes = request.maxNodes ?? MAX_GRAPH_NODES;
  const starts: string[] = [];
  const missing: string[] = [];
  for (const name of [...(request.entity ? [request.entity] : []), ...(request.paths ?? [])]) {
    const id = g.hasNode(`note:${name}`) ? `note:${name}` : g.findNode(name);
    if (id && !starts.includes(id)) starts.push(id);
    else if (!id) missing.push(name);
  }
  if (starts.length === 0) return { nodes: [], edges: [], missing };
  return { ...view(g, expand(g, starts, request.hops, maxNodes)), missing };
}
