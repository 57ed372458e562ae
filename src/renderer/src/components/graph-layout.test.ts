import { describe, expect, it } from 'vitest';
import type { GraphView } from '../../../shared/contract.ts';
import { labelledNodes, layoutGraph } from './graph-layout.ts';

const node = (id: string, hops: number, degree: number) => ({ id, label: id, kind: 'note' as const, type: 'note', hops, locator: `${id}.md`, degree });
const edge = (a: string, b: string) => ({ source: a, target: b, source_id: a, target_id: b, relation: 'links_to', locator: `${a}.md#L1-L1`, origin: 'rule' as const });

const view: GraphView = {
  nodes: [node('a', 0, 3), node('b', 1, 1), node('c', 1, 2), node('d', 1, 1), node('e', 2, 1)],
  edges: [edge('a', 'b'), edge('a', 'c'), edge('a', 'd'), edge('c', 'e'), edge('a', 'b')],
};

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

  it('labels the centre first, then the most linked', () => {
    expect([...labelledNodes(view, 2)]).toEqual(['a', 'c']);
  });
});
