/**
 * Run as its own process by `bench real`: indexes a folder lexically (no models) into a data dir and
 * prints one JSON line: the run's report counts, how long it took, and the process's peak resident
 * memory (what indexing alone costs, apart from the process that measures it).
 *
 *   node --import tsx src/cli/bench/real-index.ts <folder> <data-dir>
 */
import { createEngine } from '../../engine/index.ts';

const [folder, dataDir] = process.argv.slice(2);
if (!folder || !dataDir) {
  console.error('usage: real-index.ts <folder> <data-dir>');
  process.exit(2);
}
const engine = createEngine({ dataDir, env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } });
const t = performance.now();
const report = await engine.index([folder]);
const indexMs = performance.now() - t;
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
  }),
);
