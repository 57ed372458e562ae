import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngine, type ConfigInput, type Engine } from '../../engine/index.ts';
import { createError } from '../../shared/errors.ts';
import { loadBeir, type BeirDataset } from './beir.ts';
import type { RetrievalProfile } from '../../engine/retrieve/profile.ts';
import { mean, mrrAt, ndcgAt, percentile, recallAt } from './metrics.ts';

export const EVAL_MODES = ['bm25', 'dense', 'hybrid', 'hybrid+rerank'] as const;
export type EvalMode = (typeof EVAL_MODES)[number];

export interface EvalOptions {
  dataset: string;
  split: string;
  mode: EvalMode;
  /** Evaluate only the first N judged queries (quick runs). */
  limit?: number;
  /** Keep the generated corpus and index here; a second run re-indexes incrementally (nothing changed: seconds). */
  workDir?: string;
  /** Chunks retrieved per query (default 150, enough for Recall@100 over multi-chunk documents). */
  depth?: number;
  /** GGUF embedding model (path or registry reference) for dense and hybrid modes. */
  embedModel?: string;
  /** Several embedding models at once (each a list of its own in the fusion); overrides embedModel. */
  embedModels?: string[];
  /** Retrieval profile: a name (default, or saved by synapsis tune in the workspace), a .json path, or the profile itself. */
  profile?: string | RetrievalProfile;
  rerankModel?: string;
  /** Without a rerank model, hybrid+rerank lets this chat model judge the top passages (rerankTopN, default 10 here). */
  chatModel?: string;
  rerankTopN?: number;
  /** Fusion of the hybrid modes (default rrf). */
  fusion?: 'rrf' | 'weighted';
  /** Sentence vectors (default on, as in the app); false: each chunk's own vector only. */
  sentenceVectors?: boolean;
  modelsDir?: string;
  log?: (line: string) => void;
}

export interface EvalReport {
  dataset: string;
  split: string;
  mode: EvalMode;
  /** The retrieval profile and embedding models used. */
  profile: string;
  embed_models: string[];
  depth: number;
  documents: number;
  chunks: number;
  queries: number;
  index_s: number;
  ndcg_at_10: number;
  recall_at_1: number;
  recall_at_5: number;
  recall_at_10: number;
  recall_at_100: number;
  mrr_at_10: number;
  latency_p50_ms: number;
  latency_p95_ms: number;
}

/** Documents of the ranked list to keep: Recall@100 needs 100 distinct documents. */
const DEPTH = 100;
/** Chunks to ask for so that documents split into several chunks still fill DEPTH. */
const CHUNK_DEPTH = 150;

const CODE_START = /^(?:def |class |async def |@|import |from \S+ import )/;

/** A corpus is written as Python files when most of it looks like Python functions (CoSQA), else as Markdown. */
function looksLikePython(ds: BeirDataset): boolean {
  const sample = ds.corpus.slice(0, 200);
  return sample.filter((d) => CODE_START.test(d.text.trimStart())).length > sample.length / 2;
}

function fileNameFor(id: string, ext: string): string {
  const safe = id.replace(/[^\w.-]/g, '_').replace(/^\.+/, '_').slice(0, 80) || '_';
  const tag = safe === id ? '' : `-${crypto.createHash('sha1').update(id).digest('hex').slice(0, 8)}`;
  return `${safe}${tag}.${ext}`;
}

/** Writes each document as one file (Markdown with its title in front matter, or a Python file). */
export function writeCorpus(ds: BeirDataset, dir: string): Map<string, string> {
  const ext = looksLikePython(ds) ? 'py' : 'md';
  const byPath = new Map<string, string>();
  ds.corpus.forEach((doc, i) => {
    const rel = `${String(Math.floor(i / 1000)).padStart(3, '0')}/${fileNameFor(doc.id, ext)}`;
    const body =
      ext === 'md' && doc.title.trim()
        ? `---\ntitle: ${JSON.stringify(doc.title.replace(/\s+/g, ' ').trim())}\n---\n\n${doc.text}\n`
        : `${doc.text}\n`;
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== body) fs.writeFileSync(file, body);
    byPath.set(rel, doc.id);
  });
  return byPath;
}

/**
 * A workspace holding a BEIR corpus as files: the work dir (kept when given, else a temp dir
 * removed afterwards), the corpus written into it, and an engine on its data dir with `config`.
 * `synapsis eval` and `synapsis tune` share it, so a work dir serves both.
 */
export async function withCorpusWorkspace<T>(
  ds: BeirDataset,
  options: { workDir?: string | undefined; modelsDir?: string | undefined; config: (work: string) => Partial<ConfigInput>; tempPrefix: string; log?: (line: string) => void },
  run: (ctx: { engine: Engine; byPath: Map<string, string>; corpusDir: string }) => Promise<T>,
): Promise<T> {
  const work = options.workDir ? path.resolve(options.workDir) : fs.mkdtempSync(path.join(os.tmpdir(), options.tempPrefix));
  try {
    const corpusDir = path.join(work, 'corpus');
    const byPath = writeCorpus(ds, corpusDir);
    const engine = createEngine({ dataDir: path.join(work, 'data'), env: {}, ...(options.modelsDir ? { modelsDir: options.modelsDir } : {}), config: options.config(work) });
    try {
      // A work dir copied or moved keeps the old corpus folder as a root of its own: its documents
      // would be ranked beside the new copies (every chunk twice) and skew every number. The
      // workspace holds this corpus only; the vectors stay (keyed by text), so nothing is embedded again.
      const corpusReal = fs.realpathSync(corpusDir);
      for (const root of engine.listRoots()) {
        if (root.path === corpusDir || root.path === corpusReal) continue;
        const { documents_removed } = engine.removeRoot(root.path);
        options.log?.(`work dir: removed ${documents_removed} documents of another folder, ${root.path} (a copied or moved work dir)`);
      }
      return await run({ engine, byPath, corpusDir });
    } finally {
      await engine.dispose();
    }
  } finally {
    if (!options.workDir) fs.rmSync(work, { recursive: true, force: true });
  }
}

/** A profile given as an object is written beside the work data, for the engine to load by path. */
export function profileRef(profile: string | RetrievalProfile, work: string): string {
  if (typeof profile === 'string') return profile;
  const file = path.join(work, `profile-${profile.name}.json`);
  fs.writeFileSync(file, JSON.stringify(profile, null, 2));
  return file;
}

const round = (v: number, digits = 4) => Math.round(v * 10 ** digits) / 10 ** digits;

/**
 * Loads a BEIR dataset into a fresh workspace (one file per document), runs every judged query
 * through the engine's retrieval and scores the ranked documents (a document scores its best chunk).
 */
export async function runEval(options: EvalOptions): Promise<EvalReport> {
  const log = options.log ?? (() => {});
  if (!(EVAL_MODES as readonly string[]).includes(options.mode)) {
    throw createError('E_SYN_BAD_REQUEST', `Unknown eval mode ${options.mode}; available: ${EVAL_MODES.join(', ')}`);
  }
  const depth = options.depth ?? CHUNK_DEPTH;
  const embedModels = options.embedModels?.length ? options.embedModels : options.embedModel ? [options.embedModel] : [];
  if (options.mode !== 'bm25' && embedModels.length === 0) {
    throw createError('E_SYN_BAD_REQUEST', `Mode ${options.mode} needs --embed-model <file.gguf>`);
  }
  if (options.mode === 'hybrid+rerank' && !options.rerankModel && !options.chatModel) {
    throw createError('E_SYN_BAD_REQUEST', 'Mode hybrid+rerank needs --rerank-model <file.gguf> (a cross-encoder) or --chat-model <file.gguf> (the chat model as a judge)');
  }
  const ds = loadBeir(options.dataset, options.split);
  const queries = options.limit ? ds.queries.slice(0, options.limit) : ds.queries;
  log(`${ds.name}: ${ds.corpus.length} documents, ${queries.length} judged queries (split ${options.split})`);

  const config = (work: string): Partial<ConfigInput> => ({
    ...(embedModels.length > 0 ? { embedModels } : {}),
    ...(options.sentenceVectors === false ? { sentenceVectors: false } : {}),
    ...(options.profile ? { profile: profileRef(options.profile, work) } : {}),
    ...(options.rerankModel && options.mode === 'hybrid+rerank' ? { rerankModel: options.rerankModel } : {}),
    ...(!options.rerankModel && options.chatModel && options.mode === 'hybrid+rerank' ? { chatModel: options.chatModel, rerankWithChat: true } : {}),
    ...(options.mode === 'hybrid+rerank' ? { rerankTopN: options.rerankTopN ?? (options.rerankModel ? 50 : 10) } : {}),
  });
  return withCorpusWorkspace(ds, { workDir: options.workDir, modelsDir: options.modelsDir, config, tempPrefix: 'synapsis-eval-', log }, async ({ engine, byPath, corpusDir }) => {
    {
      const t0 = performance.now();
      const report = await engine.index([corpusDir]);
      const indexS = (performance.now() - t0) / 1000;
      log(`indexed ${report.indexed} (unchanged ${report.unchanged}) files, ${report.chunks_total} chunks, ${report.embedded} embedded in ${indexS.toFixed(1)} s`);
      if (options.mode !== 'bm25' && report.embed_pending > 0) log(`warning: ${report.embed_pending} chunks have no embedding`);
      const searchMode = options.mode === 'bm25' ? 'bm25' : options.mode === 'dense' ? 'dense' : 'hybrid';
      if (report.failed > 0) log(`warning: ${report.failed} documents failed to index`);

      const ndcg: number[] = [];
      const r1: number[] = [];
      const r5: number[] = [];
      const r10: number[] = [];
      const r100: number[] = [];
      const mrr: number[] = [];
      const latencies: number[] = [];
      for (const q of queries) {
        const t = performance.now();
        const result = await engine.retrieve(q.text, { mode: searchMode, enable_rerank: options.mode === 'hybrid+rerank', ...(options.fusion ? { fusion: options.fusion } : {}) }, depth);
        latencies.push(performance.now() - t);
        const ranked: string[] = [];
        const seen = new Set<string>();
        for (const c of result.chunks) {
          const id = byPath.get(c.doc_id);
          if (id === undefined || seen.has(id)) continue;
          seen.add(id);
          ranked.push(id);
          if (ranked.length === DEPTH) break;
        }
        const rel = ds.qrels.get(q.id)!;
        ndcg.push(ndcgAt(ranked, rel, 10));
        r1.push(recallAt(ranked, rel, 1));
        r5.push(recallAt(ranked, rel, 5));
        r10.push(recallAt(ranked, rel, 10));
        r100.push(recallAt(ranked, rel, 100));
        mrr.push(mrrAt(ranked, rel, 10));
      }
      return {
        dataset: ds.name,
        split: options.split,
        mode: options.mode,
        profile: engine.profile.name,
        embed_models: embedModels.map((m) => path.basename(m, '.gguf')),
        depth,
        documents: ds.corpus.length,
        chunks: report.chunks_total,
        queries: queries.length,
        index_s: round(indexS, 2),
        ndcg_at_10: round(mean(ndcg)),
        recall_at_1: round(mean(r1)),
        recall_at_5: round(mean(r5)),
        recall_at_10: round(mean(r10)),
        recall_at_100: round(mean(r100)),
        mrr_at_10: round(mean(mrr)),
        latency_p50_ms: round(percentile(latencies, 50), 2),
        latency_p95_ms: round(percentile(latencies, 95), 2),
      };
    }
  });
}
