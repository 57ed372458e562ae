/**
 * The graph list of hybrid retrieval (docs/design.md §6: its best candidates take the last slots of the fused top k). Multi-hop
 * questions name one thing and ask about another ("who manages the engineer who wrote the conflict
 * resolution record?"): the first list finds the record, the link graph knows its author, and the
 * author's note holds the answer. Seeds are the best documents of the other lists plus the notes the
 * query names; their linked notes, scored by how many seeds link to them and how highly those
 * ranked, contribute their best chunk for the query. The graph is read where it is stored, for the
 * seeds and their neighbours only (graph/stored.ts).
 */
import type { RetrievedChunk } from '../../shared/contract.ts';
import { wordsKey } from '../graph/names.ts';
import { BRIDGE_TYPES, linksOf, MAX_ENTITY_DEGREE, MAX_SOURCE_DEGREE } from '../graph/note-links.ts';
import type { LinkGraph } from '../graph/stored.ts';
import type { FtsQuery } from '../search/fts-query.ts';
import { bestChunkOfEachNote, ftsQueryFor, loadFilteredChunks, toRetrievedChunk, type LexicalFilters } from '../search/lexical.ts';
import { hiddenChunkIds } from '../store/queries/documents.ts';
import type { ReadConnection } from '../store/connection.ts';
import { openingChunksOf } from '../store/queries/graph.ts';

/** Documents of the first lists that seed the expansion. */
export const GRAPH_SEED_DOCS = 5;
/** Linked documents the graph list contributes at most. */
export const GRAPH_MAX_DOCS = 8;
/**
 * Linked documents whose text is matched against the question before the final order is set: the
 * strongest links, and of those only the ones that can still reach the top GRAPH_MAX_DOCS (a match
 * multiplies a link score by 0.25 to 1.25, so one under a fifth of the GRAPH_MAX_DOCS-th best cannot).
 * Link scores of a big vault are flat (the 24th is about a quarter of the first): past 16 the ranking
 * reads more chunk text for little change in the two notes the hybrid list takes (graph-list.test.ts
 * compares them with a 200-wide ranking).
 */
export const GRAPH_CANDIDATES = 16;
/** What no text match leaves of a link score, and what the best match multiplies it by (MATCH_MIN + rank share, at most 1). */
const MATCH_MIN = 0.25;
const MATCH_MAX = MATCH_MIN + 1;
export { MAX_SOURCE_DEGREE };
/** Entity types a question may name to start from; sections and statuses are too generic. */
const QUERY_ENTITY_TYPES = new Set(['entity', 'person', 'project', 'organization', 'technology', 'concept', 'decision', 'date', 'module', 'symbol']);
const MAX_NAME_WORDS = 8;
/**
 * Nodes whose name the query contains as whole words (case and accents folded), longest names first.
 * A one-word name counts only where the query capitalises it or it holds a digit: "Kestrel" and
 * "ADR-011" name something, "conflict" in "the conflict resolution record" does not name conflict.py.
 */
export function namedIn(g: LinkGraph, query: string): string[] {
  const words = wordsKey(query).split(' ').filter(Boolean);
  const raw = query.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim().split(' ');
  const keys: string[] = [];
  for (let len = Math.min(MAX_NAME_WORDS, words.length); len >= 1; len--) {
    for (let i = 0; i + len <= words.length; i++) {
      const key = words.slice(i, i + len).join(' ');
      if (key.length < 4) continue;
      if (len === 1 && !/\p{N}/u.test(key) && !/^\p{Lu}/u.test(raw[i] ?? '')) continue;
      keys.push(key);
    }
  }
  const byWords = g.byWords(keys);
  const found: string[] = [];
  for (const key of keys) {
    for (const id of byWords.get(key) ?? []) {
      if ((g.kind(id) === 'note' || g.typeIn(id, QUERY_ENTITY_TYPES)) && !found.includes(id)) found.push(id);
    }
  }
  return found;
}

/** The `n` highest link scores, best first (ties by id): a partial selection, the map can hold thousands. */
function topLinks(score: ReadonlyMap<string, number>, n: number): [string, number][] {
  const better = (a: [string, number], b: [string, number]) => a[1] > b[1] || (a[1] === b[1] && a[0] < b[0]);
  const top: [string, number][] = [];
  for (const e of score) {
    if (top.length === n && !better(e, top[n - 1]!)) continue;
    let i = top.length === n ? n - 1 : top.length;
    while (i > 0 && better(e, top[i - 1]!)) {
      top[i] = top[i - 1]!;
      i--;
    }
    top[i] = e;
  }
  return top;
}

/** A link list's far notes, their weights and the root of each far note's degree (what divides its weight), in the list's order. */
interface ScaledLinks {
  far: readonly string[];
  w: readonly number[];
  root: readonly number[];
}

/**
 * The scaled form of each kept link list, made once per list: the graph's memo keeps a note's list
 * (LinkGraph.noteLinks) until indexing changes the facts, and with it the degrees of its far notes.
 * A seed of a link-rich wiki links to a thousand notes: reading their degrees and dividing again for
 * every question took as long as ranking the candidates' chunks.
 */
const scaledLists = new WeakMap<ReadonlyMap<string, number>, ScaledLinks>();

/** How much of the linked notes is ranked against the question (tests compare a wider ranking). */
export interface GraphListBounds {
  /** The strongest links ranked at most (GRAPH_CANDIDATES). */
  candidates?: number;
  /** Leave out the links too weak to reach the top GRAPH_MAX_DOCS whatever their match (default true). */
  floor?: boolean;
}

/** `parsed`: the question's full-text query where the caller has it (ftsQueryFor(db, query)), not parsed again. */
export function graphList(db: ReadConnection, g: LinkGraph, query: string, ranked: readonly RetrievedChunk[], filters: LexicalFilters, bounds: GraphListBounds = {}, parsed?: FtsQuery): RetrievedChunk[] {
  /** Nodes whose links are not read (MAX_SOURCE_DEGREE), by the counts kept with the index. */
  const hub = (id: string) => g.pastDegree(id, MAX_SOURCE_DEGREE);
  // The links of notes are kept with the index for most callers (graph/degrees.ts): read for the
  // first seeds at once; the others' edges are read together, not one note at a time.
  const first = [...new Set(ranked.map((c) => `note:${c.path}`))].slice(0, GRAPH_SEED_DOCS);
  const kept = g.noteLinks(first);
  g.prefetch(first.filter((id) => !kept.has(id) && !hub(id)));
  const seeds: string[] = [];
  for (const c of ranked) {
    const id = `note:${c.path}`;
    if ((hub(id) || kept.has(id) || g.hasNode(id)) && !seeds.includes(id)) seeds.push(id);
    if (seeds.length >= GRAPH_SEED_DOCS) break;
  }
  const named = namedIn(g, query);
  const score = new Map<string, number>();
  const add = (id: string, w: number) => score.set(id, (score.get(id) ?? 0) + w);
  const isNote = (id: string) => g.kind(id) === 'note';
  // A note the query names is itself a candidate, as strong as a link from the best seed.
  for (const id of named) if (isNote(id)) add(id, 1);
  const sources = [...named.map((id) => ({ id, weight: 1 })), ...seeds.map((id, i) => ({ id, weight: 1 / (i + 1) }))].filter(({ id }) => !hub(id));
  const more = g.noteLinks(sources.map(({ id }) => id).filter((id) => isNote(id) && !kept.has(id)));
  for (const [id, links] of more) kept.set(id, links);
  // The others' entities are typed, counted and (those that may join two notes) read together.
  const live = sources.filter(({ id }) => !kept.has(id));
  g.prefetchDegrees([...new Set(live.flatMap(({ id }) => g.neighbors(id).filter((other) => !isNote(other))))], MAX_ENTITY_DEGREE, BRIDGE_TYPES);
  // Each source's links, weighed by the source and divided by the root of the far end's degree, in
  // the order found. The far ends' degrees at once: kept with the index for most callers, so a linked
  // note's own links are not read just to be counted; a kept list's are read once (scaledLists).
  const lists = sources.map(({ id, weight }) => ({ weight, links: kept.get(id) ?? linksOf(g, id) }));
  const unscaled = lists.filter(({ links }) => !scaledLists.has(links));
  const degrees = g.noteDegrees([...new Set(unscaled.flatMap(({ links }) => [...links.keys()]))]);
  const scaled = (links: ReadonlyMap<string, number>): ScaledLinks => {
    const known = scaledLists.get(links);
    if (known) return known;
    const far = [...links.keys()];
    const made = { far, w: [...links.values()], root: far.map((id) => Math.sqrt(Math.max(1, degrees.get(id)!))) };
    scaledLists.set(links, made);
    return made;
  };
  for (const { weight, links } of lists) {
    const { far, w, root } = scaled(links);
    for (let i = 0; i < far.length; i++) add(far[i]!, (weight * w[i]!) / root[i]!);
  }
  // A seed is a candidate too (ranked below the top results it is not yet in them), but not by itself.
  const strongest = topLinks(score, bounds.candidates ?? GRAPH_CANDIDATES);
  const floor = bounds.floor !== false && strongest.length >= GRAPH_MAX_DOCS ? (strongest[GRAPH_MAX_DOCS - 1]![1] * MATCH_MIN) / MATCH_MAX : 0;
  const candidates = strongest.filter(([, s]) => s >= floor).map(([id]) => id.slice('note:'.length));
  if (candidates.length === 0) return [];
  const fts = parsed ?? ftsQueryFor(db, query, filters);
  const best = new Map<string, { id: number; rank: number }>();
  for (const [p, b] of bestChunkOfEachNote(db, fts, candidates, hiddenChunkIds(db, filters))) best.set(p, b);
  // Linked and about the question: the link score times how well the note's best chunk matches the
  // question (bm25 relative to the best-matching candidate); a note that shares no word keeps a quarter.
  const top = Math.min(-1e-9, ...[...best.values()].map((b) => b.rank));
  const final = new Map(candidates.map((p) => [p, (score.get(`note:${p}`) ?? 0) * (MATCH_MIN + (best.has(p) ? best.get(p)!.rank / top : 0))]));
  const docs = [...candidates].sort((a, b) => final.get(b)! - final.get(a)! || (a < b ? -1 : a > b ? 1 : 0)).slice(0, GRAPH_MAX_DOCS);
  // A linked note that shares no word with the query still offers its opening chunk (who, role, links).
  const missing = docs.filter((p) => !best.has(p));
  if (missing.length > 0) {
    for (const r of openingChunksOf(db, missing)) if (!best.has(r.path)) best.set(r.path, { id: r.id, rank: 0 });
  }
  const ids = docs.flatMap((p) => (best.has(p) ? [best.get(p)!.id] : []));
  const rows = loadFilteredChunks(db, ids, filters);
  return ids.flatMap((id, i) => {
    const row = rows.get(id);
    return row ? [toRetrievedChunk(row, fts.terms, Math.round((1 / (i + 1)) * 1e4) / 1e4, false)] : [];
  });
}
