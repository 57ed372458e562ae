/** index/*: the folders indexed (roots), indexing runs, pause, resume and watching, the documents. */
import fs from 'node:fs';
import path from 'node:path';
import type { Root } from '../../shared/contract.ts';
import { createError } from '../../shared/errors.ts';
import type { Config } from '../core/config.ts';
import type { EventBus } from '../core/events.ts';
import type { IndexQueue } from '../ingest/queue.ts';
import { listDocuments } from '../retrieve/source.ts';
import { storeWriteError } from '../store/database.ts';
import { storeDamagedError, type IntegrityReport } from '../store/integrity.ts';
import type { Store } from '../store/store.ts';
import { withVaults } from '../ingest/obsidian.ts';
import type { Handlers } from './types.ts';

export interface IndexServices {
  store: Store;
  config: Config;
  events: EventBus;
  dataDir: string;
  queue: IndexQueue;
  /** The store's quick integrity check (run once per engine). */
  integrity: () => IntegrityReport;
}

export function createIndexHandlers({ store, config, events, dataDir, queue, integrity }: IndexServices) {
  const resolveFolder = (p: string): string => {
    const abs = path.resolve(p);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      throw createError('E_SYN_BAD_REQUEST', `No such folder: ${abs}`, { path: abs });
    }
    if (!st.isDirectory()) throw createError('E_SYN_BAD_REQUEST', `Not a folder: ${abs} (pass the folder that holds it)`, { path: abs });
    return fs.realpathSync(abs);
  };
  const addRootOrFail = (folder: string, include: string[], exclude: string[]): Root => {
    try {
      return store.addRoot(folder, include, exclude);
    } catch (error) {
      throw storeWriteError(dataDir, error, `the folder ${folder} was not added`, 'add it again') ?? error;
    }
  };
  return {
    'index/run': async (req) => {
      const requested = req.sources.length > 0 ? req.sources : config.sourceRoots;
      // A damaged store is not indexed into (its unchanged files would hide the damage): repair rebuilds it.
      const checked = integrity();
      if (checked.status === 'damaged') throw storeDamagedError(dataDir, checked.problems.slice(0, 3).join('; '));
      // Validate every source before touching the store: one bad path changes nothing.
      const folders = requested.map(resolveFolder);
      const added = folders.filter((folder) => !store.rootByPath(folder));
      for (const folder of added) addRootOrFail(folder, [], []);
      if (added.length > 0) await queue.rewatch();
      const roots = folders.length > 0 ? folders.map((f) => store.rootByPath(f)!) : store.listRoots();
      if (roots.length === 0) {
        throw createError('E_SYN_BAD_REQUEST', 'Nothing to index: pass a folder, or add a root first (SYN_SOURCE_ROOTS or index/addRoot)');
      }
      events.emit('syn.index.requested', { sources: roots.map((r) => r.path) });
      return queue.indexRoots(roots);
    },
    'index/addRoot': (req) => {
      const root = addRootOrFail(resolveFolder(req.path), req.include, req.exclude);
      void queue.rewatch();
      return root;
    },
    'index/removeRoot': (req) => {
      const abs = path.resolve(req.path);
      const root = store.rootByPath(abs) ?? (fs.existsSync(abs) ? store.rootByPath(fs.realpathSync(abs)) : null);
      if (!root) return { removed: false, documents_removed: 0 };
      queue.invalidate();
      const documents_removed = store.removeRoot(root.id);
      store.settleLexicalTotals();
      void queue.rewatch();
      return { removed: true, documents_removed };
    },
    'index/roots': () => withVaults(store.listRoots()),
    'index/documents': (req) => listDocuments(store.db, { allowSensitivity: req.allow_sensitivity, sensitivityEnable: config.sensitivityEnable }),
    'index/pause': () => queue.pause(),
    'index/resume': () => queue.resume(),
    'index/status': () => queue.status(),
    'index/watch': async (req) => {
      if (req.enabled && !queue.watching) await queue.watch();
      if (!req.enabled && queue.watching) await queue.unwatch();
      return queue.status();
    },
  } satisfies Handlers;
}
