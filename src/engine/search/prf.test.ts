import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import type { RetrievedChunk } from '../../shared/contract.ts';
import { createEngine, type Engine } from '../engine.ts';
import { expansionTerms } from './prf.ts';
import { asReadConnection } from '../store/connection.ts';

const temp = new TempDirs();
const noModels = { env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } as NodeJS.ProcessEnv };

// Three notes about volcanoes (the feedback for the query "volcano") and eight about gardens.
// In every volcano note: lava three times, crater and magma once, "report" twice (also in every
// garden note, so common in the index), stopwords and a year. Pumice is in one volcano note only.
const VAULT: Record<string, string> = {
  'v1.md': '# Etna\n\nThe volcano report about 2024: lava lava lava, a crater, magma which rises. Pumice there. Report.\n',
  'v2.md': '# Fuji\n\nA volcano report about 2024: lava lava lava, the crater, magma which cools there. Report.\n',
  'v3.md': '# Hekla\n\nThis volcano report about 2024: lava lava lava, one crater, magma which flows there. Report.\n',
  ...Object.fromEntries(
    ['tomato', 'basil', 'carrot', 'lettuce', 'pepper', 'onion', 'radish', 'squash'].map((plant) => [`g-${plant}.md`, `# ${plant}\n\nGarden report: the ${plant} grows in spring soil.\n`]),
  ),
};

let engine: Engine;
let db: Database;
let feedback: RetrievedChunk[];
let queryTerms: string[];

beforeAll(async () => {
  const vault = temp.make('syn-prf-vault-', VAULT);
  const dataDir = temp.make('syn-prf-data-');
  engine = createEngine({ dataDir, ...noModels });
  await engine.index([vault]);
  const result = await engine.retrieve('volcano', { mode: 'bm25' }, 10);
  feedback = result.chunks;
  queryTerms = result.meta.terms;
  // A second, read-only connection to the engine's store (it holds the lexical index chunks_fts).
  db = new BetterSqlite3(path.join(dataDir, 'synapsis.db'), { readonly: true });
});

afterAll(async () => {
  db?.close();
  await engine?.dispose();
  temp.cleanup();
});

describe('expansionTerms', () => {
  it('has the three volcano notes as feedback (the fixture works as intended)', () => {
    expect(feedback.map((c) => c.path).sort()).toEqual(['v1.md', 'v2.md', 'v3.md']);
    expect(queryTerms).toEqual(['volcano']);
  });

  it('favours words frequent in the feedback chunks, then rare in the index', () => {
    const terms = expansionTerms(asReadConnection(db), feedback, queryTerms, 20);
    // lava (3 per chunk) before crater and magma (1 per chunk, same idf); report (2 per chunk) is
    // in every chunk of the index, so its idf is next to nothing and it comes after them.
    expect(terms[0]).toBe('lava');
    expect(terms.slice(1, 3).sort()).toEqual(['crater', 'magma']);
    expect(terms).toContain('report');
    expect(terms.indexOf('report')).toBeGreaterThan(terms.indexOf('magma'));
    expect(terms.indexOf('report')).toBeGreaterThan(terms.indexOf('crater'));
  });

  it('leaves out the query terms, stopwords and pure digits', () => {
    const terms = expansionTerms(asReadConnection(db), feedback, queryTerms, 50);
    expect(terms).not.toContain('volcano');
    for (const stop of ['the', 'about', 'which', 'there', 'this', 'one']) expect(terms).not.toContain(stop);
    expect(terms).not.toContain('2024');
    expect(terms.every((t) => !/^\d+$/.test(t))).toBe(true);
    // Without the query terms to skip, the query word itself is the best expansion.
    expect(expansionTerms(asReadConnection(db), feedback, [], 50)).toContain('volcano');
  });

  it('leaves out a term found in only one of several feedback chunks', () => {
    expect(expansionTerms(asReadConnection(db), feedback, queryTerms, 50)).not.toContain('pumice');
    // With that one chunk as the only feedback, the term qualifies.
    const v1 = feedback.find((c) => c.path === 'v1.md')!;
    expect(expansionTerms(asReadConnection(db), [v1], queryTerms, 50)).toContain('pumice');
  });

  it('returns at most `count` terms, the best ones', () => {
    const all = expansionTerms(asReadConnection(db), feedback, queryTerms, 50);
    expect(all.length).toBeGreaterThan(2);
    expect(expansionTerms(asReadConnection(db), feedback, queryTerms, 2)).toEqual(all.slice(0, 2));
    expect(expansionTerms(asReadConnection(db), feedback, queryTerms, 1)).toEqual(['lava']);
  });

  it('returns nothing for no feedback', () => {
    expect(expansionTerms(asReadConnection(db), [], queryTerms, 10)).toEqual([]);
  });
});
