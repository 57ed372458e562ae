/** models/*: GGUF models imported into the models dir. */
import type { ModelRegistry } from '../llm/registry.ts';
import type { Handlers } from './types.ts';

export function createModelsHandlers({ registry, measureChat }: { registry: ModelRegistry; measureChat?: () => Promise<{ model: string | null; tokens_per_s: number | null }> }) {
  return {
    'models/measure': async () => (measureChat ? measureChat() : { model: null, tokens_per_s: null }),
    'models/list': () => registry.list(),
    'models/add': (req) => registry.add(req.path, { ...(req.role ? { role: req.role } : {}), ...(req.languages ? { languages: req.languages } : {}) }),
    'models/remove': (req) => {
      const model = registry.remove(req.ref);
      return { removed: model !== null, model };
    },
  } satisfies Handlers;
}
