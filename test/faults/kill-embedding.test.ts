import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateMarkdownCorpus } from '../../src/cli/bench/corpus.ts';
import { createEngine } from '../../src/engine/engine.ts';
import type { IndexManifest } from '../../src/engine/health/manifest.ts';
import { prng } from '../../src/shared/prng.ts';
import { CHILD_LIMIT_MS, CHILD_TEST_LIMIT_MS } from '../helpers/limits.ts';
import { SHARED_DIR, TempDirs } from '../helpers/tmp.ts';
import { BIN, ROOT } from './helpers.ts';

/**
 * test/crash-resume.test.ts kills the lexical stage; this kills `synapsis index` while it embeds with
 * a real GGUF model and writes the vector index (all-MiniLM-L6-v2 through node-llama-cpp: 73 chunks
 * in about 2 s here). A restart must end where a clean run ends: the same manifest, every chunk
 * embedded once, the vector index loaded or rebuilt, the same dense and hybrid rankings.
 * SYNAPSIS_FAULT_TRIALS sets the number of kills (default 3; 20 for the full run).
 */
const MODEL = path.join(SHARED_DIR, 'models', 'all-MiniLM-L6-v2.Q8_0.gguf');
const TRIALS = Number(process.env.SYNAPSIS_FAULT_TRIALS ?? 3);
const QUERIES = ['sync relay conflict', 'vector index query', 'budget release decision'];
const config = { embedModel: MODEL, llmThreads: 1, gpu: 'off' as const };
const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SYN_EMBED_MODEL: MODEL, SYN_LLM_THREADS: '1', SYN_GPU: 'off', SYN_CHAT_MODEL: '' };
const temp = new TempDirs();
let corpus: string;
let clean: Awaited<ReturnType<typeof indexAndDescribe>>;
let embedMs = 1000;
afterAll(() => temp.cleanup());

async function indexAndDescribe(dataDir: string) {
  const engine = createEngine({ dataDir, env: {}, config });
  // The chunk embedding stage only: sentence vectors follow it ('sentences'), and a kill drawn
  // within them would leave every chunk embedded.
  let embedStarted = 0;
  let embedEnded = 0;
  engine.on('index/progress', (p) => {
    if (p.stage === 'embed' && !embedStarted) embedStarted = performance.now();
    if (p.stage === 'sentences' && !embedEnded) embedEnded = performance.now();
  });
  try {
    const report = await engine.index([corpus]);
    const embedTook = embedStarted ? (embedEnded || performance.now()) - embedStarted : 0;
    const health = await engine.health();
    const rank = async (mode: 'dense' | 'hybrid') => Promise.all(QUERIES.map(async (q) => (await engine.retrieve(q, { mode }, 8)).chunks.map((c) => c.locator)));
    return {
      report,
      embedTook,
      manifest: engine.manifest() as IndexManifest | null,
      state: { chunks: health.chunks, vectors: health.vectors.count, pending: health.vectors.pending, pending_jobs: health.pending_jobs, dense: await rank('dense'), hybrid: await rank('hybrid') },
    };
  } finally {
    await engine.dispose();
  }
}

/** Runs `synapsis index` with the embedding model and kills it `delayMs` after embedding starts. */
function killWhileEmbedding(dataDir: string, delayMs: number): Promise<{ killedWhileEmbedding: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'index', corpus, '--data-dir', dataDir], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let timer: NodeJS.Timeout | null = null;
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      stderr += text;
      if (!timer && /indexing: embed/.test(stderr)) timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ killedWhileEmbedding: signal === 'SIGKILL' && timer !== null });
    });
    setTimeout(() => child.kill('SIGKILL'), CHILD_LIMIT_MS);
  });
}

describe('kill -9 while embedding', () => {
  beforeAll(async () => {
    corpus = temp.make('syn-killembed-corpus-');
    generateMarkdownCorpus(corpus, 30, 5, 3);
    clean = await indexAndDescribe(temp.make('syn-killembed-clean-'));
    embedMs = clean.embedTook;
    expect(clean.state.vectors).toBe(clean.state.chunks);
    console.log(`[kill-embedding] clean run: ${clean.state.chunks} chunks, embedding ${Math.round(embedMs)} ms`);
  });

  it(`then a restart ends in the clean run's manifest, vectors and rankings (${TRIALS} trials)`, async () => {
    const rand = prng(4242);
    let whileEmbedding = 0;
    let partial = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      // The delay is drawn within the clean run's embedding time; a child that embeds faster can
      // finish first. Then the trial is run again with half the delay (on a fresh data dir), so every
      // trial ends with a kill in the embedding stage, however fast this machine is at the moment.
      let dataDir = temp.make('syn-killembed-');
      let delay = Math.floor(rand() * 0.9 * embedMs);
      let { killedWhileEmbedding } = await killWhileEmbedding(dataDir, delay);
      for (let retry = 0; !killedWhileEmbedding && retry < 3; retry++) {
        dataDir = temp.make('syn-killembed-');
        delay = Math.floor(delay / 2);
        ({ killedWhileEmbedding } = await killWhileEmbedding(dataDir, delay));
      }
      if (killedWhileEmbedding) whileEmbedding++;
      const probe = createEngine({ dataDir, env: {}, config });
      const health = await probe.health();
      await probe.dispose();
      if (health.vectors.pending > 0) partial++; // the kill left chunks without vectors
      const after = await indexAndDescribe(dataDir);
      expect(after.report.failed).toBe(0);
      expect(after.report.embed_failed).toBe(0);
      expect(after.manifest).toEqual(clean.manifest);
      expect(after.state).toEqual(clean.state);
    }
    console.log(`[kill-embedding] ${TRIALS} kill -9 trials, ${whileEmbedding} during the embedding stage, ${partial} left chunks unembedded; every restart equal to the clean run (embedding took ${Math.round(embedMs)} ms)`);
    expect(whileEmbedding).toBe(TRIALS);
    expect(partial).toBeGreaterThan(0);
  }, CHILD_TEST_LIMIT_MS + TRIALS * 60_000);
});
