/**
 * The graph list (retrieve/graph-list.ts) reads the kept links of each question's seed notes and the
 * degrees of the notes they link to (graph/degrees.ts keeps both with the index). Read for the first
 * time, a note costs a statement, the paths of its linked notes and their degrees; read again, a
 * lookup (the graph's memo keeps them until an index run changes the facts). A long-lived
 * engine (the app's, the web server's, MCP's: EngineOptions.warmGraph) reads them for a vault of up
 * to WARM_LINK_NOTES notes while it waits for its first question, a slice at a time, so the first
 * questions after opening meet them read, as the later ones do; and again after each index run, whose
 * end starts a new memo (graph/cache.ts).
 */
import type { LinkGraph } from './stored.ts';
import { noteId } from './stored-memo.ts';

/**
 * Indexed documents up to which a vault's kept links are read while the engine waits (the time is
 * part of `bench cold-start`'s open_ms): Obsidian's help in all its languages (6,289 notes) is read;
 * a docs repository of 50,000 files is left to its questions, whose memo is bounded.
 */
export const WARM_LINK_NOTES = 8_000;
/** Notes read per idle turn: a question asked meanwhile waits for one slice at most (~20 ms). */
export const WARM_LINK_SLICE = 500;

/** Reads the kept links of the notes at `paths` into the graph's memo, and the degrees of the notes they link to. */
export function warmNoteLinks(g: LinkGraph, paths: readonly string[]): void {
  const links = g.noteLinks(paths.map(noteId));
  const far = new Set<string>();
  for (const m of links.values()) for (const id of m.keys()) far.add(id);
  g.noteDegrees([...far]);
}

/**
 * Reads the kept links of the notes at `paths`, WARM_LINK_SLICE at a time with an idle turn before
 * each slice; `graph` is asked again for each, and the reading stops once `stopped` says so (the
 * engine disposed, an index run begun) or the graph has no relation.
 */
export async function warmGraphLinks(graph: () => LinkGraph, paths: readonly string[], stopped: () => boolean, slice = WARM_LINK_SLICE): Promise<void> {
  for (let i = 0; i < paths.length; i += slice) {
    await new Promise((resolve) => setImmediate(resolve));
    if (stopped()) return;
    const g = graph();
    if (!g.hasRelations()) return;
    warmNoteLinks(g, paths.slice(i, i + slice));
  }
}

/** What a link warmer reads: the indexed paths (up to a limit), the caller's graph, the index's generation. */
export interface LinkWarmerDeps {
  paths: (limit: number) => string[];
  graph: () => LinkGraph;
  /** Moves when an index run begins or ends (a new memo then). */
  generation: () => number;
  disposed: () => boolean;
}

/**
 * Reads a vault's kept links when asked (at open, after each index run), unless it holds more than
 * WARM_LINK_NOTES notes; a reading stops when the index's generation moves (the run under way
 * replaces the memo, and its end asks again). Settles when done or stopped; never rejects.
 */
export function linkWarmer(deps: LinkWarmerDeps, limit = WARM_LINK_NOTES, slice = WARM_LINK_SLICE): () => Promise<void> {
  return async () => {
    try {
      const from = deps.generation();
      const paths = deps.paths(limit + 1);
      if (paths.length > limit) return;
      await warmGraphLinks(deps.graph, paths, () => deps.disposed() || deps.generation() !== from, slice);
    } catch {
      // A warm-up that fails costs the next questions their speed, nothing else.
    }
  };
}
