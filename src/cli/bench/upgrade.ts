/**
 * What opening a store of an older analyzer costs (engine/search/lexical-upgrade.ts): its word index is
 * rebuilt from its chunks before the engine searches it. A host that serves the app rebuilds it on a
 * worker thread and keeps answering; the CLI rebuilds it in line. On a copy of a kept data dir,
 * marked as written by another analyzer, this measures the rebuild as the app's host runs it (how
 * long, how many progress reports, and the longest time this thread's event loop waited: a timer
 * every 10 ms, late by how much), and optionally in line for comparison.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ANALYZER_SETTING, upgradeLexicalIndex, upgradeLexicalIndexOffThread } from '../../engine/search/lexical-upgrade.ts';
import { ANALYZER_VERSION } from '../../engine/search/analyzer.ts';
import { Store } from '../../engine/store/store.ts';

export interface UpgradeBench {
  data_dir: string;
  notes: number;
  chunks: number;
  /** On the worker thread, as the app's host does it. */
  off_thread: { result: 'current' | 'upgraded' | 'failed'; ms: number; progress_reports: number; longest_stall_ms: number };
  /** In line on this thread (the CLI's way), when asked: the whole rebuild is one stall. */
  in_line: { ms: number } | null;
}

/** The store files of a data dir (the database and its write-ahead log), copied to `to`. */
function copyStore(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const name of ['synapsis.db', 'synapsis.db-wal', 'synapsis.db-shm']) {
    if (fs.existsSync(path.join(from, name))) fs.copyFileSync(path.join(from, name), path.join(to, name));
  }
}

/** Marks the store as written by another analyzer (what an update of the app finds); its notes and chunks. */
function markOutdated(dataDir: string): { notes: number; chunks: number } {
  const store = new Store(dataDir);
  try {
    store.setSetting(ANALYZER_SETTING, `${ANALYZER_VERSION}-older`);
    return { notes: store.documentCounts().indexed, chunks: store.chunkCount() };
  } finally {
    store.dispose();
  }
}

export async function benchUpgrade(options: { dataDir: string; inLine?: boolean; log?: (line: string) => void }): Promise<UpgradeBench> {
  const dataDir = path.resolve(options.dataDir);
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-bench-upgrade-'));
  try {
    options.log?.(`copying the store of ${dataDir}…\n`);
    copyStore(dataDir, copy);
    const { notes, chunks } = markOutdated(copy);
    options.log?.(`rebuilding the word index of ${notes} notes (${chunks} chunks) on a worker thread…\n`);
    let longest = 0;
    let last = performance.now();
    const probe = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last - 10);
      last = now;
    }, 10);
    let reports = 0;
    const t = performance.now();
    let result: UpgradeBench['off_thread']['result'];
    try {
      result = await upgradeLexicalIndexOffThread(copy, { onProgress: () => reports++ });
    } finally {
      clearInterval(probe);
    }
    const offMs = performance.now() - t;
    let inLine: UpgradeBench['in_line'] = null;
    if (options.inLine) {
      markOutdated(copy);
      options.log?.('the same in line…\n');
      const store = new Store(copy);
      try {
        const t2 = performance.now();
        upgradeLexicalIndex(store);
        inLine = { ms: Math.round(performance.now() - t2) };
      } finally {
        store.dispose();
      }
    }
    return { data_dir: dataDir, notes, chunks, off_thread: { result, ms: Math.round(offMs), progress_reports: reports, longest_stall_ms: Math.round(longest) }, in_line: inLine };
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}
