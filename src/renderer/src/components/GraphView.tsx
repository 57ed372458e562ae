import { useMemo, useRef, useState } from 'react';
import type { GraphEdge, GraphNode } from '../../../shared/contract.ts';
import { useAppFields } from '../store.ts';
import { labelledNodes, layoutGraph } from './graph-layout.ts';

const W = 1000;
const H = 700;

function nodeClass(node: GraphNode): string {
  if (node.kind === 'note') return 'gnode--note';
  if (node.kind === 'tag') return 'gnode--tag';
  return `gnode--${['person', 'project', 'organization', 'date'].includes(node.type) ? node.type : 'entity'}`;
}

export function GraphView() {
  const { graph, showGraph, selectEdge, openPreview } = useAppFields('graph', 'showGraph', 'selectEdge', 'openPreview');
  const [entity, setEntity] = useState('');
  const [zoom, setZoom] = useState({ k: 1, x: 0, y: 0 });
  const drag = useRef<{ x: number; y: number; zx: number; zy: number } | null>(null);
  const view = graph.view;
  const placed = useMemo(() => (view ? layoutGraph(view, { width: W, height: H }) : new Map()), [view]);
  const labelled = useMemo(() => (view ? labelledNodes(view) : new Set<string>()), [view]);
  const centers = new Set(view?.nodes.filter((n) => n.hops === 0).map((n) => n.id));
  const pairEdges = (e: GraphEdge) => view?.edges.filter((x) => (x.source_id === e.source_id && x.target_id === e.target_id) || (x.source_id === e.target_id && x.target_id === e.source_id)) ?? [];
  const selected = graph.selected ? pairEdges(graph.selected) : [];
  const seen = new Set<string>();

  return (
    <section className="view view--graph" aria-label="Graph">
      <header className="view__header view__header--row">
        <h1>Knowledge graph</h1>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void showGraph(entity);
            setZoom({ k: 1, x: 0, y: 0 });
          }}
        >
          <input value={entity} onChange={(e) => setEntity(e.target.value)} placeholder="A person, project, note or #tag" aria-label="Entity" />
          <button type="submit" className="btn btn--primary" disabled={!entity.trim()}>
            Show
          </button>
        </form>
      </header>
      <div className="graph-layout">
        <div className="graph-canvas">
          {graph.loading && <p className="muted">Loading…</p>}
          {graph.message && <p className="notice">{graph.message}</p>}
          {view && view.nodes.length > 0 && (
            <svg
              viewBox={`0 0 ${W} ${H}`}
              role="img"
              aria-label={`Graph around ${graph.center}: ${view.nodes.length} nodes, ${view.edges.length} links`}
              data-testid="graph-svg"
              onWheel={(e) => {
                const k = Math.min(4, Math.max(0.3, zoom.k * (e.deltaY < 0 ? 1.15 : 1 / 1.15)));
                setZoom({ ...zoom, k });
              }}
              onPointerDown={(e) => {
                if ((e.target as Element).tagName === 'svg') drag.current = { x: e.clientX, y: e.clientY, zx: zoom.x, zy: zoom.y };
              }}
              onPointerMove={(e) => {
                if (drag.current) setZoom({ ...zoom, x: drag.current.zx + (e.clientX - drag.current.x) / zoom.k, y: drag.current.zy + (e.clientY - drag.current.y) / zoom.k });
              }}
              onPointerUp={() => (drag.current = null)}
              onPointerLeave={() => (drag.current = null)}
            >
              <g transform={`translate(${W / 2} ${H / 2}) scale(${zoom.k}) translate(${-W / 2 + zoom.x} ${-H / 2 + zoom.y})`}>
                {view.edges.map((e, i) => {
                  const a = placed.get(e.source_id);
                  const b = placed.get(e.target_id);
                  const key = [e.source_id, e.target_id].sort().join('|');
                  if (!a || !b || seen.has(key)) return null;
                  seen.add(key);
                  const on = graph.selected && pairEdges(graph.selected).includes(e);
                  const near = centers.has(e.source_id) || centers.has(e.target_id);
                  return (
                    <g key={i} className={`gedge${on ? ' gedge--on' : ''}${near ? ' gedge--near' : ''}${e.origin === 'llm' ? ' gedge--llm' : ''}`} onClick={() => selectEdge(e)} data-testid="graph-edge">
                      <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} className="gedge__hit" />
                      <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} className="gedge__line" />
                      <title>
                        {e.source} — {e.relation} — {e.target} ({e.locator})
                      </title>
                    </g>
                  );
                })}
                {view.nodes.map((node) => {
                  const p = placed.get(node.id);
                  if (!p) return null;
                  const r = Math.min(18, 6 + Math.sqrt(node.degree) * 2);
                  return (
                    <g
                      key={node.id}
                      className={`gnode ${nodeClass(node)}${node.hops === 0 ? ' gnode--center' : ''}${labelled.has(node.id) ? ' gnode--labelled' : ''}`}
                      transform={`translate(${p.x} ${p.y})`}
                      onClick={() => void showGraph(node.locator ?? node.label)}
                      data-testid="graph-node"
                      tabIndex={0}
                      role="button"
                      aria-label={`${node.label} (${node.type})`}
                      onKeyDown={(ev) => ev.key === 'Enter' && void showGraph(node.locator ?? node.label)}
                    >
                      <circle r={r} />
                      <text y={r + 13}>{node.label.length > 28 ? `${node.label.slice(0, 27)}…` : node.label}</text>
                      <title>
                        {node.label} · {node.type} · {node.degree} links
                      </title>
                    </g>
                  );
                })}
              </g>
            </svg>
          )}
          {!view && !graph.loading && <p className="muted empty-hint">Type a name, or pick one of the most connected on the right. From an answer, “Show sources in the graph” opens its notes here.</p>}
          {view && view.nodes.length > 0 && (
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
          )}
          <div className="legend small">
            <span className="gdot gnode--note" /> note <span className="gdot gnode--person" /> person <span className="gdot gnode--project" /> project <span className="gdot gnode--organization" /> organization{' '}
            <span className="gdot gnode--tag" /> tag <span className="gdot gnode--entity" /> name
          </div>
        </div>
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
      </div>
    </section>
  );
}
