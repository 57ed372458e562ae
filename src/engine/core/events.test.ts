import { describe, expect, it, vi } from 'vitest';
import { EventBus } from './events.ts';
import { DisposableStore } from './lifecycle.ts';

describe('EventBus', () => {
  it('delivers typed payloads and unsubscribes through dispose', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    const sub = bus.on('syn.retrieve.denied', (e) => seen.push(e.reason));
    bus.emit('syn.retrieve.denied', { query: 'q', reason: 'restricted' });
    sub.dispose();
    bus.emit('syn.retrieve.denied', { query: 'q', reason: 'again' });
    expect(seen).toEqual(['restricted']);
    expect(bus.listenerCount()).toBe(0);
  });

  it('isolates a throwing listener', () => {
    const bus = new EventBus();
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const after = vi.fn();
    bus.on('syn.index.requested', () => {
      throw new Error('bad listener');
    });
    bus.on('syn.index.requested', after);
    bus.emit('syn.index.requested', { sources: [] });
    expect(after).toHaveBeenCalledOnce();
    spy.mockRestore();
  });
});

describe('DisposableStore', () => {
  it('disposes in reverse order, once, and reports failures after disposing the rest', async () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add({ dispose: () => void order.push('a') });
    store.add({
      dispose: () => {
        throw new Error('b failed');
      },
    });
    store.add({ dispose: async () => void order.push('c') });
    await expect(store.dispose()).rejects.toThrow(/failed to dispose/);
    expect(order).toEqual(['c', 'a']);
    await store.dispose();
    expect(order).toEqual(['c', 'a']);
    expect(() => store.add({ dispose() {} })).toThrow(/disposed/);
  });
});
