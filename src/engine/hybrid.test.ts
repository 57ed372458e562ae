import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../test/helpers/tmp.ts';
import { createEngine } from './engine.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe('retrieval pipeline', () => {
  it('keeps chunks that share a locator apart: a long line split in pieces yields distinct results with their own scores', async () => {
    // One line far longer than a chunk: the chunker cuts it into pieces that all point at line 3.
    const words = Array.from({ length: 900 }, (_, i) => (i === 10 ? 'zebrafish' : i === 700 ? 'zebrafish zebrafish okapi' : `w${i % 50}`));
    const root = temp.make('syn-pipe-', { 'long.md': `# Long\n\n${words.join(' ')}\n` });
    const engine = createEngine({ dataDir: temp.make('syn-pipe-data-'), env: {} });
    try {
      await engine.index([root]);
      const result = await engine.retrieve('zebrafish okapi', { mode: 'bm25' }, 10);
      const ids = result.chunks.map((c) => c.chunk_id);
      expect(result.chunks.length).toBeGreaterThanOrEqual(2);
      expect(new Set(result.chunks.map((c) => c.locator)).size).toBe(1);
      expect(new Set(ids).size).toBe(ids.length);
      // Best first, and the piece holding both words outranks the one holding one.
      expect(result.chunks[0]!.text).toContain('okapi');
      expect(result.chunks[0]!.score).toBeGreaterThan(result.chunks[1]!.score);
    } finally {
      await engine.dispose();
    }
  });
});
