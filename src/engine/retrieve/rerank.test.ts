import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../engine.ts';
import type { ChatModel } from '../llm/chat.ts';
import type { Reranker } from '../llm/reranker.ts';

// No cross-encoder GGUF is available here (../shared/models/README.md): reranking is proven with
// deterministic scorers behind the same Reranker interface a GGUF ranking model implements.
const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
});
afterAll(() => temp.cleanup());

function vault() {
  return temp.make('syn-rerank-vault-', {
    'a.md': '# Cache\n\nThe offline cache uses SQLite. The cache is small.\n',
    'b.md': '# Notes\n\nThe cache of the relay is Redis, chosen in May.\n',
    'c.md': '# Garden\n\nA cache of seeds sits in the shed.\n',
  });
}

async function open(reranker: Reranker, config: Record<string, unknown> = {}) {
  const engine = createEngine({ dataDir: temp.make('syn-rerank-data-'), env: {}, reranker, config });
  engines.push(engine);
  await engine.index([vault()]);
  return engine;
}

const seedsFirst: Reranker = {
  name: 'seeds-first',
  rank: async (_query, passages) => passages.map((p) => (p.includes('seeds') ? 0.9 : p.includes('Redis') ? 0.5 : 0.1)),
  unload: async () => {},
};

describe('reranking', () => {
  it('reorders the fused list by the reranker score and says so in meta and ranks', async () => {
    const engine = await open(seedsFirst);
    const plain = await engine.retrieve('cache', { enable_rerank: false }, 3);
    expect(plain.meta.rerank_used).toBe(false);
    expect(plain.chunks[0]!.path).not.toBe('c.md');
    const reranked = await engine.retrieve('cache', {}, 3);
    expect(reranked.meta.rerank_used).toBe(true);
    expect(reranked.chunks.map((c) => c.path)).toEqual(['c.md', 'b.md', 'a.md']);
    expect(reranked.chunks.map((c) => c.ranks?.rerank)).toEqual([1, 2, 3]);
    expect(reranked.chunks[0]!.score).toBeCloseTo(0.9);
    expect(reranked.meta.timings).toHaveProperty('rerank_ms');
    expect((await engine.health()).models.rerank?.name).toBe('seeds-first');
  });

  it('keeps the fused order and names the limit when the reranker times out or fails', async () => {
    const hanging: Reranker = { name: 'hangs', rank: () => new Promise(() => {}), unload: async () => {} };
    const slow = await open(hanging, { rerankTimeoutMs: 50 });
    const expected = (await slow.retrieve('cache', { enable_rerank: false }, 3)).chunks.map((c) => c.locator);
    const timedOut = await slow.retrieve('cache', {}, 3);
    expect(timedOut.meta.rerank_used).toBe(false);
    expect(timedOut.meta.limits).toContainEqual({ code: 'rerank_timed_out', detail: expect.stringMatching(/rerank timed out after 50 ms/) });
    expect(timedOut.chunks.map((c) => c.locator)).toEqual(expected);

    const failing: Reranker = { name: 'fails', rank: () => Promise.reject(new Error('context overflow')), unload: async () => {} };
    const broken = await open(failing);
    const failed = await broken.retrieve('cache', {}, 3);
    expect(failed.meta.limits).toContainEqual({ code: 'rerank_failed', detail: expect.stringMatching(/rerank failed: context overflow/) });
    expect(failed.chunks).toHaveLength(3);
  });
});

describe('the chat model as a reranking judge', () => {
  /** Grades a passage 3 when it mentions seeds, else 0, and counts its calls. */
  function gradingChat() {
    const chat: ChatModel & { calls: number } = {
      name: 'grader',
      calls: 0,
      contextSize: async () => 4096,
      countTokens: async (t) => t.length,
      generate: async (o) => {
        chat.calls++;
        const json = { grade: o.user.includes('seeds') ? 3 : 0 };
        return { text: JSON.stringify(json), json, tokensIn: 1, tokensOut: 1, firstTokenMs: 1, tokensPerS: 1, aborted: false };
      },
      unload: async () => {},
    };
    return chat;
  }

  it('judges the top passages only when SYN_RERANK_WITH_CHAT asks for it', async () => {
    const chat = gradingChat();
    const judged = createEngine({ dataDir: temp.make('syn-judge-data-'), env: {}, chat, config: { rerankWithChat: true, rerankTopN: 3 } });
    engines.push(judged);
    await judged.index([vault()]);
    const r = await judged.retrieve('cache', { mode: 'bm25' }, 3);
    expect(r.meta.rerank_used).toBe(true);
    expect(r.chunks[0]!.path).toBe('c.md');
    expect(chat.calls).toBe(3);

    const off = gradingChat();
    const plain = createEngine({ dataDir: temp.make('syn-judge-data-'), env: {}, chat: off });
    engines.push(plain);
    await plain.index([vault()]);
    const p = await plain.retrieve('cache', { mode: 'bm25' }, 3);
    expect(p.meta.rerank_used).toBe(false);
    expect(off.calls).toBe(0);
  });
});
