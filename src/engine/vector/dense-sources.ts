/**
 * The dense lists an engine searches: one vector index per embedding model (SemanticIndex), the
 * primary's under index/<version>/, the others' in models/<id>/ beside it. Named by file
 * (all-MiniLM-L6-v2.Q8_0), the same whether a path or the registry names the model: profiles
 * weight models by it. With sentence vectors on, each model's sentence index lives in sentences/
 * inside its folder.
 */
import path from 'node:path';
import type { Config } from '../core/config.ts';
import type { ForegroundGate } from '../ingest/foreground.ts';
import type { ResolvedModel } from '../llm/resolve.ts';
import { Embedder, type EmbedderLike, type LlamaRuntime } from '../llm/runtime.ts';
import type { DenseSource } from '../retrieve/hybrid.ts';
import type { Store } from '../store/store.ts';
import { SemanticIndex } from './semantic.ts';

export function denseSources(setting: {
  store: Store;
  config: Config;
  dataDir: string;
  indexVersion: string;
  embedModels: readonly ResolvedModel[];
  runtime: LlamaRuntime;
  /** An embedder to use for the primary model instead of its GGUF file. */
  embedder?: EmbedderLike;
  readOnly: boolean;
  /** Questions in flight: sentence embedding waits for them (ingest/foreground.ts). */
  foreground: ForegroundGate;
}): DenseSource[] {
  const { store, config, dataDir, indexVersion, runtime, readOnly, foreground } = setting;
  return setting.embedModels.map((m, i) => {
    const embedder = (i === 0 ? setting.embedder : undefined) ?? new Embedder(runtime, { modelPath: m.path, modelId: m.id, modelName: m.name, idleMs: config.modelIdleMs, maxInputChars: config.chunkSize });
    const indexDir = i === 0 ? path.join(dataDir, 'index', indexVersion) : path.join(dataDir, 'index', indexVersion, 'models', m.id);
    // Sentence vectors come after every chunk vector (ingest/queue.ts) and pause while a question is in flight.
    const sentences = config.sentenceVectors
      ? new SemanticIndex({ store, embedder, indexDir: path.join(indexDir, 'sentences'), backend: config.vectorBackend, unit: 'sentence', readOnly, yieldTo: foreground })
      : null;
    return {
      name: m.path ? path.basename(m.path, '.gguf') : m.name,
      languages: m.languages ?? ['*'],
      index: new SemanticIndex({ store, embedder, indexDir, backend: config.vectorBackend, sentences, readOnly }),
    };
  });
}
