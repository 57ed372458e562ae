import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSourceFiles, scanSql } from './sql-scan.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * Every piece of SQL text that is not a literal, with why it cannot carry user input. Values always
 * travel as bound parameters (`?`, `@name`); what is interpolated here are fixed fragments chosen
 * by the code. A new interpolation fails this test until it is added with its reason.
 */
const ALLOWED: Record<string, string> = {
  'src/engine/store/queries/fts.ts prepare table': "FTS5 table name; every caller passes a literal ('chunks_fts'), and phraseStats's is typed as a key of its PHRASE_TABLES ('chunks_fts' | 'chunks_tri')",
  'src/engine/store/fts-totals.ts prepare table': "FTS5 table name, typed FtsTable ('chunks_fts' | 'chunks_tri'); every caller passes a literal (checked below)",
  'src/engine/store/queries/fts.ts prepare vocabTable': "fts5vocab table name; every caller passes a literal ('temp.chunks_vocab')",
  'src/engine/store/queries/fts.ts prepare weights': "the numeric module constants BM25_WEIGHTS (column weights), joined; in phraseStats PHRASE_TABLES' fixed text of them (or nothing, for chunks_tri)",
  'src/engine/store/queries/fts.ts prepare amongRows(hits, ids.length)': "amongRows returns one of two literals ('rowid' or '+rowid'), chosen by two counts",
  'src/engine/store/queries/fts.ts prepare amongRows(hits, hidden.length)': "amongRows returns one of two literals ('rowid' or '+rowid'), chosen by two counts",
  'src/engine/store/queries/fts.ts prepare where': "filterSql's fixed WHERE fragments; the allowed sensitivities are bound as @allowed, path/type/tag filters run in the syn_filter function over column values",
  'src/engine/store/queries/fts.ts prepare hiddenClause': 'a literal: the check that leaves out hidden chunks (their ids bound as @hidden), or nothing when none is hidden',
  'src/engine/store/queries/fts.ts prepare CHUNK_ROW_SELECT': 'a module constant: the column list of a result row',
  'src/engine/store/queries/chunks.ts prepare CHUNK_ROW_SELECT': 'a module constant: the column list of a result row',
  'src/engine/store/queries/chunks.ts prepare where': "filterSql's fixed WHERE fragments (see 'fts.ts prepare where')",
  'src/engine/store/queries/chunks.ts prepare allowedChunksSql(where)': "filterSql's fixed WHERE fragments (see 'fts.ts prepare where') inside a fixed join",
  "src/engine/store/queries/documents.ts prepare visibleSql(policy, 'd')": 'the sensitivity policy (store/visibility.ts): a fixed fragment over a literal alias; the allowed labels are bound as @allowed',
  "src/engine/store/queries/documents.ts prepare hiddenSql('')": 'the sensitivity policy (store/visibility.ts): a fixed fragment over a literal alias; the allowed labels are bound as @allowed',
  "src/engine/store/queries/documents.ts prepare hiddenSql('d')": 'the sensitivity policy (store/visibility.ts): a fixed fragment over a literal alias; the allowed labels are bound as @allowed',
  'src/engine/store/queries/graph.ts prepare visibleSql(policy)': 'the sensitivity policy (store/visibility.ts): a fixed fragment over the literal alias d; the allowed labels are bound as @allowed',
  "src/engine/store/queries/graph.ts prepare order === 'first' ? 'ASC' : 'DESC'": 'one of two literal sort directions, chosen by a typed parameter',
  'src/engine/store/queries/graph.ts prepare adjacencySql(policy)': 'three fixed branches (literal WHERE clauses over bound @ids) joined by UNION, each with the sensitivity policy fragment',
  'src/engine/store/queries/graph.ts prepare BM25_WEIGHTS.title': 'a numeric module constant (column weight)',
  'src/engine/store/queries/graph.ts prepare BM25_WEIGHTS.heading': 'a numeric module constant (column weight)',
  'src/engine/store/queries/graph.ts prepare BM25_WEIGHTS.body': 'a numeric module constant (column weight)',
  "src/engine/store/queries/graph-facts.ts prepare Array(rows).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')": 'placeholders only: one (?, ...) group per row of a multi-row INSERT',
  'src/engine/store/queries/embeddings.ts prepare UNIT_TABLE[unit]': "UNIT_TABLE maps the typed VectorUnit ('chunk' | 'sentence') to a literal table name ('chunks' | 'chunk_sentences')",
  "src/engine/store/queries/embeddings.ts prepare unit === 'chunk' ? CHUNK_VECTORS_BY_ID_SQL : vectorsByIdSql(UNIT_TABLE[unit])": 'module SQL built from a literal table name (UNIT_TABLE: chunks | chunk_sentences)',
  "src/engine/store/queries/embeddings.ts prepare unit === 'chunk' ? CHUNK_VECTORS_PAGE_SQL : vectorsPageSql(UNIT_TABLE[unit])": 'module SQL built from a literal table name (UNIT_TABLE: chunks | chunk_sentences)',
  "src/engine/store/queries/embeddings.ts prepare embeddedAboveSql(UNIT_TABLE[unit], 'COUNT(*)')": "module SQL built from a literal table name (UNIT_TABLE: chunks | chunk_sentences) and a literal select list",
  "src/engine/store/queries/embeddings.ts prepare embeddedAboveSql(UNIT_TABLE[unit], 'c.id')": "module SQL built from a literal table name (UNIT_TABLE: chunks | chunk_sentences) and a literal select list",
  'src/engine/store/database.ts pragma size': 'a number: the memory-map size in bytes, clamped to an integer from 0 to MMAP_SIZE just above (setMemoryMap)',
  "src/engine/store/queries/embeddings.ts prepare unit === 'chunk' ? `SELECT d.root_id AS root, COUNT(DISTINCT c.embed_hash) AS n FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id > ? AND c.embed_hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model_id = ? AND e.text_hash = c.embed_hash) GROUP BY d.root_id` : `SELECT d.root_id AS root, COUNT(DISTINCT s.embed_hash) AS n FROM chunk_sentences s JOIN chunks c ON c.id = s.chunk_id JOIN documents d ON d.id = c.document_id WHERE s.id > ? AND s.embed_hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model_id = ? AND e.text_hash = s.embed_hash) GROUP BY d.root_id`": 'one of two literal statements chosen by the typed VectorUnit; values are bound (?)',
  'src/engine/store/queries/graph.ts prepare WRITES': 'a module constant: a fixed GLOB test over bound @glob and @globStop',
  "src/engine/store/queries/tags.ts prepare visibleSql(policy, 'd')": 'the sensitivity policy (store/visibility.ts): a fixed fragment over a literal alias; the allowed labels are bound as @allowed',
  'src/engine/store/queries/threads.ts prepare SUMMARY': 'a module constant: the select list and FROM of a thread summary',
  "src/engine/store/queries/threads.ts prepare hiddenSql('d')": 'the sensitivity policy (store/visibility.ts): a fixed fragment over a literal alias; the allowed labels are bound as @allowed',
  'src/engine/store/statements.ts prepare sql': "the statement cache compiling what its callers pass: their calls are named prepare too (statements(db).prepare(...)), so this scan checks each of them like any other",
  "src/engine/store/queries/note-links.ts prepare audience === 'public' ? 'public_degree' : 'degree'": 'one of two literal column names, chosen by the typed audience (all | public)',
  "src/engine/store/queries/note-links.ts prepare audience === 'public' ? `AND ${visibleSql(policy)}` : ''": 'the sensitivity policy (store/visibility.ts) fragment for the public audience, or nothing; the allowed labels are bound as @allowed',
  "src/engine/store/queries/note-links.ts prepare audience === 'public' ? `CASE src.apart WHEN 1 THEN ${LINK_AUDIENCE.public} ELSE ${LINK_AUDIENCE.all} END` : LINK_AUDIENCE.all": 'numeric module constants (the audience codes of LINK_AUDIENCE) in a fixed CASE, chosen by the typed audience',
  'src/cli/bench/compare.ts prepare K': 'benchmark constant k (a number), not a request value',
  'src/cli/bench/compare.ts exec set.dim': 'benchmark: the vector dimension of a generated data set (a number)',
};

describe('SQL is parameterised', () => {
  const files = [...listSourceFiles(path.join(ROOT, 'src', 'engine')), ...listSourceFiles(path.join(ROOT, 'src', 'cli'))];
  const { calls, pieces } = scanSql(files, ROOT);

  it('finds the SQL calls it is meant to check', () => {
    expect(calls).toBeGreaterThan(80); // a scanner that finds nothing proves nothing
    // It catches what it must catch: an interpolated value in a prepare() call.
    const probe = path.join(ROOT, 'test', 'security', 'fixtures', 'unsafe-sql.ts');
    const found = scanSql([probe], ROOT).pieces.map((p) => `${p.method} ${p.expr}`);
    expect(found).toEqual(['prepare query', 'exec name', 'prepare userPath', 'pragma setting']);
  });

  it('interpolates nothing into SQL but the allow-listed fixed fragments', () => {
    const unexplained = pieces.map((p) => `${p.file} ${p.method} ${p.expr}`).filter((key) => !(key in ALLOWED));
    expect(unexplained).toEqual([]);
  });

  it('has no stale allow-list entries', () => {
    const present = new Set(pieces.map((p) => `${p.file} ${p.method} ${p.expr}`));
    expect(Object.keys(ALLOWED).filter((k) => !present.has(k))).toEqual([]);
  });

  it('passes only literal table names to the functions that take one', () => {
    const calls = files.flatMap((f) => [...fs.readFileSync(f, 'utf8').matchAll(/\b(tableStats|rowLengths|documentFrequencies|settleFtsTotals)\((?:db|this\.sqlite), ([^,)]+)/g)].map((m) => m[2]!));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter((arg) => !/^'[\w.]+'$/.test(arg))).toEqual([]);
  });
});
