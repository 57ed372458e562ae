/**
 * The link graph a caller may see, loaded from the stored facts and kept until indexing changes
 * them. One cache per engine; the audience (the sensitivities a caller allows) keys it.
 */
import type { Config } from '../config.ts';
import type { Disposable } from '../lifecycle.ts';
import { visibleTo } from '../retrieve/source.ts';
import type { Store } from '../store/store.ts';
import { loadKnowledgeGraph, type KnowledgeGraph } from './links.ts';

export interface GraphCache extends Disposable {
  /**
   * The knowledge graph of what this caller may see, reloaded from the stored facts when indexing ran
   * since the last load. Retrieval (`stale`) may use the graph of the previous index state while the
   * new one loads right after the query: loading reads every relation (about 0.7 s for 5,000 notes),
   * and an edit should be searchable at once. That is safe: the graph only proposes notes, whose
   * chunks are then read under the current sensitivity and filters; a deleted note yields none.
   * Graph queries (neighbours, paths, the UI) always see the current state.
   */
  linkGraph(allowSensitivity: readonly string[], stale?: boolean): KnowledgeGraph;
}

export interface GraphCacheDeps {
  store: Store;
  config: Pick<Config, 'sensitivityEnable'>;
  /** Bumped whenever indexed documents may change: a cached graph of another generation is reloaded. */
  generation: () => number;
}

export function createGraphCache({ store, config, generation }: GraphCacheDeps): GraphCache {
  let cached: { generation: number; audience: string; graph: KnowledgeGraph } | null = null;
  let reload: NodeJS.Immediate | null = null;
  let disposed = false;
  const load = (allowSensitivity: readonly string[], audience: string) => {
    cached = { generation: generation(), audience, graph: loadKnowledgeGraph(store.db, visibleTo({ allowSensitivity, sensitivityEnable: config.sensitivityEnable })) };
    return cached.graph;
  };
  return {
    linkGraph(allowSensitivity, stale = false) {
      const audience = JSON.stringify(allowSensitivity.map((s) => s.toLowerCase()).sort());
      if (cached?.audience === audience) {
        if (cached.generation === generation()) return cached.graph;
        if (stale) {
          reload ??= setImmediate(() => {
            reload = null;
            if (!disposed && cached?.audience === audience && cached.generation !== generation()) load(allowSensitivity, audience);
          });
          return cached.graph;
        }
      }
      return load(allowSensitivity, audience);
    },
    dispose() {
      disposed = true;
      if (reload) clearImmediate(reload);
      reload = null;
    },
  };
}
