import { describe, expect, it } from 'vitest';
import type { GraphView } from '../../../shared/contract.ts';
import { collapseView, labelBox, layoutGraph, placeLabels } from './graph-layout.ts';

const node = (id: string, hops: number, degree: number, label = id) => ({ id, label, kind: 'note' as const, type: 'note', hops, locator: `${id}.md`, degree });
const edge = (a: string, b: string) => ({ source: a, target: b, source_id: a, target_id: b, relation: 'links_to', locator: `${a}.md#L1-L1`, origin: 'rule' as const });

const view: GraphView = {
  nodes: [node('a', 0, 3), node('b', 1, 1), node('c', 1, 2), node('d', 1, 1), node('e', 2, 1)],
  edges: [edge('a', 'b'), edge('a', 'c'), edge('a', 'd'), edge('c', 'e'), edge('a', 'b')],
};

/** A crowded neighbourhood: a centre with 58 neighbours, long names, some of them linked together. */
function crowded(): GraphView {
  const nodes = [node('center', 0, 58, 'Project Lighthouse')];
  const edges = [];
  for (let i = 0; i < 58; i++) {
    nodes.push(node(`n${i}`, 1, 1 + (i % 7), `${['Grace Okoye', 'Northwind Traders', 'Acme Cloud', '2026-03-02 Lighthouse planning', 'Sync'][i % 5]} ${i}`));
    edges.push(edge('center', `n${i}`));
    if (i % 3 === 0 && i > 0) edges.push(edge(`n${i}`, `n${i - 1}`));
  }
  return { nodes, edges };
}

describe('layoutGraph', () => {
  it('places every node inside the canvas, the same way every time', () => {
    const first = layoutGraph(view, { width: 1000, height: 700 });
    const second = layoutGraph(view, { width: 1000, height: 700 });
    expect([...first.keys()].sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect([...first.entries()]).toEqual([...second.entries()]);
    for (const p of first.values()) {
      expect(p.x).toBeGreaterThanOrEqual(0);
      expect(p.x).toBeLessThanOrEqual(1000);
      expect(p.y).toBeGreaterThanOrEqual(0);
      expect(p.y).toBeLessThanOrEqual(700);
    }
    // Distinct positions: nothing collapses onto one point.
    expect(new Set([...first.values()].map((p) => `${Math.round(p.x)},${Math.round(p.y)}`)).size).toBe(5);
  });

  it('centres a lone node and ignores edges to nodes it was not given', () => {
    const lone = layoutGraph({ nodes: [node('a', 0, 0)], edges: [edge('a', 'zzz')] }, { width: 100, height: 50 });
    expect(lone.get('a')).toEqual({ x: 50, y: 25 });
  });
});

describe('placeLabels', () => {
  it('never lets two drawn labels overlap, and labels the centre first', () => {
    for (const v of [view, crowded(), collapseView(crowded(), 30).view]) {
      const placed = layoutGraph(v);
      const labels = placeLabels(v, placed);
      const center = v.nodes.find((n) => n.hops === 0)!;
      expect(labels.has(center.id)).toBe(true);
      const boxes = [...labels.values()].map((l) => labelBox(l.text, l.x, l.y));
      // Inside the canvas (1000 x 700 by default): no name is cut at its edge.
      for (const b of boxes) expect(b.x0 >= 0 && b.x1 <= 1000 && b.y0 >= 0 && b.y1 <= 700).toBe(true);
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i]!, boxes[j]!];
          expect(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1, `labels ${i} and ${j}`).toBe(false);
        }
      }
    }
    // A small graph gets every name; long names are shortened.
    expect(placeLabels(view, layoutGraph(view)).size).toBe(5);
    const long = { nodes: [node('x', 0, 0, 'A very long note title that goes on and on')], edges: [] };
    expect(placeLabels(long, layoutGraph(long)).get('x')!.text).toBe('A very long note title that…');
  });

  it('draws fewer, larger names where the drawing is shown small, still apart and inside the canvas', () => {
    const v = collapseView(crowded(), 30).view;
    const placed = layoutGraph(v);
    const full = placeLabels(v, placed);
    const small = placeLabels(v, placed, { width: 1000, height: 700 }, 1.8);
    expect(small.size).toBeLessThan(full.size);
    expect(small.has('center')).toBe(true);
    const boxes = [...small.values()].map((l) => labelBox(l.text, l.x, l.y, 1.8));
    for (const b of boxes) expect(b.x0 >= 0 && b.x1 <= 1000 && b.y0 >= 0 && b.y1 <= 700).toBe(true);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [x, y] = [boxes[i]!, boxes[j]!];
        expect(x.x0 < y.x1 && y.x0 < x.x1 && x.y0 < y.y1 && y.y0 < x.y1).toBe(false);
      }
    }
  });

  it('labels most of a collapsed neighbourhood', () => {
    const v = collapseView(crowded(), 30).view;
    expect(placeLabels(v, layoutGraph(v)).size).toBeGreaterThanOrEqual(15);
  });
});

describe('collapseView', () => {
  it('keeps the centre and the most connected nodes, and the edges among them', () => {
    const big = crowded();
    const { view: small, hidden } = collapseView(big, 30);
    expect(small.nodes).toHaveLength(30);
    expect(hidden).toBe(29);
    expect(small.nodes.some((n) => n.id === 'center')).toBe(true);
    const kept = small.nodes.filter((n) => n.hops > 0);
    const left = big.nodes.filter((n) => n.hops > 0 && !small.nodes.includes(n));
    expect(Math.min(...kept.map((n) => n.degree))).toBeGreaterThanOrEqual(Math.max(...left.map((n) => n.degree)));
    const ids = new Set(small.nodes.map((n) => n.id));
    expect(small.edges.every((e) => ids.has(e.source_id) && ids.has(e.target_id))).toBe(true);
    expect(small.edges.length).toBeGreaterThanOrEqual(29);
    // "Show more" adds nodes until none is hidden; a view that fits is returned as it is.
    expect(collapseView(big, 60).hidden).toBe(0);
    expect(collapseView(view, 30).view).toBe(view);
  });
});
