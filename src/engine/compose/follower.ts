/**
 * One writer, many followers on a data dir. The writer (indexing, watching, the app, roots and
 * models) holds the data-dir lock; followers (engines opened read-only: search, ask, source, MCP)
 * take no lock and read the store beside it through SQLite's WAL, which gives each read the last
 * committed state. A follower follows the writer: before each request it compares the store's data version, and when the writer has
 * committed since, it drops its derived caches (link graph) and brings its in-memory vector indexes
 * in step with the stored vectors. It never writes the schema, the index files or the manifest.
 */
import type { Method } from '../../shared/contract.ts';
import { createError } from '../../shared/errors.ts';
import type { Engine } from './api.ts';
import type { CallContext, HandlerTable } from '../handlers/types.ts';
import type { Store } from '../store/store.ts';

/** What each writer operation does, as a follower's refusal names it, and the contract method behind it. */
const WRITER_METHODS = {
  index: { action: 'index folders', method: 'index/run' },
  addRoot: { action: 'add a folder', method: 'index/addRoot' },
  removeRoot: { action: 'remove a folder', method: 'index/removeRoot' },
  addModel: { action: 'add a model', method: 'models/add' },
  removeModel: { action: 'remove a model', method: 'models/remove' },
  watch: { action: 'watch the folders', method: 'index/watch' },
  pause: { action: 'pause indexing', method: 'index/pause' },
  resume: { action: 'resume indexing', method: 'index/resume' },
  extractGraphWithModel: { action: 'extract the graph with a model', method: 'graph/extract' },
} as const satisfies Partial<Record<keyof Engine, { action: string; method: Method }>>;

/** Methods that read the store: a follower first follows what the writer committed. */
const READER_METHODS = [
  'search/query',
  'search/tags',
  'answer/ask',
  'source/get',
  'source/related',
  'source/embeds',
  'graph/neighbors',
  'graph/path',
  'graph/overview',
  'graph/global',
  'graph/subgraph',
  'index/documents',
  'health/get',
  'index/roots',
  'index/status',
  'threads/list',
  'threads/get',
  'threads/export',
] as const satisfies readonly Method[];

/** Library methods outside the contract (they call services directly): the same two kinds. */
const LIBRARY_WRITERS = ['watch', 'extractGraphWithModel'] as const satisfies readonly (keyof typeof WRITER_METHODS)[];
const LIBRARY_READERS = ['retrievalLists', 'graphStats', 'traces', 'metrics'] as const satisfies readonly (keyof Engine)[];

/** The error a follower's writer method throws: E_SYN_BAD_REQUEST with details.read_only. */
export function readOnlyError(dataDir: string, method: keyof typeof WRITER_METHODS): Error {
  return createError(
    'E_SYN_BAD_REQUEST',
    `Cannot ${WRITER_METHODS[method].action}: this Synapsis reads ${dataDir} beside the one that indexes it (read-only). ` +
      'A writer does that: synapsis index, watch, roots add/remove, models add/remove, or the app.',
    { data_dir: dataDir, method, read_only: true },
  );
}

type AnyHandler = (req: unknown, ctx: CallContext) => unknown;

/**
 * A follower's handler table: writer methods refuse with readOnlyError (watching is refused, turning
 * it off is not), and reading methods call `follow` first (a PRAGMA per request: see
 * Store.dataVersion).
 */
export function followerHandlers<T extends HandlerTable>(handlers: T, dataDir: string, follow: () => void): T {
  const table: Record<string, AnyHandler> = { ...(handlers as unknown as Record<string, AnyHandler>) };
  const following = (handler: AnyHandler): AnyHandler => (req, ctx) => {
    follow();
    return handler(req, ctx);
  };
  for (const [name, { method }] of Object.entries(WRITER_METHODS) as [keyof typeof WRITER_METHODS, (typeof WRITER_METHODS)[keyof typeof WRITER_METHODS]][]) {
    const handler = following(table[method]!);
    table[method] = (req, ctx) => {
      if (method !== 'index/watch' || (req as { enabled: boolean }).enabled) throw readOnlyError(dataDir, name);
      return handler(req, ctx);
    };
  }
  for (const method of READER_METHODS) table[method] = following(table[method]!);
  return table as unknown as T;
}

/**
 * Makes `engine` a follower in place for the library methods outside the contract (the others reach
 * the handlers followerHandlers made): writers refuse with a rejected promise, reading methods follow first.
 */
export function makeFollower(engine: Engine, follow: () => void): void {
  const methods = engine as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of LIBRARY_WRITERS) methods[name] = () => Promise.reject(readOnlyError(engine.dataDir, name));
  for (const name of LIBRARY_READERS) {
    const read = methods[name]!;
    methods[name] = (...args: unknown[]) => {
      follow();
      return read.apply(engine, args);
    };
  }
}

/**
 * The check a follower runs before each request: when the writer has committed since the last one
 * (the store's data version moved; a PRAGMA, no read), `onCommit` drops what was derived from the
 * store before. Nothing once `disposed`.
 */
export function followWrites(store: Store, disposed: () => boolean, onCommit: () => void): () => void {
  let seenVersion = store.dataVersion();
  return () => {
    if (disposed()) return;
    const version = store.dataVersion();
    if (version === seenVersion) return;
    seenVersion = version;
    onCommit();
  };
}
