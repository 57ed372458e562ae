/**
 * Questions asked of the knowledge graph (issue 7, items 3 and 5): neighbourhoods (k-hop),
 * shortest paths, communities, central entities, and the subgraph around an entity or a result set
 * for the UI. Every edge returned carries its evidence (relation, direction, locator).
 */
import louvain from 'graphology-communities-louvain';
import pagerank from 'graphology-metrics/centrality/pagerank';
import { bidirectional } from 'graphology-shortest-path/unweighted';
import type { GraphEdge, GraphNeighbors, GraphNode, GraphOverview, GraphPath, GraphView } from '../../shared/contract.ts';
import type { ReadConnection } from '../store/connection.ts';
import { prng } from '../../shared/prng.ts';
import { evidenceOf, findNode, mentionsOf, suggestNames, type KnowledgeGraph } from './links.ts';

/** Nodes a neighbourhood or subgraph returns at most. */
export const MAX_GRAPH_NODES = 200;

function nodeOf(kg: KnowledgeGraph, id: string, hops: number): GraphNode {
  const a = kg.graph.getNodeAttributes(id);
  return { id, label: a.label, kind: a.kind, type: a.type, hops, locator: a.locator, degree: kg.graph.degree(id) };
}

/** The evidence of the edges among `ids`, one entry per stated relation. */
function edgesAmong(kg: KnowledgeGraph, ids: ReadonlySet<string>): GraphEdge[] {
  const out: GraphEdge[] = [];
  kg.graph.forEachEdge((_, attrs, s, t) => {
    if (!ids.has(s) || !ids.has(t)) return;
    for (const e of evidenceOf(kg, attrs)) {
      out.push({
        source: kg.graph.getNodeAttribute(e.source, 'label'),
        target: kg.graph.getNodeAttribute(e.target, 'label'),
        source_id: e.source,
        target_id: e.target,
        relation: e.relation,
        locator: e.locator,
        origin: e.origin,
      });
    }
  });
  return out;
}

/** Breadth first from `starts`, both directions, until `hops` or `maxNodes`. */
function expand(kg: KnowledgeGraph, starts: readonly string[], hops: number, maxNodes: number): Map<string, number> {
  const depth = new Map<string, number>(starts.map((s) => [s, 0]));
  let frontier = [...starts];
  for (let h = 1; h <= hops && frontier.length > 0 && depth.size < maxNodes; h++) {
    const next: string[] = [];
    for (const id of frontier) {
      // Smaller neighbours first: a hub's hundred links should not crowd out a note's two.
      const around = kg.graph.neighbors(id).sort((a, b) => kg.graph.degree(a) - kg.graph.degree(b) || a.localeCompare(b));
      for (const other of around) {
        if (depth.has(other) || depth.size >= maxNodes) continue;
        depth.set(other, h);
        next.push(other);
      }
    }
    frontier = next;
  }
  return depth;
}

function view(kg: KnowledgeGraph, depth: Map<string, number>): GraphView {
  return {
    nodes: [...depth].map(([id, h]) => nodeOf(kg, id, h)).sort((a, b) => a.hops - b.hops || a.label.localeCompare(b.label)),
    edges: edgesAmong(kg, new Set(depth.keys())),
  };
}

/** The neighbourhood of an entity; with `db`, also the lines of visible notes that name it. */
export function neighbors(kg: KnowledgeGraph, entity: string, hops: number, options: { maxNodes?: number; db?: ReadConnection } = {}): GraphNeighbors {
  const { maxNodes = MAX_GRAPH_NODES, db } = options;
  const start = findNode(kg, entity);
  if (!start) return { entity, found: false, nodes: [], edges: [], mentioned_in: [], suggestions: suggestNames(kg, entity) };
  return {
    entity: kg.graph.getNodeAttribute(start, 'label'),
    found: true,
    ...view(kg, expand(kg, [start], hops, maxNodes)),
    mentioned_in: db ? mentionsOf(db, kg, start) : [],
    suggestions: [],
  };
}

/** The shortest chain of links between two entities, with the evidence of each hop. */
export function shortestPath(kg: KnowledgeGraph, from: string, to: string): GraphPath {
  const a = findNode(kg, from);
  const b = findNode(kg, to);
  const missing = [...(a ? [] : [from]), ...(b ? [] : [to])];
  if (!a || !b) return { from, to, found: false, nodes: [], edges: [], missing, suggestions: missing.flatMap((m) => suggestNames(kg, m)) };
  const ids = a === b ? [a] : bidirectional(kg.graph, a, b);
  if (!ids) return { from, to, found: false, nodes: [], edges: [], missing: [], suggestions: [] };
  const edges: GraphEdge[] = [];
  for (let i = 0; i + 1 < ids.length; i++) edges.push(...edgesAmong(kg, new Set([ids[i]!, ids[i + 1]!])));
  return {
    from: kg.graph.getNodeAttribute(a, 'label'),
    to: kg.graph.getNodeAttribute(b, 'label'),
    found: true,
    nodes: ids.map((id, i) => nodeOf(kg, id, i)),
    edges,
    missing: [],
    suggestions: [],
  };
}

/** Central entities (PageRank) and communities (Louvain) of the whole graph. */
export function overview(kg: KnowledgeGraph, limit = 10): GraphOverview {
  const g = kg.graph;
  const counts = { notes: 0, entities: 0, tags: 0 };
  g.forEachNode((_, a) => void (a.kind === 'note' ? counts.notes++ : a.kind === 'tag' ? counts.tags++ : counts.entities++));
  if (g.order === 0 || g.size === 0) return { ...counts, edges: g.size, central: [], communities: [] };
  const rank = pagerank(g, { getEdgeWeight: null });
  const central = Object.entries(rank)
    .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
    .slice(0, limit)
    .map(([id, score]) => ({ ...nodeOf(kg, id, 0), score: Math.round(score * 1e4) / 1e4 }));
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
      const top = [...ids].sort((x, y) => (rank[y] ?? 0) - (rank[x] ?? 0) || x.localeCompare(y));
      return {
        id: i + 1,
        size: ids.length,
        notes: ids.filter((id) => g.getNodeAttribute(id, 'kind') === 'note').length,
        members: top.slice(0, 8).map((id) => g.getNodeAttribute(id, 'label')),
      };
    });
  return { ...counts, edges: g.size, central, communities };
}

/**
 * The subgraph the UI draws: around an entity (k hops), or around a result set (the notes of the
 * given paths and what links them, one hop out).
 */
export function subgraph(kg: KnowledgeGraph, request: { entity?: string; paths?: readonly string[]; hops: number; maxNodes?: number }): GraphView & { missing: string[] } {
  const maxNodes = request.maxNodes ?? MAX_GRAPH_NODES;
  const starts: string[] = [];
  const missing: string[] = [];
  for (const name of [...(request.entity ? [request.entity] : []), ...(request.paths ?? [])]) {
    const id = kg.graph.hasNode(`note:${name}`) ? `note:${name}` : findNode(kg, name);
    if (id && !starts.includes(id)) starts.push(id);
    else if (!id) missing.push(name);
  }
  if (starts.length === 0) return { nodes: [], edges: [], missing };
  return { ...view(kg, expand(kg, starts, request.hops, maxNodes)), missing };
}
