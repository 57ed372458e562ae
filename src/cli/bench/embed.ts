/**
 * Time to semantic: a generated vault indexed with a real embedding model, timed until every chunk
 * has its vector (sentence vectors come after, in the background, and are not part of it), with a
 * profile of the embedding stage: the time inside the model's calls against the stage's whole time
 * (what our code adds: paging, hashing, writes), the same inputs through node-llama-cpp alone (the
 * runtime's rate), and the matrix work that rate is (GFLOP/s from the model's shape).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngine } from '../../engine/index.ts';
import { modelFamily } from '../../engine/llm/families.ts';
import { Embedder, LlamaRuntime, type EmbedderLike } from '../../engine/llm/runtime.ts';
import { generateMarkdownCorpus } from './corpus.ts';

export interface EmbedBenchResult {
  model: string;
  notes: number;
  chunks: number;
  /** Start of the run until the embedding stage starts: every chunk searchable by words, and the model loaded. */
  words_and_model_s: number;
  /** Start of the run until every chunk has its vector: the time to semantic. */
  chunk_vectors_s: number;
  /** The embedding stage alone. */
  embed_s: number;
  chunks_per_s: number;
  /** Share of the embedding stage spent inside the model's calls (the rest is ours). */
  model_share: number;
  mean_tokens: number;
  /** The same inputs (a sample) through node-llama-cpp alone, with the same contexts and threads. */
  runtime_chunks_per_s: number;
  runtime_sample: number;
  /** Matrix work the measured rate amounts to (2 x parameters of the layers x tokens, plus attention). */
  gflops: number;
  contexts: number;
  threads_per_context: number;
  gpu: string | false;
  /** os.loadavg() at the start and the end (the machine is shared). */
  load: [number, number];
}

/** Records what the engine asks the embedder for and how long the model takes. */
class TimedEmbedder implements EmbedderLike {
  modelMs = 0;
  documents: string[] = [];
  constructor(readonly inner: Embedder) {}
  get modelId() {
    return this.inner.modelId;
  }
  load() {
    return this.inner.load();
  }
  async embedMany(texts: readonly string[], kind: 'query' | 'document') {
    const t = performance.now();
    try {
      return await this.inner.embedMany(texts, kind);
    } finally {
      this.modelMs += performance.now() - t;
      if (kind === 'document') this.documents.push(...texts);
    }
  }
  embed(text: string, kind: 'query' | 'document') {
    return this.inner.embed(text, kind);
  }
  unload() {
    return this.inner.unload();
  }
}

const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;

export async function benchEmbed(options: { model: string; notes: number; threads?: number; gpu?: 'auto' | 'off'; runtimeSample?: number; log: (line: string) => void }): Promise<EmbedBenchResult> {
  const { log } = options;
  const model = path.resolve(options.model);
  const name = path.basename(model, '.gguf');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-bench-embed-'));
  const loadStart = os.loadavg()[0]!;
  const runtime = new LlamaRuntime({ gpu: options.gpu === 'off' ? false : 'auto', ...(options.threads ? { threads: options.threads } : {}) });
  try {
    const corpus = path.join(work, 'corpus');
    log(`generating ${options.notes} notes…`);
    generateMarkdownCorpus(corpus, options.notes, 42, 6, true);
    const timed = new TimedEmbedder(new Embedder(runtime, { modelPath: model, modelId: name, modelName: name }));
    // Sentence vectors come after the chunk vectors and are not part of the time to semantic.
    const engine = createEngine({ dataDir: path.join(work, 'data'), env: {}, embedder: timed, config: { sentenceVectors: false } });
    let lexicalMs = 0;
    let embedStart = 0;
    try {
      const t0 = performance.now();
      engine.on('index/progress', (e) => {
        if (e.stage !== 'embed') return;
        if (!embedStart) {
          embedStart = performance.now();
          lexicalMs = embedStart - t0;
        }
        if (e.files_done > 0 && e.files_done % 500 < 32) log(`${e.files_done}/${e.files_total} chunk vectors, ${e.rate_per_s}/s`);
      });
      const report = await engine.index([corpus]);
      const totalMs = performance.now() - t0;
      const embedMs = totalMs - lexicalMs;
      const chunks = report.embedded;
      log(`${report.chunks_total} chunks searchable by words and the model loaded after ${round(lexicalMs / 1000)} s, every chunk vector after ${round(totalMs / 1000)} s`);

      // The runtime alone on a sample of the same inputs: contexts as the embedder makes them, tokens given directly.
      const sample = timed.documents.slice(0, options.runtimeSample ?? 200);
      const llama = await runtime.get();
      const gpu = runtime.status().gpu;
      const contexts = gpu ? 1 : Math.max(1, Math.min(runtime.threads, 4));
      const threadsPer = Math.max(1, Math.floor(runtime.threads / contexts));
      const family = modelFamily(name, path.basename(model));
      const raw = await llama.loadModel({ modelPath: model });
      const contextSize = Math.min(raw.trainContextSize || 512, 8192);
      const budget = Math.min(contextSize, family.maxTokens ?? contextSize) - 4;
      const tokens = sample.map((t) => raw.tokenize(family.documentPrefix + (t.trim() || '.')).slice(0, budget));
      const meanTokens = tokens.reduce((s, t) => s + t.length + 2, 0) / Math.max(1, tokens.length);
      const ctxs = [];
      for (let i = 0; i < contexts; i++) ctxs.push(await raw.createEmbeddingContext({ contextSize, threads: threadsPer }));
      let next = 0;
      const tr = performance.now();
      await Promise.all(
        ctxs.map(async (c) => {
          while (next < tokens.length) await c.getEmbeddingFor(tokens[next++]!);
        }),
      );
      const rawRate = tokens.length / ((performance.now() - tr) / 1000);
      for (const c of ctxs) await c.dispose();

      // FLOPs per input: 2 x (4 d^2 + 2 d ff) per token and layer (projections, feed-forward) + 4 n d per token and layer (attention).
      const { readGgufFileInfo } = await import('node-llama-cpp');
      const meta = (await readGgufFileInfo(model, { logWarnings: false })).metadata as unknown as Record<string, Record<string, unknown>>;
      const arch = meta[String(meta.general!.architecture)] ?? {};
      const d = Number(arch.embedding_length ?? 0);
      const ff = Number(arch.feed_forward_length ?? 4 * d);
      const layers = Number(arch.block_count ?? 0);
      const flopsPerInput = layers * meanTokens * (2 * (4 * d * d + 2 * d * ff) + 4 * meanTokens * d);
      const rate = chunks / (embedMs / 1000);
      await raw.dispose();
      return {
        model: name,
        notes: options.notes,
        chunks,
        words_and_model_s: round(lexicalMs / 1000),
        chunk_vectors_s: round(totalMs / 1000),
        embed_s: round(embedMs / 1000),
        chunks_per_s: round(rate),
        model_share: round(timed.modelMs / embedMs, 3),
        mean_tokens: round(meanTokens),
        runtime_chunks_per_s: round(rawRate),
        runtime_sample: tokens.length,
        gflops: round((flopsPerInput * rate) / 1e9),
        contexts,
        threads_per_context: threadsPer,
        gpu,
        load: [round(loadStart, 2), round(os.loadavg()[0]!, 2)],
      };
    } finally {
      await engine.dispose();
    }
  } finally {
    await runtime.dispose();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** One line of the bench table. */
export function embedRow(r: EmbedBenchResult) {
  return {
    target: `time to semantic: ${r.notes.toLocaleString('en')} generated notes (${r.chunks.toLocaleString('en')} chunks), ${r.model}, every chunk vector`,
    measured: `${r.chunk_vectors_s} s (${r.chunks_per_s} chunks/s of ${r.mean_tokens} tokens; node-llama-cpp alone ${r.runtime_chunks_per_s}/s; load ${r.load[0]}–${r.load[1]})`,
    goal: '< 300 s on 2 cores',
    met: r.chunk_vectors_s < 300,
  };
}
