/**
 * The UI's state (zustand): what the engine reported, what the user is doing, and the actions that
 * call the engine through the typed client. Components read slices and call actions; nothing else
 * talks to the engine.
 */
import { create } from 'zustand';
import type {
  AnswerEnvelope,
  DemoStatus,
  EventMap,
  GraphEdge,
  GraphOverview,
  GraphView,
  HealthReport,
  IndexReport,
  IndexStatus,
  ModelInfo,
  ModelRole,
  RetrievalResult,
  Root,
  SourceLines,
  SystemInfo,
} from '../../shared/contract.ts';
import { formatLocator, parseLocator, type ParsedLocator } from '../../shared/locator.ts';
import type { SynapsisClient } from '../../shared/rpc.ts';

export type View = 'ask' | 'search' | 'library' | 'graph' | 'settings';
export type Theme = 'system' | 'light' | 'dark';
export type RetrievalChoice = 'auto' | 'hybrid' | 'bm25' | 'dense';
export type Progress = EventMap['index/progress'];
export type AnswerStage = EventMap['answer/stage']['stage'];

export interface Preview {
  locator: string;
  path: string;
  start: number;
  end: number;
  source: SourceLines | null;
  error: string | null;
}

export interface SearchFilters {
  roots: string[];
  types: string[];
  tags: string[];
}

export interface Toast {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

interface Asking {
  question: string;
  text: string;
  /** A revision (attempt 2) starts the text again. */
  attempt: number;
  stage: AnswerStage | null;
  controller: AbortController;
  /** The answer reader's quote, there before a chat model's draft (which the critic may still withdraw). */
  quote?: EventMap['answer/quote'];
}

export interface AppState {
  client: SynapsisClient | null;
  connected: boolean;
  view: View;
  theme: Theme;
  mode: RetrievalChoice;
  /** Restricted notes are shown only when the user turns this on, for this session. */
  allowRestricted: boolean;
  onboardingDone: boolean;
  /** Decided at the first health report: an empty workspace that never finished onboarding starts with it. */
  onboarding: boolean | null;
  health: HealthReport | null;
  roots: Root[];
  status: IndexStatus | null;
  /** Latest progress per root path ('' when a run spans several roots). */
  progress: Record<string, Progress>;
  lastReport: IndexReport | null;
  system: SystemInfo | null;
  models: ModelInfo[];
  toasts: Toast[];
  history: string[];
  asking: Asking | null;
  answer: AnswerEnvelope | null;
  query: string;
  filters: SearchFilters;
  results: RetrievalResult | null;
  searching: boolean;
  searchError: string | null;
  preview: Preview | null;
  graph: { center: string | null; view: GraphView | null; selected: GraphEdge | null; overview: GraphOverview | null; loading: boolean; message: string | null };
  restartNeeded: boolean;
  /** The demo workspace: whether this installation has one and whether it is open. */
  demo: DemoStatus | null;
  /** The tour step being shown (its graph link appears with the answer). */
  tourStep: string | null;

  connect(client: SynapsisClient): () => void;
  setView(view: View): void;
  setTheme(theme: Theme): void;
  setMode(mode: RetrievalChoice): void;
  setAllowRestricted(allow: boolean): void;
  finishOnboarding(): void;
  notify(kind: Toast['kind'], text: string): void;
  dismissToast(id: number): void;
  refresh(): Promise<void>;
  loadSystem(): Promise<void>;
  addFolder(path: string, options?: { include?: string[]; exclude?: string[] }): Promise<boolean>;
  pickFolder(): Promise<string | null>;
  /** The system dialog for a model file (desktop only; null in web mode or when cancelled). */
  pickModelFile(): Promise<string | null>;
  removeFolder(path: string): Promise<void>;
  indexNow(): Promise<void>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  importModel(path: string, role?: ModelRole): Promise<boolean>;
  removeModel(ref: string): Promise<void>;
  restartEngine(): Promise<void>;
  ask(question: string): Promise<void>;
  cancelAsk(): void;
  setQuery(query: string): void;
  setFilters(filters: Partial<SearchFilters>): void;
  search(): Promise<void>;
  openPreview(locator: string): Promise<void>;
  closePreview(): void;
  openInEditor(locator: string): Promise<void>;
  showGraph(entity: string): Promise<void>;
  showAnswerGraph(): Promise<void>;
  selectEdge(edge: GraphEdge | null): void;
  loadOverview(): Promise<void>;
  startDemo(): Promise<void>;
  exitDemo(): Promise<void>;
  resetDemo(): Promise<void>;
  askTour(id: string): Promise<void>;
  openFile(path: string): void;
}

const storage = {
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

/** After an index run completes, health and status are read again once this quiet time passes. */
export const REFRESH_AFTER_INDEX_MS = 500;

/** Lines shown around a cited range in the preview. */
export const PREVIEW_CONTEXT_LINES = 12;

let toastId = 0;
let searchSeq = 0;

export const useApp = create<AppState>()((set, get) => {
  const client = () => {
    const c = get().client;
    if (!c) throw new Error('not connected to the engine');
    return c;
  };
  const sensitivity = () => (get().allowRestricted ? ['restricted'] : []);
  const fail = (error: unknown) => get().notify('error', error instanceof Error ? error.message : String(error));
  /** Opens another workspace (the demo or the user's): everything shown belonged to the old one. */
  const switchWorkspace = async (method: 'demo/start' | 'demo/exit' | 'demo/reset') => {
    try {
      set({ answer: null, results: null, preview: null, progress: {}, lastReport: null, tourStep: null, system: null, graph: { center: null, view: null, selected: null, overview: null, loading: false, message: null } });
      const demo = await client().call(method, {});
      set({ demo, view: 'ask', onboarding: demo.active ? false : get().onboarding });
      await get().refresh();
      if (!demo.active && get().roots.length === 0) set({ onboarding: !get().onboardingDone });
    } catch (error) {
      fail(error);
    }
  };

  return {
    client: null,
    connected: false,
    view: 'ask',
    theme: storage.get<Theme>('theme', 'system'),
    mode: storage.get<RetrievalChoice>('mode', 'auto'),
    allowRestricted: false,
    onboardingDone: storage.get('onboardingDone', false),
    onboarding: null,
    health: null,
    roots: [],
    status: null,
    progress: {},
    lastReport: null,
    system: null,
    models: [],
    toasts: [],
    history: storage.get<string[]>('history', []),
    asking: null,
    answer: null,
    query: '',
    filters: { roots: [], types: [], tags: [] },
    results: null,
    searching: false,
    searchError: null,
    preview: null,
    graph: { center: null, view: null, selected: null, overview: null, loading: false, message: null },
    restartNeeded: false,
    demo: null,
    tourStep: null,

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
        c.on('index/progress', (p) => {
          set((s) => ({ progress: { ...s.progress, [p.root ?? '']: p } }));
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
      ];
      void get().refresh();
      return () => {
        subs.forEach((unsubscribe) => unsubscribe());
        if (refreshTimer) clearTimeout(refreshTimer);
      };
    },

    setView(view) {
      set({ view });
      if (view === 'graph' && !get().graph.overview) void get().loadOverview();
      if (view === 'settings' && !get().system) void get().loadSystem();
    },
    setTheme(theme) {
      storage.set('theme', theme);
      set({ theme });
    },
    setMode(mode) {
      storage.set('mode', mode);
      set({ mode });
    },
    setAllowRestricted(allowRestricted) {
      set({ allowRestricted, results: null, answer: null, graph: { ...get().graph, view: null, overview: null, selected: null } });
      if (get().query) void get().search();
    },
    finishOnboarding() {
      storage.set('onboardingDone', true);
      set({ onboardingDone: true, onboarding: false });
    },
    notify(kind, text) {
      const id = ++toastId;
      set((s) => ({ toasts: [...s.toasts.slice(-3), { id, kind, text }] }));
      setTimeout(() => get().dismissToast(id), kind === 'error' ? 9000 : 4000);
    },
    dismissToast(id) {
      set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
    },

    async refresh() {
      try {
        const c = client();
        const [health, status, models, info] = await Promise.all([c.call('health/get', {}), c.call('index/status', {}), c.call('models/list', {}), c.call('app/info', {}).catch(() => null)]);
        const demo = info?.demo ?? null;
        set((s) => ({ health, roots: health.roots, status, models, demo, onboarding: demo?.active ? false : (s.onboarding ?? (health.roots.length === 0 && !s.onboardingDone)) }));
      } catch (error) {
        fail(error);
      }
    },
    async loadSystem() {
      try {
        set({ system: await client().call('system/info', {}) });
      } catch (error) {
        fail(error);
      }
    },

    async addFolder(path, options = {}) {
      try {
        await client().call('index/addRoot', { path, include: options.include ?? [], exclude: options.exclude ?? [] });
        await get().refresh();
        void client()
          .call('index/run', {})
          .then(() => client().call('index/watch', { enabled: true }))
          .catch(fail);
        return true;
      } catch (error) {
        fail(error);
        return false;
      }
    },
    async pickFolder() {
      try {
        return (await client().call('app/pickFolder', {})).path;
      } catch (error) {
        fail(error);
        return null;
      }
    },
    async pickModelFile() {
      try {
        return (await client().call('app/pickModelFile', {})).path;
      } catch (error) {
        fail(error);
        return null;
      }
    },
    async removeFolder(path) {
      try {
        const r = await client().call('index/removeRoot', { path });
        get().notify('info', `Removed ${path} (${r.documents_removed} documents left the index; the files are untouched).`);
        await get().refresh();
      } catch (error) {
        fail(error);
      }
    },
    async indexNow() {
      try {
        await client().call('index/run', {});
      } catch (error) {
        fail(error);
      }
    },
    async pause() {
      try {
        set({ status: await client().call('index/pause', {}) });
      } catch (error) {
        fail(error);
      }
    },
    async resume() {
      try {
        set({ status: await client().call('index/resume', {}) });
      } catch (error) {
        fail(error);
      }
    },
    async importModel(path, role) {
      try {
        const model = await client().call('models/add', { path, ...(role ? { role } : {}) });
        get().notify('info', `Imported ${model.name} as the ${model.role} model. Restart the engine to use it.`);
        set({ restartNeeded: true });
        await get().refresh();
        return true;
      } catch (error) {
        fail(error);
        return false;
      }
    },
    async removeModel(ref) {
      try {
        await client().call('models/remove', { ref });
        set({ restartNeeded: true });
        await get().refresh();
      } catch (error) {
        fail(error);
      }
    },
    async restartEngine() {
      try {
        await client().call('app/restart', {});
        set({ restartNeeded: false, system: null });
        await get().refresh();
        get().notify('info', 'The engine restarted with the current models.');
      } catch (error) {
        fail(error);
      }
    },

    async ask(question) {
      const q = question.trim();
      if (!q || get().asking) return;
      get().asking?.controller.abort();
      const controller = new AbortController();
      const history = [q, ...get().history.filter((h) => h !== q)].slice(0, 50);
      storage.set('history', history);
      set({ asking: { question: q, text: '', attempt: 1, stage: 'retrieve', controller }, answer: null, history });
      try {
        const mode = get().mode;
        const answer = await client().call(
          'answer/ask',
          { query: q, ...(mode !== 'auto' ? { mode } : {}), context: { allow_sensitivity: sensitivity() } },
          {
            signal: controller.signal,
            onToken: (t) =>
              set((s) =>
                s.asking && s.asking.controller === controller
                  ? { asking: { ...s.asking, attempt: t.attempt, text: t.attempt === s.asking.attempt ? s.asking.text + t.text : t.text } }
                  : {},
              ),
          },
        );
        set({ answer });
      } catch (error) {
        fail(error);
      } finally {
        set((s) => (s.asking?.controller === controller ? { asking: null } : {}));
      }
    },
    cancelAsk() {
      get().asking?.controller.abort();
    },

    setQuery(query) {
      set({ query });
    },
    setFilters(filters) {
      set((s) => ({ filters: { ...s.filters, ...filters } }));
      void get().search();
    },
    async search() {
      const { query, filters, mode } = get();
      const seq = ++searchSeq;
      if (!query.trim()) {
        set({ results: null, searching: false, searchError: null });
        return;
      }
      set({ searching: true });
      try {
        const results = await client().call('search/query', {
          query,
          k: 20,
          ...(mode !== 'auto' ? { mode } : {}),
          context: { allow_sensitivity: sensitivity(), roots: filters.roots, types: filters.types, tags: filters.tags },
        });
        if (seq === searchSeq) set({ results, searching: false, searchError: null });
      } catch (error) {
        if (seq === searchSeq) set({ searching: false, searchError: error instanceof Error ? error.message : String(error) });
      }
    },

    async openPreview(locator) {
      let parsed: ParsedLocator;
      try {
        parsed = parseLocator(locator);
      } catch (error) {
        set({ preview: { locator, path: locator, start: 1, end: 1, source: null, error: error instanceof Error ? error.message : String(error) } });
        return;
      }
      const { path, page } = parsed;
      const start = parsed.startLine ?? 1;
      const end = parsed.endLine ?? start;
      set({ preview: { locator, path, start, end, source: null, error: null } });
      try {
        const around = formatLocator({ path, page, startLine: Math.max(1, start - PREVIEW_CONTEXT_LINES), endLine: end + PREVIEW_CONTEXT_LINES });
        const source = await client().call('source/get', { locator: around, allow_sensitivity: sensitivity() });
        set((s) => (s.preview?.locator === locator ? { preview: { ...s.preview, source } } : {}));
      } catch (error) {
        set((s) => (s.preview?.locator === locator ? { preview: { ...s.preview, error: error instanceof Error ? error.message : String(error) } } : {}));
      }
    },
    closePreview() {
      set({ preview: null });
    },
    async openInEditor(locator) {
      try {
        const r = await client().call('source/open', { locator, allow_sensitivity: sensitivity() });
        get().notify('info', `Opened ${r.file} with ${r.how}.`);
      } catch (error) {
        fail(error);
      }
    },

    async showGraph(entity) {
      const e = entity.trim();
      if (!e) return;
      set((s) => ({ view: 'graph', graph: { ...s.graph, center: e, loading: true, selected: null, message: null } }));
      try {
        const view = await client().call('graph/subgraph', { entity: e, hops: 1, max_nodes: 60, allow_sensitivity: sensitivity() });
        const message = view.missing.length > 0 ? `Nothing in the graph is called "${view.missing.join('", "')}".` : view.nodes.length <= 1 ? `"${e}" has no links yet.` : null;
        set((s) => ({ graph: { ...s.graph, view, loading: false, message } }));
      } catch (error) {
        set((s) => ({ graph: { ...s.graph, loading: false, message: error instanceof Error ? error.message : String(error) } }));
      }
    },
    async showAnswerGraph() {
      const answer = get().answer;
      const paths = [...new Set((answer?.citations.length ? answer.citations : (answer?.snippets ?? [])).map((c) => c.path))];
      if (paths.length === 0) return;
      set((s) => ({ view: 'graph', graph: { ...s.graph, center: `sources of “${answer!.query}”`, loading: true, selected: null, message: null } }));
      try {
        const view = await client().call('graph/subgraph', { paths, hops: 1, max_nodes: 80, allow_sensitivity: sensitivity() });
        set((s) => ({ graph: { ...s.graph, view, loading: false, message: null } }));
      } catch (error) {
        set((s) => ({ graph: { ...s.graph, loading: false, message: error instanceof Error ? error.message : String(error) } }));
      }
    },
    selectEdge(selected) {
      set((s) => ({ graph: { ...s.graph, selected } }));
    },
    async startDemo() {
      await switchWorkspace('demo/start');
    },
    async exitDemo() {
      await switchWorkspace('demo/exit');
    },
    async resetDemo() {
      await switchWorkspace('demo/reset');
    },
    openFile(file) {
      const root = get().roots.find((r) => file.startsWith(`${r.path}/`) || file.startsWith(`${r.path}\\`));
      if (root) {
        void get().openPreview(file.slice(root.path.length + 1).replace(/\\/g, '/'));
        return;
      }
      set({ view: 'library' });
      get().notify('info', `${file} is not in a folder Synapsis knows. Add its folder here to search and cite it.`);
    },
    async askTour(id) {
      const step = get().demo?.tour.find((t) => t.id === id);
      if (!step) return;
      set({ tourStep: id, view: 'ask' });
      await get().ask(step.question);
    },

    async loadOverview() {
      try {
        const overview = await client().call('graph/overview', { limit: 12, allow_sensitivity: sensitivity() });
        set((s) => ({ graph: { ...s.graph, overview } }));
      } catch (error) {
        fail(error);
      }
    },
  };
});
