import type { Database } from 'better-sqlite3';
import picomatch from 'picomatch';
import type { RetrievedChunk } from '../../shared/contract.ts';
import { buildFtsQuery } from './fts-query.ts';

export interface LexicalOptions {
  k: number;
  allowSensitivity: readonly string[];
  sensitivityEnable: boolean;
  includeGlobs: readonly string[];
  excludeGlobs: readonly string[];
}

export interface LexicalResult {
  chunks: RetrievedChunk[];
  candidates: number;
  filtered: number;
}

/** Column weights for bm25(): the note's title counts most, then its heading, then the body. */
const BM25_WEIGHTS = [2.0, 1.5, 1.0] as const;

interface Row {
  id: number;
  locator: string;
  start_line: number;
  end_line: number;
  text: string;
  tags_json: string;
  doc_id: string;
  path: string;
  root: string;
  sensitivity: string | null;
  rank: number;
  snippet: string;
}

/**
 * BM25 over chunks_fts. Sensitivity and path filters are applied inside the query, before ranking
 * and limiting, so a filtered-out chunk never takes a slot of the top k.
 */
export function searchLexical(db: Database, query: string, options: LexicalOptions): LexicalResult {
  const fts = buildFtsQuery(query);
  if (!fts.match) return { chunks: [], candidates: 0, filtered: 0 };
  const include = options.includeGlobs.length > 0 ? picomatch([...options.includeGlobs], { dot: true }) : null;
  const exclude = options.excludeGlobs.length > 0 ? picomatch([...options.excludeGlobs], { dot: true }) : null;
  const allowed = new Set(options.allowSensitivity.map((s) => s.toLowerCase()));
  let filtered = 0;
  // A per-call SQL function keeps the filter in the query plan; its name is fixed, its logic is JS.
  db.function('syn_allowed', { deterministic: true }, (relPath: unknown, sensitivity: unknown) => {
    const p = String(relPath);
    let ok = true;
    if (options.sensitivityEnable && typeof sensitivity === 'string' && sensitivity !== 'public' && !allowed.has(sensitivity)) ok = false;
    if (ok && include && !include(p)) ok = false;
    if (ok && exclude && exclude(p)) ok = false;
    if (!ok) filtered++;
    return ok ? 1 : 0;
  });
  const rows = db
    .prepare(
      `SELECT c.id, c.locator, c.start_line, c.end_line, c.text, c.tags_json, d.doc_id, d.path, r.path AS root,
              d.sensitivity, bm25(chunks_fts, ?, ?, ?) AS rank,
              snippet(chunks_fts, 2, '«', '»', '…', 24) AS snippet
         FROM chunks_fts
         JOIN chunks c ON c.id = chunks_fts.rowid
         JOIN documents d ON d.id = c.document_id
         JOIN roots r ON r.id = d.root_id
        WHERE chunks_fts MATCH ? AND syn_allowed(d.path, d.sensitivity) = 1
        ORDER BY rank
        LIMIT ?`,
    )
    .all(...BM25_WEIGHTS, fts.match, options.k) as Row[];
  return {
    chunks: rows.map((r) => ({
      doc_id: r.doc_id,
      locator: r.locator,
      path: r.path,
      start_line: r.start_line,
      end_line: r.end_line,
      text: r.text,
      snippet: r.snippet,
      score: Math.round(-r.rank * 1e4) / 1e4,
      tags: JSON.parse(r.tags_json) as Record<string, string>,
    })),
    candidates: rows.length + filtered,
    filtered,
  };
}
