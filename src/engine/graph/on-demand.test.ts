import { afterAll, describe, expect, it, vi } from 'vitest';
import { SAMPLE_VAULT, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';

// Counts whole-graph loads; everything else in links.ts is the real module.
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('./links.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./links.ts')>();
  return {
    ...actual,
    loadKnowledgeGraph: (...args: Parameters<typeof actual.loadKnowledgeGraph>) => {
      loads.count++;
      return actual.loadKnowledgeGraph(...args);
    },
  };
});

const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe('graph read on demand', () => {
  it('searches, neighbours, paths and subgraphs never load the whole graph; the overview loads it once per index state', async () => {
    const engine = createEngine({ dataDir: temp.make(), env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' }, config: { graphLlm: false } });
    try {
      await engine.index([SAMPLE_VAULT]);
      const result = await engine.retrieve('Who decided the storage engine for the sync project?', {}, 8);
      expect(result.chunks.length).toBeGreaterThan(0);
      expect(engine.graphNeighbors('Maya Chen', 2).found).toBe(true);
      engine.graphPath('Maya Chen', 'SQLite');
      expect(engine.graphSubgraph({ paths: result.chunks.slice(0, 3).map((c) => c.path), hops: 1 }).nodes.length).toBeGreaterThan(0);
      expect(loads.count).toBe(0);
      const first = engine.graphOverview({ limit: 5 });
      expect(first.central.length).toBeGreaterThan(0);
      expect(engine.graphOverview({ limit: 5 })).toEqual(first);
      expect(loads.count).toBe(1);
    } finally {
      await engine.dispose();
    }
  });
});
