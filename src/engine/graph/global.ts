/**
 * The whole vault at a glance, as Obsidian's graph shows it before any centre is picked: every
 * visible note (the most connected ones past a cap) and the entities that join the most notes,
 * clustered (Louvain), laid out (ForceAtlas2 from a seeded start, one cluster per sector) and ranked
 * (PageRank) so the view labels only the central ones at a distance. Names that differ only in
 * number or case form (WebSocket/WebSockets, Russian case forms) are one node of the graph already
 * (name-forms.ts, at indexing), shown by the form most notes use; status values ("accepted",
 * "draft") are no nodes; two notes of one title are told apart by their folder.
 */
import Graph from 'graphology';
import louvain from 'graphology-communities-louvain';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import pagerank from 'graphology-metrics/centrality/pagerank';
import type { GlobalGraph } from '../../shared/contract.ts';
import { prng } from '../../shared/prng.ts';
import type { KnowledgeGraph } from './links.ts';

/** Notes shown at most; past it, the most connected. */
export const GLOBAL_MAX_NOTES = 5000;
/** Edges returned at most (the strongest kept: note to note first). */
const MAX_EDGES = 20_000;
/**
 * Ties drawn from one name to its notes at most (the most connected notes): a name of three thousand
 * notes would otherwise be most of the drawing, and of the layout's work.
 */
const MAX_TIES = 200;
/** Entity types that are values, not things: never nodes here. */
const NOT_NODES: ReadonlySet<string> = new Set(['status', 'date']);

export interface GlobalOptions {
  maxNotes?: number;
  /** Entities shown at most (default: 40 plus one for every 25 notes, at most 200). */
  maxEntities?: number;
}

export function globalGraph(kg: KnowledgeGraph, options: GlobalOptions = {}): GlobalGraph {
  const g = kg.graph;
  const notes: string[] = [];
  const entities: string[] = [];
  g.forEachNode((id, a) => {
    if (a.kind === 'note') notes.push(id);
    else if (!NOT_NODES.has(a.type)) entities.push(id);
  });
  const byDegree = (a: string, b: string) => g.degree(b) - g.degree(a) || a.localeCompare(b);
  const maxNotes = options.maxNotes ?? GLOBAL_MAX_NOTES;
  const shownNotes = notes.length > maxNotes ? [...notes].sort(byDegree).slice(0, maxNotes) : notes;
  const noteSet = new Set(shownNotes);

  // Entities (the forms of one name are one node: name-forms.ts), each with the shown notes it joins.
  const merged = new Map<string, { notes: Set<string>; label: string; type: string; kind: 'tag' | 'entity' }>();
  for (const id of entities) {
    const a = g.getNodeAttributes(id);
    const joined = g.neighbors(id).filter((n) => noteSet.has(n));
    if (joined.length === 0) continue;
    merged.set(id, { notes: new Set(joined), label: a.label, type: a.type, kind: a.kind === 'tag' ? 'tag' : 'entity' });
  }
  const maxEntities = options.maxEntities ?? Math.min(200, 40 + Math.floor(shownNotes.length / 25));
  // An entity of one note joins nothing: only those joining two or more, the most joining first.
  const shownEntities = [...merged.entries()]
    .filter(([, m]) => m.notes.size >= 2)
    .sort((x, y) => y[1].notes.size - x[1].notes.size || x[0].localeCompare(y[0]))
    .slice(0, maxEntities);

  // The graph drawn: notes, merged entities, note-to-note links and note-to-entity ties.
  const view = new Graph({ type: 'undirected', multi: false });
  for (const id of shownNotes) view.addNode(id);
  for (const [nid] of shownEntities) view.addNode(nid);
  const edges: [string, string][] = [];
  const link = (a: string, b: string) => {
    if (a === b || view.hasEdge(a, b)) return;
    view.addEdge(a, b);
    edges.push([a, b]);
  };
  for (const id of shownNotes) for (const n of g.neighbors(id)) if (noteSet.has(n) && id < n) link(id, n);
  for (const [nid, m] of shownEntities) {
    const ties = m.notes.size > MAX_TIES ? [...m.notes].sort(byDegree).slice(0, MAX_TIES) : m.notes;
    for (const n of ties) link(nid, n);
  }

  const order = view.order;
  const community = order > 0 && view.size > 0 ? louvain(view, { getEdgeWeight: null, rng: prng(7) }) : {};
  const rank = order > 0 && view.size > 0 ? pagerank(view, { getEdgeWeight: null }) : {};
  // Clusters largest first; each starts in its own sector, unlinked notes on an outer ring.
  const sizes = new Map<number, number>();
  view.forEachNode((id) => {
    if (view.degree(id) > 0) sizes.set(community[id] ?? -1, (sizes.get(community[id] ?? -1) ?? 0) + 1);
  });
  const clusters = [...sizes.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([c]) => c);
  const clusterIndex = new Map(clusters.map((c, i) => [c, i]));
  const random = prng(11);
  const radius = Math.sqrt(order) * 10;
  view.forEachNode((id) => {
    const alone = view.degree(id) === 0;
    const i = clusterIndex.get(community[id] ?? -1) ?? 0;
    const angle = alone ? random() * Math.PI * 2 : (i / Math.max(1, clusters.length)) * Math.PI * 2 + (random() - 0.5) * 0.6;
    const r = alone ? radius * 1.25 : radius * (0.35 + 0.55 * random()) * (i === 0 ? 0.6 : 1);
    view.setNodeAttribute(id, 'x', Math.cos(angle) * r);
    view.setNodeAttribute(id, 'y', Math.sin(angle) * r);
  });
  if (view.size > 0) {
    // Unlinked notes keep their ring; FA2 moves the linked ones (barnesHut past a few hundred nodes).
    const iterations = order > 2000 ? 25 : order > 500 ? 80 : 150;
    forceAtlas2.assign(view, {
      iterations,
      settings: { ...forceAtlas2.inferSettings(view), barnesHutOptimize: order > 400, gravity: 1, scalingRatio: 10, strongGravityMode: true },
    });
  }

  // Two notes of one title are told apart by their folder.
  const titleCount = new Map<string, number>();
  for (const id of shownNotes) {
    const label = g.getNodeAttribute(id, 'label').toLowerCase();
    titleCount.set(label, (titleCount.get(label) ?? 0) + 1);
  }
  const noteLabel = (id: string) => {
    const a = g.getNodeAttributes(id);
    if ((titleCount.get(a.label.toLowerCase()) ?? 0) < 2 || !a.locator) return a.label;
    const folder = a.locator.split('/').slice(0, -1).join('/');
    return `${a.label} (${folder || 'top folder'})`;
  };
  const round = (n: number) => Math.round(n * 10) / 10;
  const position = (id: string) => ({ x: round((view.getNodeAttribute(id, 'x') as number) ?? 0), y: round((view.getNodeAttribute(id, 'y') as number) ?? 0) });
  const clusterOf = (id: string) => (view.degree(id) > 0 ? (clusterIndex.get(community[id] ?? -1) ?? -1) : -1);
  const nodes: GlobalGraph['nodes'] = [
    ...shownNotes.map((id) => {
      const a = g.getNodeAttributes(id);
      return { id, label: noteLabel(id), kind: 'note' as const, type: 'note', locator: a.locator, degree: view.degree(id), cluster: clusterOf(id), score: rank[id] ?? 0, ...position(id) };
    }),
    ...shownEntities.map(([nid, m]) => {
      return { id: nid, label: m.kind === 'tag' ? `#${m.label.replace(/^#/, '')}` : m.label, kind: m.kind, type: m.type, locator: null, degree: m.notes.size, cluster: clusterOf(nid), score: rank[nid] ?? 0, ...position(nid) };
    }),
  ];
  // Ranked by centrality: the view labels the first ones.
  nodes.sort((a, b) => b.score - a.score || b.degree - a.degree || a.id.localeCompare(b.id));
  const rankOf = new Map(nodes.map((n, i) => [n.id, i]));
  for (const n of nodes) n.score = Math.round(n.score * 1e5) / 1e5;
  const kept = edges.length > MAX_EDGES ? [...edges].sort((x, y) => Math.max(rankOf.get(x[0])!, rankOf.get(x[1])!) - Math.max(rankOf.get(y[0])!, rankOf.get(y[1])!)).slice(0, MAX_EDGES) : edges;
  return {
    notes: notes.length,
    shown_notes: shownNotes.length,
    entities: shownEntities.length,
    clusters: clusters.length,
    nodes,
    edges: kept.map(([a, b]) => [a, b] as [string, string]),
    truncated: shownNotes.length < notes.length || kept.length < edges.length,
  };
}
