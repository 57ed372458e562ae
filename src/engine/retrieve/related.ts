/**
 * A note's related notes, for the reading pane: the notes that link to it or that it links to, the
 * notes that name what it names (people, projects, tags), and the notes with a passage like one of
 * its own (the vector index when an embedding model works, shared words otherwise). Each comes with
 * why. Everything is read through the caller's visible graph and the retrieval pipeline's filters,
 * so a hidden note is never a candidate, a reason, or a resolved [[link]].
 */
import { RetrieveContextSchema, type RelatedNote, type RelatedReason, type RelatedResult } from '../../shared/contract.ts';
import { createError } from '../../shared/errors.ts';
import type { LinkGraph } from '../graph/stored.ts';
import { runPipeline } from './hybrid.ts';
import { isStopword, tokenize } from '../search/analyzer.ts';
import { loadFilteredChunks } from '../store/queries/chunks.ts';
import { chunkLinesOf, documentsAtPath, markedPaths, visibleDocumentCount } from '../store/queries/documents.ts';
import { pipelineArgs, type RetrievalServices } from './request.ts';
import { parseLocator } from './source.ts';

/** What the graph says about one other note. */
export interface GraphSignal {
  path: string;
  title: string;
  /** The lines of the other note that link here (null: it does not). */
  linksHere: string | null;
  /** The lines of this note that link to the other one (null: none). */
  linkedFromHere: string | null;
  /** Names and tags both notes are joined to, each weighted by how rare it is among the notes (its inverse document frequency, 0 to 1). */
  shared: { label: string; weight: number }[];
}

/** The best passage of another note like one of this note's. */
export interface SimilarSignal {
  path: string;
  title: string;
  score: number;
  locator: string;
  text: string;
}

/** Weights of the signals: a link stated either way outweighs a shared name, and a passage alike counts as a link at best. */
export const RELATED_WEIGHTS = { linksHere: 1, linkedFromHere: 0.8, sharedCap: 1.2, similar: 1 } as const;
/** Shared names listed in a reason; the rest are counted. */
const SHARED_SHOWN = 3;
/** Characters of a similar passage quoted in its reason. */
const QUOTE_CHARS = 90;
/** An entity joined to more notes than this says nothing about any two of them (a vault-wide tag). */
const MAX_SHARED_DEGREE = 400;
/**
 * Nor does one that this share of the notes name: "Obsidian" in Obsidian's own help, a tag on most
 * notes. Below MIN_COMMON notes an entity always counts (in a small folder, two notes are a share).
 */
const COMMON_SHARE = 0.2;
const MIN_COMMON = 4;
/** Entity types that join notes without relating them: two notes both "active" or "accepted" are not alike. */
const NOT_SHARED: ReadonlySet<string> = new Set(['status']);
/** A shared date counts half: two notes of one day are often about different things (names and tags are listed first). */
const DATE_WEIGHT = 0.5;

/** "similar passage: …" quotes the start of the passage, on one line, cut at a word. */
export function quotePassage(text: string, max = QUOTE_CHARS): string {
  const flat = text
    .replace(/^---[\s\S]*?---\s*/, '')
    .replace(/(^|\s)\^[A-Za-z0-9-]+(?=\s|$)/g, ' ')
    .replace(/!\[\[[^\]\n]*\]\]/g, ' ')
    .replace(/[#>*_`|[\]]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Ranks the other notes by what joins them to this one: score = link here + link from here + the
 * shared names' weights (capped) + the similar passage's score relative to the best one. Pure: the
 * graph and the similarity search feed it. Best first, ties by path; at most k.
 */
export function rankRelated(graph: readonly GraphSignal[], similar: readonly SimilarSignal[], k: number): Omit<RelatedNote, 'restricted'>[] {
  const byPath = new Map<string, { title: string; score: number; reasons: RelatedReason[]; order: number[] }>();
  const entry = (p: string, title: string) => {
    let e = byPath.get(p);
    if (!e) byPath.set(p, (e = { title, score: 0, reasons: [], order: [] }));
    return e;
  };
  for (const g of graph) {
    const e = entry(g.path, g.title);
    if (g.linksHere) {
      e.score += RELATED_WEIGHTS.linksHere;
      e.reasons.push({ kind: 'links_here', text: 'links here', locator: g.linksHere });
    }
    if (g.linkedFromHere) {
      e.score += RELATED_WEIGHTS.linkedFromHere;
      e.reasons.push({ kind: 'linked_from_here', text: 'linked from this note', locator: g.linkedFromHere });
    }
    const shared = [...new Map(g.shared.map((s) => [s.label, s])).values()].sort((a, b) => b.weight - a.weight || a.label.localeCompare(b.label));
    if (shared.length > 0) {
      e.score += Math.min(RELATED_WEIGHTS.sharedCap, shared.reduce((sum, s) => sum + s.weight, 0));
      const names = shared.slice(0, SHARED_SHOWN).map((s) => s.label);
      const more = shared.length - names.length;
      e.reasons.push({ kind: 'shares', text: `shares: ${names.join(', ')}${more > 0 ? ` and ${more} more` : ''}`, locator: null });
    }
  }
  const best = similar.reduce((m, s) => Math.max(m, s.score), 0);
  const seen = new Set<string>();
  for (const s of similar) {
    if (seen.has(s.path) || !(best > 0) || !(s.score > 0)) continue;
    seen.add(s.path);
    const e = entry(s.path, s.title);
    e.score += RELATED_WEIGHTS.similar * (s.score / best);
    e.reasons.push({ kind: 'similar', text: `similar passage: ${quotePassage(s.text)}`, locator: s.locator });
  }
  return [...byPath]
    .filter(([, e]) => e.score > 0)
    .map(([p, e]) => ({ path: p, title: e.title, score: Math.round(e.score * 1000) / 1000, reasons: e.reasons }))
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path))
    .slice(0, k);
}

/**
 * How much a shared name says, by how many of the `notes` it joins (`degree`): its inverse document
 * frequency scaled to 0..1 (a name of two notes in a thousand weighs near 1), and 0 for a name most
 * notes hold, which is never listed.
 */
export function sharedWeight(degree: number, notes: number): number {
  const n = Math.max(notes, degree, 2);
  if (degree > MAX_SHARED_DEGREE || (degree >= MIN_COMMON && degree > COMMON_SHARE * n)) return 0;
  return Math.log((n + 1) / degree) / Math.log(n + 1);
}

/**
 * The other notes the graph joins to the note at `path`: links either way, and names or tags both
 * are joined to (of `notes` visible notes: what most of them hold says nothing).
 */
export function graphSignals(g: LinkGraph, notePath: string, notes = 0): GraphSignal[] {
  const id = `note:${notePath}`;
  if (!g.hasNode(id)) return [];
  const out = new Map<string, GraphSignal>();
  const signal = (other: string): GraphSignal => {
    let s = out.get(other);
    if (!s) {
      const a = g.attributes(other);
      out.set(other, (s = { path: a.locator ?? other.replace(/^note:/, ''), title: a.label, linksHere: null, linkedFromHere: null, shared: [] }));
    }
    return s;
  };
  for (const x of g.neighbors(id)) {
    if (g.kind(x) === 'note') {
      const s = signal(x);
      for (const e of g.evidence(id, x)) {
        if (e.source === x && e.target === id) s.linksHere ??= e.locator;
        else if (e.source === id && e.target === x) s.linkedFromHere ??= e.locator;
      }
      continue;
    }
    const degree = g.degree(x);
    const rarity = sharedWeight(degree, notes);
    if (rarity === 0 || NOT_SHARED.has(g.type(x))) continue;
    const weight = (g.type(x) === 'date' ? DATE_WEIGHT : 1) * rarity;
    const label = g.attributes(x).label;
    for (const y of g.neighbors(x)) {
      if (y !== id && g.kind(y) === 'note') signal(y).shared.push({ label, weight });
    }
  }
  return [...out.values()];
}

/** The words a note is most about (stopwords, numbers and short words dropped), most frequent first: the query for notes alike without vectors. */
export function distinctiveWords(text: string, limit = 24): string[] {
  const counts = new Map<string, { raw: string; n: number; first: number }>();
  let i = 0;
  for (const t of tokenize(text)) {
    i++;
    const raw = t.raw.toLowerCase();
    if (raw.length < 3 || /^\d+$/.test(raw) || isStopword(raw)) continue;
    const c = counts.get(t.term);
    if (c) c.n++;
    else counts.set(t.term, { raw, n: 1, first: i });
  }
  return [...counts.values()]
    .sort((a, b) => b.n - a.n || a.first - b.first)
    .slice(0, limit)
    .map((c) => c.raw);
}

/** [[names]] a note writes, in order, once each. */
const WIKILINK = /\[\[([^\]|#^\n]+)(?:[#^][^\]|\n]*)?(?:\|[^\]\n]*)?\]\]/g;
export function wikilinkNames(text: string): string[] {
  return [...new Set([...text.matchAll(WIKILINK)].map((m) => m[1]!.trim()).filter(Boolean))];
}

/** The path of the visible note a [[name]] names (null: none, or an entity of that name). */
export function notePathNamed(g: LinkGraph, name: string): string | null {
  const node = g.findNode(name);
  return node && g.kind(node) === 'note' ? (g.attributes(node).locator ?? null) : null;
}

/** Candidates the word search asks for: several passages of one note may come first. */
const SIMILAR_CANDIDATES = 40;
/** The note's chunks whose vectors look for passages alike (a long note's first ones), and the hits each asks for. */
const VECTOR_QUERIES = 8;
const VECTOR_HITS = 20;

type Policy = { allowSensitivity: readonly string[]; sensitivityEnable: boolean };
type NoteDoc = { id: number; path: string; root: string };

/**
 * Passages of other notes nearest to this note's own chunks in the vector index, from the vectors
 * stored at indexing (no model call), hydrated through the visibility filters. Null when no vector
 * index answers (no embedding model, still being built, the note not embedded yet).
 */
async function similarByVectors(services: RetrievalServices, doc: NoteDoc, chunkIds: readonly number[], policy: Policy): Promise<SimilarSignal[] | null> {
  const dense = services.dense.find((d) => d.index.unavailable === null);
  if (!dense || chunkIds.length === 0) return null;
  const best = new Map<number, number>();
  let queried = 0;
  for (const page of services.store.chunkVectors(dense.index.modelId, chunkIds.slice(0, VECTOR_QUERIES))) {
    for (const { vector } of page) {
      queried++;
      for (const hit of await dense.index.nearest(vector, VECTOR_HITS)) {
        if (!(best.get(hit.id)! >= hit.score)) best.set(hit.id, hit.score);
      }
    }
  }
  if (queried === 0) return null;
  const own = new Set(chunkIds);
  const ids = [...best.keys()].filter((id) => !own.has(id));
  const filters = { ...policy, includeGlobs: [], excludeGlobs: [], types: [], languages: [], tags: [], roots: [] };
  const rows = loadFilteredChunks(services.store.db, ids, filters);
  return ids
    .map((id) => rows.get(id))
    .filter((r) => r !== undefined && !(r.path === doc.path && r.root === doc.root))
    .map((r) => ({ path: r!.path, title: r!.title ?? r!.path, score: best.get(r!.id)!, locator: r!.locator, text: r!.text }))
    .sort((a, b) => b.score - a.score);
}

/** Passages of other notes that share this note's most frequent words (BM25 through the retrieval pipeline and its filters). */
async function similarByWords(services: RetrievalServices, doc: NoteDoc, text: string, allow: string[]): Promise<SimilarSignal[] | null> {
  const query = distinctiveWords(text).join(' ');
  if (!query) return null;
  const ctx = RetrieveContextSchema.parse({ allow_sensitivity: allow, mode: 'bm25', use_graph: false, enable_rerank: false, min_score: 0 });
  const { deps, req } = pipelineArgs(services, query, ctx, SIMILAR_CANDIDATES);
  const result = await runPipeline(deps, req);
  return result.chunks
    .filter((c) => !(c.path === doc.path && c.root === doc.root))
    .map((c) => ({ path: c.path, title: c.title, score: c.score, locator: c.locator, text: c.text }));
}

export async function relatedNotes(services: RetrievalServices, req: { locator: string; k: number; allow_sensitivity: string[] }): Promise<RelatedResult> {
  const { store, config } = services;
  const policy = { allowSensitivity: req.allow_sensitivity, sensitivityEnable: config.sensitivityEnable };
  const parsed = parseLocator(req.locator);
  const found = documentsAtPath(store.db, parsed.path, policy);
  const doc = found.visible[0];
  // A hidden note answers exactly like a missing one.
  if (!doc) throw createError('E_SYN_NOT_FOUND', `No indexed document at "${parsed.path.slice(0, 300)}" that this request may read`);
  const chunks = chunkLinesOf(store.db, doc.id);
  const text = chunks.map((c) => c.text).join('\n');
  const g = services.graphs.reader(req.allow_sensitivity);
  const links = wikilinkNames(text).map((name) => ({ name, path: notePathNamed(g, name) }));
  const fromGraph = graphSignals(g, doc.path, visibleDocumentCount(store.db, policy));

  // Passages alike are one signal of three: when neither search answers, the graph's still rank.
  let similarity: RelatedResult['similarity'] = 'none';
  let similar: SimilarSignal[] | null = await similarByVectors(services, doc, chunks.map((c) => c.id), policy).catch(() => null);
  if (similar) similarity = 'vectors';
  else {
    similar = await similarByWords(services, doc, text, req.allow_sensitivity).catch(() => null);
    if (similar) similarity = 'words';
  }
  const ranked = rankRelated(fromGraph, similar ?? [], req.k);
  // Only notes the request may see are ranked: a marked one is here because its sensitivity is allowed, and says so.
  const marked = markedPaths(store.db, ranked.map((n) => n.path));
  return { path: doc.path, related: ranked.map((n) => ({ ...n, restricted: marked.has(n.path) })), links, similarity };
}
