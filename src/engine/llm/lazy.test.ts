import { describe, expect, it, vi } from 'vitest';
import { LazyModel } from './lazy.ts';

describe('LazyModel', () => {
  it('loads once, shares the load between callers, and releases on unload', async () => {
    const load = vi.fn(async () => ({ id: 1 }));
    const release = vi.fn(async () => {});
    const lazy = new LazyModel(load, release);
    const [a, b] = await Promise.all([lazy.get(), lazy.get()]);
    expect(a).toBe(b);
    expect(load).toHaveBeenCalledTimes(1);
    await lazy.unload();
    expect(release).toHaveBeenCalledWith({ id: 1 });
    await lazy.get();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('tries a failed load again on the next use', async () => {
    let calls = 0;
    const lazy = new LazyModel(async () => {
      calls++;
      if (calls === 1) throw new Error('disk busy');
      return 'model';
    }, async () => {});
    await expect(lazy.get()).rejects.toThrow('disk busy');
    await expect(lazy.get()).resolves.toBe('model');
    await lazy.unload();
  });

  it('releases the model after the idle period, counted from the last use', async () => {
    vi.useFakeTimers();
    try {
      const release = vi.fn(async () => {});
      const lazy = new LazyModel(async () => 'model', release, 1000);
      await lazy.get();
      await vi.advanceTimersByTimeAsync(600);
      await lazy.get();
      await vi.advanceTimersByTimeAsync(600);
      expect(release).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(500);
      expect(release).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
