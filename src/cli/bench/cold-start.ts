/**
 * Run as its own process by the benchmark suite: opens an engine on an existing data dir, answers
 * the first query, then the rest, and prints one JSON line: how long opening and the first query
 * took, the later queries' p50/p95 and slowest (and the graph list's share of them), and the process's resident memory after them (no models loaded:
 * lexical and graph lists only).
 *
 *   node --import tsx src/cli/bench/cold-start.ts <data-dir> [--no-graph] < queries.json
 *
 * The queries come on stdin as a JSON array of strings. With the knowledge graph by default (every
 * search of the app, the CLI and MCP uses it); with --no-graph, what the same process costs
 * without it. SYN_MMAP_MB in the environment sets the store's memory map as for the app.
 *
 * Opening includes the engine's idle warm-up, as in the app (whose window shows before anyone can
 * type; Engine.warmed): the engine warms its reader, for a vault in other languages than English
 * and Russian its language detector (answer/warm.ts), and for a vault of up to WARM_LINK_NOTES notes
 * its kept note links (graph/warm.ts), as the app's engine does. Asked back to back without that
 * moment, the first German question of a fresh process paid the detector's 150 ms.
 */
import fs from 'node:fs';
import { createEngine } from '../../engine/index.ts';
import { percentile } from '../eval/metrics.ts';

const [dataDir, flag] = process.argv.slice(2);
const useGraph = flag !== '--no-graph';
const queries = JSON.parse(fs.readFileSync(0, 'utf8')) as unknown;
if (!dataDir || !Array.isArray(queries) || queries.length === 0 || !queries.every((q) => typeof q === 'string')) {
  console.error('usage: cold-start.ts <data-dir> [--no-graph] < queries.json (a JSON array of query strings)');
  process.exit(2);
}
const env: Record<string, string> = { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' };
if (process.env.SYN_MMAP_MB) env.SYN_MMAP_MB = process.env.SYN_MMAP_MB;
const t0 = performance.now();
const engine = createEngine({ dataDir, env, warmGraph: true });
await engine.warmed();
const openMs = performance.now() - t0;
const tFirst = performance.now();
const first = await engine.retrieve(queries[0] as string, { use_graph: useGraph }, 10);
const firstMs = performance.now() - t0;
const firstQueryMs = performance.now() - tFirst;
const lat: number[] = [];
const graphLat: number[] = [];
for (const q of (queries as string[]).slice(1)) {
  const t = performance.now();
  const r = await engine.retrieve(q, { use_graph: useGraph }, 10);
  lat.push(performance.now() - t);
  if (r.meta.timings.graph_ms !== undefined) graphLat.push(r.meta.timings.graph_ms);
}
const rssMb = process.memoryUsage().rss / (1024 * 1024);
// The store is memory-mapped: pages of the database file read by a query count in the resident set
// too (shared, dropped under pressure). Where Linux says so, the process's own memory apart.
const anon = /RssAnon:\s+(\d+) kB/.exec(fs.existsSync('/proc/self/status') ? fs.readFileSync('/proc/self/status', 'utf8') : '');
const anonMb = anon ? Number(anon[1]) / 1024 : null;
const ms = (v: number) => Math.round(v * 10) / 10;
console.log(
  JSON.stringify({
    open_ms: Math.round(openMs),
    open_and_first_query_ms: Math.round(firstMs),
    first_query_ms: ms(firstQueryMs),
    results: first.chunks.length,
    queries: queries.length,
    p50_ms: lat.length > 0 ? ms(percentile(lat, 50)) : null,
    p95_ms: lat.length > 0 ? ms(percentile(lat, 95)) : null,
    max_ms: lat.length > 0 ? ms(Math.max(...lat)) : null,
    slowest: lat.length > 0 ? (queries as string[])[1 + lat.indexOf(Math.max(...lat))] : null,
    graph_p50_ms: graphLat.length > 0 ? ms(percentile(graphLat, 50)) : null,
    graph_p95_ms: graphLat.length > 0 ? ms(percentile(graphLat, 95)) : null,
    rss_mb: Math.round(rssMb),
    rss_anon_mb: anonMb === null ? null : Math.round(anonMb),
    // Each query after the first, in order, and its graph list's share: `bench real` pools several processes' queries.
    latencies_ms: lat.map(ms),
    graph_latencies_ms: graphLat.map(ms),
  }),
);
await engine.dispose();
