/**
 * Run as its own process by the benchmark suite: opens an engine on an existing data dir, runs one
 * query, then a few more, and prints one JSON line: how long opening and the first query took, and
 * the process's resident memory after them (no models loaded: lexical only).
 *
 *   node --import tsx src/cli/bench/cold-start.ts <data-dir> <query>
 */
import { createEngine } from '../../engine/index.ts';

const [dataDir, query] = process.argv.slice(2);
if (!dataDir || !query) {
  console.error('usage: cold-start.ts <data-dir> <query>');
  process.exit(2);
}
const t0 = performance.now();
const engine = createEngine({ dataDir, env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } });
const openMs = performance.now() - t0;
const first = await engine.retrieve(query, {}, 10);
const firstMs = performance.now() - t0;
for (let i = 0; i < 20; i++) await engine.retrieve(`${query} ${i}`, {}, 10);
const rssMb = process.memoryUsage().rss / (1024 * 1024);
console.log(JSON.stringify({ open_ms: Math.round(openMs), open_and_first_query_ms: Math.round(firstMs), results: first.chunks.length, rss_mb: Math.round(rssMb) }));
await engine.dispose();
