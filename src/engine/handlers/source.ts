/** source/get: the exact lines behind a locator. */
import type { ParsedRequestOf } from '../../shared/contract.ts';
import type { Config } from '../config.ts';
import type { EventBus } from '../events.ts';
import { readSource } from '../retrieve/source.ts';
import type { Store } from '../store/store.ts';
import type { Handlers } from './types.ts';

export interface SourceServices {
  store: Store;
  config: Config;
  events: EventBus;
}

export function createSourceHandlers({ store, config, events }: SourceServices) {
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
  } satisfies Handlers;
}
