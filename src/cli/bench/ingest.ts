import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngine } from '../../engine/index.ts';
import { generateMarkdownCorpus } from './corpus.ts';

export interface IngestBenchResult {
  files: number;
  chunks: number;
  first_index_s: number;
  files_per_s: number;
  chunks_per_s: number;
  noop_reindex_s: number;
  noop_ratio: number;
  watch_edit_to_searchable_ms: number;
  manifest_identical_across_data_dirs: boolean;
}

const seconds = (ms: number) => Math.round(ms) / 1000;

/**
 * Ingestion benchmark: first index of a generated markdown folder, a re-index with no change, the
 * time from saving an edit to finding it through the watcher, and manifest determinism.
 */
export async function benchIngest(files: number, log: (line: string) => void): Promise<IngestBenchResult> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-bench-ingest-'));
  try {
    const corpus = path.join(work, 'corpus');
    log(`generating ${files} markdown notes…`);
    generateMarkdownCorpus(corpus, files);
    const engine = createEngine({ dataDir: path.join(work, 'data-a'), env: {} });
    try {
      let t = performance.now();
      const first = await engine.index([corpus]);
      const firstMs = performance.now() - t;
      log(`first index: ${first.indexed} files, ${first.chunks_total} chunks in ${seconds(firstMs)} s`);
      t = performance.now();
      await engine.index([corpus]);
      const noopMs = performance.now() - t;
      log(`no-change re-index: ${seconds(noopMs)} s`);

      const watcher = await engine.watch({ debounceMs: 50 });
      const target = path.join(corpus, 'f000', 'note-1.md');
      const marker = `zebracorn${Date.now()}`;
      t = performance.now();
      fs.appendFileSync(target, `\nA fresh edit mentions ${marker}.\n`);
      let editMs = Number.NaN;
      while (performance.now() - t < 10_000) {
        if ((await engine.retrieve(marker)).chunks.length > 0) {
          editMs = performance.now() - t;
          break;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      await watcher.dispose();
      log(`edit searchable after ${Math.round(editMs)} ms (watcher)`);

      fs.writeFileSync(target, fs.readFileSync(target, 'utf8').replace(`\nA fresh edit mentions ${marker}.\n`, ''));
      await engine.index([corpus]);
      const other = createEngine({ dataDir: path.join(work, 'data-b'), env: {} });
      await other.index([corpus]);
      const same = JSON.stringify(engine.manifest()) === JSON.stringify(other.manifest());
      await other.dispose();
      return {
        files: first.indexed,
        chunks: first.chunks_total,
        first_index_s: seconds(firstMs),
        files_per_s: Math.round((first.indexed / firstMs) * 1000),
        chunks_per_s: Math.round((first.chunks_total / firstMs) * 1000),
        noop_reindex_s: seconds(noopMs),
        noop_ratio: Math.round((noopMs / firstMs) * 1000) / 1000,
        watch_edit_to_searchable_ms: Math.round(editMs),
        manifest_identical_across_data_dirs: same,
      };
    } finally {
      await engine.dispose();
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
