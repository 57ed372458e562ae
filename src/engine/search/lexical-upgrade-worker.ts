/**
 * The word index rebuild of an older store on a thread of its own (see lexical-upgrade.ts): opens
 * the store for writing (migrating it first), re-reads every note with this analyzer in one
 * transaction (an interrupted rebuild leaves the old index whole), and reports each page of notes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { upgradeLexicalIndex, type UpgradeReply } from './lexical-upgrade.ts';
import { Store } from '../store/store.ts';

const port = parentPort;
if (!port) throw new Error('lexical-upgrade-worker.ts runs as a worker thread only');

const { dataDir, mmapBytes } = workerData as { dataDir: string; mmapBytes?: number };
let store: Store | null = null;
try {
  store = new Store(dataDir, mmapBytes === undefined ? {} : { mmapBytes });
  const upgraded = upgradeLexicalIndex(store, (progress) => port.postMessage({ progress } satisfies UpgradeReply));
  port.postMessage({ done: true, upgraded } satisfies UpgradeReply);
} catch (error) {
  port.postMessage({ error: (error as Error).message } satisfies UpgradeReply);
} finally {
  store?.dispose();
}
