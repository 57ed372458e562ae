/**
 * Opening an engine's store: the settings and data dir the options name, the rebuild of an older
 * store's word index, the checks a follower cannot put right itself, and the models and retrieval
 * profile the configuration names, resolved against the store.
 */
import path from 'node:path';
import { loadConfig, type Config } from '../core/config.ts';
import { sha256 } from '../core/hash.ts';
import type { DisposableStore } from '../core/lifecycle.ts';
import { defaultDataDir } from '../core/paths.ts';
import { recordEmbedderChange } from '../health/embedder-change.ts';
import { embeddingInput } from '../llm/embedding-input.ts';
import type { ModelRegistry } from '../llm/registry.ts';
import { resolveEmbedModels, resolveModel, type ResolvedModel } from '../llm/resolve.ts';
import { loadProfile, type RetrievalProfile } from '../retrieve/profile.ts';
import { ANALYZER_VERSION } from '../search/analyzer.ts';
import { ANALYZER_SETTING, upgradeLexicalIndex, upgradeLexicalIndexOffThread, type UpgradeProgress } from '../search/lexical-upgrade.ts';
import { storeNeedsWriterError } from '../store/database.ts';
import { assertStoreNotLost, storeDamage } from '../store/integrity.ts';
import { Store } from '../store/store.ts';
import type { EngineOptions } from './api.ts';

/** The configuration and data dir an engine opened with these options uses. */
export function engineSetting(options: EngineOptions): { config: Config; dataDir: string } {
  const env = options.env ?? process.env;
  const config = loadConfig(options.config, env);
  const dataDir = path.resolve(options.dataDir ?? (env.SYNAPSIS_DATA_DIR || config.indexPath || defaultDataDir(env)));
  return { config, dataDir };
}

/**
 * What a host that serves the app does before createEngine: an older store's word index is rebuilt
 * on a worker thread (search/lexical-upgrade.ts), so the host keeps answering and reports the
 * rebuild's progress; createEngine then opens a current store at once. Nothing for a follower.
 */
export async function prepareEngineStore(options: EngineOptions, onProgress?: UpgradeProgress): Promise<'current' | 'upgraded' | 'failed'> {
  if (options.readOnly === true) return 'current';
  const { config, dataDir } = engineSetting(options);
  return upgradeLexicalIndexOffThread(dataDir, { mmapBytes: config.mmapMb * 1024 * 1024, ...(onProgress ? { onProgress } : {}) });
}

export interface OpenedStore {
  store: Store;
  embedModels: ResolvedModel[];
  rerankModel: ResolvedModel | null;
  chatModel: ResolvedModel | null;
  profile: RetrievalProfile;
}

/**
 * Opens the store (added to `disposables`) and resolves the configured models and profile. On
 * failure nothing of a half-built engine stays open: `disposables` (the lock, the store) are
 * released, and damage is named as such.
 */
export function openEngineStore(
  options: EngineOptions,
  setting: { config: Config; dataDir: string; readOnly: boolean; registry: ModelRegistry; disposables: DisposableStore },
): OpenedStore {
  const { config, dataDir, readOnly, registry, disposables } = setting;
  try {
    // A store that vanished while its index files stayed is named as lost, not started afresh.
    assertStoreNotLost(dataDir);
    const store = disposables.add(new Store(dataDir, { reader: readOnly, mmapBytes: config.mmapMb * 1024 * 1024 }));
    // The lexical index is derived data: refill it from stored chunks when the analyzer changed.
    if (readOnly && store.getSetting<string>(ANALYZER_SETTING) !== ANALYZER_VERSION) throw storeNeedsWriterError(dataDir, 'its lexical index was built by another version of the analyzer');
    if (!readOnly) {
      upgradeLexicalIndex(store, options.onStoreUpgrade);
      // A store written before BM25's totals were kept right counts every chunk it ever deleted.
      store.settleLexicalTotals();
    }
    if (store.getSetting<boolean>('embed_hash_filled') !== true) {
      if (readOnly) throw storeNeedsWriterError(dataDir, 'its chunks have no embedding hashes yet');
      store.backfillEmbedHashes((title, heading, text) => sha256(embeddingInput(title, heading, text)));
      store.setSetting('embed_hash_filled', true);
    }
    // A model that is configured but missing is an error at start (the user named it); none at all is a degraded mode.
    const embedModels: ResolvedModel[] = options.embedder
      ? [{ id: options.embedder.modelId, name: options.embedder.modelId, path: '', languages: ['*'] }]
      : resolveEmbedModels(config.embedModels, config.embedModel, registry, store);
    // Another file than the last one that embedded (health says so until its vectors catch up).
    if (!readOnly) recordEmbedderChange(store, embedModels[0] ?? null);
    const rerankModel: ResolvedModel | null = resolveModel(config.rerankModel, 'rerank', registry, store);
    const chatModel: ResolvedModel | null = resolveModel(config.chatModel, 'chat', registry, store);
    const profile = loadProfile(config.profile, dataDir);
    return { store, embedModels, rerankModel, chatModel, profile };
  } catch (error) {
    void disposables.dispose().catch(() => undefined);
    throw storeDamage(dataDir, error) ?? error;
  }
}
