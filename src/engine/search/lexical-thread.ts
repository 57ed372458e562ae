/**
 * The lexical list of a hybrid query, computed on a worker thread while this thread searches the
 * vector indexes. Both are synchronous native work (SQLite FTS5, the HNSW graphs); one after the
 * other they add up, side by side a query costs about the slower of the two. The worker holds its
 * own connection to the store (lexical-worker.ts). It pays only on large vaults: below the config's
 * lexicalThreadMinChunks (20,000) the lexical list takes a few milliseconds and stays here.
 *
 * Nothing depends on the worker: until it has opened the store, and for good once it has failed,
 * queries run the lexical list on this thread as before, and a request the worker could not answer
 * is run again here (so errors are the same as without it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LexicalOptions, LexicalResult } from './lexical.ts';

export interface LexicalRequest {
  id: number;
  query: string;
  options: LexicalOptions;
}

export type LexicalReply =
  | { ready: true }
  | { ready: false; error: string }
  | { id: number; result: LexicalResult; ms: number }
  | { id: number; error: string };

/** A worker's code: a file, or (eval) a script to run. */
export interface WorkerEntry {
  code: string;
  eval: boolean;
}

/**
 * A worker's code (`name`: lexical-worker, lexical-upgrade-worker, prepare-worker): the built file of the desktop
 * bundle (electron.vite.config.ts builds each next to engine-process.js; this module may sit there or,
 * shared by several entries, in its chunks/ folder), else the TypeScript source in `here` bundled
 * in memory by esbuild (tsx's own compiler; once per worker): Node 20 does not hand tsx's loader to
 * worker threads, so the source cannot be imported there as the CLI imports it.
 */
export async function workerEntry(here = path.dirname(fileURLToPath(import.meta.url)), name = 'lexical-worker'): Promise<WorkerEntry | null> {
  const built = [path.join(here, `${name}.js`), ...(path.basename(here) === 'chunks' ? [path.join(here, '..', `${name}.js`)] : [])].find((file) => fs.existsSync(file));
  if (built) return { code: built, eval: false };
  const source = path.join(here, `${name}.ts`);
  if (!fs.existsSync(source)) return null;
  const esbuild = await import('esbuild');
  // Each source keeps its own import.meta.url (a CommonJS bundle has none): what a module resolves
  // from it (tinyld's source, read by lang/ngram-detect.ts) resolves as it does on the caller's thread.
  const sourceUrls = {
    name: 'source-urls',
    setup(build: { onLoad(options: { filter: RegExp }, load: (args: { path: string }) => Promise<{ contents: string; loader: 'ts' }>): void }) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => ({ contents: (await fs.promises.readFile(args.path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' }));
    },
  };
  const out = await esbuild.build({ entryPoints: [source], bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', write: false, logLevel: 'silent', plugins: [sourceUrls] });
  const text = out.outputFiles[0]?.text;
  if (text === undefined) return null;
  // Packages (better-sqlite3, ...) stay outside the bundle and resolve from the source's folder.
  return { code: `(function (require, module, exports) {\n${text}\n})(require('node:module').createRequire(${JSON.stringify(source)}), { exports: {} }, {});`, eval: true };
}

export class LexicalThread {
  private worker: Worker | null = null;
  private state: 'idle' | 'starting' | 'ready' | 'failed' = 'idle';
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: { result: LexicalResult; ms: number }) => void; reject: (e: Error) => void }>();
  /** Why the worker is not used, once it failed or was closed (for tests and debugging; the engine just runs the list itself). */
  failure: string | null = null;

  constructor(
    private readonly dbFile: string,
    private readonly entry: () => Promise<WorkerEntry | null> = workerEntry,
    private readonly timeoutMs = 10_000,
    /** The worker connection's memory map, as the engine's (Store.mmapBytes). */
    private readonly mmapBytes?: number,
  ) {}

  /** Whether a request sent now is answered by the worker; starts it the first time it is asked. */
  ready(): boolean {
    if (this.state === 'idle') this.start();
    return this.state === 'ready';
  }

  /** Resolves once the worker can answer (or has failed); for tests that want it from the first request. */
  async started(): Promise<boolean> {
    this.ready();
    while (this.state === 'starting') await new Promise((r) => setTimeout(r, 10));
    return this.state === 'ready';
  }

  /**
   * The lexical list computed by the worker, with its time there; rejects when the worker cannot
   * answer. A worker that has not answered within `timeoutMs` is stopped for good (a lexical list
   * takes milliseconds; the caller then computes it itself).
   */
  search(query: string, options: LexicalOptions): Promise<{ result: LexicalResult; ms: number }> {
    const worker = this.worker;
    if (this.state !== 'ready' || !worker) return Promise.reject(new Error('the lexical worker is not running'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(`it did not answer within ${this.timeoutMs} ms`), this.timeoutMs);
      timer.unref();
      const done = () => clearTimeout(timer);
      this.pending.set(id, {
        resolve: (r) => (done(), resolve(r)),
        reject: (e) => (done(), reject(e)),
      });
      // Referenced only while a request waits: an idle worker never keeps the process alive.
      worker.ref();
      worker.postMessage({ id, query, options } satisfies LexicalRequest);
    });
  }

  async dispose(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.state = 'failed';
    this.failure ??= 'closed';
    this.rejectAll(new Error('the lexical worker was closed'));
    if (worker) await worker.terminate();
  }

  private start(): void {
    this.state = 'starting';
    void this.entry().then(
      (entry) => this.spawn(entry),
      (error: unknown) => this.fail(`its code could not be prepared: ${(error as Error).message}`),
    );
  }

  private spawn(entry: WorkerEntry | null): void {
    if (this.state !== 'starting') return; // disposed meanwhile
    if (!entry) return this.fail('its code was not found beside the engine');
    let worker: Worker;
    try {
      worker = new Worker(entry.code, { eval: entry.eval, workerData: { file: this.dbFile, mmapBytes: this.mmapBytes } });
    } catch (error) {
      return this.fail((error as Error).message);
    }
    this.worker = worker;
    worker.unref();
    worker.on('message', (reply: LexicalReply) => {
      if ('ready' in reply) {
        if (reply.ready) this.state = this.state === 'starting' ? 'ready' : this.state;
        else this.fail(reply.error);
        return;
      }
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if ('result' in reply) waiting.resolve({ result: reply.result, ms: reply.ms });
      else waiting.reject(new Error(reply.error));
    });
    worker.on('error', (error) => this.fail(error.message));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.fail(`it exited (code ${code})`);
    });
  }

  private fail(reason: string): void {
    if (this.state !== 'failed') this.failure = reason;
    this.state = 'failed';
    const worker = this.worker;
    this.worker = null;
    this.rejectAll(new Error(`the lexical worker stopped: ${reason}`));
    if (worker) void worker.terminate().catch(() => undefined);
  }

  private rejectAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
