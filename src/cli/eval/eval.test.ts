import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { loadBeir } from './beir.ts';
import { cli } from '../../../test/helpers/cli.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());


const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** Three documents, two judged queries: q1's answer ranks first, q2's answer second of two relevant. */
function tinyBeir() {
  return temp.make('syn-beir-', {
    'corpus.jsonl': jsonl([
      { _id: 'd1', title: 'Zebra migration', text: 'Zebras cross the river every year.' },
      { _id: 'd/2', title: 'Lion prides', text: 'Lions hunt zebras at the river at night.' },
      { _id: 'd3', title: 'Tea', text: 'Green tea is brewed at 80 degrees.' },
    ]),
    'queries.jsonl': jsonl([
      { _id: 'q1', text: 'how is green tea brewed' },
      { _id: 'q2', text: 'zebra river' },
      { _id: 'q3', text: 'unjudged query' },
    ]),
    'qrels/test.tsv': 'query-id\tcorpus-id\tscore\nq1\td3\t1\nq2\td1\t1\nq2\td/2\t1\n',
  });
}

describe('synapsis eval', () => {
  it('loads only judged queries and rejects what is not BEIR with a clear message', () => {
    const ds = loadBeir(tinyBeir(), 'test');
    expect(ds.queries.map((q) => q.id)).toEqual(['q1', 'q2']);
    expect(ds.qrels.get('q2')).toEqual(new Map([['d1', 1], ['d/2', 1]]));
    expect(() => loadBeir(tinyBeir(), 'dev')).toThrow(/qrels of split "dev"/);
    expect(() => loadBeir(temp.make('syn-empty-'), 'test')).toThrow(/Not a BEIR dataset/);
    const bad = temp.make('syn-badbeir-', { 'corpus.jsonl': '{"_id": "a"}\nnot json\n', 'queries.jsonl': '', 'qrels/test.tsv': 'q\ta\t1\n' });
    expect(() => loadBeir(bad, 'test')).toThrow(/corpus\.jsonl line 2 is not valid JSON/);
  });

  it('indexes the corpus as files and prints the metrics', async () => {
    const r = await cli(['eval', '--dataset', tinyBeir(), '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report).toMatchObject({ documents: 3, queries: 2, mode: 'bm25', split: 'test', recall_at_100: 1 });
    // Both queries find every relevant document in the top 5, so Recall@5 and MRR@10 are 1.
    expect(report.recall_at_5).toBe(1);
    expect(report.mrr_at_10).toBe(1);
    expect(report.ndcg_at_10).toBe(1);
    expect(report.latency_p95_ms).toBeGreaterThan(0);
    const missing = await cli(['eval', '--dataset', '/nonexistent/beir']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/E_SYN_BAD_REQUEST.*not a folder/);
    expect((await cli(['eval', '--dataset', tinyBeir(), '--mode', 'telepathy'])).code).toBe(2);
    // An option of answer evaluation without --answers is named, not dropped from a retrieval run.
    const stray = await cli(['eval', '--dataset', tinyBeir(), '--candidates']);
    expect(stray.code).toBe(2);
    expect(stray.err).toMatch(/E_SYN_BAD_REQUEST.*--candidates goes with --answers only/);
    const strays = await cli(['eval', '--vault', '/tmp', '--questions', 'q.json', '--no-unanswerable']);
    expect(strays.code).toBe(2);
    expect(strays.err).toMatch(/--vault, --questions, --no-unanswerable go with --answers only/);
  });

  it('a copied work dir keeps its corpus only: the old folder\'s documents are dropped, not ranked beside their copies', async () => {
    const dataset = tinyBeir();
    const work = temp.make('syn-eval-work-');
    const first = await cli(['eval', '--dataset', dataset, '--work-dir', work, '--json']);
    expect(first.code, first.err).toBe(0);
    const copy = temp.make('syn-eval-copy-');
    fs.cpSync(work, copy, { recursive: true });
    const again = await cli(['eval', '--dataset', dataset, '--work-dir', copy, '--json']);
    expect(again.code, again.err).toBe(0);
    expect(again.err).toContain(`removed 3 documents of another folder, ${fs.realpathSync(work)}/corpus`);
    expect(JSON.parse(again.out)).toMatchObject({ chunks: JSON.parse(first.out).chunks, ndcg_at_10: 1 });
  });
});

describe('synapsis search flags', () => {
  it('filters by type and tag, explains matches and rejects a bad --min-score', async () => {
    const vault = temp.make('syn-cli-search-', {
      'notes/Plan.md': '---\ntags: [roadmap]\n---\n# Launch plan\n\nThe launch is in May.\n',
      'code/launch.py': 'def launch():\n    return "launch"\n',
    });
    const dataDir = temp.make('syn-cli-data-');
    expect((await cli(['index', vault, '--data-dir', dataDir, '--quiet'])).code).toBe(0);
    const code = await cli(['search', 'launch', '--data-dir', dataDir, '--type', 'code', '--json']);
    expect(JSON.parse(code.out).chunks.map((c: { path: string }) => c.path)).toEqual(['code/launch.py']);
    const tagged = await cli(['search', 'launch', '--data-dir', dataDir, '--tag', 'roadmap', '--explain']);
    expect(tagged.out).toMatch(/^1\. notes\/Plan\.md#L4-L6/);
    expect(tagged.out).toMatch(/why: BM25 on stemmed terms; title: launch; heading: launch; body: launch/);
    expect(tagged.out).not.toContain('launch.py');
    expect((await cli(['search', 'launch', '--data-dir', dataDir, '--min-score', '-1'])).code).toBe(2);
  });
});
