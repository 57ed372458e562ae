import type { StateCreator } from 'zustand';
import type { GlobalGraph, GraphEdge, GraphOverview, GraphView } from '../../../shared/contract.ts';
import { kit, messageOf, type AppState } from './kit.ts';

/** What a graph view was asked for: a neighbourhood (entity) or an answer's sources (paths). */
export interface GraphRequest {
  entity?: string;
  paths?: string[];
}

export interface GraphState {
  center: string | null;
  /** The request that drew the view; Back goes to the one before. */
  request: GraphRequest | null;
  /** Earlier centres, the latest last (at most MAX_HISTORY). */
  history: { center: string; request: GraphRequest }[];
  view: GraphView | null;
  selected: GraphEdge | null;
  overview: GraphOverview | null;
  loading: boolean;
  message: string | null;
}

export const EMPTY_GRAPH: GraphState = { center: null, request: null, history: [], view: null, selected: null, overview: null, loading: false, message: null };

/** Nodes asked of the engine for one view; the view shows the most connected first (graph-layout.ts collapseView). */
export const GRAPH_MAX_NODES = 150;
const MAX_HISTORY = 50;

/** The graph view: a neighbourhood or an answer's sources, the way back, the selected edge, and the overview. */
export interface GraphSlice {
  graph: GraphState;
  showGraph(entity: string): Promise<void>;
  showAnswerGraph(): Promise<void>;
  /** Returns to the previous centre, if there is one. */
  graphBack(): Promise<void>;
  selectEdge(edge: GraphEdge | null): void;
  loadOverview(): Promise<void>;
  /** The whole vault's graph (graph/global), drawn when no centre is picked; `key`: the notes and audience it was drawn for (globalGraphKey). */
  globalGraph: { data: GlobalGraph | null; loading: boolean; error: string | null; key: string | null };
  loadGlobalGraph(): Promise<void>;
}

/** What the global graph depends on: the indexed notes and whether restricted ones are shown. */
export const globalGraphKey = (s: Pick<AppState, 'health' | 'allowRestricted'>) => `${s.health?.documents.indexed ?? '-'}|${s.health?.chunks ?? '-'}|${s.allowRestricted}`;

export const createGraphSlice: StateCreator<AppState, [], [], GraphSlice> = (set, get) => {
  const { client, sensitivity, run } = kit(get);
  /** Loads a subgraph into the view; a failure is the view's message, not a toast. */
  const load = async (request: GraphRequest, message: (view: GraphView & { missing: string[] }) => string | null) => {
    try {
      const view = await client().call('graph/subgraph', { ...request, max_nodes: GRAPH_MAX_NODES, hops: 1, allow_sensitivity: sensitivity() });
      set((s) => ({ graph: { ...s.graph, view, loading: false, message: message(view) } }));
    } catch (error) {
      set((s) => ({ graph: { ...s.graph, loading: false, message: messageOf(error) } }));
    }
  };
  /** Moves to a new centre; the one left behind goes on the history (unless going back, or staying). */
  const go = (center: string, request: GraphRequest, back = false) =>
    set((s) => {
      const { center: was, request: wasRequest, history } = s.graph;
      const same = was === center && JSON.stringify(wasRequest) === JSON.stringify(request);
      const next = back || same || !was || !wasRequest ? history : [...history, { center: was, request: wasRequest }].slice(-MAX_HISTORY);
      return { view: 'graph', graph: { ...s.graph, center, request, history: next, loading: true, selected: null, message: null } };
    });
  const showEntity = async (e: string, back = false) => {
    go(e, { entity: e }, back);
    await load({ entity: e }, (view) =>
      view.missing.length > 0 ? `Nothing in the graph is called "${view.missing.join('", "')}".` : view.nodes.length <= 1 ? `"${e}" has no links yet.` : null,
    );
  };
  return {
    graph: EMPTY_GRAPH,
    globalGraph: { data: null, loading: false, error: null, key: null },
    async loadGlobalGraph() {
      const key = globalGraphKey(get());
      set((s) => ({ globalGraph: { ...s.globalGraph, loading: true, error: null, key } }));
      try {
        const data = await client().call('graph/global', { allow_sensitivity: sensitivity() });
        set({ globalGraph: { data, loading: false, error: null, key } });
      } catch (error) {
        set((s) => ({ globalGraph: { ...s.globalGraph, loading: false, error: messageOf(error) } }));
      }
    },

    async showGraph(entity) {
      const e = entity.trim();
      if (!e) return;
      await showEntity(e);
    },
    async showAnswerGraph() {
      const answer = get().answer;
      const paths = [...new Set((answer?.citations.length ? answer.citations : (answer?.snippets ?? [])).map((c) => c.path))];
      if (paths.length === 0) return;
      go(`sources of “${answer!.query}”`, { paths });
      await load({ paths }, () => null);
    },
    async graphBack() {
      const history = get().graph.history;
      const last = history[history.length - 1];
      if (!last) return;
      set((s) => ({ graph: { ...s.graph, history: history.slice(0, -1) } }));
      if (last.request.entity !== undefined) await showEntity(last.request.entity, true);
      else {
        go(last.center, last.request, true);
        await load(last.request, () => null);
      }
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
