/** source/get: the exact lines behind a locator; source/related: the notes related to one. */
import type { ParsedRequestOf } from '../../shared/contract.ts';
import { relatedNotes } from '../retrieve/related.ts';
import type { RetrievalServices } from '../retrieve/request.ts';
import { readSource } from '../retrieve/source.ts';
import type { Handlers } from './types.ts';

/** The related notes read the graph and run the retrieval pipeline: the search handlers' services. */
export type SourceServices = RetrievalServices;

export function createSourceHandlers(services: SourceServices) {
  const { store, config, events } = services;
  return {
    /** `max_lines` is the library's (the desktop's preview, MCP resources); transports serve the default. */
    'source/get': (req: ParsedRequestOf<'source/get'> & { max_lines?: number }) =>
      readSource(store.db, req.locator, {
        allowSensitivity: req.allow_sensitivity,
        sensitivityEnable: config.sensitivityEnable,
        onDenied: (reason) => events.emit('syn.retrieve.denied', { query: req.locator, reason }),
        followExternalSymlinks: config.followExternalSymlinks,
        ...(req.max_lines ? { maxLines: req.max_lines } : {}),
      }),
    'source/related': (req) => relatedNotes(services, req),
  } satisfies Handlers;
}
