import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SHARED_DIR } from '../../../test/helpers/tmp.ts';
import { Embedder, LlamaRuntime } from './runtime.ts';

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
