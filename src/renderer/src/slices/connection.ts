import type { StateCreator } from 'zustand';
import type { HealthReport } from '../../../shared/contract.ts';
import type { SynapsisClient } from '../../../shared/rpc.ts';
import { historyKey } from './ask.ts';
import { kit, storage, type AppState } from './kit.ts';

/** After an index run completes, health and status are read again once this quiet time passes. */
export const REFRESH_AFTER_INDEX_MS = 500;
/** While the index changes, its counts (health) are read again at most this often: no count lags a change by more. */
export const HEALTH_EVERY_MS = 1000;

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
      // The index's status moves (a file indexed, a sentence embedded): the counts every view shows
      // (documents, passages, vectors, sentences waiting, the graph's notes) are read again within a second.
      let healthTimer: ReturnType<typeof setTimeout> | null = null;
      let healthAt = 0;
      const healthSoon = () => {
        healthTimer ??= setTimeout(
          () => {
            healthTimer = null;
            healthAt = Date.now();
            void c.call('health/get', {}).then(
              (health) => {
                const before = get().health;
                set({ health, roots: health.roots });
                if (before && countsChanged(before, health) && get().graph.overview) void get().loadOverview();
              },
              () => {
                // The connection is down: onConnection refreshes everything when it is back.
              },
            );
          },
          Math.max(0, healthAt + HEALTH_EVERY_MS - Date.now()),
        );
      };
      const subs = [
        c.onConnection((connected) => {
          set({ connected });
          if (connected) void get().refresh();
        }),
        c.on('index/status', (status) => {
          set({ status });
          healthSoon();
        }),
        c.on('syn.index.completed', (report) => {
          set({ lastReport: report });
          refreshSoon();
        }),
        // Events of the question being answered only: one left to finish in its own conversation
        // (+ New while it was written) still reports; the question asked next is known by its first stage.
        c.on('answer/stage', (e) =>
          set((s) => {
            if (!s.asking) return {};
            if (!s.asking.traceId) return e.stage === 'retrieve' ? { asking: { ...s.asking, traceId: e.trace_id, stage: e.stage } } : {};
            return s.asking.traceId === e.trace_id ? { asking: { ...s.asking, stage: e.stage } } : {};
          }),
        ),
        c.on('answer/quote', (e) => set((s) => (s.asking && s.asking.traceId === e.trace_id ? { asking: { ...s.asking, quote: e } } : {}))),
        // A .md file opened with the desktop app (file association).
        c.on('app/openFile', (p) => get().openFile(p.path)),
        c.on('models/download', (download) => set({ download })),
      ];
      void get().refresh();
      return () => {
        subs.forEach((unsubscribe) => unsubscribe());
        if (refreshTimer) clearTimeout(refreshTimer);
        if (healthTimer) clearTimeout(healthTimer);
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
        const before = get().health;
        if (before && countsChanged(before, health) && get().graph.overview) void get().loadOverview();
        set((s) => ({ health, roots: health.roots, status, models, demo, watchFolders: info?.watch ?? s.watchFolders, onboarding: demo?.active ? false : (s.onboarding ?? (health.roots.length === 0 && !s.onboardingDone)) }));
      }),
  };
};

/** Whether the index's counts moved: the graph's overview (its notes, names and links) is read again. */
function countsChanged(a: HealthReport, b: HealthReport): boolean {
  return a.documents.indexed !== b.documents.indexed || a.chunks !== b.chunks || a.roots.length !== b.roots.length;
}
