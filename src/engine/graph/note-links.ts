/**
 * What a note's neighbourhood gives the graph list (retrieve/graph-list.ts): each note it is linked
 * to, directly or through a thing both name, with the weight of that link before the caller's own
 * weight of the note and the far note's degree are applied. Computed here once for the graph list's
 * live walk and for the links kept with the index (degrees.ts, migration 020), so that the two give
 * the same numbers to the last bit.
 */
import type { LinkGraph } from './stored.ts';

/** An entity linked to more notes than this joins nothing in particular (a tag on every note). */
export const MAX_ENTITY_DEGREE = 60;
/**
 * A seed or a named node linked to more nodes than this spreads its weight over all of them: each
 * link is worth less than 1/16 of a link from a note with one, too little to choose among them (the
 * note "Obsidian" that every note of Obsidian's help names, 3,966 links). Its links are not read:
 * on a real vault, reading them cost more than the rest of the question. It stays a seed (the other
 * seeds keep their weights), and a note the question names stays a candidate.
 */
export const MAX_SOURCE_DEGREE = 250;
/** Stated relations between two notes that count towards their link, at most. */
export const MAX_STRENGTH = 4;
/**
 * Entity types that join two notes: things with a name. Sections ("## Context"), statuses, dates and
 * tags are shared by every note of a kind (all decision records) and would join them all.
 */
export const BRIDGE_TYPES: ReadonlySet<string> = new Set(['entity', 'person', 'project', 'organization', 'technology', 'concept', 'decision']);

/**
 * The notes a node is linked to, each with its summed weight: a linked note min(strength,
 * MAX_STRENGTH) / sqrt(deg(source)); a note that names the same bridge entity (BRIDGE_TYPES, at most
 * MAX_ENTITY_DEGREE neighbours) 1 / (sqrt(deg(source)) * deg(entity)) for each such entity. Summed in
 * the order of the source's neighbours. Normalised by both ends' link counts (a hub spreads its
 * weight thin), so that a rare shared link says more than a common one; the far end's degree is the
 * caller's to divide by.
 */
export function linksOf(g: LinkGraph, source: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (id: string, w: number) => out.set(id, (out.get(id) ?? 0) + w);
  const isNote = (id: string) => g.kind(id) === 'note';
  const ds = Math.sqrt(g.degree(source));
  for (const other of g.neighbors(source)) {
    if (isNote(other)) {
      // A note named several ways (front matter, a [[link]], in a sentence) is linked more strongly.
      add(other, Math.min(MAX_STRENGTH, g.strength(source, other)) / ds);
      continue;
    }
    // Two notes that name the same person, project or codename are linked through it. The type
    // and a capped degree first: a tag on every note, or a person named in thousands, is not read whole.
    if (!g.typeIn(other, BRIDGE_TYPES)) continue;
    if (g.degreeAtMost(other, MAX_ENTITY_DEGREE) > MAX_ENTITY_DEGREE) continue;
    const d = g.degree(other);
    for (const note of g.neighbors(other)) {
      if (note !== source && isNote(note)) add(note, 1 / (ds * d));
    }
  }
  return out;
}

/** Reads together what linksOf asks of these sources: their edges, then their entities' types, caps and edges. */
export function prefetchLinks(g: LinkGraph, sources: readonly string[]): void {
  g.prefetch(sources);
  const entities = new Set<string>();
  for (const id of sources) if (g.hasNode(id)) for (const other of g.neighbors(id)) if (g.kind(other) !== 'note') entities.add(other);
  g.prefetchDegrees([...entities], MAX_ENTITY_DEGREE, BRIDGE_TYPES);
}

/** A bridge entity as linksOf weighs it: what it is (type, degree, notes), and its notes. */
export interface BridgeState {
  state: string;
  notes: string[];
}

/**
 * The bridge entities these notes name (linksOf's second kind of link), each with what linksOf reads
 * of it: the notes that share it have their kept links changed when that changes (a note starts or
 * stops naming it, or its type or degree changes).
 */
export function bridgesOf(g: LinkGraph, notes: readonly string[]): Map<string, BridgeState> {
  const out = new Map<string, BridgeState>();
  const present = notes.filter((id) => g.hasNode(id));
  prefetchLinks(g, present);
  for (const id of present) {
    for (const other of g.neighbors(id)) {
      if (out.has(other) || g.kind(other) === 'note' || !g.typeIn(other, BRIDGE_TYPES)) continue;
      if (g.degreeAtMost(other, MAX_ENTITY_DEGREE) > MAX_ENTITY_DEGREE) continue;
      const linked = g.neighbors(other).filter((n) => g.kind(n) === 'note');
      out.set(other, { state: `${g.type(other)}\u0000${g.degree(other)}\u0000${[...linked].sort().join('\u0000')}`, notes: linked });
    }
  }
  return out;
}
