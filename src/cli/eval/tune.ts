/**
 * `synapsis tune`: fits a retrieval profile's fusion (weighted sum or RRF, RRF k, normalisation,
 * the weight of each embedding model's list, the dense lists' depth) on the training queries of a
 * BEIR dataset, and how a chunk split into sentences gets its dense score (chunk_share), and saves it
 * by name. Query techniques (expansion, Rocchio, document scoring, long queries) are not fitted: each
 * costs latency, and `synapsis quality` measures them one at a time. Test splits are refused: a
 * profile fitted on test queries would make every test number a claim about the fit. Each query's
 * lists are gathered once per chunk_share tried; then coordinate ascent tries one parameter at a
 * time over its grid and takes the grid's best value, fusing with the engine's own fuseLists, so
 * the number it reports is the one `synapsis eval --split <train split> --profile <name>` prints.
 */
import path from 'node:path';
import { fuseLists, type GatheredLists } from '../../engine/retrieve/hybrid.ts';
import { applyRetrievalMode } from '../../engine/retrieve/modes.ts';
import { DEFAULT_PROFILE, parseProfile, saveProfile, type RetrievalProfile } from '../../engine/retrieve/profile.ts';
import type { RetrievedChunk } from '../../shared/contract.ts';
import { createError } from '../../shared/errors.ts';
import { loadBeir } from './beir.ts';
import { mean, ndcgAt } from './metrics.ts';
import { withCorpusWorkspace } from './run.ts';

export interface TuneOptions {
  /**
   * The training data: one dataset, or several (each with its split), fitted together so that a
   * profile is not shaped by one kind of query alone. Each set counts equally (the fit maximises
   * the mean of the sets' nDCG@10).
   */
  sets: { dataset: string; split: string }[];
  /** Embedding models (paths or registry references); none: the lexical lists only. */
  embedModels: string[];
  /** Name of the saved profile. */
  name: string;
  /** Where the profile is saved: the workspace's data dir (its profiles/ folder). */
  saveDir: string;
  /** With one set, its workspace; with several, a folder per dataset inside it (as synapsis quality keeps them). */
  workDir?: string;
  limit?: number;
  /**
   * A parameter leaves its current value only for a gain of at least this much nDCG@10 on the
   * training queries (default 0.001): smaller gains are within what another sample of queries
   * would undo, and each technique switched on costs latency.
   */
  minGain?: number;
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
  /** nDCG@10 on the training queries of the fitted profile with each chunk_share tried ("best": null); empty without an embedding model. */
  chunk_shares: Record<string, number>;
}

/** Splits that hold test judgements: never fitted on. */
const TEST_SPLIT = /(^|[-_.])test($|[-_.])/i;
const DEPTH = 150;

/**
 * The chunk_share values tune tries (null: the better of a chunk's own cosine and its best sentence's).
 * The share works inside the dense search, so each query's lists are gathered once per value.
 */
export const CHUNK_SHARES: readonly (number | null)[] = [null, 0, 0.1, 0.2, 0.3, 0.5];
const shareKey = (share: number | null) => (share === null ? 'best' : String(share));

interface Sample {
  /** The query's lists gathered with each chunk_share tried (shareKey), the lexical list shared. */
  lists: Map<string, GatheredLists>;
  rel: Map<string, number>;
}

interface SampleSet {
  name: string;
  samples: Sample[];
  byPath: Map<string, string>;
}

/** The mean over the sets of each set's mean nDCG@10. */
function score(sets: readonly SampleSet[], profile: RetrievalProfile): number {
  return mean(sets.map((set) => scoreSet(set.samples, profile, set.byPath)));
}

function scoreSet(samples: readonly Sample[], profile: RetrievalProfile, byPath: Map<string, string>): number {
  return mean(
    samples.map(({ lists: byShare, rel }) => {
      const lists = byShare.get(shareKey(profile.chunk_share));
      if (!lists) throw new Error(`tune gathered no lists for chunk_share ${profile.chunk_share}`);
      // Ordered as retrieval returns them (ties by document and lines), so eval prints the same number.
      const fused = fuseLists(lists, profile, { fusion: profile.fusion }).chunks;
      const { chunks } = applyRetrievalMode(fused, { mode: 'hybrid_only', max_docs: DEPTH, max_sections: DEPTH, max_chunks: DEPTH });
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

/** A model name without its quantisation suffix (.Q8_0, -q4_k_m, .f16). */
export function modelKey(name: string): string {
  return name.replace(/[.-](?:i?q\d[\w]*|f16|f32|bf16)$/i, '');
}

/**
 * The lists without the chunks' text (fusion reads ids, documents, lines and scores): 800 queries of
 * four 600-deep lists hold gigabytes of text otherwise. `seen` holds one copy of each chunk's fields
 * for all the lists of a query: gathered once per chunk_share, the same chunks come back six times
 * with other scores, and each copy of their paths, titles and tags ran tune out of heap (4 GB).
 */
function slim(lists: GatheredLists, seen: Map<string, RetrievedChunk>): GatheredLists {
  const strip = <C extends RetrievedChunk>(c: C): C => {
    const key = c.chunk_id !== undefined ? `#${c.chunk_id}` : `${c.doc_id}\u0000${c.locator}`;
    let base = seen.get(key);
    if (!base) {
      const { score: _s, ranks: _r, explain: _e, ...fields } = c;
      base = { ...fields, text: '', snippet: '', score: 0 };
      seen.set(key, base);
    }
    return { ...base, score: c.score, ...(c.ranks ? { ranks: c.ranks } : {}), ...(c.explain ? { explain: c.explain } : {}) } as C;
  };
  return {
    ...lists,
    lexical: lists.lexical ? { ...lists.lexical, chunks: lists.lexical.chunks.map(strip), highlight: new Map() } : null,
    expansion: lists.expansion?.map(strip) ?? null,
    denseLists: lists.denseLists.map((d) => ({ ...d, chunks: d.chunks.map(strip) })),
  };
}

type Param<P = RetrievalProfile> = { name: string; values: readonly unknown[]; apply: (p: P, v: unknown) => P; show: (v: unknown) => string };

/**
 * Coordinate ascent: one parameter at a time, the best value of its grid, taken when it beats the
 * current profile by at least minGain (taking the first value that did could stop short of a better
 * one further along the grid: chunk_share's train scores from null were 0.6791, 0.6790 (0), 0.6801 (0.1),
 * 0.6808 (0.2), so 0.1 sat at the bar and 0.2 could then not clear 0.1 + minGain); at most three rounds
 * over the parameters, fewer when a round moves none.
 */
export function coordinateAscent<P>(
  start: P,
  params: readonly Param<P>[],
  score: (p: P) => number,
  minGain: number,
  log: (line: string) => void = () => {},
): { best: P; score: number; steps: TuneReport['steps'] } {
  let best = start;
  let bestScore = score(start);
  const steps: TuneReport['steps'] = [];
  for (let round = 0; round < 3; round++) {
    let improved = false;
    for (const param of params) {
      let top: { value: unknown; profile: P; score: number } | null = null;
      for (const value of param.values) {
        const candidate = param.apply(best, value);
        const s = score(candidate);
        if (!top || s > top.score) top = { value, profile: candidate, score: s };
      }
      if (top && top.score >= bestScore + minGain) {
        best = top.profile;
        bestScore = top.score;
        improved = true;
        steps.push({ param: param.name, value: param.show(top.value), ndcg_at_10: Math.round(top.score * 1e4) / 1e4 });
        log(`${param.name} = ${param.show(top.value)}: nDCG@10 ${top.score.toFixed(4)}`);
      }
    }
    if (!improved) break;
  }
  return { best, score: bestScore, steps };
}

export async function runTune(options: TuneOptions): Promise<TuneReport> {
  const log = options.log ?? (() => {});
  if (options.sets.length === 0) throw createError('E_SYN_BAD_REQUEST', 'tune needs at least one --dataset');
  for (const { split } of options.sets) {
    if (TEST_SPLIT.test(split)) {
      throw createError('E_SYN_BAD_REQUEST', `tune fits on training data only, not on split "${split}": use --split train (or dev), then report test numbers with synapsis eval --profile ${options.name}`);
    }
  }
  if (options.name === 'default') throw createError('E_SYN_BAD_REQUEST', 'The name "default" belongs to the shipped profile: choose another --name');
  parseProfile({ ...DEFAULT_PROFILE, name: options.name }, options.name);
  const names = options.sets.map((s) => path.basename(path.resolve(s.dataset)));
  if (new Set(names).size < names.length) throw createError('E_SYN_BAD_REQUEST', `each --dataset may be given once: ${names.join(', ')}`);
  const config = () => (options.embedModels.length > 0 ? { embedModels: options.embedModels } : {});
  // The shipped default's share is always among those tried: the fit starts from it.
  const shares = [...new Set([...CHUNK_SHARES, DEFAULT_PROFILE.chunk_share])];
  const sets: SampleSet[] = [];
  for (const [i, set] of options.sets.entries()) {
    const ds = loadBeir(set.dataset, set.split);
    const queries = options.limit ? ds.queries.slice(0, options.limit) : ds.queries;
    log(`${ds.name}: ${ds.corpus.length} documents, ${queries.length} training queries (split ${set.split})`);
    const workDir = options.workDir && options.sets.length > 1 ? path.join(options.workDir, names[i]!) : options.workDir;
    sets.push(
      await withCorpusWorkspace(ds, { workDir, modelsDir: options.modelsDir, config, tempPrefix: 'synapsis-tune-', log }, async ({ engine, byPath, corpusDir }) => {
        const report = await engine.index([corpusDir]);
        log(`indexed ${report.chunks_total} chunks, ${report.embedded} embedded now`);
        // The share is applied inside each model's dense search, so the lists are gathered once per share tried
        // (the query vectors are computed once: the embedder keeps the last few); without an embedding model once.
        const gather: RetrievalProfile = { ...DEFAULT_PROFILE, name: 'gather', techniques: { long_query: null, lexical_prf: null, dense_prf: null, doc_score: null } };
        const dense = Boolean(engine.config.embedModels?.length);
        // A corpus with no sentence vectors (code, or every chunk a single sentence) ranks the same at every
        // share: its lists are gathered once and stand for all of them.
        const split = dense && (await engine.health()).models.embedders.some((e) => (e.sentences?.vectors ?? 0) > 0);
        const gathered = split ? shares : [DEFAULT_PROFILE.chunk_share];
        const samples: Sample[] = [];
        const t0 = performance.now();
        for (const q of queries) {
          const lists = new Map<string, GatheredLists>();
          const seen = new Map<string, RetrievedChunk>();
          let lexical: Pick<GatheredLists, 'lexical' | 'expansion'> | null = null;
          for (const share of gathered) {
            const got = slim((await engine.retrievalLists(q.text, { mode: dense ? 'hybrid' : 'bm25', use_graph: false }, DEPTH, { ...gather, chunk_share: share })).lists, seen);
            lexical ??= { lexical: got.lexical, expansion: got.expansion };
            lists.set(shareKey(share), { ...got, ...lexical });
          }
          for (const share of shares) if (!lists.has(shareKey(share))) lists.set(shareKey(share), lists.get(shareKey(gathered[0]!))!);
          samples.push({ lists, rel: new Map(ds.qrels.get(q.id)!) });
        }
        log(`gathered the lists of ${samples.length} queries in ${((performance.now() - t0) / 1000).toFixed(1)} s${dense && !split ? ' (once: no sentence vectors, every chunk_share ranks alike)' : ''}`);
        return { name: ds.name, samples, byPath };
      }),
    );
  }
  {
    {
      const samples = sets.flatMap((s) => s.samples);
      // Weights are keyed by the model's name without its quantisation suffix: a weight fitted on
      // all-MiniLM-L6-v2.Q8_0 applies to all-MiniLM-L6-v2.Q4_K_M and to the registry's all-MiniLM-L6-v2.
      const models = [...new Set(samples.flatMap((s) => [...s.lists.values()].flatMap((l) => l.denseLists.map((d) => modelKey(d.source.name)))))];

      const start: RetrievalProfile = { ...DEFAULT_PROFILE, name: options.name, depth: { lexical: 50, dense: 100 }, techniques: { ...DEFAULT_PROFILE.techniques, long_query: null, lexical_prf: null, dense_prf: null, doc_score: null } };
      const ndcgDefault = score(sets, { ...DEFAULT_PROFILE, techniques: { ...DEFAULT_PROFILE.techniques, dense_prf: null } });
      const weightGrid = [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3];
      const params: Param[] = [
        { name: 'fusion', values: ['rrf', 'weighted'], apply: (p, v) => ({ ...p, fusion: v as 'rrf' | 'weighted' }), show: String },
        { name: 'rrf_k', values: [5, 10, 20, 30, 45, 60, 90, 120], apply: (p, v) => ({ ...p, rrf_k: v as number }), show: String },
        { name: 'normalize', values: ['minmax', 'zscore'], apply: (p, v) => ({ ...p, normalize: v as 'minmax' | 'zscore' }), show: String },
        // Each list is fetched at least this deep at interactive k too: the lexical list stays at 50, the
        // most the lexical pruning serves within the latency target (a 100-deep OR query over 100k
        // chunks is not pruned and takes about twice as long); dense lists cost little more deeper.
        { name: 'depth.dense', values: [50, 100, 200], apply: (p, v) => ({ ...p, depth: { ...p.depth, dense: v as number } }), show: String },
        ...(models.length > 0 ? [{ name: 'chunk_share', values: shares, apply: (p, v) => ({ ...p, chunk_share: v as number | null }), show: String } satisfies Param] : []),
        ...models.map<Param>((m) => ({
          name: `weights.models.${m}`,
          values: weightGrid,
          apply: (p, v) => ({ ...p, weights: { ...p.weights, models: { ...p.weights.models, [m]: v as number } } }),
          show: String,
        })),
      ];
      const minGain = options.minGain ?? 0.001;
      const { best, score: bestScore, steps } = coordinateAscent(start, params, (p) => score(sets, p), minGain, log);
      const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
      // With several sets, each set's own fitted nDCG@10 too (ndcg_at_10:<name>): what synapsis eval on that split prints.
      const perSet = sets.length > 1 ? Object.fromEntries(sets.map((set) => [`ndcg_at_10:${set.name}`, round4(scoreSet(set.samples, best, set.byPath))])) : {};
      const splits = options.sets.map((s) => s.split);
      const profile = parseProfile(
        {
          ...best,
          description: `Fitted by synapsis tune on ${sets.map((set, i) => `${set.name} (${splits[i]}, ${set.samples.length} queries)`).join(' and ')} with ${models.length > 0 ? models.join(' + ') : 'no embedding model'}.`,
          produced_by:
            options.command ??
            `synapsis tune ${options.sets.map((s) => `--dataset ${s.dataset} --split ${s.split}`).join(' ')} --name ${options.name}${options.embedModels.map((m) => ` --embed-model ${m}`).join('')}`,
          fitted: { dataset: sets.map((set) => set.name).join('+'), split: splits.join('+'), queries: samples.length, ndcg_at_10: round4(bestScore), ndcg_at_10_default: round4(ndcgDefault), ...perSet },
        },
        options.name,
      );
      const file = saveProfile(options.saveDir, profile);
      const chunkShares = models.length > 0 ? Object.fromEntries(shares.map((share) => [shareKey(share), round4(score(sets, { ...best, chunk_share: share }))])) : {};
      if (models.length > 0) log(`chunk_share with the rest fitted: ${Object.entries(chunkShares).map(([k, v]) => `${k} ${v.toFixed(4)}`).join(', ')}`);
      return { profile, file, queries: samples.length, ndcg_default: round4(ndcgDefault), ndcg_fitted: round4(bestScore), steps, chunk_shares: chunkShares };
    }
  }
}
