import { createEngine } from '../../src/engine/engine.ts';

/** Engine options that load no embedding or chat model, whatever the environment names. */
export const NO_MODELS = { env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } as NodeJS.ProcessEnv };

/** Indexes `folder` into `dataDir` once with an engine of no models, and closes the engine. */
export async function indexedOnce(folder: string, dataDir: string): Promise<string> {
  const engine = createEngine({ dataDir, ...NO_MODELS });
  try {
    await engine.index([folder]);
  } finally {
    await engine.dispose();
  }
  return dataDir;
}
