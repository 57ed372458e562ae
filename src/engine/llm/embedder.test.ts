import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SHARED_DIR } from '../../../test/helpers/tmp.ts';
import { Embedder, embeddingContextSize, LlamaRuntime } from './runtime.ts';

// stories260K: real vectors from a real GGUF through node-llama-cpp, with no meaning.
const MODEL = path.join(SHARED_DIR, 'models', 'stories260K.gguf');
const runtime = new LlamaRuntime({ gpu: false, threads: 1 });
const embedder = new Embedder(runtime, { modelPath: MODEL, modelId: 'stories', modelName: 'stories260K' });
afterAll(() => embedder.unload());

describe('Embedder', () => {
  it('keeps the last few query vectors: a query asked again skips the model and gets an equal copy of its vector', async () => {
    const model = vi.spyOn(embedder as unknown as { embedText: (t: string, k: string) => Promise<Float32Array> }, 'embedText');
    const first = await embedder.embed('where did Maya fly in May', 'query');
    const kept = first.slice();
    first.fill(0); // a caller changing its vector must not change the kept one
    const again = await embedder.embed('where did Maya fly in May', 'query');
    expect(again).toEqual(kept);
    expect(model).toHaveBeenCalledTimes(1);

    // Documents are never kept (the store holds their vectors), and the same text as a document is embedded anew.
    await embedder.embed('where did Maya fly in May', 'document');
    await embedder.embed('where did Maya fly in May', 'document');
    expect(model).toHaveBeenCalledTimes(3);

    // Sixteen other queries push the first one out, oldest first.
    for (let i = 0; i < 16; i++) await embedder.embed(`question number ${i}`, 'query');
    await embedder.embed('question number 15', 'query');
    expect(model).toHaveBeenCalledTimes(19);
    expect(await embedder.embed('where did Maya fly in May', 'query')).toEqual(kept);
    expect(model).toHaveBeenCalledTimes(20);
    model.mockRestore();
  }, 60_000);
});

describe('Embedder batches', () => {
  it('embeds a batch across its contexts in input order, each vector the one a single call gives', async () => {
    const texts = ['the cat sat', 'a dog ran home', 'once upon a time', 'x', ''];
    const batch = await embedder.embedMany(texts, 'document');
    expect(batch.map((o) => o.status)).toEqual(texts.map(() => 'fulfilled'));
    for (let i = 0; i < texts.length; i++) {
      const single = await embedder.embed(texts[i]!, 'document');
      const v = (batch[i] as PromiseFulfilledResult<Float32Array>).value;
      expect(v.length).toBe(single.length);
      for (let d = 0; d < v.length; d++) expect(v[d]).toBeCloseTo(single[d]!, 4);
    }
    expect(Math.hypot(...(batch[0] as PromiseFulfilledResult<Float32Array>).value)).toBeCloseTo(1, 4);
  }, 60_000);

  it('gives a question the next free context, ahead of the documents of a page still waiting', async () => {
    const order: string[] = [];
    const docs = Array.from({ length: 24 }, (_, i) => `document number ${i} about the forest and the river`);
    const page = Promise.all(docs.map((t, i) => embedder.embed(t, 'document').then(() => order.push(`doc ${i}`))));
    const question = embedder.embed('which river runs through the forest', 'query').then(() => order.push('query'));
    await Promise.all([page, question]);
    // One context (threads: 1): the first document was being embedded, then the question.
    expect(order.indexOf('query')).toBeLessThanOrEqual(1);
    expect(order.at(-1)).toBe('doc 23');
  }, 60_000);
});

describe('embeddingContextSize', () => {
  it('sizes the context for the longest input, never past the training context or 8,192 tokens', () => {
    // 512-token models (MiniLM, e5-small) keep their whole context.
    expect(embeddingContextSize(512, 1200)).toBe(512);
    // An 8,192-token model gets what a 1,200-character chunk with its title and heading can take.
    expect(embeddingContextSize(8192, 1200)).toBe(1536);
    expect(embeddingContextSize(8192, 20_000)).toBe(8192);
    expect(embeddingContextSize(32_768, 20_000)).toBe(8192);
    expect(embeddingContextSize(8192, 200)).toBe(512);
    // A model that does not say gets 512.
    expect(embeddingContextSize(0, 1200)).toBe(512);
    // Every chunk fits: at least one character per token.
    for (const chars of [200, 999, 1200, 4000, 7000]) expect(embeddingContextSize(1 << 20, chars)).toBeGreaterThanOrEqual(chars + 256);
  });
});
