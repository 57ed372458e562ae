/**
 * `synapsis tune`: fits a retrieval profile (fusion kind, RRF k, the weight of each list, the
 * lexical expansion list's weight, document scoring) on the training queries of a BEIR dataset and
 * saves it by name. Test splits are refused: a profile fitted on test queries would make every
 * test number a claim about the fit. Each query's lists are gathered once; then coordinate ascent
 * tries one parameter at a time over its grid, fusing with the engine's own fuseLists, so the
 * number it reports is the one `synapsis eval --split <train split> --profile <name>` prints.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngine } from '../../engine/index.ts';
import { fuseLists, type GatheredLists } from '../../engine/hybrid.ts';
import { DEFAULT_PROFILE, parseProfile, saveProfile, type RetrievalProfile } from '../../engine/retrieve/profile.ts';
import { createError } from '../../shared/errors.ts';
import { loadBeir } from './beir.ts';
import { mean, ndcgAt } from './metrics.ts';
import { writeCorpus } from './run.ts';

export interface TuneOptions {
  dataset: string;
  split: string;
  /** Embedding models (paths or registry references); none: the lexical lists only. */
  embedModels: string[];
  /** Name of the saved profile. */
  name: string;
  /** Where the profile is saved: the workspace's data dir (its profiles/ folder). */
  saveDir: string;
  workDir?: string;
  limit?: number;
  modelsDir?: string;
  /** The command line, recorded in the profile. */
  command?: string;
  log?: (line: string) => void;
}

export interface TuneReport {
  profile: RetrievalProfile;
  file: string;
  queries: number;
  /** nDCG@10 on the training queries: the shipped default profile, and the fitted one. */
  ndcg_default: number;
  ndcg_fitted: number;
  /** Each step of the ascent that improved the fit. */
  steps: { param: string; value: string; ndcg_at_10: number }[];
}

/** Splits that hold test judgements: never fitted on. */
const TEST_SPLIT = /(^|[-_.])test($|[-_.])/i;
const DEPTH = 150;
/** Fixed expansion settings while its weight is fitted (gathered once). */
const PRF = { docs: 5, terms: 10 };

interface Sample {
  lists: GatheredLists;
  rel: Map<string, number>;
}

function score(samples: readonly Sample[], profile: RetrievalProfile, byPath: Map<string, string>): number {
  return mean(
    samples.map(({ lists, rel }) => {
      const { chunks } = fuseLists(lists, profile, { fusion: profile.fusion });
      const ranked: string[] = [];
      const seen = new Set<string>();
      for (const c of chunks) {
        const id = byPath.get(c.doc_id);
        if (id === undefined || seen.has(id)) continue;
        seen.add(id);
        ranked.push(id);
        if (ranked.length === 10) break;
      }
      return ndcgAt(ranked, rel, 10);
    }),
  );
}

type Param = { name: string; values: readonly unknown[]; apply: (p: RetrievalProfile, v: unknown) => RetrievalProfile; show: (v: unknown) => string };

export async function runTune(options: TuneOptions): Promise<TuneReport> {
  const log = options.log ?? (() => {});
  if (TEST_SPLIT.test(options.split)) {
    throw createError('E_SYN_BAD_REQUEST', `tune fits on training data only, not on split "${options.split}": use --split train (or dev), then report test numbers with synapsis eval --profile ${options.name}`);
  }
  if (options.name === 'default') throw createError('E_SYN_BAD_REQUEST', 'The name "default" belongs to the shipped profile: choose another --name');
  parseProfile({ ...DEFAULT_PROFILE, name: options.name }, options.name);
  const ds = loadBeir(options.dataset, options.split);
  const queries = options.limit ? ds.queries.slice(0, options.limit) : ds.queries;
  log(`${ds.name}: ${ds.corpus.length} documents, ${queries.length} training queries (split ${options.split})`);
  const work = options.workDir ? path.resolve(options.workDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-tune-'));
  try {
    const corpusDir = path.join(work, 'corpus');
    const byPath = writeCorpus(ds, corpusDir);
    const engine = createEngine({
      dataDir: path.join(work, 'data'),
      env: {},
      ...(options.modelsDir ? { modelsDir: options.modelsDir } : {}),
      config: options.embedModels.length > 0 ? { embedModels: options.embedModels } : {},
    });
    try {
      const report = await engine.index([corpusDir]);
      log(`indexed ${report.chunks_total} chunks, ${report.embedded} embedded now`);
      const gather: RetrievalProfile = { ...DEFAULT_PROFILE, name: 'gather', techniques: { ...DEFAULT_PROFILE.techniques, lexical_prf: { ...PRF, weight: 1 } } };
      const samples: Sample[] = [];
      const t0 = performance.now();
      for (const q of queries) {
        const { lists } = await engine.retrievalLists(q.text, { mode: engine.config.embedModels?.length ? 'hybrid' : 'bm25', use_graph: false }, DEPTH, gather);
        samples.push({ lists, rel: new Map(ds.qrels.get(q.id)!) });
      }
      log(`gathered the lists of ${samples.length} queries in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const models = [...new Set(samples.flatMap((s) => s.lists.denseLists.map((d) => d.source.name)))];

      const start: RetrievalProfile = { ...DEFAULT_PROFILE, name: options.name, techniques: { ...DEFAULT_PROFILE.techniques, long_query: null, lexical_prf: null, dense_prf: null, doc_score: null } };
      const ndcgDefault = score(samples, { ...DEFAULT_PROFILE, techniques: { ...DEFAULT_PROFILE.techniques, dense_prf: null } }, byPath);
      let best = start;
      let bestScore = score(samples, best, byPath);
      const steps: TuneReport['steps'] = [];
      const weightGrid = [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3];
      const params: Param[] = [
        { name: 'fusion', values: ['rrf', 'weighted'], apply: (p, v) => ({ ...p, fusion: v as 'rrf' | 'weighted' }), show: String },
        { name: 'rrf_k', values: [5, 10, 20, 30, 45, 60, 90, 120], apply: (p, v) => ({ ...p, rrf_k: v as number }), show: String },
        ...models.map<Param>((m) => ({
          name: `weights.models.${m}`,
          values: weightGrid,
          apply: (p, v) => ({ ...p, weights: { ...p.weights, models: { ...p.weights.models, [m]: v as number } } }),
          show: String,
        })),
        {
          name: 'techniques.lexical_prf.weight',
          values: [0, 0.1, 0.25, 0.5, 0.75],
          apply: (p, v) => ({ ...p, techniques: { ...p.techniques, lexical_prf: (v as number) > 0 ? { ...PRF, weight: v as number } : null } }),
          show: String,
        },
        {
          name: 'techniques.doc_score',
          values: [null, 0.05, 0.1, 0.2, 0.35, 0.5],
          apply: (p, v) => ({ ...p, techniques: { ...p.techniques, doc_score: v === null ? null : { kind: 'sum', tail: v as number } } }),
          show: (v) => (v === null ? 'max' : `sum, tail ${String(v)}`),
        },
      ];
      for (let round = 0; round < 3; round++) {
        let improved = false;
        for (const param of params) {
          for (const value of param.values) {
            const candidate = param.apply(best, value);
            const s = score(samples, candidate, byPath);
            if (s > bestScore + 1e-6) {
              best = candidate;
              bestScore = s;
              improved = true;
              steps.push({ param: param.name, value: param.show(value), ndcg_at_10: Math.round(s * 1e4) / 1e4 });
              log(`${param.name} = ${param.show(value)}: nDCG@10 ${s.toFixed(4)}`);
            }
          }
        }
        if (!improved) break;
      }
      const profile = parseProfile(
        {
          ...best,
          description: `Fitted by synapsis tune on ${ds.name} (${options.split}, ${samples.length} queries) with ${models.length > 0 ? models.join(' + ') : 'no embedding model'}.`,
          produced_by: options.command ?? `synapsis tune --dataset ${options.dataset} --split ${options.split} --name ${options.name}${options.embedModels.map((m) => ` --embed-model ${m}`).join('')}`,
          fitted: { dataset: ds.name, split: options.split, queries: samples.length, ndcg_at_10: Math.round(bestScore * 1e4) / 1e4, ndcg_at_10_default: Math.round(ndcgDefault * 1e4) / 1e4 },
        },
        options.name,
      );
      const file = saveProfile(options.saveDir, profile);
      return { profile, file, queries: samples.length, ndcg_default: Math.round(ndcgDefault * 1e4) / 1e4, ndcg_fitted: Math.round(bestScore * 1e4) / 1e4, steps };
    } finally {
      await engine.dispose();
    }
  } finally {
    if (!options.workDir) fs.rmSync(work, { recursive: true, force: true });
  }
}
