/**
 * What every slice of the UI store shares: the state they make up together, the engine client, the
 * sensitivity the user allowed, persisted preferences, and the one way an action reports an error.
 */
import type { SynapsisClient } from '../../../shared/rpc.ts';
import type { AskSlice } from './ask.ts';
import type { ConnectionSlice } from './connection.ts';
import type { DemoSlice } from './demo.ts';
import type { GraphSlice } from './graph.ts';
import type { LibrarySlice } from './library.ts';
import type { SearchSlice } from './search.ts';
import type { SettingsSlice } from './settings.ts';
import type { ShellSlice } from './shell.ts';
import type { SourceSlice } from './source.ts';
import type { ThreadsSlice } from './threads.ts';

/** The whole store: each view's slice, joined in one zustand store (components select what they show). */
export type AppState = ConnectionSlice & ShellSlice & LibrarySlice & SettingsSlice & AskSlice & SearchSlice & SourceSlice & GraphSlice & DemoSlice & ThreadsSlice;

export const storage = {
  get<T>(key: string, fallback: T): T {
    try {
      const raw = globalThis.localStorage?.getItem(`synapsis.${key}`);
      return raw === null || raw === undefined ? fallback : (JSON.parse(raw) as T);
    } catch {
      return fallback;
    }
  },
  set(key: string, value: unknown) {
    try {
      globalThis.localStorage?.setItem(`synapsis.${key}`, JSON.stringify(value));
    } catch {
      // Storage full or disabled: preferences just do not persist.
    }
  },
};

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export interface Kit {
  /** The engine client; throws when the UI is not connected. */
  client(): SynapsisClient;
  /** The sensitivity values requests may see: restricted only when the user allowed it. */
  sensitivity(): string[];
  /** Runs an action; what it throws becomes an error toast, and `fallback` is returned instead. */
  run<T>(action: () => Promise<T>, fallback: T): Promise<T>;
  run(action: () => Promise<void>): Promise<void>;
}

export function kit(get: () => AppState): Kit {
  const run = async <T>(action: () => Promise<T>, fallback?: T): Promise<T | undefined> => {
    try {
      return await action();
    } catch (error) {
      get().notify('error', messageOf(error));
      return fallback;
    }
  };
  return {
    client() {
      const c = get().client;
      if (!c) throw new Error('not connected to the engine');
      return c;
    },
    sensitivity: () => (get().allowRestricted ? ['restricted'] : []),
    run: run as Kit['run'],
  };
}
