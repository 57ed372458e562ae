/**
 * Run as its own process by `bench real`: indexes a folder lexically (no models) into a data dir and
 * prints one JSON line: the run's report counts, how long it took, and the process's peak resident
 * memory (what indexing alone costs, apart from the process that measures it).
 *
 * With a query file (a JSON array of strings), the same engine also answers a query every
 * QUERY_EVERY_MS (or every-ms) while it indexes, with the graph and without it in turn, as the app's engine
 * answers a user searching during a first index; the line then holds those queries' times.
 *
 *   node --import tsx src/cli/bench/real-index.ts <folder> <data-dir> [<queries.json> [<every-ms>]]
 */
import fs from 'node:fs';
import { createEngine } from '../../engine/index.ts';
import { QUERY_EVERY_MS } from './real.ts';


const [folder, dataDir, queryFile, everyArg] = process.argv.slice(2);
const every = everyArg ? Number(everyArg) : QUERY_EVERY_MS;
if (!folder || !dataDir) {
  console.error('usage: real-index.ts <folder> <data-dir> [<queries.json> [<every-ms>]]');
  process.exit(2);
}
const queries = queryFile ? (JSON.parse(fs.readFileSync(queryFile, 'utf8')) as string[]) : [];
const engine = createEngine({ dataDir, env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } });
/** Each query asked while indexing: with the graph or not, its text, milliseconds, and what went wrong if it failed. */
const asked: { graph: boolean; query: string; ms: number; error?: string }[] = [];
let indexing = true;
const asking = (async () => {
  for (let i = 0; indexing && queries.length > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, every));
    if (!indexing) break;
    const graph = i % 2 === 0;
    const query = queries[Math.floor(i / 2) % queries.length]!;
    const t = performance.now();
    try {
      await engine.retrieve(query, graph ? {} : { use_graph: false }, 10);
      asked.push({ graph, query, ms: performance.now() - t });
    } catch (error) {
      asked.push({ graph, query, ms: performance.now() - t, error: (error as Error).message });
    }
  }
})();
const t = performance.now();
const report = await engine.index([folder]);
const indexMs = performance.now() - t;
indexing = false;
await asking;
await engine.dispose();
console.log(
  JSON.stringify({
    files: report.files_seen,
    indexed: report.indexed,
    failed: report.failed,
    chunks: report.chunks_total,
    index_ms: Math.round(indexMs),
    // maxRSS is in kilobytes.
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    ...(queryFile ? { asked } : {}),
  }),
);
