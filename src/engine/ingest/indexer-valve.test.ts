import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { chunkingParams, loadConfig } from '../core/config.ts';
import { EventBus } from '../core/events.ts';
import { Store } from '../store/store.ts';
import { indexRoots, paramsHashOf } from './indexer.ts';

// The indexer's memory valve, recorded: each consultation in order with the store's commits.
const events = vi.hoisted(() => [] as string[]);
vi.mock('../core/memory-valve.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../core/memory-valve.ts')>();
  return { ...actual, createMemoryValve: () => ({ check: () => (events.push('valve'), false) }) };
});

const temp = new TempDirs();
afterEach(() => temp.cleanup());

describe("the indexer's memory valve", () => {
  it('is consulted after every batch it commits, so a long run collects its garbage between batches', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 130; i++) files[`n${String(i).padStart(3, '0')}.md`] = `# Note ${i}\n\nword w${i}x about relays and [[n${String((i + 1) % 130).padStart(3, '0')}]].\n`;
    const root = temp.make('syn-valve-', files);
    const store = new Store(temp.make('syn-valve-data-'));
    try {
      const commit = store.transaction.bind(store);
      store.transaction = (writes) => {
        events.push('commit');
        commit(writes);
      };
      const config = loadConfig({}, {});
      const r = store.addRoot(fs.realpathSync(root), [], []);
      const report = await indexRoots({ store, config, events: new EventBus(), paramsHash: paramsHashOf(chunkingParams(config)), shouldStop: () => false }, [r]);
      expect(report.indexed).toBe(130);
      // More than one batch (40 files a batch at most), each commit followed by the valve before the next.
      const commits = events.flatMap((e, i) => (e === 'commit' ? [i] : []));
      expect(commits.length).toBeGreaterThanOrEqual(4);
      for (const at of commits) expect(events[at + 1], `after commit ${commits.indexOf(at) + 1} of ${commits.length}`).toBe('valve');
    } finally {
      store.dispose();
    }
  });
});
