import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HashedEmbedder } from '../../src/cli/bench/hashed-embedder.ts';
import { createEngine } from '../../src/engine/engine.ts';
import { prng } from '../../src/shared/prng.ts';
import { TempDirs } from '../helpers/tmp.ts';
import { percentile } from './helpers.ts';

/**
 * Queries while a folder is indexed (lexical stage, then embeddings) by the watcher's catch-up run,
 * with files edited, created and deleted meanwhile: the p95 latency a user sees (from the moment a
 * query is due to its answer, so time spent waiting behind indexing counts) stays under 300 ms, and
 * every update is in the index at the end. The bound is for a busy 2-core machine, where the run
 * shares the cores with other test files (121-138 ms measured there alone, 131 ms in the full suite);
 * a query held back until the run ends would wait seconds. SYNAPSIS_CONCURRENCY_FILES=5000 runs the full size
 * (default 1,000 here); the numbers are printed.
 */
const FILES = Number(process.env.SYNAPSIS_CONCURRENCY_FILES ?? 1000);
const temp = new TempDirs();
afterAll(() => temp.cleanup());

const WORDS = 'relay device merge conflict clock storage sqlite index query vector note meeting decision budget release project team review incident outage certificate latency throughput partition replica snapshot schema migration offline cache journal roadmap customer pilot driver warehouse encryption rotation telemetry dashboard alert runbook deploy rollback feature launch'.split(' ');

function note(i: number, rand: () => number): string {
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  const paragraphs = Array.from({ length: 5 }, () => `${words(40)}.`).join('\n\n');
  return `---\ntags: [${words(1)}]\n---\n# Note ${i} ${words(3)}\n\nfilemark${i}x ${paragraphs}\n\n## Details\n\n${paragraphs}\n`;
}

describe(`querying while ${FILES} files are indexed`, () => {
  it('keeps p95 query latency under 300 ms and loses no update', async () => {
    const rand = prng(99);
    const vault = temp.make('syn-concurrency-vault-');
    for (let i = 0; i < FILES; i++) {
      const dir = path.join(vault, `d${Math.floor(i / 100)}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `n${i}.md`), note(i, rand));
    }
    const fileOf = (i: number) => path.join(vault, `d${Math.floor(i / 100)}`, `n${i}.md`);
    const engine = createEngine({ dataDir: temp.make('syn-concurrency-data-'), env: {}, embedder: new HashedEmbedder(64) });
    engine.addRoot(vault);

    // Updates made while the run is under way, at a tenth and at half of the lexical stage.
    const edited = Array.from({ length: 20 }, (_, j) => j * Math.floor(FILES / 20) + 1);
    const deleted = Array.from({ length: 10 }, (_, j) => j * Math.floor(FILES / 10) + 3);
    const created = Array.from({ length: 10 }, (_, j) => FILES + j);
    const updates = new Set<string>();
    const update = (batch: 'early' | 'late') => {
      if (updates.has(batch)) return;
      updates.add(batch);
      const half = batch === 'early' ? 0 : 1;
      for (const i of edited.filter((_, j) => j % 2 === half)) fs.appendFileSync(fileOf(i), `\nedited${i}mark appended while indexing\n`);
      for (const i of deleted.filter((_, j) => j % 2 === half)) fs.rmSync(fileOf(i));
      for (const i of created.filter((_, j) => j % 2 === half)) {
        fs.mkdirSync(path.dirname(fileOf(i)), { recursive: true });
        fs.writeFileSync(fileOf(i), `# New ${i}\n\ncreated${i}mark while indexing\n`);
      }
    };
    const stages = new Set<string>();
    engine.on('index/progress', (p) => {
      stages.add(p.stage);
      if (p.stage === 'lexical' && p.files_done >= FILES * 0.1) update('early');
      if (p.stage === 'lexical' && p.files_done >= FILES * 0.5) update('late');
    });

    const started = performance.now();
    let indexing = true;
    const watching = engine.watch({ debounceMs: 50 }).finally(() => {
      indexing = false;
    });
    const latencies: number[] = [];
    const INTERVAL = 25;
    let due = performance.now();
    while (indexing) {
      due += INTERVAL;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      else due = performance.now(); // fell behind: the next query is due now
      const query = `${WORDS[Math.floor(rand() * WORDS.length)]} ${WORDS[Math.floor(rand() * WORDS.length)]}`;
      await engine.retrieve(query, {}, 8);
      latencies.push(performance.now() - due);
    }
    const watcher = await watching;
    const indexSeconds = (performance.now() - started) / 1000;

    // Every update lands: the watcher queues what changed behind the run.
    const find = async (token: string) => (await engine.retrieve(token, { mode: 'bm25' }, 3)).chunks.some((c) => c.text.includes(token));
    const settled = async () => {
      for (const i of edited) if (!(await find(`edited${i}mark`))) return false;
      for (const i of created) if (!(await find(`created${i}mark`))) return false;
      for (const i of deleted) if (await find(`filemark${i}x`)) return false;
      return true;
    };
    const deadline = Date.now() + 30_000;
    while (!(await settled()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await watcher.dispose();

    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);
    const max = Math.max(...latencies);
    console.log(`[concurrency] ${FILES} files indexed (lexical + embeddings) in ${indexSeconds.toFixed(1)} s; ${latencies.length} queries meanwhile: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${max.toFixed(1)} ms`);
    expect(updates).toEqual(new Set(['early', 'late']));
    expect(stages).toContain('embed');
    expect(latencies.length).toBeGreaterThan(20);
    for (const i of edited) expect(await find(`edited${i}mark`), `edit of n${i}.md`).toBe(true);
    for (const i of created) expect(await find(`created${i}mark`), `new n${i}.md`).toBe(true);
    for (const i of deleted) expect(await find(`filemark${i}x`), `deleted n${i}.md`).toBe(false);
    const health = await engine.health();
    expect(health.documents.indexed).toBe(FILES - deleted.length + created.length);
    expect(health.pending_jobs).toBe(0);
    expect(health.vectors.count).toBe(health.chunks);
    expect(p95).toBeLessThan(300);
    await engine.dispose();
  });
});
