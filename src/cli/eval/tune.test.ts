import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SHARED_DIR, TempDirs } from '../../../test/helpers/tmp.ts';
import { cli } from '../../../test/helpers/cli.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());
// A real GGUF whose vectors mean nothing: a dense list of noise that fitting must learn to trust less.
const NOISE = path.join(SHARED_DIR, 'models', 'stories260K.gguf');


const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const TOPICS = ['zebra', 'glacier', 'violin', 'pepper', 'rocket', 'coral', 'falcon', 'quartz', 'tulip', 'lantern', 'harbor', 'meteor'];

/** Twelve topics, two documents each (one about it, one that only mentions it); a query per topic. */
function beir(trainSplit = 'train') {
  const corpus = TOPICS.flatMap((t, i) => [
    { _id: `${t}-main`, title: `All about the ${t}`, text: `The ${t} is the subject here. Every ${t} fact: ${t} habits, ${t} history and ${t} care.` },
    { _id: `${t}-aside`, title: `Notes ${i}`, text: `A list of things, among them a ${t}, a ${TOPICS[(i + 1) % TOPICS.length]} and a chair.` },
  ]);
  const queries = TOPICS.map((t, i) => ({ _id: `q${i}`, text: `facts about the ${t} and its history` }));
  const qrels = (ids: number[]) => `query-id\tcorpus-id\tscore\n${ids.map((i) => `q${i}\t${TOPICS[i]}-main\t2\nq${i}\t${TOPICS[i]}-aside\t1\n`).join('')}`;
  return temp.make('syn-tune-beir-', {
    'corpus.jsonl': jsonl(corpus),
    'queries.jsonl': jsonl(queries),
    [`qrels/${trainSplit}.tsv`]: qrels([0, 1, 2, 3, 4, 5, 6, 7]),
    'qrels/test.tsv': qrels([8, 9, 10, 11]),
  });
}

describe('synapsis tune', () => {
  it('refuses test splits, fits a profile on train, and synapsis eval with it reproduces the fitted number', async () => {
    const dataset = beir();
    const home = temp.make('syn-tune-home-');
    const work = temp.make('syn-tune-work-');
    const refused = await cli(['tune', '--dataset', dataset, '--split', 'test', '--name', 'fit', '--data-dir', home]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/fits on training data only, not on split "test"/);
    expect((await cli(['tune', '--dataset', dataset, '--name', 'default', '--data-dir', home])).err).toMatch(/belongs to the shipped profile/);

    const tuned = await cli(['tune', '--dataset', dataset, '--split', 'train', '--name', 'fit', '--embed-model', NOISE, '--work-dir', work, '--data-dir', home, '--json']);
    expect(tuned.code, tuned.err).toBe(0);
    const report = JSON.parse(tuned.out);
    expect(report.file).toBe(path.join(home, 'profiles', 'fit.json'));
    const saved = JSON.parse(fs.readFileSync(report.file, 'utf8'));
    expect(saved).toMatchObject({ name: 'fit', fitted: { dataset: path.basename(dataset), split: 'train', queries: 8 } });
    expect(saved.produced_by).toMatch(/^synapsis tune .*--split train/);
    expect(report.ndcg_fitted).toBeGreaterThanOrEqual(report.ndcg_default);

    // The engine fuses exactly as tune scored: the same split through synapsis eval gives the fitted nDCG@10.
    const again = await cli(['eval', '--dataset', dataset, '--split', 'train', '--mode', 'hybrid', '--embed-model', NOISE, '--profile', 'fit', '--work-dir', work, '--data-dir', home, '--json']);
    expect(again.code, again.err).toBe(0);
    const evaluated = JSON.parse(again.out);
    expect(evaluated.profile).toBe('fit');
    expect(evaluated.ndcg_at_10).toBeCloseTo(report.ndcg_fitted, 4);

    // chunk_share is fitted too: each share tried was scored on lists gathered with that share, so eval with
    // the fitted profile at another share prints the number tune listed for it, and none beats the fit.
    expect(Object.keys(report.chunk_shares).sort()).toEqual(['0', '0.1', '0.2', '0.3', '0.5', 'best']);
    expect(report.chunk_shares[saved.chunk_share === null ? 'best' : String(saved.chunk_share)]).toBeCloseTo(report.ndcg_fitted, 4);
    for (const v of Object.values(report.chunk_shares) as number[]) expect(v).toBeLessThan(report.ndcg_fitted + 0.001);
    // With nothing allowed to move (--min-gain 1) the noise list keeps weight 1, and there the share changes the
    // ranking: tune's number for each share is what eval prints with that share.
    const still = JSON.parse((await cli(['tune', '--dataset', dataset, '--split', 'train', '--name', 'still', '--min-gain', '1', '--embed-model', NOISE, '--work-dir', work, '--data-dir', home, '--json'])).out);
    expect(still.steps).toEqual([]);
    expect(new Set(Object.values(still.chunk_shares)).size).toBeGreaterThan(1);
    for (const share of [null, 0.5]) {
      const file = path.join(work, `still-${share}.json`);
      fs.writeFileSync(file, JSON.stringify({ ...still.profile, name: `still-${share}`, chunk_share: share }));
      const r = await cli(['eval', '--dataset', dataset, '--split', 'train', '--mode', 'hybrid', '--embed-model', NOISE, '--profile', file, '--work-dir', work, '--data-dir', home, '--json']);
      expect(r.code, r.err).toBe(0);
      expect(JSON.parse(r.out).ndcg_at_10).toBeCloseTo(still.chunk_shares[share === null ? 'best' : String(share)], 4);
    }

    const unknown = await cli(['eval', '--dataset', dataset, '--mode', 'hybrid', '--embed-model', NOISE, '--profile', 'nosuch', '--data-dir', home]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/No retrieval profile "nosuch".*known: default, fit/);
  }, 120_000);

  it('fits on several datasets together (each split its own), recording each set\'s fitted number, which eval reproduces', async () => {
    const a = beir();
    const b = beir('dev');
    const home = temp.make('syn-tune-home-');
    const work = temp.make('syn-tune-work-');
    const mismatch = await cli(['tune', '--dataset', a, '--dataset', b, '--split', 'train', '--split', 'dev', '--split', 'x', '--name', 'fit', '--data-dir', home]);
    expect(mismatch.code).toBe(2);
    expect(mismatch.err).toMatch(/2 --dataset but 3 --split/);
    const refused = await cli(['tune', '--dataset', a, '--dataset', b, '--split', 'train', '--split', 'test', '--name', 'fit', '--data-dir', home]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/not on split "test"/);

    const tuned = await cli(['tune', '--dataset', a, '--split', 'train', '--dataset', b, '--split', 'dev', '--name', 'both', '--embed-model', NOISE, '--work-dir', work, '--data-dir', home, '--json']);
    expect(tuned.code, tuned.err).toBe(0);
    const report = JSON.parse(tuned.out);
    expect(report.queries).toBe(16);
    const saved = JSON.parse(fs.readFileSync(report.file, 'utf8'));
    const [na, nb] = [path.basename(a), path.basename(b)];
    expect(saved.fitted).toMatchObject({ dataset: `${na}+${nb}`, split: 'train+dev', queries: 16 });
    expect(saved.produced_by).toContain(`--dataset ${a} --split train --dataset ${b} --split dev`);
    // Each dataset kept its own workspace inside the work dir; the fit is the mean of the two sets.
    expect(fs.existsSync(path.join(work, na, 'data'))).toBe(true);
    expect(fs.existsSync(path.join(work, nb, 'data'))).toBe(true);
    const fa = saved.fitted[`ndcg_at_10:${na}`] as number;
    const fb = saved.fitted[`ndcg_at_10:${nb}`] as number;
    expect(saved.fitted.ndcg_at_10).toBeCloseTo((fa + fb) / 2, 3);
    for (const [dataset, split, fitted] of [[a, 'train', fa], [b, 'dev', fb]] as const) {
      const r = await cli(['eval', '--dataset', dataset, '--split', split, '--mode', 'hybrid', '--embed-model', NOISE, '--profile', report.file, '--work-dir', path.join(work, path.basename(dataset)), '--data-dir', home, '--json']);
      expect(r.code, r.err).toBe(0);
      expect(JSON.parse(r.out).ndcg_at_10).toBeCloseTo(fitted, 4);
    }
  }, 180_000);

  it('gathers a code corpus once (no sentence vectors): every chunk_share scores alike', async () => {
    const fns = ['parse_date', 'read_file', 'sort_items', 'merge_maps', 'send_mail', 'hash_text'];
    const dataset = temp.make('syn-tune-code-', {
      'corpus.jsonl': jsonl(fns.map((f) => ({ _id: f, title: '', text: `def ${f}(value):\n    """${f.replace('_', ' ')} of the value."""\n    return value\n` }))),
      'queries.jsonl': jsonl(fns.map((f, i) => ({ _id: `q${i}`, text: `how to ${f.replace('_', ' ')} in python` }))),
      'qrels/train.tsv': `query-id\tcorpus-id\tscore\n${fns.map((f, i) => `q${i}\t${f}\t1\n`).join('')}`,
    });
    const r = await cli(['tune', '--dataset', dataset, '--split', 'train', '--name', 'code', '--embed-model', NOISE, '--work-dir', temp.make('syn-tune-work-'), '--data-dir', temp.make('syn-tune-home-'), '--json']);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('gathered the lists of 6 queries');
    expect(r.err).toContain('(once: no sentence vectors, every chunk_share ranks alike)');
    const report = JSON.parse(r.out);
    expect(Object.keys(report.chunk_shares).sort()).toEqual(['0', '0.1', '0.2', '0.3', '0.5', 'best']);
    expect(new Set(Object.values(report.chunk_shares)).size).toBe(1);
  }, 120_000);

  it('synapsis quality prints the ablation table: baselines, the default profile and each technique switched', async () => {
    const r = await cli(['quality', '--dataset', beir(), '--embed-model', NOISE, '--work-dir', temp.make('syn-quality-'), '--json']);
    expect(r.code, r.err).toBe(0);
    const rows = JSON.parse(r.out) as { variant: string; ndcg_at_10: number; recall_at_100: number; latency_p95_ms: number; queries: number }[];
    const variants = rows.map((row) => row.variant);
    expect(variants[0]).toBe('BM25 alone');
    expect(variants).toEqual(expect.arrayContaining(['default profile', 'dense alone: stories260K', 'plain RRF k=60: BM25 + stories260K']));
    expect(variants.some((v) => /lexical PRF/.test(v))).toBe(true);
    expect(variants.some((v) => /dense PRF/.test(v))).toBe(true);
    expect(variants.some((v) => /document/.test(v))).toBe(true);
    expect(variants.some((v) => /long queries/.test(v))).toBe(true);
    expect(variants.some((v) => /chunk score = the better of its vector and its best sentence/.test(v))).toBe(true);
    for (const row of rows) {
      expect(row.queries).toBe(4);
      expect(row.ndcg_at_10).toBeGreaterThanOrEqual(0);
      expect(row.ndcg_at_10).toBeLessThanOrEqual(1);
      expect(row.latency_p95_ms).toBeGreaterThan(0);
    }
    // Noise alone ranks worse than the words do.
    const score = (v: string) => rows.find((row) => row.variant === v)!.ndcg_at_10;
    expect(score('BM25 alone')).toBeGreaterThan(score('dense alone: stories260K'));
  }, 180_000);
});
