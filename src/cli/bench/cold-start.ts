/**
 * Run as its own process by the benchmark suite: opens an engine on an existing data dir, runs one
 * query, then a few more, and prints one JSON line: how long opening and the first query took, and
 * the process's resident memory after them (no models loaded: lexical only).
 *
 *   node --import tsx src/cli/bench/cold-start.ts <data-dir> <query> [--no-graph]
 *
 * With the knowledge graph by default (every search of the app, the CLI and MCP uses it); with
 * --no-graph, what the same process costs without it.
 */
import fs from 'node:fs';
import { createEngine } from '../../engine/index.ts';

const [dataDir, query, flag] = process.argv.slice(2);
const useGraph = flag !== '--no-graph';
if (!dataDir || !query) {
  console.error('usage: cold-start.ts <data-dir> <query>');
  process.exit(2);
}
const t0 = performance.now();
const engine = createEngine({ dataDir, env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } });
const openMs = performance.now() - t0;
const first = await engine.retrieve(query, { use_graph: useGraph }, 10);
const firstMs = performance.now() - t0;
for (let i = 0; i < 20; i++) await engine.retrieve(`${query} ${i}`, { use_graph: useGraph }, 10);
const rssMb = process.memoryUsage().rss / (1024 * 1024);
// The store is memory-mapped: pages of the database file read by a query count in the resident set
// too (shared, dropped under pressure). Where Linux says so, the process's own memory apart.
const anon = /RssAnon:\s+(\d+) kB/.exec(fs.existsSync('/proc/self/status') ? fs.readFileSync('/proc/self/status', 'utf8') : '');
const anonMb = anon ? Number(anon[1]) / 1024 : null;
console.log(JSON.stringify({ open_ms: Math.round(openMs), open_and_first_query_ms: Math.round(firstMs), results: first.chunks.length, rss_mb: Math.round(rssMb), rss_anon_mb: anonMb === null ? null : Math.round(anonMb) }));
await engine.dispose();
