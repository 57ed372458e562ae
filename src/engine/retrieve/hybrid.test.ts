import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import type { RetrievedChunk } from '../../shared/contract.ts';
import { createEngine } from '../engine.ts';
import { fuseLists, orderByDocument, withoutCommonWords, type DenseSource } from './hybrid.ts';
import { parseProfile } from './profile.ts';
import { buildFtsQuery } from '../search/fts-query.ts';
import type { LexicalResult } from '../search/lexical.ts';
import { asReadConnection } from '../store/connection.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe('retrieval pipeline', () => {
  it('keeps chunks that share a locator apart: a long line split in pieces yields distinct results with their own scores', async () => {
    // One line far longer than a chunk: the chunker cuts it into pieces that all point at line 3.
    const words = Array.from({ length: 900 }, (_, i) => (i === 10 ? 'zebrafish' : i === 700 ? 'zebrafish zebrafish okapi' : `w${i % 50}`));
    const root = temp.make('syn-pipe-', { 'long.md': `# Long\n\n${words.join(' ')}\n` });
    const engine = createEngine({ dataDir: temp.make('syn-pipe-data-'), env: {} });
    try {
      await engine.index([root]);
      const result = await engine.retrieve('zebrafish okapi', { mode: 'bm25' }, 10);
      const ids = result.chunks.map((c) => c.chunk_id);
      expect(result.chunks.length).toBeGreaterThanOrEqual(2);
      expect(new Set(result.chunks.map((c) => c.locator)).size).toBe(1);
      expect(new Set(ids).size).toBe(ids.length);
      // Best first, and the piece holding both words outranks the one holding one.
      expect(result.chunks[0]!.text).toContain('okapi');
      expect(result.chunks[0]!.score).toBeGreaterThan(result.chunks[1]!.score);
    } finally {
      await engine.dispose();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Retrieval profiles: document scoring, long queries and fusion of gathered lists.

type Chunk = RetrievedChunk;

/** A minimal retrieved chunk: id, document and score are all fusion and grouping look at. */
const chunk = (id: number, doc: string, score: number): Chunk => ({
  chunk_id: id,
  doc_id: doc,
  locator: `${doc}.md:${id}`,
  path: `${doc}.md`,
  root: '/vault',
  title: doc,
  heading: null,
  start_line: id,
  end_line: id,
  text: `text of chunk ${id}`,
  snippet: '',
  score,
  tags: {},
});

const lexicalOf = (chunks: Chunk[]): LexicalResult => ({ chunks, query: buildFtsQuery('x'), candidates: chunks.length, filtered: 0, trigramUsed: false, pruned: false, highlight: new Map() });
const source = (name: string): DenseSource => ({ name, languages: ['*'], index: {} as never });
const ids = (chunks: readonly Chunk[]) => chunks.map((c) => c.chunk_id);

describe('orderByDocument', () => {
  // Fused order, documents interleaved: A has one strong chunk (and a weak one), B three good ones.
  const fused = [chunk(1, 'A', 1.0), chunk(2, 'B', 0.95), chunk(3, 'C', 0.92), chunk(4, 'B', 0.9), chunk(5, 'A', 0.3), chunk(6, 'B', 0.85)];

  it('with tail 0 ranks documents by their best chunk, the chunks of each grouped behind its best one', () => {
    expect(ids(orderByDocument(fused, 0))).toEqual([1, 5, 2, 4, 6, 3]);
  });

  it('with a large enough tail a document with several good chunks overtakes one with a slightly better single chunk', () => {
    // B: 0.95 + 0.5 · (0.9 + 0.85) = 1.825; A: 1.0 + 0.5 · 0.3 = 1.15; C: 0.92.
    const ordered = orderByDocument(fused, 0.5);
    expect(ids(ordered)).toEqual([2, 4, 6, 1, 5, 3]);
    // Scores are the document's, made strictly decreasing along the order, so a later sort by score keeps it.
    const scores = ordered.map((c) => c.score);
    expect(scores[0]).toBe(1.825);
    expect(scores[3]).toBe(1.15);
    expect(scores[5]).toBe(0.92);
    for (let i = 1; i < scores.length; i++) expect(scores[i]!).toBeLessThan(scores[i - 1]!);
    expect([...ordered].sort((a, b) => b.score - a.score).map((c) => c.chunk_id)).toEqual(ids(ordered));
    // A small tail is not enough: B = 0.95 + 0.02 · 1.75 = 0.985 < A = 1.006.
    expect(ids(orderByDocument(fused, 0.02))).toEqual([1, 5, 2, 4, 6, 3]);
  });

  it('counts only the next two chunks of a document after its best', () => {
    const d = [chunk(1, 'D', 0.6), chunk(2, 'D', 0.5), chunk(3, 'D', 0.5), chunk(4, 'D', 0.5)];
    // D = 0.6 + 1 · (0.5 + 0.5) = 1.6: the fourth chunk would have made it 2.1 and beaten E.
    const ordered = orderByDocument([chunk(9, 'E', 1.65), ...d], 1);
    expect(ids(ordered)).toEqual([9, 1, 2, 3, 4]);
  });

  it('keeps a document\'s chunks together when documents tie or one has many chunks close to a rival', () => {
    // Two documents with equal scores: their chunks do not interleave, and the first seen leads.
    expect(ids(orderByDocument([chunk(1, 'A', 1), chunk(2, 'B', 1), chunk(3, 'A', 0.5), chunk(4, 'B', 0.5)], 0.5))).toEqual([1, 3, 2, 4]);
    // RRF-sized scores: A's 31 chunks stay ahead of B as a block (a sliver per place would have let B in).
    const many = [chunk(1, 'A', 0.033), ...Array.from({ length: 30 }, (_, i) => chunk(10 + i, 'A', 0.01)), chunk(99, 'B', 0.03298)];
    const ordered = orderByDocument(many, 0);
    expect(ordered.findIndex((c) => c.doc_id === 'B')).toBe(31);
    expect([...ordered].sort((a, b) => b.score - a.score).map((c) => c.chunk_id)).toEqual(ids(ordered));
  });

  it('keeps every field but the score, and returns nothing for nothing', () => {
    const [first] = orderByDocument([chunk(7, 'A', 0.4)], 0.5);
    expect(first).toEqual({ ...chunk(7, 'A', 0.4), score: 0.4 });
    expect(orderByDocument([], 0.5)).toEqual([]);
  });
});

describe('withoutCommonWords', () => {
  // Ten notes that all say "system data"; four rarer words, each in one note.
  const rare = ['quantum', 'entanglement', 'photon', 'laser'];
  const vaultFiles = Object.fromEntries(
    Array.from({ length: 10 }, (_, i) => [`n${i}.md`, `# Note ${i}\n\nThe system stores data. ${rare[i] ?? ''}\n`]),
  );
  let engine: ReturnType<typeof createEngine>;
  let db: Database;

  beforeAll(async () => {
    const dataDir = temp.make('syn-common-data-');
    engine = createEngine({ dataDir, env: { SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' } });
    await engine.index([temp.make('syn-common-', vaultFiles)]);
    db = new BetterSqlite3(path.join(dataDir, 'synapsis.db'), { readonly: true });
  });
  afterAll(async () => {
    db?.close();
    await engine?.dispose();
  });

  it('drops the common words of a long query', () => {
    expect(withoutCommonWords(asReadConnection(db), 'Quantum system data entanglement', 4, 1)).toBe('Quantum entanglement');
    // Stopwords are not counted as words, and do not come back.
    expect(withoutCommonWords(asReadConnection(db), 'the quantum system of the data and entanglement', 4, 1)).toBe('quantum entanglement');
  });

  it('keeps every word that is rare enough, however many', () => {
    expect(withoutCommonWords(asReadConnection(db), 'quantum entanglement photon laser system', 4, 1)).toBe('quantum entanglement photon laser');
  });

  it('keeps at least half of the words, the rarest', () => {
    const kept = withoutCommonWords(asReadConnection(db), 'system data stores quantum', 4, 1);
    expect(kept.split(' ')).toHaveLength(2);
    expect(kept.split(' ')).toContain('quantum');
    expect(withoutCommonWords(asReadConnection(db), 'system data stores note photon', 4, 1).split(' ')).toHaveLength(3);
  });

  it('leaves short queries, quoted phrases and prefix queries as they are', () => {
    expect(withoutCommonWords(asReadConnection(db), 'system data quantum', 4, 1)).toBe('system data quantum');
    expect(withoutCommonWords(asReadConnection(db), '"system data" quantum entanglement', 4, 1)).toBe('"system data" quantum entanglement');
    expect(withoutCommonWords(asReadConnection(db), 'syst* data quantum entanglement', 4, 1)).toBe('syst* data quantum entanglement');
  });
});

describe('fuseLists', () => {
  // Four chunks; d is fourth in every list.
  const [a, b, c, d, e] = [chunk(1, 'A', 9), chunk(2, 'B', 8), chunk(3, 'C', 7), chunk(4, 'D', 6), chunk(5, 'E', 5)];
  const gathered = (expansion: Chunk[] | null = null) => ({
    lexical: lexicalOf([a, b, c, d].map((x, i) => ({ ...x, score: 10 - i }))),
    expansion,
    denseLists: [
      { source: source('bge-m3'), chunks: [b, c, a, d].map((x, i) => ({ ...x, score: 0.9 - i / 10 })) },
      { source: source('e5-small'), chunks: [c, b, a, d].map((x, i) => ({ ...x, score: 0.8 - i / 10 })) },
    ],
    useLexical: true,
  });
  const rrf = { fusion: 'rrf' as const };
  const prof = (over: Record<string, unknown> = {}) => parseProfile({ name: 'test', ...over }, 'test');

  it('fuses the lexical and both dense lists by RRF, every list weighted 1 (hand-computed)', () => {
    const out = fuseLists(gathered(), prof(), rrf);
    // b: 1/62 + 1/61 + 1/62; c: 1/63 + 1/62 + 1/61; a: 1/61 + 1/63 + 1/63; d: 3/64.
    expect(ids(out.chunks)).toEqual([2, 3, 1, 4]);
    expect(out.chunks[0]!.score).toBeCloseTo(2 / 62 + 1 / 61, 6);
    expect(out.chunks[3]!.score).toBeCloseTo(3 / 64, 6);
    expect(out.hybridUsed).toBe(true);
    expect(out.fusedScores).toBe(true);
    // Ranks for explain: the lexical rank and the best rank among the dense lists.
    expect(out.chunks.find((x) => x.chunk_id === 1)!.ranks).toEqual({ lexical: 1, dense: 3 });
    expect(out.chunks.find((x) => x.chunk_id === 3)!.ranks).toEqual({ lexical: 3, dense: 1 });
  });

  it('weights change the order: the lexical weight, the dense weight, and a model weight by name', () => {
    expect(ids(fuseLists(gathered(), prof({ weights: { lexical: 5 } }), rrf).chunks)).toEqual([1, 2, 3, 4]);
    expect(ids(fuseLists(gathered(), prof({ weights: { models: { 'e5-small': 5 } } }), rrf).chunks)).toEqual([3, 2, 1, 4]);
    // Dense lists silenced: the lexical order.
    expect(ids(fuseLists(gathered(), prof({ weights: { dense: 0 } }), rrf).chunks)).toEqual([1, 2, 3, 4]);
    // Lexical silenced, bge-m3 (by prefix) made to lead.
    expect(ids(fuseLists(gathered(), prof({ weights: { lexical: 0, models: { BGE: 3 } } }), rrf).chunks)).toEqual([2, 3, 1, 4]);
  });

  it('takes the RRF k from the options over the profile', () => {
    const withK = fuseLists(gathered(), prof({ rrf_k: 10 }), { fusion: 'rrf', rrfK: 0 });
    // k = 0: b = 1/2 + 1 + 1/2 = 2.
    expect(withK.chunks[0]).toMatchObject({ chunk_id: 2, score: 2 });
    expect(fuseLists(gathered(), prof({ rrf_k: 0 }), rrf).chunks[0]!.score).toBe(2);
  });

  it('counts only the best `depth` candidates of each list', () => {
    expect(ids(fuseLists(gathered(), prof({ depth: { lexical: 3, dense: 3 } }), rrf).chunks)).toEqual([2, 3, 1]);
    // a is third in both dense lists: with dense depth 2 it keeps its lexical term only, and falls behind.
    const shallow = fuseLists(gathered(), prof({ depth: { lexical: 100, dense: 2 } }), rrf);
    expect(ids(shallow.chunks)).toEqual([2, 3, 1, 4]);
    expect(shallow.chunks.find((x) => x.chunk_id === 1)!.score).toBeCloseTo(1 / 61, 6);
    // d is fourth in the lexical list only once dense depth cuts it: it stays, with its lexical term.
    expect(shallow.chunks.find((x) => x.chunk_id === 4)!.score).toBeCloseTo(1 / 64, 6);
  });

  it('keeps a single list whole, whatever its depth, with its own scores', () => {
    const single = fuseLists({ ...gathered(), denseLists: [] }, prof({ depth: { lexical: 1, dense: 1 } }), rrf);
    expect(ids(single.chunks)).toEqual([1, 2, 3, 4]);
    expect(single.chunks.map((x) => x.score)).toEqual([10, 9, 8, 7]);
    expect(single.hybridUsed).toBe(false);
    expect(single.fusedScores).toBe(false);
  });

  it('uses the lexical_prf expansion list only when the profile has lexical_prf with a weight above 0', () => {
    // The expansion found e (no other list did) first, then c.
    const expansion = [e, c].map((x, i) => ({ ...x, score: 5 - i }));
    const without = ids(fuseLists(gathered(expansion), prof(), rrf).chunks);
    expect(without).toEqual([2, 3, 1, 4]);
    const zero = prof({ techniques: { lexical_prf: { docs: 3, terms: 5, weight: 0 } } });
    expect(ids(fuseLists(gathered(expansion), zero, rrf).chunks)).toEqual(without);

    const used = fuseLists(gathered(expansion), prof({ techniques: { lexical_prf: { docs: 3, terms: 5, weight: 3 } } }), rrf);
    // c: 1/63 + 1/62 + 1/61 + 3/62 leads; e: 3/61 only; b, a, d without the expansion.
    expect(ids(used.chunks)).toEqual([3, 5, 2, 1, 4]);
    expect(used.chunks[1]!.score).toBeCloseTo(3 / 61, 6);
    expect(used.chunks[1]!.ranks).toEqual({});
  });

  it('doc_score sum reorders the fused chunks by document', () => {
    // a and c in one document: X = c + a > Y = b once the tail counts.
    const sameDoc = (x: Chunk) => (x.chunk_id === 1 || x.chunk_id === 3 ? { ...x, doc_id: 'X' } : x);
    const g = gathered();
    const lists = {
      ...g,
      lexical: lexicalOf(g.lexical.chunks.map(sameDoc)),
      denseLists: g.denseLists.map((l) => ({ ...l, chunks: l.chunks.map(sameDoc) })),
    };
    expect(ids(fuseLists(lists, prof(), rrf).chunks)).toEqual([2, 3, 1, 4]);
    expect(ids(fuseLists(lists, prof({ techniques: { doc_score: { kind: 'sum', tail: 1 } } }), rrf).chunks)).toEqual([3, 1, 2, 4]);
    // A tail of 0 ranks documents by their best chunk: b still leads, a joins c behind it.
    expect(ids(fuseLists(lists, prof({ techniques: { doc_score: { kind: 'sum', tail: 0 } } }), rrf).chunks)).toEqual([2, 3, 1, 4]);
  });

  it('weighted fusion uses the fitted weights of a weighted profile', () => {
    const weighted = { fusion: 'weighted' as const };
    // Min-max per list: lexical a 1, b 2/3, c 1/3, d 0; lexical weight 10 makes its order win.
    expect(ids(fuseLists(gathered(), prof({ fusion: 'weighted', weights: { lexical: 10 } }), weighted).chunks)).toEqual([1, 2, 3, 4]);
    expect(ids(fuseLists(gathered(), prof({ fusion: 'weighted', weights: { lexical: 0, models: { 'e5-small': 10 } } }), weighted).chunks)).toEqual([3, 2, 1, 4]);
  });
});
