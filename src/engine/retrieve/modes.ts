/**
 * Retrieval modes of spec 003 §4.1 and §5.2-5.4 over chunks that are already scored (fused,
 * reranked): which documents, sections and chunks make the cut. Pure: the store and the indexes
 * stay outside, so each mode is tested on plain lists.
 *
 * In every mode but hybrid_only the limits are hard caps on the output: at most max_docs distinct
 * documents, max_sections distinct sections and max_chunks chunks. The mode decides which unit is
 * ranked first. hybrid_only is the plain fused list cut to max_chunks.
 */

export const RETRIEVAL_MODES = ['doc_first', 'section_first', 'chunk_priority', 'hybrid_only'] as const;
export type RetrievalMode = (typeof RETRIEVAL_MODES)[number];

/** What a mode needs to know about a chunk; RetrievedChunk fits. */
export interface ModeChunk {
  /** Unique chunk id when known: two chunks may share a locator (one long line split in pieces). */
  chunk_id?: number | null;
  doc_id: string;
  locator: string;
  heading: string | null;
  /** The store's section id (unique within its document) when the caller has it. */
  section_id?: string | null;
  /** Higher is better. */
  score: number;
}

export interface RetrievalModeOptions {
  mode: RetrievalMode;
  max_docs: number;
  max_sections: number;
  max_chunks: number;
  /**
   * Most chunks taken from one document. Default: unlimited, except chunk_priority, which ranks
   * chunks with no document step and so needs the cap to keep one long file from filling the list.
   */
  max_chunks_per_doc?: number;
}

export interface UsedDoc {
  doc_id: string;
  score: number;
}

export interface UsedSection {
  /** `<doc_id>#<section id or heading>`: section ids and headings are unique only within a document. */
  section_id: string;
  doc_id: string;
  heading: string | null;
  score: number;
}

export interface RetrievalModeResult<C extends ModeChunk> {
  chunks: C[];
  /** Documents that contributed chunks, best first, scored with aggregateScores. */
  used_docs: UsedDoc[];
  /** Sections that contributed chunks, best first, scored with aggregateScores. */
  used_sections: UsedSection[];
}

export const DEFAULT_CHUNK_PRIORITY_PER_DOC = 3;
/** How much each supporting hit adds, as a share of its own score. */
export const SUPPORT_BONUS = 0.1;
/** How many hits after the best one count as support. */
export const SUPPORT_HITS = 2;

/**
 * Score of a document or section from its chunks' scores: the best score plus SUPPORT_BONUS times
 * each of the next SUPPORT_HITS scores. The best chunk dominates, so one clearly better passage is
 * not outvoted by many weak ones (max alone); but a unit with several matching passages is more
 * likely what the query is about, so among near-equal bests it wins. The bonus is bounded (at most
 * 20% of the best score), so it only reorders units whose best chunks are within 20% of each other;
 * it scales with the scores, so RRF (~0.03) and cosine or reranker scores (~1) behave alike.
 */
export function aggregateScores(scores: readonly number[], bonus: number = SUPPORT_BONUS): number {
  if (scores.length === 0) return 0;
  const sorted = [...scores].sort((a, b) => b - a);
  let total = sorted[0]!;
  for (let i = 1; i <= SUPPORT_HITS && i < sorted.length; i++) total += bonus * Math.max(0, sorted[i]!);
  return total;
}

export function sectionKeyOf(chunk: ModeChunk): string {
  return `${chunk.doc_id}#${chunk.section_id ?? chunk.heading ?? ''}`;
}

export function applyRetrievalMode<C extends ModeChunk>(
  chunks: readonly C[],
  options: RetrievalModeOptions,
): RetrievalModeResult<C> {
  const { mode } = options;
  if (!RETRIEVAL_MODES.includes(mode)) throw new RangeError(`unknown retrieval mode "${String(mode)}"`);
  const maxDocs = limit('max_docs', options.max_docs);
  const maxSections = limit('max_sections', options.max_sections);
  const maxChunks = limit('max_chunks', options.max_chunks);
  const perDoc = limit(
    'max_chunks_per_doc',
    options.max_chunks_per_doc ?? (mode === 'chunk_priority' ? DEFAULT_CHUNK_PRIORITY_PER_DOC : Infinity),
  );

  const ranked = dedupeByLocator(chunks).sort(compareChunks);
  const docs = rankUnits(ranked, (c) => c.doc_id);
  const sections = rankUnits(ranked, sectionKeyOf);

  let selected: C[];
  switch (mode) {
    case 'hybrid_only':
      selected = ranked.slice(0, maxChunks);
      break;
    case 'chunk_priority':
      selected = selectWithCaps(ranked, { maxDocs, maxSections, maxChunks, perDoc });
      break;
    case 'doc_first': {
      const topDocs = new Map([...docs.keys()].slice(0, maxDocs).map((id, rank) => [id, rank]));
      const ordered = ranked.filter((c) => topDocs.has(c.doc_id));
      ordered.sort((a, b) => topDocs.get(a.doc_id)! - topDocs.get(b.doc_id)! || compareChunks(a, b));
      selected = selectWithCaps(ordered, { maxDocs, maxSections, maxChunks, perDoc });
      break;
    }
    case 'section_first': {
      const topDocs = new Set([...docs.keys()].slice(0, maxDocs));
      const sectionRank = new Map(
        [...sections.entries()]
          .filter(([, unit]) => topDocs.has(unit.first.doc_id))
          .slice(0, maxSections)
          .map(([key], rank) => [key, rank]),
      );
      const ordered = ranked.filter((c) => sectionRank.has(sectionKeyOf(c)));
      ordered.sort((a, b) => sectionRank.get(sectionKeyOf(a))! - sectionRank.get(sectionKeyOf(b))! || compareChunks(a, b));
      selected = selectWithCaps(ordered, { maxDocs, maxSections, maxChunks, perDoc });
      break;
    }
  }

  const usedDocIds = new Set(selected.map((c) => c.doc_id));
  const usedSectionKeys = new Set(selected.map(sectionKeyOf));
  return {
    chunks: selected,
    used_docs: [...docs.entries()].filter(([id]) => usedDocIds.has(id)).map(([doc_id, unit]) => ({ doc_id, score: unit.score })),
    used_sections: [...sections.entries()]
      .filter(([key]) => usedSectionKeys.has(key))
      .map(([section_id, unit]) => ({ section_id, doc_id: unit.first.doc_id, heading: unit.first.heading, score: unit.score })),
  };
}

interface Caps {
  maxDocs: number;
  maxSections: number;
  maxChunks: number;
  perDoc: number;
}

/** Takes chunks in the given order, skipping those that would break a cap. */
function selectWithCaps<C extends ModeChunk>(ordered: readonly C[], caps: Caps): C[] {
  const out: C[] = [];
  const perDocCount = new Map<string, number>();
  const sections = new Set<string>();
  for (const c of ordered) {
    if (out.length >= caps.maxChunks) break;
    const taken = perDocCount.get(c.doc_id);
    if (taken === undefined && perDocCount.size >= caps.maxDocs) continue;
    if ((taken ?? 0) >= caps.perDoc) continue;
    const section = sectionKeyOf(c);
    if (!sections.has(section) && sections.size >= caps.maxSections) continue;
    out.push(c);
    perDocCount.set(c.doc_id, (taken ?? 0) + 1);
    sections.add(section);
  }
  return out;
}

interface Unit<C> {
  score: number;
  /** The unit's best chunk, which names its document and heading. */
  first: C;
}

/** Units (documents or sections) of sorted chunks, best aggregate score first, ties by key. */
function rankUnits<C extends ModeChunk>(sorted: readonly C[], keyOf: (c: C) => string): Map<string, Unit<C>> {
  const groups = new Map<string, C[]>();
  for (const c of sorted) {
    const key = keyOf(c);
    const group = groups.get(key);
    if (group) group.push(c);
    else groups.set(key, [c]);
  }
  const units = [...groups].map(([key, group]) => ({
    key,
    score: aggregateScores(group.map((c) => c.score)),
    first: group[0]!,
  }));
  units.sort((a, b) => b.score - a.score || compareStrings(a.key, b.key));
  return new Map(units.map((u) => [u.key, { score: u.score, first: u.first }]));
}

/** Fusion usually dedupes, but lists merged by hand may repeat a chunk: keep its best score. */
function dedupeByLocator<C extends ModeChunk>(chunks: readonly C[]): C[] {
  const best = new Map<string, C>();
  for (const c of chunks) {
    if (!Number.isFinite(c.score)) throw new RangeError(`score of ${c.locator} is not a finite number: ${c.score}`);
    const key = c.chunk_id !== undefined && c.chunk_id !== null ? `#${c.chunk_id}` : `${c.doc_id}\u0000${c.locator}`;
    const seen = best.get(key);
    // Equal scores: the same one whatever the input order (the section decides which heading it counts under).
    if (!seen || c.score > seen.score || (c.score === seen.score && compareStrings(sectionKeyOf(c), sectionKeyOf(seen)) < 0)) best.set(key, c);
  }
  return [...best.values()];
}

function compareChunks(a: ModeChunk, b: ModeChunk): number {
  return b.score - a.score || compareStrings(a.doc_id, b.doc_id) || compareStrings(a.locator, b.locator);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function limit(name: string, value: number): number {
  if (value === Infinity || (Number.isInteger(value) && value >= 0)) return value;
  throw new RangeError(`${name} must be an integer >= 0, got ${value}`);
}
