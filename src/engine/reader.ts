/**
 * One writer, many readers on a data dir. The writer (indexing, watching, the app, roots and models)
 * holds the data-dir lock; readers (search, ask, source, MCP) take no lock and read the store
 * beside it through SQLite's WAL, which gives each read the last committed state. A reader follows
 * the writer: before each request it compares the store's data version, and when the writer has
 * committed since, it drops its derived caches (link graph) and brings its in-memory vector indexes
 * in step with the stored vectors. It never writes the schema, the index files or the manifest.
 */
import { createError } from '../shared/errors.ts';
import type { Engine } from './engine.ts';

/** What each writer method does, as a reader's refusal names it; `async` ones refuse with a rejected promise. */
const WRITER_METHODS = {
  index: { action: 'index folders', async: true },
  addRoot: { action: 'add a folder', async: false },
  removeRoot: { action: 'remove a folder', async: false },
  addModel: { action: 'add a model', async: true },
  removeModel: { action: 'remove a model', async: false },
  watch: { action: 'watch the folders', async: true },
  pause: { action: 'pause indexing', async: false },
  resume: { action: 'resume indexing', async: true },
  extractGraphWithModel: { action: 'extract the graph with a model', async: true },
} as const satisfies Partial<Record<keyof Engine, { action: string; async: boolean }>>;

/** Methods that read the store: a reader first follows what the writer committed. */
const READER_METHODS = [
  'retrieve',
  'retrievalLists',
  'answer',
  'source',
  'graphNeighbors',
  'graphPath',
  'graphStats',
  'graphOverview',
  'graphSubgraph',
  'documents',
  'traces',
  'metrics',
  'health',
  'listRoots',
  'indexStatus',
] as const satisfies readonly (keyof Engine)[];

/** The error a reader's writer method throws: E_SYN_BAD_REQUEST with details.read_only. */
export function readOnlyError(dataDir: string, method: keyof typeof WRITER_METHODS): Error {
  return createError(
    'E_SYN_BAD_REQUEST',
    `Cannot ${WRITER_METHODS[method].action}: this Synapsis reads ${dataDir} beside the one that indexes it (read-only). ` +
      'A writer does that: synapsis index, watch, roots add/remove, models add/remove, or the app.',
    { data_dir: dataDir, method, read_only: true },
  );
}

/**
 * Makes `engine` a reader in place: its writer methods refuse with readOnlyError, and its reading
 * methods call `follow` first (a PRAGMA per request: see Store.dataVersion).
 */
export function makeReader(engine: Engine, follow: () => void): void {
  const methods = engine as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const [name, { async }] of Object.entries(WRITER_METHODS)) {
    methods[name] = () => {
      const error = readOnlyError(engine.dataDir, name as keyof typeof WRITER_METHODS);
      if (async) return Promise.reject(error);
      throw error;
    };
  }
  for (const name of READER_METHODS) {
    const read = methods[name]!;
    methods[name] = (...args: unknown[]) => {
      follow();
      return read.apply(engine, args);
    };
  }
}
