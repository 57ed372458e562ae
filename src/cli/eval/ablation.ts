/**
 * `synapsis quality`: the ablation table of docs/quality.md. For each dataset, the lexical list
 * alone, each embedder alone, plain RRF, the shipped default profile, and the default with one
 * technique switched (on if it is off, off if it is on), each with nDCG@10, Recall@100 and p95
 * latency. Embeddings are cached per dataset in the work dir, so a rerun costs the queries only.
 */
import path from 'node:path';
import { DEFAULT_PROFILE, type RetrievalProfile } from '../../engine/retrieve/profile.ts';
import { runEval, type EvalMode, type EvalReport } from './run.ts';

export interface AblationOptions {
  datasets: string[];
  /** Embedding models (paths); the default profile's lists. */
  embedModels: string[];
  /** A folder per dataset is kept here (corpus, index, embeddings). */
  workRoot: string;
  limit?: number;
  modelsDir?: string;
  /** Also measure the chat model as a pointwise reranker on this many queries (slow). */
  judge?: { chatModel: string; queries: number };
  log?: (line: string) => void;
}

export interface AblationRow {
  dataset: string;
  variant: string;
  ndcg_at_10: number;
  recall_at_100: number;
  latency_p95_ms: number;
  queries: number;
}

export interface Variant {
  name: string;
  mode: EvalMode;
  embedModels?: string[];
  profile?: RetrievalProfile;
  sentenceVectors?: false;
}

const with_ = (name: string, change: (p: RetrievalProfile) => RetrievalProfile): RetrievalProfile => ({ ...change(structuredClone(DEFAULT_PROFILE)), name });

/** The rows of the table: baselines, the default, then one technique switched at a time. */
export function ablationVariants(embedModels: readonly string[]): Variant[] {
  const stem = (m: string) => path.basename(m, '.gguf');
  const t = DEFAULT_PROFILE.techniques;
  // Plain RRF as the engine fused before profiles: k = 60, every list weighted 1, every candidate fetched (600 at the eval's depth),
  // a chunk scored by the better of its own vector and its best sentence (chunk_share null).
  const plainRrf: RetrievalProfile = { ...structuredClone(DEFAULT_PROFILE), name: 'plain-rrf', fusion: 'rrf', rrf_k: 60, weights: { lexical: 1, dense: 1, models: {} }, depth: { lexical: 600, dense: 600 }, chunk_share: null, techniques: { long_query: null, lexical_prf: null, dense_prf: null, doc_score: null } };
  // One model's list alone, its chunks scored as the default scores them.
  const denseAlone: RetrievalProfile = { ...plainRrf, name: 'dense-alone', chunk_share: DEFAULT_PROFILE.chunk_share };
  return [
    { name: 'BM25 alone', mode: 'bm25' },
    ...embedModels.flatMap<Variant>((m) => [
      { name: `dense alone: ${stem(m)}, chunk vectors only`, mode: 'dense', embedModels: [m], profile: plainRrf, sentenceVectors: false },
      { name: `dense alone: ${stem(m)}`, mode: 'dense', embedModels: [m], profile: denseAlone },
    ]),
    ...(embedModels.length > 1 ? embedModels.map<Variant>((m) => ({ name: `plain RRF k=60: BM25 + ${stem(m)}`, mode: 'hybrid', embedModels: [m], profile: plainRrf })) : []),
    { name: `plain RRF k=60: BM25 + ${embedModels.map(stem).join(' + ')}`, mode: 'hybrid', profile: plainRrf },
    { name: 'default profile', mode: 'hybrid', profile: DEFAULT_PROFILE },
    { name: 'default, sentence vectors off', mode: 'hybrid', profile: DEFAULT_PROFILE, sentenceVectors: false },
    DEFAULT_PROFILE.chunk_share === null
      ? { name: 'default, chunk score = 0.2 x its vector + 0.8 x its best sentence', mode: 'hybrid', profile: with_('v-share', (p) => ({ ...p, chunk_share: 0.2 })) }
      : { name: 'default, chunk score = the better of its vector and its best sentence', mode: 'hybrid', profile: with_('v-share', (p) => ({ ...p, chunk_share: null })) },
    DEFAULT_PROFILE.fusion === 'weighted'
      ? { name: 'default, RRF instead of weighted fusion', mode: 'hybrid', profile: with_('v-rrf', (p) => ({ ...p, fusion: 'rrf' })) }
      : { name: 'default, weighted fusion instead of RRF', mode: 'hybrid', profile: with_('v-weighted', (p) => ({ ...p, fusion: 'weighted' })) },
    ...(DEFAULT_PROFILE.fusion === 'weighted'
      ? [{ name: `default, ${DEFAULT_PROFILE.normalize === 'zscore' ? 'min-max' : 'z-score'} normalisation`, mode: 'hybrid' as const, profile: with_('v-norm', (p) => ({ ...p, normalize: p.normalize === 'zscore' ? 'minmax' : 'zscore' })) }]
      : []),
    t.long_query
      ? { name: 'default, long queries keep their common words', mode: 'hybrid', profile: with_('v-long', (p) => ({ ...p, techniques: { ...p.techniques, long_query: null } })) }
      : { name: 'default + long queries drop common words (8+ words, idf < 2)', mode: 'hybrid', profile: with_('v-long', (p) => ({ ...p, techniques: { ...p.techniques, long_query: { min_terms: 8, min_idf: 2 } } })) },
    t.lexical_prf
      ? { name: 'default, lexical PRF off', mode: 'hybrid', profile: with_('v-lprf', (p) => ({ ...p, techniques: { ...p.techniques, lexical_prf: null } })) }
      : { name: 'default + lexical PRF (RM3-like, 5 docs, 10 terms, weight 0.3)', mode: 'hybrid', profile: with_('v-lprf', (p) => ({ ...p, techniques: { ...p.techniques, lexical_prf: { docs: 5, terms: 10, weight: 0.3 } } })) },
    t.dense_prf
      ? { name: 'default, dense PRF off', mode: 'hybrid', profile: with_('v-dprf', (p) => ({ ...p, techniques: { ...p.techniques, dense_prf: null } })) }
      : { name: 'default + dense PRF (Rocchio, 3 docs, beta 0.5)', mode: 'hybrid', profile: with_('v-dprf', (p) => ({ ...p, techniques: { ...p.techniques, dense_prf: { docs: 3, beta: 0.5 } } })) },
    t.doc_score
      ? { name: 'default, document = best chunk', mode: 'hybrid', profile: with_('v-doc', (p) => ({ ...p, techniques: { ...p.techniques, doc_score: null } })) }
      : { name: 'default + document score = best + 0.25 x next two', mode: 'hybrid', profile: with_('v-doc', (p) => ({ ...p, techniques: { ...p.techniques, doc_score: { kind: 'sum', tail: 0.25 } } })) },
  ];
}

export async function runAblation(options: AblationOptions): Promise<AblationRow[]> {
  const log = options.log ?? (() => {});
  const rows: AblationRow[] = [];
  for (const dataset of options.datasets) {
    const workDir = path.join(options.workRoot, path.basename(path.resolve(dataset)));
    for (const v of ablationVariants(options.embedModels)) {
      const report: EvalReport = await runEval({
        dataset,
        split: 'test',
        mode: v.mode,
        workDir,
        ...(v.mode === 'bm25' ? {} : { embedModels: v.embedModels ?? options.embedModels }),
        ...(v.profile ? { profile: v.profile } : {}),
        ...(v.sentenceVectors === false ? { sentenceVectors: false } : {}),
        ...(options.limit ? { limit: options.limit } : {}),
        ...(options.modelsDir ? { modelsDir: options.modelsDir } : {}),
      });
      const row = { dataset: report.dataset, variant: v.name, ndcg_at_10: report.ndcg_at_10, recall_at_100: report.recall_at_100, latency_p95_ms: report.latency_p95_ms, queries: report.queries };
      log(`${row.dataset} | ${row.variant} | ${row.ndcg_at_10} | ${row.recall_at_100} | ${row.latency_p95_ms}`);
      rows.push(row);
    }
  }
  return rows;
}

/** The rows as a Markdown table, one block per dataset. */
export function ablationTable(rows: readonly AblationRow[]): string {
  const out: string[] = [];
  for (const dataset of [...new Set(rows.map((r) => r.dataset))]) {
    const mine = rows.filter((r) => r.dataset === dataset);
    out.push(`### ${dataset} (${mine[0]!.queries} test queries)`, '', '| variant | nDCG@10 | Recall@100 | p95 ms |', '|---|---:|---:|---:|');
    for (const r of mine) out.push(`| ${r.variant} | ${r.ndcg_at_10.toFixed(4)} | ${r.recall_at_100.toFixed(4)} | ${r.latency_p95_ms.toFixed(1)} |`);
    out.push('');
  }
  return out.join('\n');
}
