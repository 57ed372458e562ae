import type { StateCreator } from 'zustand';
import type { GraphEdge, GraphOverview, GraphView } from '../../../shared/contract.ts';
import { kit, messageOf, type AppState } from './kit.ts';

export interface GraphState {
  center: string | null;
  view: GraphView | null;
  selected: GraphEdge | null;
  overview: GraphOverview | null;
  loading: boolean;
  message: string | null;
}

export const EMPTY_GRAPH: GraphState = { center: null, view: null, selected: null, overview: null, loading: false, message: null };

/** The graph view: a neighbourhood or an answer's sources, the selected edge, and the overview. */
export interface GraphSlice {
  graph: GraphState;
  showGraph(entity: string): Promise<void>;
  showAnswerGraph(): Promise<void>;
  selectEdge(edge: GraphEdge | null): void;
  loadOverview(): Promise<void>;
}

export const createGraphSlice: StateCreator<AppState, [], [], GraphSlice> = (set, get) => {
  const { client, sensitivity, run } = kit(get);
  /** Loads a subgraph into the view; a failure is the view's message, not a toast. */
  const load = async (request: { entity?: string; paths?: string[]; max_nodes: number }, message: (view: GraphView & { missing: string[] }) => string | null) => {
    try {
      const view = await client().call('graph/subgraph', { ...request, hops: 1, allow_sensitivity: sensitivity() });
      set((s) => ({ graph: { ...s.graph, view, loading: false, message: message(view) } }));
    } catch (error) {
      set((s) => ({ graph: { ...s.graph, loading: false, message: messageOf(error) } }));
    }
  };
  return {
    graph: EMPTY_GRAPH,

    async showGraph(entity) {
      const e = entity.trim();
      if (!e) return;
      set((s) => ({ view: 'graph', graph: { ...s.graph, center: e, loading: true, selected: null, message: null } }));
      await load({ entity: e, max_nodes: 60 }, (view) =>
        view.missing.length > 0 ? `Nothing in the graph is called "${view.missing.join('", "')}".` : view.nodes.length <= 1 ? `"${e}" has no links yet.` : null,
      );
    },
    async showAnswerGraph() {
      const answer = get().answer;
      const paths = [...new Set((answer?.citations.length ? answer.citations : (answer?.snippets ?? [])).map((c) => c.path))];
      if (paths.length === 0) return;
      set((s) => ({ view: 'graph', graph: { ...s.graph, center: `sources of “${answer!.query}”`, loading: true, selected: null, message: null } }));
      await load({ paths, max_nodes: 80 }, () => null);
    },
    selectEdge(selected) {
      set((s) => ({ graph: { ...s.graph, selected } }));
    },
    loadOverview: () =>
      run(async () => {
        const overview = await client().call('graph/overview', { limit: 12, allow_sensitivity: sensitivity() });
        set((s) => ({ graph: { ...s.graph, overview } }));
      }),
  };
};
