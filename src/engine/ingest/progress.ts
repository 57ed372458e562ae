/**
 * The one progress model of indexing: which phase the work and each folder are in, how much of it
 * is done, the rate over the last seconds and one ETA. The queue tells it what it works on now
 * (begin, update, end); what waits (files queued, passages and sentences without vectors) is read
 * from the store as each folder's backlog, so the numbers hold right after a pause, a resume, a
 * restart or a folder change, and nothing is carried over from a phase that ended.
 */
import type { FolderProgress, IndexProgress, ProgressPhase } from '../../shared/contract.ts';

export type WorkPhase = Exclude<ProgressPhase, 'done'>;

/** What is left of a folder, as the store says: files queued, passages and sentences without vectors. */
export interface FolderBacklog {
  /** 1 while the folder has never been scanned (added, not yet indexed). */
  scan: number;
  words: number;
  passages: number;
  sentences: number;
}

const PHASES: readonly WorkPhase[] = ['scan', 'words', 'passages', 'sentences', 'graph'];
/** The rate is measured over this many last milliseconds of the phase. */
const RATE_WINDOW_MS = 20_000;
/** No rate (and no ETA) before the phase has run this long: a first batch says little. */
const MIN_SPAN_MS = 1_000;

interface Active {
  phase: WorkPhase;
  done: number;
  total: number;
  /** The folders this phase works on, with their own done and total. */
  folders: Map<string, { done: number; total: number }>;
  samples: { t: number; done: number }[];
}

export interface SnapshotInput {
  /** Every registered folder, in order. */
  roots: readonly string[];
  paused: boolean;
  backlog: ReadonlyMap<string, FolderBacklog>;
}

export class ProgressTracker {
  private active: Active | null = null;

  constructor(private readonly now: () => number = () => performance.now()) {}

  get phase(): WorkPhase | null {
    return this.active?.phase ?? null;
  }

  /** A phase starts: `total` units overall, and each folder's share of them. */
  begin(phase: WorkPhase, total: number, folders: Iterable<readonly [string, number]> = []): void {
    this.active = { phase, done: 0, total, folders: new Map([...folders].map(([root, n]) => [root, { done: 0, total: n }])), samples: [{ t: this.now(), done: 0 }] };
  }

  /** The phase's units done so far (and its total, when it is known better now). */
  update(done: number, total?: number): void {
    const a = this.active;
    if (!a) return;
    a.done = done;
    if (total !== undefined) a.total = total;
    const t = this.now();
    a.samples.push({ t, done });
    // Keep the last sample older than the window as its anchor.
    while (a.samples.length > 2 && a.samples[1]!.t < t - RATE_WINDOW_MS) a.samples.shift();
  }

  /** A folder's units done in this phase (absent folders join with their done as total). */
  setFolder(root: string, done: number, total?: number): void {
    const a = this.active;
    if (!a) return;
    const f = a.folders.get(root) ?? { done: 0, total: 0 };
    f.done = done;
    f.total = Math.max(total ?? f.total, done);
    a.folders.set(root, f);
  }

  /** One more unit of a folder done. Returns whether the folder finished its part of the phase. */
  advanceFolder(root: string): boolean {
    const f = this.active?.folders.get(root);
    if (!f) return false;
    f.done++;
    return f.done >= f.total;
  }

  folderTotals(): ReadonlyMap<string, { done: number; total: number }> {
    return this.active?.folders ?? new Map();
  }

  /** Forget the rate measured so far (work stopped for a while: after a pause it is measured again). */
  restartRate(): void {
    const a = this.active;
    if (a) a.samples = [{ t: this.now(), done: a.done }];
  }

  end(): void {
    this.active = null;
  }

  /** Units a second over the window, up to now: work that stalls shows a falling rate, not the last one. */
  private rate(): number | null {
    const a = this.active;
    if (!a) return null;
    const first = a.samples[0]!;
    const last = a.samples[a.samples.length - 1]!;
    const span = this.now() - first.t;
    if (span < MIN_SPAN_MS || last.done <= first.done) return null;
    return ((last.done - first.done) / span) * 1000;
  }

  snapshot(input: SnapshotInput): IndexProgress {
    const a = this.active;
    const rate = a && !input.paused ? this.rate() : null;
    const rounded = rate === null ? null : Math.round(rate * 10) / 10;
    const eta = (remaining: number) => (rate === null || rate <= 0 ? null : Math.ceil(Math.max(0, remaining) / rate));
    const waitingState = input.paused ? ('paused' as const) : ('waiting' as const);
    /** The first phase with work left in a backlog, from `from` on. */
    const pendingPhase = (b: FolderBacklog | undefined, from = 0): { phase: WorkPhase; total: number } | null => {
      if (!b) return null;
      for (const phase of PHASES.slice(from)) {
        const n = phase === 'scan' ? b.scan : phase === 'words' ? b.words : phase === 'passages' ? b.passages : phase === 'sentences' ? b.sentences : 0;
        if (n > 0) return { phase, total: n };
      }
      return null;
    };
    const folders: FolderProgress[] = input.roots.map((root) => {
      const mine = a?.folders.get(root);
      if (a && mine && mine.done < mine.total) {
        return { root, phase: a.phase, state: input.paused ? 'paused' : 'running', done: mine.done, total: mine.total, rate_per_s: rounded, eta_s: eta(a.total - a.done) };
      }
      // Not worked on now (or its part of this phase is done): its first phase with work left, after the current one.
      const next = pendingPhase(input.backlog.get(root), a && mine ? PHASES.indexOf(a.phase) + 1 : 0);
      if (next) return { root, phase: next.phase, state: waitingState, done: 0, total: next.total, rate_per_s: null, eta_s: null };
      return { root, phase: 'done', state: 'done', done: mine?.total ?? 0, total: mine?.total ?? 0, rate_per_s: null, eta_s: null };
    });
    if (a) return { phase: a.phase, state: input.paused ? 'paused' : 'running', done: Math.min(a.done, a.total), total: a.total, rate_per_s: rounded, eta_s: eta(a.total - a.done), folders };
    // Nothing worked on: the earliest phase any folder waits in, with what is left of it overall.
    const waiting = folders.filter((f) => f.phase !== 'done');
    if (waiting.length === 0) return { phase: 'done', state: 'done', done: 0, total: 0, rate_per_s: null, eta_s: null, folders };
    const phase = PHASES.find((p) => waiting.some((f) => f.phase === p))!;
    const total = waiting.filter((f) => f.phase === phase).reduce((n, f) => n + f.total, 0);
    return { phase, state: waitingState, done: 0, total, rate_per_s: null, eta_s: null, folders };
  }
}
