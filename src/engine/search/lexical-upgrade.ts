/**
 * A store whose word index another version of the analyzer wrote has it rebuilt from its chunks
 * before the engine searches it (every note re-read: a minute or two at 50,000 notes). The engine
 * does it in line when it opens such a store (the CLI prints how far it has come). A host that
 * serves the app does it first on a worker thread (upgradeLexicalIndexOffThread), so that its
 * process keeps answering and the app can show the rebuild's progress instead of hanging.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ANALYZER_VERSION, analyzeForIndex, detectChunkLanguages } from './analyzer.ts';
import { workerEntry, type WorkerEntry } from './lexical-thread.ts';
import { lockDataDir } from '../store/data-dir-lock.ts';
import { peekSetting } from '../store/database.ts';
import type { Store } from '../store/store.ts';

export const ANALYZER_SETTING = 'lexical_analyzer';

/** Notes re-read of all, as the rebuild goes. */
export type UpgradeProgress = (notes: { done: number; total: number }) => void;

/** Rebuilds the word index of `store` when another analyzer wrote it; whether it did. */
export function upgradeLexicalIndex(store: Store, onProgress?: UpgradeProgress): boolean {
  if (store.getSetting<string>(ANALYZER_SETTING) === ANALYZER_VERSION) return false;
  store.rebuildLexicalIndex(analyzeForIndex, detectChunkLanguages, onProgress);
  store.setSetting(ANALYZER_SETTING, ANALYZER_VERSION);
  return true;
}

/** Whether opening the store in `dataDir` would rebuild its word index (or must migrate it first). */
export function lexicalIndexOutdated(dataDir: string): boolean {
  const peek = peekSetting(dataDir, ANALYZER_SETTING);
  return peek.state === 'unreadable' || (peek.state === 'read' && peek.value !== ANALYZER_VERSION);
}

/** What the worker says: how far it has come, that it is done, or why it stopped. */
export type UpgradeReply = { progress: { done: number; total: number } } | { done: true; upgraded: boolean } | { error: string };

/**
 * Rebuilds the word index of the store in `dataDir` on a worker thread when it is outdated, holding
 * the data dir's lock meanwhile. `current`: nothing to do; `failed`: the worker could not do it (the
 * engine's own open then does it, or says what is wrong with the store, as without this step).
 */
export async function upgradeLexicalIndexOffThread(
  dataDir: string,
  options: { mmapBytes?: number; onProgress?: UpgradeProgress; entry?: () => Promise<WorkerEntry | null> } = {},
): Promise<'current' | 'upgraded' | 'failed'> {
  const dir = path.resolve(dataDir);
  if (!lexicalIndexOutdated(dir)) return 'current';
  let lock: { dispose(): void };
  try {
    lock = lockDataDir(dir);
  } catch {
    // Another process works on this data dir: the engine's open says so.
    return 'failed';
  }
  try {
    const entry = await (options.entry ?? (() => workerEntry(path.dirname(fileURLToPath(import.meta.url)), 'lexical-upgrade-worker')))().catch(() => null);
    if (!entry) return 'failed';
    return await new Promise((resolve) => {
      let worker: Worker;
      try {
        worker = new Worker(entry.code, { eval: entry.eval, workerData: { dataDir: dir, mmapBytes: options.mmapBytes } });
      } catch {
        resolve('failed');
        return;
      }
      worker.on('message', (reply: UpgradeReply) => {
        if ('progress' in reply) options.onProgress?.(reply.progress);
        else if ('done' in reply) resolve(reply.upgraded ? 'upgraded' : 'current');
        else resolve('failed');
      });
      worker.on('error', () => resolve('failed'));
      worker.on('exit', () => resolve('failed'));
    });
  } finally {
    lock.dispose();
  }
}
