/**
 * Positions for the graph view: ForceAtlas2 (graphology-layout-forceatlas2) from a deterministic
 * start on a circle, so the same neighbourhood always looks the same. Pure: tested without a DOM.
 */
import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import type { GraphView } from '../../../shared/contract.ts';

export interface Placed {
  x: number;
  y: number;
}

/** The nodes whose names are drawn: the centre and the most linked, so labels do not pile up. */
export function labelledNodes(view: GraphView, max = 24): Set<string> {
  const ranked = [...view.nodes].sort((a, b) => a.hops - b.hops || b.degree - a.degree);
  return new Set(ranked.slice(0, max).map((n) => n.id));
}

export function layoutGraph(view: GraphView, size = { width: 1000, height: 700 }, iterations = 300): Map<string, Placed> {
  const graph = new Graph({ type: 'undirected', multi: false });
  const n = view.nodes.length;
  view.nodes.forEach((node, i) => {
    const angle = (2 * Math.PI * i) / Math.max(1, n);
    const r = 10 + node.hops * 20;
    graph.addNode(node.id, { x: r * Math.cos(angle), y: r * Math.sin(angle) });
  });
  for (const e of view.edges) {
    if (e.source_id !== e.target_id && graph.hasNode(e.source_id) && graph.hasNode(e.target_id) && !graph.hasEdge(e.source_id, e.target_id)) graph.addEdge(e.source_id, e.target_id);
  }
  if (n > 1) {
    const settings = { ...forceAtlas2.inferSettings(graph), gravity: 1.5, scalingRatio: 8, barnesHutOptimize: false, strongGravityMode: true };
    forceAtlas2.assign(graph, { iterations, settings });
  }
  const xs = graph.mapNodes((_, a) => a.x as number);
  const ys = graph.mapNodes((_, a) => a.y as number);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const pad = 60;
  // Each axis scaled on its own so the drawing fills a wide canvas.
  const sx = (size.width - 2 * pad) / Math.max(1e-9, maxX - minX);
  const sy = (size.height - 2 * pad) / Math.max(1e-9, maxY - minY);
  const placed = new Map<string, Placed>();
  graph.forEachNode((id, a) => {
    placed.set(id, n === 1 ? { x: size.width / 2, y: size.height / 2 } : { x: pad + ((a.x as number) - minX) * sx, y: pad + ((a.y as number) - minY) * sy });
  });
  return placed;
}
