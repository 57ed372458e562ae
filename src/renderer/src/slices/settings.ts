import type { StateCreator } from 'zustand';
import type { AnyResponseOf, DownloadProgress, ModelInfo, ModelRole, SearchMode, SystemInfo } from '../../../shared/contract.ts';
import { kit, messageOf, storage, type AppState } from './kit.ts';

export type Theme = 'system' | 'light' | 'dark';
/** A search mode, or auto: the engine picks (hybrid when an embedding model works). */
export type RetrievalChoice = 'auto' | SearchMode;

export type ModelCatalog = AnyResponseOf<'models/catalog'>;

/** The settings view: preferences, the machine, and the models. */
export interface SettingsSlice {
  theme: Theme;
  mode: RetrievalChoice;
  /** Restricted notes are shown only when the user turns this on; it lasts until the window closes or reloads. */
  allowRestricted: boolean;
  /** While restricted notes are shown: the documents that are restricted, so every place that shows one can mark it. */
  restrictedDocs: string[];
  system: SystemInfo | null;
  models: ModelInfo[];
  restartNeeded: boolean;
  /** The model catalog for this machine (what "Download the recommended models" fetches), once asked. */
  catalog: ModelCatalog | null;
  /** The host's model download as its events tell it (the last state stays until the next run). */
  download: DownloadProgress | null;
  /** The ids the last download asked for (a failed or cancelled one resumes with them). */
  downloadIds: string[];
  setTheme(theme: Theme): void;
  setMode(mode: RetrievalChoice): void;
  setAllowRestricted(allow: boolean): void;
  loadSystem(): Promise<void>;
  /** The system dialog for a model file (desktop only; null in web mode or when cancelled). */
  pickModelFile(): Promise<string | null>;
  /** Imports a model file and restarts the engine with it; resolves to null, or to why it was refused (shown next to the field). */
  importModel(path: string, role?: ModelRole): Promise<string | null>;
  removeModel(ref: string): Promise<void>;
  loadCatalog(): Promise<void>;
  /** Downloads catalog models on the host; resolves to null, or to why it failed (shown beside the progress). */
  downloadModels(ids: string[]): Promise<string | null>;
  cancelDownload(): Promise<void>;
  /** The system dialog for a folder of models (desktop only; null in web mode or when cancelled). */
  pickModelFolder(): Promise<string | null>;
  /** Imports every model of a folder; resolves to null, or to why it was refused. */
  importModelFolder(path: string): Promise<string | null>;
  restartEngine(): Promise<void>;
}

export const createSettingsSlice: StateCreator<AppState, [], [], SettingsSlice> = (set, get) => {
  const { client, run } = kit(get);
  /** The host registered models and restarted the engine with them: show them, and embed the notes with a new embedder. */
  const modelsArrived = async (models: ModelInfo[]) => {
    if (models.length === 0) return;
    // A download that failed or was cancelled before is no longer what the screen should say.
    set((s) => ({ restartNeeded: false, system: null, download: s.download && ['failed', 'cancelled'].includes(s.download.state) ? null : s.download }));
    await get().refresh();
    await get().loadCatalog();
    const names = models.map((m) => m.name).join(', ');
    const embeds = models.some((m) => m.role === 'embed') && get().roots.length > 0;
    get().notify('info', embeds ? `Synapsis now uses ${names}. Your notes are being embedded for meaning search; search by words works meanwhile.` : `Synapsis now uses ${names}.`);
    if (embeds) void get().indexNow();
    // A chat model: how fast it writes here is measured now, and what is recommended goes by it.
    if (models.some((m) => m.role === 'chat')) void measureChat();
  };
  const measureChat = () =>
    run(async () => {
      const measured = await client().call('models/measure', {});
      if (measured.tokens_per_s === null || measured.model === null) return;
      await get().loadCatalog();
      set({ models: await client().call('models/list', {}) });
      const seconds = 300 / Math.max(measured.tokens_per_s, 0.01);
      get().notify(
        'info',
        measured.tokens_per_s < 4
          ? `${measured.model} writes ${measured.tokens_per_s} tokens/s on this machine: an answer would take ${Math.round(seconds / 60)} min, so answers are quoted from your notes instead.`
          : `${measured.model} writes ${measured.tokens_per_s} tokens/s on this machine: an answer takes about ${Math.round(seconds)} s.`,
      );
    });
  return {
    theme: storage.get<Theme>('theme', 'system'),
    mode: storage.get<RetrievalChoice>('mode', 'auto'),
    allowRestricted: false,
    restrictedDocs: [],
    system: null,
    models: [],
    restartNeeded: false,
    catalog: null,
    download: null,
    downloadIds: [],

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
      // Health counts the restricted notes (and names their warnings) only while they are shown.
      void get().refresh();
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
      // As a folder import does: the engine restarts with it, no button to find.
      try {
        await client().call('app/restart', {});
      } catch (error) {
        set({ restartNeeded: true });
        await get().refresh();
        return `Imported ${model.name}, but the engine did not restart: ${messageOf(error)}`;
      }
      await modelsArrived([model]);
      return null;
    },
    loadCatalog: () =>
      run(async () => {
        const catalog = await client().call('models/catalog', {});
        // A download started before this window opened (or was reloaded) shows its progress here too.
        set((s) => ({ catalog, download: s.download ?? catalog.download }));
      }),
    async downloadModels(ids) {
      set({ downloadIds: ids, download: null });
      let result;
      try {
        result = await client().call('models/download', { ids });
      } catch (error) {
        await get().loadCatalog();
        await get().refresh();
        return messageOf(error);
      }
      await modelsArrived(result.models);
      return null;
    },
    cancelDownload: () => run(async () => void (await client().call('models/cancelDownload', {}))),
    pickModelFolder: () => run(async () => (await client().call('app/pickModelFolder', {})).path, null),
    async importModelFolder(path) {
      let result;
      try {
        result = await client().call('models/importFolder', { path });
      } catch (error) {
        return messageOf(error);
      }
      await modelsArrived(result.added);
      if (result.skipped.length > 0) {
        const why = result.skipped.map((x) => `${x.file.split(/[\\/]/).pop()}: ${x.reason}`).join('; ');
        return result.added.length > 0 ? `Imported ${result.added.length}; skipped ${why}` : `Nothing imported: ${why}`;
      }
      return null;
    },
    removeModel: (ref) =>
      run(async () => {
        const { model } = await client().call('models/remove', { ref });
        // The engine restarts without it: a removed model is never shown "in use".
        await client().call('app/restart', {});
        set({ restartNeeded: false, system: null });
        await get().refresh();
        await get().loadCatalog();
        if (model) get().notify('info', `Removed ${model.name}; Synapsis no longer uses it.`);
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
