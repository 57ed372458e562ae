import type { StateCreator } from 'zustand';
import type { ModelInfo, ModelRole, SearchMode, SystemInfo } from '../../../shared/contract.ts';
import { kit, messageOf, storage, type AppState } from './kit.ts';

export type Theme = 'system' | 'light' | 'dark';
/** A search mode, or auto: the engine picks (hybrid when an embedding model works). */
export type RetrievalChoice = 'auto' | SearchMode;

/** The settings view: preferences, the machine, and the models. */
export interface SettingsSlice {
  theme: Theme;
  mode: RetrievalChoice;
  /** Restricted notes are shown only when the user turns this on, for this session. */
  allowRestricted: boolean;
  /** While restricted notes are shown: the documents that are restricted, so every place that shows one can mark it. */
  restrictedDocs: string[];
  system: SystemInfo | null;
  models: ModelInfo[];
  restartNeeded: boolean;
  setTheme(theme: Theme): void;
  setMode(mode: RetrievalChoice): void;
  setAllowRestricted(allow: boolean): void;
  loadSystem(): Promise<void>;
  /** The system dialog for a model file (desktop only; null in web mode or when cancelled). */
  pickModelFile(): Promise<string | null>;
  /** Imports a model file; resolves to null, or to why it was refused (shown next to the field). */
  importModel(path: string, role?: ModelRole): Promise<string | null>;
  removeModel(ref: string): Promise<void>;
  restartEngine(): Promise<void>;
}

export const createSettingsSlice: StateCreator<AppState, [], [], SettingsSlice> = (set, get) => {
  const { client, run } = kit(get);
  return {
    theme: storage.get<Theme>('theme', 'system'),
    mode: storage.get<RetrievalChoice>('mode', 'auto'),
    allowRestricted: false,
    restrictedDocs: [],
    system: null,
    models: [],
    restartNeeded: false,

    setTheme(theme) {
      storage.set('theme', theme);
      set({ theme });
    },
    setMode(mode) {
      storage.set('mode', mode);
      set({ mode });
    },
    setAllowRestricted(allowRestricted) {
      set({ allowRestricted, restrictedDocs: [], results: null, answer: null, graph: { ...get().graph, view: null, overview: null, selected: null } });
      if (get().query) void get().search();
      // The open thread is read again: answers from restricted notes show or are held back.
      void get().reloadThread();
      if (!allowRestricted) return;
      // The documents seen only with restricted allowed are the restricted ones.
      void run(async () => {
        const [open, all] = await Promise.all([client().call('index/documents', {}), client().call('index/documents', { allow_sensitivity: ['restricted'] })]);
        const visible = new Set(open.map((d) => d.doc_id));
        if (get().allowRestricted) set({ restrictedDocs: all.filter((d) => !visible.has(d.doc_id)).map((d) => d.doc_id) });
      });
    },
    loadSystem: () => run(async () => set({ system: await client().call('system/info', {}) })),
    pickModelFile: () => run(async () => (await client().call('app/pickModelFile', {})).path, null),
    async importModel(path, role) {
      let model;
      try {
        model = await client().call('models/add', { path, ...(role ? { role } : {}) });
      } catch (error) {
        return messageOf(error);
      }
      get().notify('info', `Imported ${model.name} as the ${model.role} model. Restart the engine to use it.`, { label: 'Restart the engine', run: () => void get().restartEngine() });
      set({ restartNeeded: true });
      await get().refresh();
      return null;
    },
    removeModel: (ref) =>
      run(async () => {
        await client().call('models/remove', { ref });
        set({ restartNeeded: true });
        await get().refresh();
      }),
    restartEngine: () =>
      run(async () => {
        await client().call('app/restart', {});
        set({ restartNeeded: false, system: null });
        await get().refresh();
        get().notify('info', 'The engine restarted with the current models.');
      }),
  };
};
