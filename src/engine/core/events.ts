import type { EventMap, EventName } from '../../shared/contract.ts';
import type { Disposable } from './lifecycle.ts';

export type Listener<E extends EventName> = (payload: EventMap[E]) => void;

/** A typed event bus; a throwing listener is isolated so it cannot break the emitter. */
export class EventBus implements Disposable {
  private readonly listeners = new Map<EventName, Set<(payload: never) => void>>();

  on<E extends EventName>(event: E, listener: Listener<E>): Disposable {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as (payload: never) => void);
    return { dispose: () => void set.delete(listener as (payload: never) => void) };
  }

  emit<E extends EventName>(event: E, payload: EventMap[E]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<E>)(payload);
      } catch (error) {
        console.error(`[synapsis] listener for ${event} threw:`, error);
      }
    }
  }

  listenerCount(event?: EventName): number {
    if (event) return this.listeners.get(event)?.size ?? 0;
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  dispose(): void {
    this.listeners.clear();
  }
}
