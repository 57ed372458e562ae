/**
 * The whole vault's graph, drawn before any centre is picked (graph/global): notes and their most
 * connected entities, coloured by cluster, on a canvas (thousands of nodes draw at once). Level of
 * detail: only the most central nodes carry a name at a distance, more as you zoom in, never two
 * names over each other; links fade as the graph grows. Wheel zooms at the pointer, a drag pans, a
 * click on a note opens it in the reading pane, on a name centres the graph on it.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { GlobalGraph as GlobalGraphData } from '../../../shared/contract.ts';
import { globalGraphKey } from '../slices/graph.ts';
import { useAppFields } from '../store.ts';

/** Cluster colours (the largest cluster first); notes of no cluster are grey. */
const CLUSTER_COLOURS = ['#6366f1', '#0ea5e9', '#10b981', '#f59e0b', '#ef4444', '#a855f7', '#14b8a6', '#ec4899', '#84cc16', '#f97316', '#3b82f6', '#8b5cf6'];
/** Names shown at the fitted zoom; more appear as the zoom grows (times zoom²). */
const BASE_LABELS = 14;
const LABEL_PX = 12;
const DRAG_SLOP = 4;

type Node = GlobalGraphData['nodes'][number];

export function clusterColour(cluster: number): string {
  return cluster < 0 ? '#9ca3af' : CLUSTER_COLOURS[cluster % CLUSTER_COLOURS.length]!;
}

/** Radius in screen pixels: grows with the links a node has, by their logarithm (a name of a thousand notes is not a blot). */
const radiusOf = (n: Node) => Math.min(11, (n.kind === 'note' ? 2 : 2.5) + Math.log2(1 + n.degree) * 1.1);

/**
 * The names drawn at this zoom: the most central first (nodes come ranked), as many as the zoom
 * allows, each only where it overlaps no name drawn before it.
 */
export function visibleLabels(nodes: readonly Node[], project: (n: Node) => { x: number; y: number }, zoom: number, size: { width: number; height: number }, measure: (text: string) => number): Map<string, { x: number; y: number; text: string }> {
  const budget = Math.round(BASE_LABELS * zoom * zoom);
  const boxes: { x0: number; y0: number; x1: number; y1: number }[] = [];
  const out = new Map<string, { x: number; y: number; text: string }>();
  for (const n of nodes) {
    if (out.size >= budget) break;
    const p = project(n);
    if (p.x < 0 || p.y < 0 || p.x > size.width || p.y > size.height) continue;
    const text = n.label.length > 32 ? `${n.label.slice(0, 31)}…` : n.label;
    const w = measure(text);
    const box = { x0: p.x - w / 2 - 2, y0: p.y + radiusOf(n) + 1, x1: p.x + w / 2 + 2, y1: p.y + radiusOf(n) + LABEL_PX + 3 };
    if (boxes.some((b) => b.x0 < box.x1 && box.x0 < b.x1 && b.y0 < box.y1 && box.y0 < b.y1)) continue;
    boxes.push(box);
    out.set(n.id, { x: p.x, y: box.y0 + LABEL_PX, text });
  }
  return out;
}

export function GlobalGraph() {
  const { globalGraph, loadGlobalGraph, showGraph, openPreview, theme, health, allowRestricted } = useAppFields('globalGraph', 'loadGlobalGraph', 'showGraph', 'openPreview', 'theme', 'health', 'allowRestricted');
  // Drawn when first shown, again when the notes change (or restricted ones are shown or hidden).
  const key = globalGraphKey({ health, allowRestricted });
  useEffect(() => {
    if (!globalGraph.loading && globalGraph.key !== key) void loadGlobalGraph();
  }, [key, globalGraph.loading, globalGraph.key, loadGlobalGraph]);
  const data = globalGraph.data;
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const [size, setSize] = useState({ width: 800, height: 500 });
  const [view, setView] = useState({ k: 1, x: 0, y: 0 });
  const [hover, setHover] = useState<Node | null>(null);
  const drag = useRef<{ x: number; y: number; vx: number; vy: number; moved: boolean } | null>(null);
  useEffect(() => {
    const el = canvas.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.height > 0) setSize({ width: Math.round(box.width), height: Math.round(box.height) });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [data]);
  // The drawing's bounds, fitted to the canvas at zoom 1.
  const fit = useMemo(() => {
    if (!data || data.nodes.length === 0) return { scale: 1, cx: 0, cy: 0 };
    let x0 = Infinity;
    let x1 = -Infinity;
    let y0 = Infinity;
    let y1 = -Infinity;
    for (const n of data.nodes) {
      x0 = Math.min(x0, n.x);
      x1 = Math.max(x1, n.x);
      y0 = Math.min(y0, n.y);
      y1 = Math.max(y1, n.y);
    }
    const scale = Math.min((size.width - 60) / Math.max(1, x1 - x0), (size.height - 60) / Math.max(1, y1 - y0));
    return { scale, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2 };
  }, [data, size]);
  const project = useMemo(
    () => (n: { x: number; y: number }) => ({ x: size.width / 2 + (n.x - fit.cx) * fit.scale * view.k + view.x, y: size.height / 2 + (n.y - fit.cy) * fit.scale * view.k + view.y }),
    [fit, size, view],
  );
  const byId = useMemo(() => new Map((data?.nodes ?? []).map((n) => [n.id, n])), [data]);
  const [labels, setLabels] = useState<Map<string, { x: number; y: number; text: string }>>(new Map());

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx || !data) return;
    const dpr = window.devicePixelRatio || 1;
    el.width = size.width * dpr;
    el.height = size.height * dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, size.width, size.height);
    const dark = theme === 'dark' || (theme === 'system' && window.matchMedia?.('(prefers-color-scheme: dark)').matches);
    // Links fade as they grow in number; at a distance a big graph shows its clusters, not its wiring.
    const alpha = Math.max(0.04, Math.min(0.35, 60 / Math.sqrt(Math.max(1, data.edges.length)) / 10)) * Math.min(2, view.k);
    ctx.strokeStyle = dark ? `rgba(200,200,220,${alpha})` : `rgba(60,60,90,${alpha})`;
    ctx.lineWidth = 0.6;
    ctx.beginPath();
    for (const [a, b] of data.edges) {
      const na = byId.get(a);
      const nb = byId.get(b);
      if (!na || !nb) continue;
      const pa = project(na);
      const pb = project(nb);
      ctx.moveTo(pa.x, pa.y);
      ctx.lineTo(pb.x, pb.y);
    }
    ctx.stroke();
    // Least central first, so the central ones are drawn on top.
    for (let i = data.nodes.length - 1; i >= 0; i--) {
      const n = data.nodes[i]!;
      const p = project(n);
      if (p.x < -20 || p.y < -20 || p.x > size.width + 20 || p.y > size.height + 20) continue;
      ctx.beginPath();
      const r = radiusOf(n) * Math.min(1.8, Math.max(0.6, Math.sqrt(view.k)));
      if (n.kind === 'note') ctx.arc(p.x, p.y, r, 0, Math.PI * 2);
      else ctx.rect(p.x - r, p.y - r, r * 2, r * 2);
      ctx.fillStyle = clusterColour(n.cluster);
      ctx.fill();
      if (n.kind !== 'note') {
        ctx.strokeStyle = dark ? '#e5e7eb' : '#111827';
        ctx.lineWidth = 1;
        ctx.stroke();
      }
    }
    ctx.font = `${LABEL_PX}px system-ui, sans-serif`;
    const placed = visibleLabels(data.nodes, project, view.k, size, (t) => ctx.measureText(t).width);
    if (hover && !placed.has(hover.id)) {
      const p = project(hover);
      placed.set(hover.id, { x: p.x, y: p.y + radiusOf(hover) + LABEL_PX + 1, text: hover.label });
    }
    ctx.textAlign = 'center';
    ctx.lineWidth = 3;
    ctx.strokeStyle = dark ? 'rgba(29,31,35,0.9)' : 'rgba(255,255,255,0.9)';
    ctx.fillStyle = dark ? '#e8e8e6' : '#1d1d1b';
    for (const l of placed.values()) {
      ctx.strokeText(l.text, l.x, l.y);
      ctx.fillText(l.text, l.x, l.y);
    }
    setLabels(placed);
  }, [data, size, view, project, byId, hover, theme]);

  /** The node under a point of the canvas (the nearest within a few pixels). */
  const nodeAt = (x: number, y: number): Node | null => {
    if (!data) return null;
    let best: Node | null = null;
    let bestD = 10;
    for (const n of data.nodes) {
      const p = project(n);
      const d = Math.hypot(p.x - x, p.y - y) - radiusOf(n);
      if (d < bestD) {
        bestD = d;
        best = n;
      }
    }
    return best;
  };
  const local = (e: React.PointerEvent | React.WheelEvent) => {
    const box = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  };

  if (globalGraph.error) return <p className="notice">{globalGraph.error}</p>;
  if (!data) return <p className="muted empty-hint">Drawing the graph of your notes…</p>;
  if (data.nodes.length === 0) return <p className="muted empty-hint">No notes yet: add a folder in the Library, and its notes and what they name appear here.</p>;
  return (
    <div className="global-graph" data-testid="global-graph">
      <p className="graph-caption small" data-testid="global-caption">
        <strong>All notes</strong>
        <span className="muted">
          {' '}
          · {data.shown_notes < data.notes ? `${data.shown_notes.toLocaleString('en-US')} most connected of ${data.notes.toLocaleString('en-US')}` : data.notes.toLocaleString('en-US')} notes · {data.entities} names and tags that join them · {data.clusters} clusters
        </span>
      </p>
      <canvas
        ref={canvas}
        className="global-graph__canvas"
        role="img"
        aria-label={`Graph of all notes: ${data.nodes.length} nodes in ${data.clusters} clusters; the most central: ${data.nodes
          .slice(0, 5)
          .map((n) => n.label)
          .join(', ')}`}
        data-labels={[...labels.keys()].length}
        onWheel={(e) => {
          const p = local(e);
          const k = Math.min(12, Math.max(0.5, view.k * (e.deltaY < 0 ? 1.2 : 1 / 1.2)));
          // Zoom about the pointer: the point under it stays under it.
          const f = k / view.k;
          setView({ k, x: p.x - size.width / 2 - (p.x - size.width / 2 - view.x) * f, y: p.y - size.height / 2 - (p.y - size.height / 2 - view.y) * f });
        }}
        onPointerDown={(e) => {
          if (e.button !== 0) return;
          drag.current = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y, moved: false };
        }}
        onPointerMove={(e) => {
          const d = drag.current;
          if (d) {
            if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < DRAG_SLOP) return;
            d.moved = true;
            setView({ ...view, x: d.vx + e.clientX - d.x, y: d.vy + e.clientY - d.y });
            return;
          }
          const p = local(e);
          const n = nodeAt(p.x, p.y);
          if (n?.id !== hover?.id) setHover(n);
        }}
        onPointerUp={(e) => {
          const d = drag.current;
          drag.current = null;
          if (d?.moved) return;
          const p = local(e);
          const n = nodeAt(p.x, p.y);
          if (!n) return;
          if (n.kind === 'note' && n.locator) void openPreview(n.locator);
          else void showGraph(n.label);
        }}
        onPointerLeave={() => {
          drag.current = null;
          setHover(null);
        }}
      />
      {hover && (
        <p className="global-graph__hover small" data-testid="global-hover">
          <strong>{hover.label}</strong> · {hover.kind === 'note' ? `note, ${hover.degree} links` : `${hover.type}, in ${hover.degree} notes`} · {hover.kind === 'note' ? 'click to read' : 'click to centre on it'}
        </p>
      )}
      <div className="zoom">
        <button type="button" className="btn btn--ghost" aria-label="Zoom in" onClick={() => setView({ k: Math.min(12, view.k * 1.4), x: view.x * 1.4, y: view.y * 1.4 })}>
          +
        </button>
        <button type="button" className="btn btn--ghost" aria-label="Zoom out" onClick={() => setView({ k: Math.max(0.5, view.k / 1.4), x: view.x / 1.4, y: view.y / 1.4 })}>
          −
        </button>
        <button type="button" className="btn btn--ghost" aria-label="Reset the view" onClick={() => setView({ k: 1, x: 0, y: 0 })}>
          Fit
        </button>
      </div>
      <div className="legend small">● note &nbsp;■ name or #tag &nbsp;· colour: cluster · zoom in for more names</div>
      <ol className="sr-only" aria-label="Most central">
        {data.nodes.slice(0, 20).map((n) => (
          <li key={n.id}>
            <button type="button" onClick={() => (n.kind === 'note' && n.locator ? void openPreview(n.locator) : void showGraph(n.label))} data-testid="global-central">
              {n.label}
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
