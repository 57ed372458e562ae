import { useEffect, useMemo, useRef, useState } from 'react';
import type { GraphEdge, GraphNode, GraphView as GraphViewData } from '../../../shared/contract.ts';
import { useAppFields } from '../store.ts';
import { GlobalGraph } from './GlobalGraph.tsx';
import { collapseView, COLLAPSED_NODES, LABEL_FONT, layoutGraph, nodeRadius, type Placed, type PlacedLabel, placeLabels } from './graph-layout.ts';

const W = 1000;
const H = 700;

/** Pointer travel (screen pixels) after which a press is a drag, not a click. */
const DRAG_SLOP = 4;

/** The node's colour: what it stands for (a person's note is a person), else its kind. */
function nodeClass(node: GraphNode): string {
  if (node.role) return `gnode--${node.role}`;
  if (node.kind === 'note') return 'gnode--note';
  if (node.kind === 'tag') return 'gnode--tag';
  return `gnode--${['person', 'project', 'organization', 'date'].includes(node.type) ? node.type : 'entity'}`;
}

type Zoom = { k: number; x: number; y: number };

/** The drawing's scale on screen (it fits its box), measured as the window resizes: names are drawn at LABEL_FONT screen pixels. */
function useFit(view: GraphViewData | null) {
  const [fit, setFit] = useState(1);
  const svgRef = useRef<SVGSVGElement | null>(null);
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const box = svg.getBoundingClientRect();
      if (box.width > 0 && box.height > 0) setFit(Math.min(box.width / W, box.height / H));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(svg);
    return () => observer.disconnect();
  }, [view]);
  return { fit, svgRef };
}

/** Back, the entity field, and "Read this note" when the centre is a note. */
function GraphHeader({ centerNote }: { centerNote: string | null }) {
  const { graph, showGraph, graphBack, openPreview } = useAppFields('graph', 'showGraph', 'graphBack', 'openPreview');
  const [entity, setEntity] = useState('');
  return (
    <header className="view__header view__header--row">
      <h1>Knowledge graph</h1>
      <button type="button" className="btn btn--ghost" onClick={() => void graphBack()} disabled={graph.history.length === 0 || graph.loading} title={graph.history.length > 0 ? `Back to ${graph.history[graph.history.length - 1]!.center}` : 'No earlier centre'} data-testid="graph-back">
        ← Back
      </button>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void showGraph(entity);
        }}
      >
        <input value={entity} onChange={(e) => setEntity(e.target.value)} placeholder="A person, project, note or #tag" aria-label="Entity" />
        <button type="submit" className="btn btn--primary" disabled={!entity.trim()}>
          Show
        </button>
      </form>
      {centerNote && (
        <button type="button" className="btn btn--ghost" onClick={() => void openPreview(centerNote)} title={`Read ${centerNote} with its related notes`}>
          Read this note
        </button>
      )}
    </header>
  );
}

/** The links, one per pair of nodes, each showing its evidence when clicked (not when the press was a drag). */
function EdgeLayer({ view, placed, centers, selected, dragged }: { view: GraphViewData; placed: ReadonlyMap<string, Placed>; centers: ReadonlySet<string>; selected: readonly GraphEdge[]; dragged: { current: boolean } }) {
  const { selectEdge } = useAppFields('selectEdge');
  const seen = new Set<string>();
  return view.edges.map((e, i) => {
    const a = placed.get(e.source_id);
    const b = placed.get(e.target_id);
    const key = [e.source_id, e.target_id].sort().join('|');
    if (!a || !b || seen.has(key)) return null;
    seen.add(key);
    const on = selected.includes(e);
    const near = centers.has(e.source_id) || centers.has(e.target_id);
    return (
      <g key={i} className={`gedge${on ? ' gedge--on' : ''}${near ? ' gedge--near' : ''}${e.origin === 'llm' ? ' gedge--llm' : ''}`} onClick={() => !dragged.current && selectEdge(e)} data-testid="graph-edge">
        <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} className="gedge__hit" />
        <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} className="gedge__line" />
        <title>
          {e.source} — {e.relation} — {e.target} ({e.locator})
        </title>
      </g>
    );
  });
}

/** The nodes with their names; a click (not a drag) or Enter centres the graph on one. */
function NodeLayer({ view, placed, labels, labelScale, dragged }: { view: GraphViewData; placed: ReadonlyMap<string, Placed>; labels: ReadonlyMap<string, PlacedLabel>; labelScale: number; dragged: { current: boolean } }) {
  const { showGraph } = useAppFields('showGraph');
  const open = (node: GraphNode) => {
    if (dragged.current) return;
    void showGraph(node.locator ?? node.label);
  };
  return view.nodes.map((node) => {
    const p = placed.get(node.id);
    if (!p) return null;
    const r = nodeRadius(node.degree);
    const label = labels.get(node.id);
    const center = node.hops === 0;
    return (
      <g
        key={node.id}
        className={`gnode ${nodeClass(node)}${center ? ' gnode--center' : ''}${label ? ' gnode--labelled' : ''}`}
        transform={`translate(${p.x} ${p.y})`}
        onClick={() => open(node)}
        data-testid="graph-node"
        data-role={node.role ?? node.kind}
        data-center={center ? 'true' : undefined}
        tabIndex={0}
        role="button"
        aria-label={`${node.label} (${node.role ?? node.type}${center ? ', the centre' : ''})`}
        onKeyDown={(ev) => ev.key === 'Enter' && void showGraph(node.locator ?? node.label)}
      >
        {center && <circle r={r + 6} className="gnode__ring" />}
        <circle r={r} />
        <text x={label ? label.x - p.x : 0} y={label ? label.y - p.y : r + 13 * labelScale}>
          {label?.text ?? (node.label.length > 28 ? `${node.label.slice(0, 27)}…` : node.label)}
        </text>
        <title>
          {node.label} · {node.type} · {node.degree} links
        </title>
      </g>
    );
  });
}

/** Zoom in, out, and back to the whole drawing. */
function ZoomButtons({ zoom, setZoom }: { zoom: Zoom; setZoom: (z: Zoom) => void }) {
  return (
    <div className="zoom">
      <button type="button" className="btn btn--ghost" aria-label="Zoom in" onClick={() => setZoom({ ...zoom, k: Math.min(4, zoom.k * 1.25) })}>
        +
      </button>
      <button type="button" className="btn btn--ghost" aria-label="Zoom out" onClick={() => setZoom({ ...zoom, k: Math.max(0.3, zoom.k / 1.25) })}>
        −
      </button>
      <button type="button" className="btn btn--ghost" aria-label="Reset the view" onClick={() => setZoom({ k: 1, x: 0, y: 0 })}>
        Fit
      </button>
    </div>
  );
}

/** What each colour stands for. */
function Legend() {
  return (
    <div className="legend small">
      <span className="gdot gnode--note" /> note <span className="gdot gnode--person" /> person <span className="gdot gnode--project" /> project <span className="gdot gnode--organization" /> organization{' '}
      <span className="gdot gnode--tag" /> tag <span className="gdot gnode--entity" /> name <span className="gdot gdot--center" /> centre
    </div>
  );
}

/** The evidence of the selected link, else the most connected names of the workspace. */
function GraphSide({ selected }: { selected: readonly GraphEdge[] }) {
  const { graph, showGraph, selectEdge, openPreview } = useAppFields('graph', 'showGraph', 'selectEdge', 'openPreview');
  return (
    <aside className="graph-side">
      {selected.length > 0 ? (
        <div data-testid="edge-evidence">
          <h2>Evidence</h2>
          <p>
            <strong>{selected[0]!.source}</strong> — <strong>{selected[0]!.target}</strong>
          </p>
          <ul className="evidence">
            {selected.map((e, i) => (
              <li key={i}>
                <span className="tag">{e.relation}</span> {e.origin === 'llm' && <span className="badge badge--info">found by the model</span>}
                <button type="button" className="link" onClick={() => void openPreview(e.locator)}>
                  {e.locator}
                </button>
              </li>
            ))}
          </ul>
          <button type="button" className="btn btn--ghost" onClick={() => selectEdge(null)}>
            Close
          </button>
        </div>
      ) : graph.overview ? (
        <div>
          <h2>Most connected</h2>
          <ul className="central">
            {graph.overview.central.map((c) => (
              <li key={c.id}>
                <button type="button" className="link" onClick={() => void showGraph(c.locator ?? c.label)}>
                  {c.label}
                </button>{' '}
                <span className="muted small">{c.type}</span>
              </li>
            ))}
          </ul>
          <p className="muted small">
            {graph.overview.notes} notes · {graph.overview.entities} names · {graph.overview.tags} tags · {graph.overview.edges} links
          </p>
        </div>
      ) : (
        <p className="muted">Click a link to see the lines that state it.</p>
      )}
    </aside>
  );
}

export function GraphView() {
  const { graph } = useAppFields('graph');
  const [zoom, setZoom] = useState<Zoom>({ k: 1, x: 0, y: 0 });
  const [limit, setLimit] = useState(COLLAPSED_NODES);
  // A press anywhere (a node, a link or the background) pans once it moves; a press that did not move is a click.
  const drag = useRef<{ x: number; y: number; zx: number; zy: number; moved: boolean } | null>(null);
  const dragged = useRef(false);
  const full = graph.view;
  useEffect(() => {
    setLimit(COLLAPSED_NODES);
    setZoom({ k: 1, x: 0, y: 0 });
  }, [full]);
  const shown = useMemo(() => (full ? collapseView(full, limit) : null), [full, limit]);
  const view = shown?.view ?? null;
  const placed = useMemo(() => (view ? layoutGraph(view, { width: W, height: H }) : new Map<string, Placed>()), [view]);
  // Names read at LABEL_FONT screen pixels whatever the window and the zoom: the drawing's scale on
  // screen (it fits its box) times the zoom sets their size in drawing units, and so how many fit.
  const { fit, svgRef } = useFit(view);
  const labelScale = Math.min(3, Math.max(0.5, 1 / (fit * zoom.k)));
  const labels = useMemo(() => (view ? placeLabels(view, placed, { width: W, height: H }, labelScale) : new Map<string, PlacedLabel>()), [view, placed, labelScale]);
  const centers = new Set(view?.nodes.filter((n) => n.hops === 0).map((n) => n.id));
  const centerLabels = view?.nodes.filter((n) => n.hops === 0).map((n) => n.label) ?? [];
  /** The centre when it is a note: it opens in the reading pane. */
  const centerNote = view?.nodes.find((n) => n.hops === 0 && n.kind === 'note')?.locator ?? null;
  const pairEdges = (e: GraphEdge) => view?.edges.filter((x) => (x.source_id === e.source_id && x.target_id === e.target_id) || (x.source_id === e.target_id && x.target_id === e.source_id)) ?? [];
  const selected = graph.selected ? pairEdges(graph.selected) : [];

  return (
    <section className="view view--graph" aria-label="Graph">
      <GraphHeader centerNote={centerNote} />
      <div className="graph-layout">
        <div className="graph-canvas">
          {graph.loading && <p className="muted">Loading…</p>}
          {graph.message && <p className="notice">{graph.message}</p>}
          {view && view.nodes.length > 0 && (
            <p className="graph-caption small" data-testid="graph-caption">
              Around <strong data-testid="graph-center">{centerLabels.length === 1 ? centerLabels[0] : graph.center}</strong>
              <span className="muted">
                {' '}
                · {view.nodes.length} of {full!.nodes.length} nodes
              </span>
              {shown!.hidden > 0 && (
                <button type="button" className="link" onClick={() => setLimit((l) => l + COLLAPSED_NODES)} data-testid="graph-more">
                  Show {Math.min(COLLAPSED_NODES, shown!.hidden)} more
                </button>
              )}
            </p>
          )}
          {view && view.nodes.length > 0 && (
            <svg
              viewBox={`0 0 ${W} ${H}`}
              role="img"
              aria-label={`Graph around ${centerLabels[0] ?? graph.center}: ${view.nodes.length} nodes, ${view.edges.length} links`}
              data-testid="graph-svg"
              ref={svgRef}
              style={{ fontSize: `${LABEL_FONT * labelScale}px` }}
              onWheel={(e) => {
                const k = Math.min(4, Math.max(0.3, zoom.k * (e.deltaY < 0 ? 1.15 : 1 / 1.15)));
                setZoom({ ...zoom, k });
              }}
              onPointerDown={(e) => {
                if (e.button !== 0) return;
                drag.current = { x: e.clientX, y: e.clientY, zx: zoom.x, zy: zoom.y, moved: false };
                dragged.current = false;
              }}
              onPointerMove={(e) => {
                const d = drag.current;
                if (!d) return;
                if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < DRAG_SLOP) return;
                d.moved = true;
                dragged.current = true;
                // Screen pixels to drawing units: the SVG is scaled to fit its box, then zoomed.
                const box = e.currentTarget.getBoundingClientRect();
                const unit = Math.max(W / Math.max(1, box.width), H / Math.max(1, box.height));
                setZoom({ ...zoom, x: d.zx + ((e.clientX - d.x) * unit) / zoom.k, y: d.zy + ((e.clientY - d.y) * unit) / zoom.k });
              }}
              onPointerUp={() => (drag.current = null)}
              onPointerLeave={() => (drag.current = null)}
            >
              <g transform={`translate(${W / 2} ${H / 2}) scale(${zoom.k}) translate(${-W / 2 + zoom.x} ${-H / 2 + zoom.y})`}>
                <EdgeLayer view={view} placed={placed} centers={centers} selected={selected} dragged={dragged} />
                <NodeLayer view={view} placed={placed} labels={labels} labelScale={labelScale} dragged={dragged} />
              </g>
            </svg>
          )}
          {!view && !graph.loading && !graph.message && <GlobalGraph />}
          {view && view.nodes.length > 0 && <ZoomButtons zoom={zoom} setZoom={setZoom} />}
          {view && <Legend />}
        </div>
        <GraphSide selected={selected} />
      </div>
    </section>
  );
}
