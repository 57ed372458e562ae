import { describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/index.ts';
import { SAMPLE_VAULT, TempDirs } from '../../../test/helpers/tmp.ts';
import { coldStart } from './search.ts';

describe('coldStart', () => {
  it('answers every query in a fresh process and reports their latency and its memory, with the graph and without', async () => {
    const temp = new TempDirs();
    try {
      const dataDir = temp.make();
      const engine = createEngine({ dataDir, env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } });
      try {
        await engine.index([SAMPLE_VAULT]);
      } finally {
        await engine.dispose();
      }
      const queries = ['why did we postpone QUIC', 'relay outage root cause', 'who leads the sync team'];
      for (const graph of [true, false]) {
        const r = coldStart(dataDir, queries, graph, 0);
        expect(r.queries).toBe(3);
        expect(r.open_and_first_query_ms).toBeGreaterThanOrEqual(r.open_ms);
        expect(r.p50_ms).not.toBeNull();
        expect(r.p95_ms!).toBeGreaterThanOrEqual(r.p50_ms!);
        // The graph list's share: timed with the graph only, and within the queries' own times.
        if (graph) {
          expect(r.graph_p50_ms!).toBeLessThanOrEqual(r.p95_ms!);
          expect(r.graph_p95_ms!).toBeGreaterThanOrEqual(r.graph_p50_ms!);
        } else {
          expect(r.graph_p50_ms).toBeNull();
          expect(r.graph_p95_ms).toBeNull();
        }
        expect(r.rss_mb).toBeGreaterThan(0);
        if (process.platform === 'linux') expect(r.rss_anon_mb!).toBeLessThanOrEqual(r.rss_mb);
      }
      // No queries: the process says how it is used and fails.
      expect(() => coldStart(dataDir, [])).toThrowError(/usage: cold-start.ts/);
    } finally {
      temp.cleanup();
    }
  }, 120_000);
});
