import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateMarkdownCorpus, prng } from '../src/cli/bench/corpus.ts';
import { createEngine } from '../src/engine/engine.ts';
import type { IndexManifest } from '../src/engine/health/manifest.ts';
import { CHILD_LIMIT_MS, CHILD_TEST_LIMIT_MS } from './helpers/limits.ts';
import { TempDirs } from './helpers/tmp.ts';

const BIN = path.resolve(import.meta.dirname, '..', 'bin', 'synapsis.js');
const TRIALS = Number(process.env.SYNAPSIS_FAULT_TRIALS ?? 3);
const temp = new TempDirs();
let corpus: string;
let cleanManifest: IndexManifest | null;
let cleanState: Awaited<ReturnType<typeof indexAndManifest>>['state'];
/** How long a clean run of the corpus takes here: kill delays are drawn below it, so they land mid-run on fast and slow machines alike. */
let cleanRunMs = 1500;

const QUERIES = ['sync relay conflict', 'vector index query', 'budget release decision', 'Note 17'];

/** Indexes the corpus and describes the resulting state: the manifest and what a user can see of it. */
async function indexAndManifest(dataDir: string) {
  const engine = createEngine({ dataDir, env: {} });
  try {
    const report = await engine.index([corpus]);
    const health = await engine.health();
    const state = {
      documents: engine.documents().map((d) => `${d.path} ${d.title ?? ''} ${d.size}`),
      graph: engine.graphStats(),
      counts: { documents: health.documents, chunks: health.chunks, pending_jobs: health.pending_jobs, issues: health.issues.length },
      search: await Promise.all(QUERIES.map(async (q) => (await engine.retrieve(q, {}, 8)).chunks.map((c) => `${c.locator} ${c.score}`))),
    };
    return { report, manifest: engine.manifest(), state };
  } finally {
    await engine.dispose();
  }
}

/** Starts `synapsis index` and kills it with SIGKILL `delayMs` after its first progress line. */
function indexThenKill(dataDir: string, delayMs: number): Promise<{ killedMidRun: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'index', corpus, '--data-dir', dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let timer: NodeJS.Timeout | null = null;
    let exited = false;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      if (!timer && text.includes('indexing:')) timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      exited = true;
      if (timer) clearTimeout(timer);
      resolve({ killedMidRun: signal === 'SIGKILL' });
    });
    setTimeout(() => !exited && child.kill('SIGKILL'), CHILD_LIMIT_MS);
  });
}

describe('crash safety', () => {
  beforeAll(async () => {
    corpus = temp.make('syn-crash-corpus-');
    generateMarkdownCorpus(corpus, 800, 7);
    const started = performance.now();
    ({ manifest: cleanManifest, state: cleanState } = await indexAndManifest(temp.make('syn-crash-clean-')));
    cleanRunMs = performance.now() - started;
  });
  afterAll(() => temp.cleanup());

  it(`kill -9 during indexing, then a restart, ends in the clean run's manifest and state (${TRIALS} trials)`, async () => {
    const rand = prng(2026);
    let midRun = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      // Killed mid-run: work is left in the queue (or the scan had not even been persisted yet). A child
      // that outran the delay (a fast moment of a shared machine) is run again with half the delay.
      let delay = Math.floor(rand() * 0.6 * cleanRunMs);
      let dataDir = '';
      let landed = false;
      for (let attempt = 0; !landed && attempt < 4; attempt++, delay = Math.floor(delay / 2)) {
        dataDir = temp.make('syn-crash-');
        const { killedMidRun } = await indexThenKill(dataDir, delay);
        const probe = createEngine({ dataDir, env: {} });
        const health = await probe.health();
        await probe.dispose();
        landed = killedMidRun && (health.pending_jobs > 0 || health.documents.total < 800);
      }
      if (landed) midRun++;
      const { report, manifest, state } = await indexAndManifest(dataDir);
      expect(report.failed).toBe(0);
      expect(manifest).toEqual(cleanManifest);
      // Identical to the clean run beyond the hashes: documents, graph rows, counts and rankings.
      expect(state).toEqual(cleanState);
    }
    // The kills must land while indexing runs, or this test proves nothing.
    console.log(`[crash-resume] ${TRIALS} kill -9 trials, ${midRun} mid-run, each restart equal to the clean run (clean run ${Math.round(cleanRunMs)} ms)`);
    expect(midRun).toBe(TRIALS);
  }, CHILD_TEST_LIMIT_MS + TRIALS * 60_000);
});
