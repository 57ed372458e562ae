import fs from 'node:fs';
import path from 'node:path';
import { createError } from '../../shared/errors.ts';
import type { Judgements } from './metrics.ts';

/** A dataset in BEIR layout: corpus.jsonl, queries.jsonl and qrels/<split>.tsv. */
export interface BeirDataset {
  name: string;
  corpus: { id: string; title: string; text: string }[];
  /** Only the queries judged in the split, in file order. */
  queries: { id: string; text: string }[];
  qrels: Map<string, Judgements>;
}

function readText(file: string, what: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'it does not exist' : e.message;
    throw createError('E_SYN_BAD_REQUEST', `Not a BEIR dataset: cannot read ${what} ${file} (${why})`);
  }
}

function* jsonLines(file: string, what: string): Generator<Record<string, unknown>> {
  const lines = readText(file, what).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw createError('E_SYN_BAD_REQUEST', `${file} line ${i + 1} is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof value !== 'object' || value === null || typeof (value as { _id?: unknown })._id !== 'string') {
      throw createError('E_SYN_BAD_REQUEST', `${file} line ${i + 1}: expected an object with a string "_id"`);
    }
    yield value as Record<string, unknown>;
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function loadBeir(dir: string, split: string): BeirDataset {
  const root = path.resolve(dir);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) {
    throw createError('E_SYN_BAD_REQUEST', `Not a BEIR dataset: ${root} is not a folder`);
  }
  if (!/^[\w.-]+$/.test(split)) throw createError('E_SYN_BAD_REQUEST', `Bad split name ${JSON.stringify(split)}`);

  const qrels = new Map<string, Map<string, number>>();
  const qrelFile = path.join(root, 'qrels', `${split}.tsv`);
  const rows = readText(qrelFile, `the qrels of split "${split}"`).split('\n');
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!.trim();
    if (!row) continue;
    const cols = row.split('\t');
    if (i === 0 && cols[0] === 'query-id') continue;
    const grade = Number(cols[2]);
    if (cols.length < 3 || !Number.isFinite(grade)) {
      throw createError('E_SYN_BAD_REQUEST', `${qrelFile} line ${i + 1}: expected "query-id<TAB>corpus-id<TAB>score"`);
    }
    let m = qrels.get(cols[0]!);
    if (!m) qrels.set(cols[0]!, (m = new Map()));
    m.set(cols[1]!, grade);
  }

  const corpus = [...jsonLines(path.join(root, 'corpus.jsonl'), 'the corpus')].map((d) => ({
    id: d._id as string,
    title: str(d.title),
    text: str(d.text),
  }));
  const queries = [...jsonLines(path.join(root, 'queries.jsonl'), 'the queries')]
    .filter((q) => qrels.has(q._id as string))
    .map((q) => ({ id: q._id as string, text: str(q.text) }));
  if (corpus.length === 0) throw createError('E_SYN_BAD_REQUEST', `${root}/corpus.jsonl holds no documents`);
  if (queries.length === 0) throw createError('E_SYN_BAD_REQUEST', `No query in ${root}/queries.jsonl is judged in split "${split}"`);
  return { name: path.basename(root), corpus, queries, qrels };
}
