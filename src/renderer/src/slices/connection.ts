import type { StateCreator } from 'zustand';
import type { HealthReport } from '../../../shared/contract.ts';
import type { SynapsisClient } from '../../../shared/rpc.ts';
import { historyKey } from './ask.ts';
import { kit, storage, type AppState } from './kit.ts';

/** After an index run completes, health and status are read again once this quiet time passes. */
export const REFRESH_AFTER_INDEX_MS = 500;

/** The engine connection: the client, whether it is up, the events it pushes, and the health it reports. */
export interface ConnectionSlice {
  client: SynapsisClient | null;
  connected: boolean;
  health: HealthReport | null;
  /** The open workspace's data dir (the demo has its own); what is kept per workspace is keyed by it. */
  workspace: string | null;
  /** Whether the app watches folders (false for `synapsis web --no-watch`: changes wait for a re-scan). */
  watchFolders: boolean;
  /** Web mode: the server was restarted and refuses this tab's token; only its new address reaches the engine. */
  staleToken: boolean;
  tokenRefused(): void;
  connect(client: SynapsisClient): () => void;
  /** Reads health, index status, models and the demo state again. */
  refresh(): Promise<void>;
}

export const createConnectionSlice: StateCreator<AppState, [], [], ConnectionSlice> = (set, get) => {
  const { client, run, sensitivity } = kit(get);
  return {
    client: null,
    connected: false,
    health: null,
    watchFolders: true,
    workspace: null,
    staleToken: false,

    tokenRefused() {
      // What the lost connection left (failed requests, "connection lost") is explained by this one state.
      set({ staleToken: true, connected: false, toasts: [] });
    },

    connect(c) {
      set({ client: c, connected: true });
      // A watched folder being edited completes a run per batch: health is read at most twice a second.
      let refreshTimer: ReturnType<typeof setTimeout> | null = null;
      const refreshSoon = () => {
        refreshTimer ??= setTimeout(() => {
          refreshTimer = null;
          void get().refresh();
        }, REFRESH_AFTER_INDEX_MS);
      };
      const subs = [
        c.onConnection((connected) => {
          set({ connected });
          if (connected) void get().refresh();
        }),
        c.on('index/status', (status) => set({ status })),
        c.on('syn.index.completed', (report) => {
          set({ lastReport: report });
          refreshSoon();
        }),
        c.on('answer/stage', (e) => set((s) => (s.asking ? { asking: { ...s.asking, stage: e.stage } } : {}))),
        c.on('answer/quote', (e) => set((s) => (s.asking ? { asking: { ...s.asking, quote: e } } : {}))),
        // A .md file opened with the desktop app (file association).
        c.on('app/openFile', (p) => get().openFile(p.path)),
        c.on('models/download', (download) => set({ download })),
      ];
      void get().refresh();
      return () => {
        subs.forEach((unsubscribe) => unsubscribe());
        if (refreshTimer) clearTimeout(refreshTimer);
      };
    },

    refresh: () =>
      run(async () => {
        const c = client();
        const [health, status, models, info] = await Promise.all([c.call('health/get', { allow_sensitivity: sensitivity() }), c.call('index/status', {}), c.call('models/list', {}), c.call('app/info', {}).catch(() => null)]);
        const demo = info?.demo ?? null;
        const workspace = info?.data_dir ?? get().workspace;
        if (workspace !== get().workspace) {
          // Another workspace (the demo, or back from it): its own recent questions.
          const legacy = demo?.active ? [] : storage.get<string[]>('history', []);
          set({ workspace, history: storage.get<string[]>(historyKey(workspace), legacy), thread: null, threads: [] });
          void get().loadThreads();
        }
        set((s) => ({ health, roots: health.roots, status, models, demo, watchFolders: info?.watch ?? s.watchFolders, onboarding: demo?.active ? false : (s.onboarding ?? (health.roots.length === 0 && !s.onboardingDone)) }));
      }),
  };
};
