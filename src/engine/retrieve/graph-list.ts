/**
 * The graph list of hybrid retrieval (DESIGN.md §1: lexical ∥ dense ∥ graph → RRF). Multi-hop
 * questions name one thing and ask about another ("who manages the engineer who wrote the conflict
 * resolution record?"): the first list finds the record, the link graph knows its author, and the
 * author's note holds the answer. Seeds are the best documents of the other lists plus the notes the
 * query names; their linked notes, scored by how many seeds link to them and how highly those
 * ranked, contribute their best chunk for the query.
 */
import type { Database } from 'better-sqlite3';
import type { RetrievedChunk } from '../../shared/contract.ts';
import { normalizeName, type LinkGraph } from '../graph/links.ts';
import { buildFtsQuery } from '../search/fts-query.ts';
import { BM25_WEIGHTS, loadFilteredChunks, toRetrievedChunk, type LexicalFilters } from '../search/lexical.ts';

/** Documents of the first lists that seed the expansion. */
export const GRAPH_SEED_DOCS = 5;
/** Linked documents the graph list contributes at most. */
export const GRAPH_MAX_DOCS = 8;

/** Notes whose title or alias the query names (whole words, case and accents folded). */
export function notesNamedIn(graph: LinkGraph, query: string): string[] {
  const q = ` ${normalizeName(query).replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  const found: string[] = [];
  for (const node of graph.nodes.values()) {
    if (node.kind !== 'note') continue;
    const name = normalizeName(node.label).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    if (name.length >= 4 && q.includes(` ${name} `)) found.push(node.id);
  }
  return found;
}

export function graphList(db: Database, graph: LinkGraph, query: string, ranked: readonly RetrievedChunk[], filters: LexicalFilters): RetrievedChunk[] {
  const seeds: string[] = [];
  for (const c of ranked) {
    const id = `note:${c.path}`;
    if (graph.nodes.has(id) && !seeds.includes(id)) seeds.push(id);
    if (seeds.length >= GRAPH_SEED_DOCS) break;
  }
  const named = notesNamedIn(graph, query);
  const score = new Map<string, number>();
  const add = (id: string, w: number) => score.set(id, (score.get(id) ?? 0) + w);
  // A note the query names is itself a candidate, as strong as a link from the best seed.
  for (const id of named) add(id, 1);
  const sources = [...named.map((id) => ({ id, weight: 1 })), ...seeds.map((id, i) => ({ id, weight: 1 / (i + 1) }))];
  for (const { id: seed, weight } of sources) {
    for (const e of graph.edges.get(seed) ?? []) {
      const other = e.source === seed ? e.target : e.source;
      // A seed may be a candidate too: ranked below the top results, it is not yet in them.
      if (other === seed || graph.nodes.get(other)?.kind !== 'note') continue;
      // Hubs (the team lead every note links to) say little about any one question.
      add(other, weight / Math.sqrt(graph.edges.get(other)?.length ?? 1));
    }
  }
  const docs = [...score]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, GRAPH_MAX_DOCS)
    .map(([id]) => id.slice('note:'.length));
  if (docs.length === 0) return [];

  const fts = buildFtsQuery(query);
  const best = new Map<string, { id: number; rank: number }>();
  if (fts.match) {
    const rows = db
      .prepare(
        `SELECT c.id AS id, d.path AS path, bm25(chunks_fts, ${BM25_WEIGHTS.title}, ${BM25_WEIGHTS.heading}, ${BM25_WEIGHTS.body}) AS rank
           FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN documents d ON d.id = c.document_id
          WHERE chunks_fts MATCH @match AND d.status = 'indexed' AND d.path IN (SELECT value FROM json_each(@paths))
          ORDER BY rank`,
      )
      .all({ match: fts.match, paths: JSON.stringify(docs) }) as { id: number; path: string; rank: number }[];
    for (const r of rows) if (!best.has(r.path)) best.set(r.path, { id: r.id, rank: r.rank });
  }
  // A linked note that shares no word with the query still offers its opening chunk (who, role, links).
  const missing = docs.filter((p) => !best.has(p));
  if (missing.length > 0) {
    const first = db
      .prepare(
        `SELECT c.id AS id, d.path AS path FROM chunks c JOIN documents d ON d.id = c.document_id
          WHERE d.status = 'indexed' AND d.path IN (SELECT value FROM json_each(@paths)) AND c.ordinal = 0`,
      )
      .all({ paths: JSON.stringify(missing) }) as { id: number; path: string }[];
    for (const r of first) if (!best.has(r.path)) best.set(r.path, { id: r.id, rank: 0 });
  }
  const ids = docs.flatMap((p) => (best.has(p) ? [best.get(p)!.id] : []));
  const rows = loadFilteredChunks(db, ids, filters);
  return ids.flatMap((id, i) => {
    const row = rows.get(id);
    return row ? [toRetrievedChunk(row, fts.terms, Math.round((1 / (i + 1)) * 1e4) / 1e4)] : [];
  });
}
