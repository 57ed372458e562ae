import type { StateCreator } from 'zustand';
import type { AnyResponseOf, IndexReport, IndexStatus, Root } from '../../../shared/contract.ts';
import { kit, messageOf, type AppState } from './kit.ts';

export type FolderListing = AnyResponseOf<'app/listFolders'>;

/** The library view: the folders, indexing and its progress. */
export interface LibrarySlice {
  roots: Root[];
  /** The engine's index status, with its progress model (overall and per folder). */
  status: IndexStatus | null;
  lastReport: IndexReport | null;
  /** Adds and indexes a folder; resolves to null, or to why it was refused (shown next to the field, not as a toast). */
  addFolder(path: string, options?: { include?: string[]; exclude?: string[] }): Promise<string | null>;
  pickFolder(): Promise<string | null>;
  /** Web mode's folder picker: the folders inside one (the home folder when none is given). */
  listFolders(path?: string): Promise<FolderListing>;
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
    lastReport: null,

    async addFolder(path, options = {}) {
      try {
        await client().call('index/addRoot', { path, include: options.include ?? [], exclude: options.exclude ?? [] });
      } catch (error) {
        return messageOf(error);
      }
      await get().refresh();
      void run(async () => {
        await client().call('index/run', {});
        // Started with --no-watch: the folder is indexed now and again on Re-scan, never watched.
        if (get().watchFolders) await client().call('index/watch', { enabled: true });
      });
      return null;
    },
    pickFolder: () => run(async () => (await client().call('app/pickFolder', {})).path, null),
    listFolders: (path) => client().call('app/listFolders', path ? { path } : {}),
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
