/** source/get: the exact lines behind a locator; source/related: the notes related to one. */
import type { ParsedRequestOf } from '../../shared/contract.ts';
import { noteEmbeds } from '../retrieve/embeds.ts';
import { notePathNamed, relatedNotes, wikilinkNames } from '../retrieve/related.ts';
import { parseLocator, readSource } from '../retrieve/source.ts';
import type { RetrievalServices } from '../retrieve/request.ts';
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
    'source/embeds': (req) => {
      const policy = { allowSensitivity: req.allow_sensitivity, sensitivityEnable: config.sensitivityEnable, followExternalSymlinks: config.followExternalSymlinks };
      const graph = services.graphs.reader(req.allow_sensitivity);
      const embeds = noteEmbeds({ db: store.db, graph, policy }, req.locator);
      const names = wikilinkNames(embeds.map((e) => e.text ?? '').join('\n'));
      return { path: parseLocator(req.locator).path, embeds, links: names.map((name) => ({ name, path: notePathNamed(graph, name) })) };
    },
  } satisfies Handlers;
}
