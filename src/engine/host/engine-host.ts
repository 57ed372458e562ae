/**
 * Owns the engine a UI talks to (in Electron's utilityProcess and in web mode): opens it, starts
 * watching the roots, restarts it (an imported model takes effect), and forwards its events to
 * listeners that outlive a restart.
 */
import path from 'node:path';
import { EVENT_NAMES, type DemoStatus, type EventMap, type EventName, type IndexProgress, type IndexStatus, type TourStep } from '../../shared/contract.ts';
import { ProgressTracker } from '../ingest/progress.ts';
import { createError } from '../../shared/errors.ts';
import { createEngine, type Engine } from '../engine.ts';
import { EventBus } from '../core/events.ts';
import type { Disposable } from '../core/lifecycle.ts';
import { demoEngineOptions, demoModels, loadTour, prepareDemoDir, removeDemoDir, type DemoSetup } from './demo.ts';

export interface EngineHostOptions {
  /** Builds a fresh engine (same data dir each time). */
  create: () => Engine;
  /**
   * Work on the store before `create`, off this thread (engine.ts prepareEngineStore: an older
   * store's word index rebuilt), reporting notes done of all: the host keeps answering meanwhile and
   * says how far it has come as the indexing status (phase words), as the app shows any indexing.
   */
  beforeOpen?: (onProgress: (notes: { done: number; total: number }) => void) => Promise<unknown>;
  /** Watch every root once the engine is open (the desktop app does; tests may not). */
  watch?: boolean;
  /** Where background failures (a watch that could not start) go; default console.error. */
  onError?: (error: unknown) => void;
  /** The demo workspace this host can switch to (the sample vault in a data dir of its own). */
  demo?: DemoSetup & { create?: () => Engine };
  /** Open the demo first (`synapsis web --demo`). */
  startInDemo?: boolean;
}

/** The indexing status while an older store's word index is rebuilt: phase words (upgrade), notes done of all, rate and ETA as indexing measures them. */
function upgradeStatus(emit: (status: IndexStatus) => void): (notes: { done: number; total: number }) => void {
  const tracker = new ProgressTracker();
  tracker.begin('words', 0);
  return ({ done, total }) => {
    tracker.update(done, total);
    const finished = done >= total;
    const progress: IndexProgress = finished
      ? { phase: 'done', state: 'done', done, total, rate_per_s: null, eta_s: null, folders: [] }
      : { ...tracker.snapshot({ roots: [], paused: false, backlog: new Map() }), upgrade: true };
    emit({ running: !finished, paused: false, watching: false, pending_jobs: 0, progress });
  };
}

export class EngineHost implements Disposable {
  private current: Engine | null = null;
  private subscriptions: Disposable[] = [];
  /** The host's own bus: its listeners outlive the engines it opens and closes. */
  private readonly events = new EventBus();
  private starting: Promise<Engine> | null = null;
  /**
   * The last restart or workspace switch. Requests wait for it: one arriving mid-switch (a UI
   * refresh racing "Leave the demo") would otherwise reopen the workspace being closed.
   */
  private transition: Promise<unknown> = Promise.resolve();
  private disposed = false;
  private profile: 'user' | 'demo';
  private tour: TourStep[] | null = null;

  constructor(private readonly options: EngineHostOptions) {
    this.profile = options.startInDemo && options.demo ? 'demo' : 'user';
  }

  /** The open engine, opening it on first use; a request during a restart waits for it. */
  async engine(): Promise<Engine> {
    if (this.disposed) throw createError('E_SYN_DISCONNECTED', 'The engine is shut down');
    await this.transition;
    if (this.disposed) throw createError('E_SYN_DISCONNECTED', 'The engine is shut down');
    return this.ensureOpen();
  }

  private ensureOpen(): Promise<Engine> {
    if (this.current) return Promise.resolve(this.current);
    this.starting ??= this.open().finally(() => (this.starting = null));
    return this.starting;
  }

  /** Runs a restart or switch after the previous one; requests meanwhile wait for its end. */
  private swap<T>(work: () => Promise<T>): Promise<T> {
    const next = this.transition.then(work);
    this.transition = next.catch(() => undefined);
    return next;
  }

  private async open(): Promise<Engine> {
    const demo = this.profile === 'demo' ? this.options.demo : undefined;
    if (!demo && this.options.beforeOpen) await this.options.beforeOpen(upgradeStatus((status) => this.emit('index/status', status)));
    // The demo's data dir is checked before anything opens it: 0700, this user's, no one else's to write.
    if (demo) prepareDemoDir(demo.dataDir);
    const engine = demo ? (demo.create ?? (() => createEngine(demoEngineOptions(demo))))() : this.options.create();
    for (const name of EVENT_NAMES) {
      this.subscriptions.push(engine.on(name, (payload) => this.events.emit(name, payload)));
    }
    this.current = engine;
    if (demo) {
      // Incremental: the first start indexes the vault (progress streams as events), later ones stat 53 files.
      void engine.index([demo.vault]).catch((error) => (this.options.onError ?? console.error)(error));
    } else if (this.options.watch && engine.listRoots().length > 0) {
      // Watching catches up with changes made while closed; that run must not delay the first request.
      void engine.watch().catch((error) => (this.options.onError ?? console.error)(error));
    }
    return engine;
  }

  /** Closes the engine and opens a new one (models and settings are read at open). */
  restart(): Promise<void> {
    return this.swap(async () => {
      await this.close();
      await this.ensureOpen();
    });
  }

  /** Whether the folders are to be watched (`synapsis web --no-watch` says no): the UI asks before turning watching on. */
  get watches(): boolean {
    return this.options.watch ?? false;
  }

  /** What the UI needs to offer and run the demo. */
  demoStatus(): DemoStatus {
    const demo = this.options.demo;
    if (!demo) return { available: false, active: false, data_dir: null, models: [], tour: [] };
    try {
      this.tour ??= loadTour(demo);
    } catch (error) {
      // A damaged tour file takes the demo offer away, not the app: app/info must keep answering.
      (this.options.onError ?? console.error)(error);
      return { available: false, active: this.profile === 'demo', data_dir: demo.dataDir, models: [], tour: [] };
    }
    const { embed } = demoModels(demo);
    return { available: true, active: this.profile === 'demo', data_dir: demo.dataDir, models: embed ? [path.basename(embed)] : [], tour: this.tour };
  }

  private switchTo(profile: 'user' | 'demo', reset = false): Promise<DemoStatus> {
    if (this.disposed) return Promise.reject(createError('E_SYN_DISCONNECTED', 'The engine is shut down'));
    if (profile === 'demo' && !this.options.demo) return Promise.reject(createError('E_SYN_BAD_REQUEST', 'This installation has no demo (the sample vault was not found)'));
    return this.swap(async () => {
      if (reset) {
        if (this.profile === 'demo') await this.close();
        prepareDemoDir(this.options.demo!.dataDir);
        removeDemoDir(this.options.demo!.dataDir);
      }
      if (this.profile !== profile || !this.current) {
        await this.close();
        this.profile = profile;
        try {
          await this.ensureOpen();
        } catch (error) {
          // A demo that cannot open (its data dir refused) leaves the user's workspace in place.
          if (profile === 'demo') this.profile = 'user';
          throw error;
        }
      }
      return this.demoStatus();
    });
  }

  startDemo(): Promise<DemoStatus> {
    return this.switchTo('demo');
  }

  exitDemo(): Promise<DemoStatus> {
    return this.switchTo('user');
  }

  /** Deletes the demo workspace and opens it again, which indexes the sample vault afresh. */
  resetDemo(): Promise<DemoStatus> {
    if (!this.options.demo) return Promise.reject(createError('E_SYN_BAD_REQUEST', 'This installation has no demo'));
    return this.switchTo('demo', true);
  }

  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): Disposable {
    return this.events.on(event, listener);
  }

  /** An event of the host's own (a model download's progress), to the same listeners as the engine's. */
  emit<E extends EventName>(event: E, payload: EventMap[E]): void {
    if (!this.disposed) this.events.emit(event, payload);
  }

  private async close(): Promise<void> {
    if (this.starting) await this.starting.catch(() => undefined);
    const engine = this.current;
    this.current = null;
    for (const s of this.subscriptions.splice(0)) void s.dispose();
    await engine?.dispose();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.events.dispose();
    await this.transition;
    await this.close();
  }
}
