// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { createClient, type SynapsisBridge } from '../../../shared/rpc.ts';
import { useApp } from '../store.ts';

const initial = useApp.getState();
beforeEach(() => useApp.setState(initial, true));

/** An engine whose graph/subgraph answers with a centre named after the request, and records what was asked. */
function graphEngine(): { bridge: SynapsisBridge; asked: unknown[] } {
  const asked: unknown[] = [];
  const node = (id: string, hops: number) => ({ id, label: id, kind: 'note' as const, type: 'note', role: null, hops, locator: id, degree: 1 });
  return {
    asked,
    bridge: {
      shell: 'test',
      async request(method, params) {
        if (method !== 'graph/subgraph') return { ok: false, error: { code: 'E_SYN_BAD_REQUEST', message: `no ${method} here`, retryable: false } };
        asked.push(params);
        const p = params as { entity?: string; paths?: string[] };
        const center = p.entity ?? p.paths!.join('+');
        return { ok: true, result: { nodes: [node(center, 0), node(`${center}-next`, 1)], edges: [], missing: [] } };
      },
      cancel() {},
      on: () => () => {},
      onConnection: () => () => {},
    },
  };
}

describe('the graph slice', () => {
  it('goes Back through earlier centres, answer sources included, and not past the first', async () => {
    const { bridge, asked } = graphEngine();
    useApp.setState({ client: createClient(bridge) });
    const app = () => useApp.getState();
    await app().showGraph('Maya Chen');
    await app().showGraph('Project Aurora');
    await app().showGraph('Project Aurora'); // the same centre again is no step
    useApp.setState({ answer: { query: 'who?', citations: [{ path: 'a.md' }, { path: 'b.md' }], snippets: [] } as never });
    await app().showAnswerGraph();
    await app().showGraph('Relay server');
    expect(app().graph.history.map((h) => h.center)).toEqual(['Maya Chen', 'Project Aurora', 'sources of “who?”']);

    await app().graphBack();
    expect(app().graph.center).toBe('sources of “who?”');
    expect(app().graph.view?.nodes[0]?.id).toBe('a.md+b.md');
    await app().graphBack();
    expect(app().graph.center).toBe('Project Aurora');
    await app().graphBack();
    expect(app().graph.center).toBe('Maya Chen');
    expect(app().graph.history).toEqual([]);
    const before = asked.length;
    await app().graphBack();
    expect(app().graph.center).toBe('Maya Chen');
    expect(asked.length).toBe(before);
    // Every view asks for more nodes than it shows at first ("show more" has them at hand).
    expect(asked.every((p) => (p as { max_nodes: number }).max_nodes === 150)).toBe(true);
  });
});
