import type { StateCreator } from 'zustand';
import type { EventMap, IndexReport, IndexStatus, Root } from '../../../shared/contract.ts';
import { kit, type AppState } from './kit.ts';

export type Progress = EventMap['index/progress'];

/** The library view: the folders, indexing and its progress. */
export interface LibrarySlice {
  roots: Root[];
  status: IndexStatus | null;
  /** Latest progress per root path ('' when a run spans several roots). */
  progress: Record<string, Progress>;
  lastReport: IndexReport | null;
  addFolder(path: string, options?: { include?: string[]; exclude?: string[] }): Promise<boolean>;
  pickFolder(): Promise<string | null>;
  removeFolder(path: string): Promise<void>;
  indexNow(): Promise<void>;
  pause(): Promise<void>;
  resume(): Promise<void>;
}

export const createLibrarySlice: StateCreator<AppState, [], [], LibrarySlice> = (set, get) => {
  const { client, run } = kit(get);
  return {
    roots: [],
    status: null,
    progress: {},
    lastReport: null,

    addFolder: (path, options = {}) =>
      run(async () => {
        await client().call('index/addRoot', { path, include: options.include ?? [], exclude: options.exclude ?? [] });
        await get().refresh();
        void run(async () => {
          await client().call('index/run', {});
          // Started with --no-watch: the folder is indexed now and again on Re-scan, never watched.
          if (get().watchFolders) await client().call('index/watch', { enabled: true });
        });
        return true;
      }, false),
    pickFolder: () => run(async () => (await client().call('app/pickFolder', {})).path, null),
    removeFolder: (path) =>
      run(async () => {
        const r = await client().call('index/removeRoot', { path });
        get().notify('info', `Removed ${path} (${r.documents_removed} documents left the index; the files are untouched).`);
        await get().refresh();
      }),
    indexNow: () =>
      run(async () => {
        await client().call('index/run', {});
      }),
    pause: () => run(async () => set({ status: await client().call('index/pause', {}) })),
    resume: () => run(async () => set({ status: await client().call('index/resume', {}) })),
  };
};
