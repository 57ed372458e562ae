/**
 * The engine's handler table: every namespace's handlers joined into one map from method to handler,
 * typed from the contract (`satisfies HandlerTable`). The composition root (engine.ts) gives each
 * namespace its services; the library API (compose/library.ts) and `call` dispatch through it.
 */
import { createAnswerHandlers } from './answer.ts';
import { createGraphHandlers } from './graph.ts';
import { createIndexHandlers } from './index.ts';
import { createModelsHandlers } from './models.ts';
import { createSearchHandlers } from './search.ts';
import { createSourceHandlers } from './source.ts';
import { createSystemHandlers } from './system.ts';
import { createThreadsHandlers } from './threads.ts';
import type { HandlerTable } from './types.ts';

/** The services of each namespace's handlers. */
export interface TableServices {
  index: Parameters<typeof createIndexHandlers>[0];
  search: Parameters<typeof createSearchHandlers>[0];
  answer: Parameters<typeof createAnswerHandlers>[0];
  source: Parameters<typeof createSourceHandlers>[0];
  graph: Parameters<typeof createGraphHandlers>[0];
  models: Parameters<typeof createModelsHandlers>[0];
  threads: Parameters<typeof createThreadsHandlers>[0];
  system: Parameters<typeof createSystemHandlers>[0];
}

export function createHandlerTable(services: TableServices) {
  return {
    ...createIndexHandlers(services.index),
    ...createSearchHandlers(services.search),
    ...createAnswerHandlers(services.answer),
    ...createSourceHandlers(services.source),
    ...createGraphHandlers(services.graph),
    ...createModelsHandlers(services.models),
    ...createThreadsHandlers(services.threads),
    ...createSystemHandlers(services.system),
  } satisfies HandlerTable;
}

/** The table as built: each handler synchronous or not as its namespace wrote it. */
export type EngineHandlers = ReturnType<typeof createHandlerTable>;
