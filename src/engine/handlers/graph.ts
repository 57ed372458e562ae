/** graph/*: the link graph of what a caller may see, and the chat model's pass that adds to it. */
import { createError } from '../../shared/errors.ts';
import type { GraphCache } from '../graph/cache.ts';
import { neighbors, shortestPath, subgraph } from '../graph/query.ts';
import type { IndexQueue } from '../ingest/queue.ts';
import type { Store } from '../store/store.ts';
import type { Handlers } from './types.ts';

export interface GraphServices {
  store: Store;
  graphs: GraphCache;
  queue: IndexQueue;
}

export function createGraphHandlers({ graphs, queue }: GraphServices) {
  return {
    'graph/neighbors': (req) => {
      if (!req.entity.trim()) throw createError('E_SYN_BAD_REQUEST', 'The entity is empty.');
      return neighbors(graphs.reader(req.allow_sensitivity), req.entity, req.hops);
    },
    'graph/path': (req) => {
      if (!req.from.trim() || !req.to.trim()) throw createError('E_SYN_BAD_REQUEST', 'Both ends of a path must be named.');
      return shortestPath(graphs.reader(req.allow_sensitivity), req.from, req.to);
    },
    'graph/overview': (req) => graphs.overview(req.allow_sensitivity, req.limit),
    'graph/global': (req) => graphs.global(req.allow_sensitivity, req.max_notes),
    'graph/subgraph': (req) => subgraph(graphs.reader(req.allow_sensitivity), { ...(req.entity !== undefined ? { entity: req.entity } : {}), ...(req.paths ? { paths: req.paths } : {}), hops: req.hops, maxNodes: req.max_nodes }),
    'graph/extract': (req) => queue.extractGraph(req.budget_ms),
  } satisfies Handlers;
}
