/** The GPU setting reaches node-llama-cpp: auto asks for a GPU and falls back to CPU with the reason; off never asks. */
import { describe, expect, it, vi } from 'vitest';

const getLlama = vi.fn();
vi.mock('node-llama-cpp', () => ({ getLlama, LlamaLogLevel: { error: 'error' } }));
const { LlamaRuntime } = await import('./runtime.ts');

describe('LlamaRuntime GPU', () => {
  it('asks for a GPU with auto, and uses the one node-llama-cpp found', async () => {
    getLlama.mockReset().mockResolvedValue({ gpu: 'cuda', dispose: async () => {} });
    const runtime = new LlamaRuntime({ gpu: 'auto', threads: 2 });
    await runtime.get();
    expect(getLlama).toHaveBeenCalledTimes(1);
    expect(getLlama.mock.calls[0]![0]).toMatchObject({ gpu: 'auto', build: 'never' });
    expect(runtime.status()).toMatchObject({ gpu: 'cuda', gpuFallbackReason: null, threads: 2 });
  });

  it('falls back to CPU when the GPU backend fails, keeping the reason', async () => {
    getLlama.mockReset().mockRejectedValueOnce(new Error('no CUDA device')).mockResolvedValue({ gpu: false, dispose: async () => {} });
    const runtime = new LlamaRuntime({ gpu: 'auto' });
    await runtime.get();
    expect(getLlama.mock.calls.map((c) => (c[0] as { gpu: unknown }).gpu)).toEqual(['auto', false]);
    expect(runtime.status()).toMatchObject({ gpu: false, gpuFallbackReason: expect.stringContaining('no CUDA device') });
  });

  it('never asks for a GPU when it is off', async () => {
    getLlama.mockReset().mockResolvedValue({ gpu: false, dispose: async () => {} });
    await new LlamaRuntime({ gpu: false }).get();
    expect(getLlama.mock.calls.map((c) => (c[0] as { gpu: unknown }).gpu)).toEqual([false]);
  });
});
