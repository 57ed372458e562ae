/**
 * A soft bound on the JavaScript heap of a long index run. V8 collects its old space lazily, when
 * the heap nears a limit that on a desktop machine is several gigabytes: indexing 49,569 Russian
 * documentation files let garbage pile up to 1.07 GB resident while what the run kept fit in a
 * 640 MB old space (docs/benchmarks.md). Between batches, once the heap V8 holds is past the bound,
 * the valve asks V8 for a full collection. A hard bound (`--max-old-space-size`) would stop the
 * process when a vault needs more; this one only collects sooner, and backs off by a step when what
 * is kept is itself past the bound, so that a large vault is not collected after every batch. The
 * heap, not the resident set, is measured: models loaded in the same process hold native memory
 * that no collection frees.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

/** The heap past which an index run collects its garbage between batches. */
export const SOFT_HEAP_BYTES = 512 * 1024 * 1024;
/** How much more the heap must grow after a collection that left it past the bound. */
export const BACK_OFF_BYTES = 256 * 1024 * 1024;

let gcFunction: (() => void) | null | undefined;

/** V8's full collection, exposed at run time (null where the runtime refuses). */
export function fullCollection(): (() => void) | null {
  if (gcFunction === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      gcFunction = vm.runInNewContext('gc') as () => void;
    } catch {
      gcFunction = null;
    }
  }
  return gcFunction;
}

export interface MemoryValve {
  /** Collects when the heap is past the bound; returns whether it did. */
  check(): boolean;
}

/** `heap`: the bytes V8 holds for the heap (by default process.memoryUsage().heapTotal). */
export function createMemoryValve(options: { limit?: number; step?: number; heap?: () => number; collect?: () => (() => void) | null } = {}): MemoryValve {
  const { limit = SOFT_HEAP_BYTES, step = BACK_OFF_BYTES, heap = () => process.memoryUsage().heapTotal, collect = fullCollection } = options;
  let bar = limit;
  return {
    check() {
      if (heap() <= bar) return false;
      const gc = collect();
      if (!gc) return false;
      gc();
      const after = heap();
      bar = after > limit ? after + step : limit;
      return true;
    },
  };
}
