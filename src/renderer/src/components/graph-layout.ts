/**
 * Positions for the graph view: ForceAtlas2 (graphology-layout-forceatlas2) from a deterministic
 * start on a circle, so the same neighbourhood always looks the same; then which labels fit without
 * overlapping, and which nodes a crowded graph keeps. Pure: tested without a DOM.
 */
import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import type { GraphView } from '../../../shared/contract.ts';

export interface Placed {
  x: number;
  y: number;
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

/** A node's radius in the drawing: grows with its links, within bounds. */
export function nodeRadius(degree: number): number {
  return Math.min(18, 6 + Math.sqrt(degree) * 2);
}

/** How a label is drawn: its text (long names shortened) and where its baseline centre sits. */
export interface PlacedLabel {
  text: string;
  x: number;
  y: number;
}

/** Label font size in drawing units, and the width of an average character at that size. */
export const LABEL_FONT = 12;
const CHAR_WIDTH = 6.8;
const MAX_LABEL = 28;

export function labelText(label: string): string {
  return label.length > MAX_LABEL ? `${label.slice(0, MAX_LABEL - 1)}…` : label;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** The box a label's text covers when its baseline centre is at (x, y), its font scaled by `scale`. */
export function labelBox(text: string, x: number, y: number, scale = 1): Box {
  const w = (text.length * CHAR_WIDTH + 4) * scale;
  return { x0: x - w / 2, y0: y - LABEL_FONT * scale, x1: x + w / 2, y1: y + 4 * scale };
}

/**
 * Which names are drawn, and where: the centre first, then by links, each below its node, else
 * above, right or left of it (moved inside the canvas where it would stick out), and only where it
 * covers no label already placed and no other node.
 * A node whose label fits nowhere shows it on hover and focus only. `scale` is the label font's
 * size in drawing units over LABEL_FONT: where the drawing is shown small (a small window) or zoomed
 * out, names are drawn larger in its units so that they read at the same size on screen, and fewer fit.
 */
export function placeLabels(view: GraphView, placed: ReadonlyMap<string, Placed>, size = { width: 1000, height: 700 }, scale = 1): Map<string, PlacedLabel> {
  const ranked = view.nodes.filter((n) => placed.has(n.id)).sort((a, b) => a.hops - b.hops || b.degree - a.degree || a.label.localeCompare(b.label));
  const circles = ranked.map((n) => {
    const p = placed.get(n.id)!;
    const r = nodeRadius(n.degree);
    return { id: n.id, box: { x0: p.x - r, y0: p.y - r, x1: p.x + r, y1: p.y + r } };
  });
  const taken: Box[] = [];
  const out = new Map<string, PlacedLabel>();
  for (const n of ranked) {
    const p = placed.get(n.id)!;
    const r = nodeRadius(n.degree);
    const text = labelText(n.label);
    const half = ((text.length * CHAR_WIDTH + 4) * scale) / 2;
    const spots: [number, number][] = [
      [p.x, p.y + r + 13 * scale],
      [p.x, p.y - r - 5 * scale],
      [p.x + r + 4 + half, p.y + 4 * scale],
      [p.x - r - 4 - half, p.y + 4 * scale],
    ];
    for (const [sx, sy] of spots) {
      const x = Math.min(size.width - half - 2, Math.max(half + 2, sx));
      const y = Math.min(size.height - 4 * scale, Math.max((LABEL_FONT + 2) * scale, sy));
      const box = labelBox(text, x, y, scale);
      if (taken.some((t) => overlaps(t, box)) || circles.some((c) => c.id !== n.id && overlaps(c.box, box))) continue;
      taken.push(box);
      out.set(n.id, { text, x, y });
      break;
    }
  }
  return out;
}

/** Nodes a crowded graph shows at first; "show more" adds as many again. */
export const COLLAPSED_NODES = 30;

/**
 * A crowded graph reduced to its most connected nodes: the centre (hops 0) always, then by links
 * (nearer first where equal), and the edges among those kept. `hidden` is how many were left out.
 */
export function collapseView(view: GraphView, limit: number): { view: GraphView; hidden: number } {
  if (view.nodes.length <= limit) return { view, hidden: 0 };
  const ranked = [...view.nodes].sort((a, b) => Number(b.hops === 0) - Number(a.hops === 0) || b.degree - a.degree || a.hops - b.hops || a.label.localeCompare(b.label));
  const keep = new Set(ranked.slice(0, Math.max(limit, view.nodes.filter((n) => n.hops === 0).length)).map((n) => n.id));
  return {
    view: { nodes: view.nodes.filter((n) => keep.has(n.id)), edges: view.edges.filter((e) => keep.has(e.source_id) && keep.has(e.target_id)) },
    hidden: view.nodes.length - keep.size,
  };
}
