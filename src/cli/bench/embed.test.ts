import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../../test/helpers/tmp.ts';
import { benchEmbed, embedRow } from './embed.ts';

// stories260K: the real pipeline (node-llama-cpp, contexts, the store) in seconds; its rates mean nothing.
describe('bench embed (time to semantic)', () => {
  it('indexes generated notes with a real model until every chunk has its vector, and profiles the stage', async () => {
    const lines: string[] = [];
    const r = await benchEmbed({ model: path.join(SHARED_DIR, 'models', 'stories260K.gguf'), notes: 1, threads: 1, gpu: 'off', log: (l) => lines.push(l) });
    expect(r.model).toBe('stories260K');
    expect(r.chunks).toBeGreaterThanOrEqual(2);
    expect(r.runtime_sample).toBe(r.chunks); // every input, fewer than the 200 sampled
    expect(r.chunk_vectors_s).toBeGreaterThanOrEqual(r.embed_s);
    expect(r.chunks_per_s).toBeGreaterThan(0);
    expect(r.runtime_chunks_per_s).toBeGreaterThan(0);
    expect(r.model_share).toBeGreaterThan(0);
    expect(r.model_share).toBeLessThanOrEqual(1);
    expect(r.mean_tokens).toBeGreaterThan(10);
    expect(r.gflops).toBeGreaterThan(0);
    expect({ contexts: r.contexts, threads: r.threads_per_context, gpu: r.gpu }).toEqual({ contexts: 1, threads: 1, gpu: false });
    expect(r.load).toHaveLength(2);
    expect(lines.join('\n')).toMatch(/every chunk vector after/);
    const row = embedRow(r);
    expect(row.target).toContain(`time to semantic: 1 generated notes (${r.chunks} chunks), stories260K`);
    expect(row.met).toBe(r.chunk_vectors_s < 300);
  }, 120_000);
});
