/**
 * The graph a caller may see. Searches, neighbours, paths and subgraphs read it where it is stored,
 * for the nodes they touch (stored.ts); only the overview (central entities, communities) needs the
 * whole graph, and it keeps its answer, not the graph, until indexing changes the facts.
 */
import type { GlobalGraph, GraphOverview } from '../../shared/contract.ts';
import type { Config } from '../core/config.ts';
import type { Disposable } from '../core/lifecycle.ts';
import type { Store } from '../store/store.ts';
import { visibleTo } from '../store/visibility.ts';
import { globalGraph } from './global.ts';
import { loadKnowledgeGraph } from './links.ts';
import { overview } from './query.ts';
import { createGraphMemo, storedGraph, type GraphMemo, type LinkGraph } from './stored.ts';

export interface GraphCache extends Disposable {
  /**
   * The graph of what this caller may see, read where it is stored for the nodes a question
   * touches. Nothing is loaded whole; what was read is kept for the next question of the same
   * caller until indexing changes the facts (bounded: stored.ts MAX_MEMO_NODES).
   */
  reader(allowSensitivity: readonly string[]): LinkGraph;
  /**
   * Central entities and communities of what this caller may see: computed when asked (PageRank and
   * Louvain over the graph loaded for that), kept until indexing runs again. Never on a search's path.
   */
  overview(allowSensitivity: readonly string[], limit: number): GraphOverview;
  /** The whole graph laid out for the global view (global.ts), kept as the overview is. */
  global(allowSensitivity: readonly string[], maxNotes?: number): GlobalGraph;
}

export interface GraphCacheDeps {
  store: Store;
  config: Pick<Config, 'sensitivityEnable'>;
  /** Bumped whenever indexed documents may change: an overview of another generation is recomputed. */
  generation: () => number;
}

export function createGraphCache({ store, config, generation }: GraphCacheDeps): GraphCache {
  let cached: { generation: number; key: string; overview: GraphOverview } | null = null;
  let memo: { generation: number; audience: string; memo: GraphMemo } | null = null;
  let laidOut: { generation: number; key: string; graph: GlobalGraph } | null = null;
  return {
    reader(allowSensitivity) {
      const audience = JSON.stringify(allowSensitivity.map((s) => s.toLowerCase()).sort());
      if (memo?.audience !== audience || memo.generation !== generation()) memo = { generation: generation(), audience, memo: createGraphMemo() };
      return storedGraph(store.db, { allowSensitivity, sensitivityEnable: config.sensitivityEnable }, memo.memo);
    },
    overview(allowSensitivity, limit) {
      const key = JSON.stringify([allowSensitivity.map((s) => s.toLowerCase()).sort(), limit]);
      if (cached?.key === key && cached.generation === generation()) return cached.overview;
      const kg = loadKnowledgeGraph(store.db, visibleTo({ allowSensitivity, sensitivityEnable: config.sensitivityEnable }));
      cached = { generation: generation(), key, overview: overview(kg, limit) };
      return cached.overview;
    },
    global(allowSensitivity, maxNotes) {
      const key = JSON.stringify([allowSensitivity.map((s) => s.toLowerCase()).sort(), maxNotes ?? null]);
      if (laidOut?.key === key && laidOut.generation === generation()) return laidOut.graph;
      const kg = loadKnowledgeGraph(store.db, visibleTo({ allowSensitivity, sensitivityEnable: config.sensitivityEnable }));
      laidOut = { generation: generation(), key, graph: globalGraph(kg, maxNotes ? { maxNotes } : {}) };
      return laidOut.graph;
    },
    dispose() {
      laidOut = null;
      cached = null;
      memo = null;
    },
  };
}
