/**
 * Files prepared on threads of their own while the indexer writes the ones before them. Reading,
 * parsing, detecting languages, analyzing text into index terms and extracting graph facts
 * (prepare.ts) is about half of an index run; writing the rows to SQLite is the other half, on the
 * indexer's thread. Side by side the run costs about the slower of the two halves.
 *
 * Nothing depends on the threads: until one has started, a file is prepared on the indexer's thread;
 * a thread that fails or exits hands its files back there, and the pool stops using it. A file's
 * result is the same wherever it was prepared (indexer.test.ts compares the stores).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { workerEntry, type WorkerEntry } from '../search/lexical-thread.ts';
import { prepareFile, type Prepared, type PrepareRequest } from './prepare.ts';

export type PrepareReply = { ready: true } | { id: number; result: Prepared };

/** Threads a pool starts at most: the indexer's thread writes, the others prepare. */
export const preparerThreads = (): number => Math.max(1, Math.min(3, os.availableParallelism() - 1));

const HERE = path.dirname(fileURLToPath(import.meta.url));

interface Thread {
  worker: Worker;
  /** True once the thread has loaded its code; false if it stopped first. */
  ready: Promise<boolean>;
  settle: (ok: boolean) => void;
  /** What it was sent and has not answered: null hands a file back to be prepared here. */
  pending: Map<number, (p: Prepared | null) => void>;
  failed: boolean;
}

export class PreparePool {
  private readonly threads: Promise<Thread | null>[] = [];
  private next = 0;
  private nextId = 1;
  private closed = false;
  /** Why a thread stopped being used, the first time one did (for tests and debugging). */
  failure: string | null = null;
  /** Files prepared on a thread of the pool, and on the caller's thread instead. */
  readonly counts = { threads: 0, here: 0 };

  constructor(
    size = preparerThreads(),
    private readonly entry: () => Promise<WorkerEntry | null> = () => workerEntry(HERE, 'prepare-worker'),
  ) {
    for (let i = 0; i < size; i++) this.threads.push(this.start());
  }

  /** The file prepared by the next thread in turn, or here where none can. Never rejects. */
  async submit(request: PrepareRequest): Promise<Prepared> {
    const thread = this.closed ? null : await this.threads[this.next++ % this.threads.length];
    if (thread && !thread.failed && !this.closed && (await thread.ready)) {
      const id = this.nextId++;
      const answered = new Promise<Prepared | null>((resolve) => thread.pending.set(id, resolve));
      thread.worker.postMessage({ id, request });
      const result = await answered;
      if (result) {
        this.counts.threads++;
        return result;
      }
      // Handed back by a pool closed meanwhile: the run that asked is over and will not read it.
      if (this.closed) return { status: 'unreadable', reason: 'the run ended before the file was prepared' };
    }
    this.counts.here++;
    return prepareFile(request);
  }

  async dispose(): Promise<void> {
    this.closed = true;
    const threads = await Promise.all(this.threads);
    await Promise.all(threads.map((t) => (t ? this.stop(t, null) : undefined)));
  }

  private async start(): Promise<Thread | null> {
    let entry: WorkerEntry | null;
    try {
      entry = await this.entry();
    } catch (error) {
      this.failure ??= `its code could not be prepared: ${(error as Error).message}`;
      return null;
    }
    if (!entry || this.closed) {
      this.failure ??= entry ? 'closed' : 'its code was not found beside the indexer';
      return null;
    }
    let worker: Worker;
    try {
      worker = new Worker(entry.code, { eval: entry.eval });
    } catch (error) {
      this.failure ??= `it could not start: ${(error as Error).message}`;
      return null;
    }
    let settle: (ok: boolean) => void = () => {};
    const ready = new Promise<boolean>((resolve) => (settle = resolve));
    const thread: Thread = { worker, ready, settle, pending: new Map(), failed: false };
    worker.on('message', (reply: PrepareReply) => {
      if ('ready' in reply) return thread.settle(true);
      const waiting = thread.pending.get(reply.id);
      thread.pending.delete(reply.id);
      waiting?.(reply.result);
    });
    worker.on('error', (error) => void this.stop(thread, `it failed: ${error.message}`));
    worker.on('exit', (code) => void this.stop(thread, `it exited (code ${code})`));
    return thread;
  }

  /** Stops using a thread: what it was sent is prepared here instead (its waiters get null). */
  private async stop(thread: Thread, why: string | null): Promise<void> {
    if (!thread.failed) {
      thread.failed = true;
      if (why) this.failure ??= why;
      thread.settle(false);
      for (const handBack of thread.pending.values()) handBack(null);
      thread.pending.clear();
    }
    await thread.worker.terminate().catch(() => 0);
  }
}
