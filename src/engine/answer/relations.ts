/**
 * Relations between people and records that notes state by a label and questions by a verb: a
 * decision record says "Decider: Maya Chen" or «Решение принимала: Анна», a question asks "who
 * picked" or «кто выбрал»; a person's note says "Reports to: Maya Chen", a question asks "who
 * manages"; a record says "Author: Priya Raman", a question asks "who wrote". A sentence that states
 * one of these relations holds the words a question asks it with. The words are each language's
 * (its pack's `relations`, src/engine/lang/<code>/reader.ts): English and Russian so far.
 */
import { READER_PACKS } from '../lang/reader-packs.ts';
import { tokenize } from '../search/analyzer.ts';

interface Relation {
  /** How a note states it: a field label, or a verb of the relation. */
  stated: RegExp;
  /** The words a question asks it with. */
  asked: string;
  /** The words a note labels it with: what a search for the line uses. */
  label: string;
  /** The graph's relation type for it, from a note's front matter (graph/extract.ts: decided_by, reports_to, authored_by). */
  graph: string;
}

/** Each relation with what every language's pack says of it, in pack order. */
const RELATIONS: readonly Relation[] = (['decided_by', 'reports_to', 'authored_by'] as const).map((graph) => {
  const of = READER_PACKS.flatMap((p) => (p.relations?.[graph] ? [p.relations[graph]] : []));
  return {
    stated: new RegExp(`(?<![\\p{L}])(?:${of.flatMap((r) => r.stated).join('|')})(?![\\p{L}])`, 'iu'),
    label: of.map((r) => r.label).join(' '),
    graph,
    asked: of.map((r) => r.asked).join(' '),
  };
});

const askedTerms = RELATIONS.map((r) => [...new Set(tokenize(r.asked).map((t) => t.term))]);

/** The index terms of the words a question would ask the relations `text` states with. */
export function relationTerms(text: string): string[] {
  const out: string[] = [];
  RELATIONS.forEach((r, i) => {
    if (r.stated.test(text)) out.push(...askedTerms[i]!);
  });
  return out;
}

/** Whether a word of a question is one a relation is asked by ("chose", «начальник»): a field's label states it without the word. */
export function asksRelationBy(word: string): boolean {
  const terms = tokenize(word).map((t) => t.term);
  return terms.length > 0 && terms.every((t) => askedTerms.some((asked) => asked.includes(t)));
}

/**
 * The relation a question's clause asks by its verb ("chose WebSockets" → the decider, "wrote the
 * record" → the author, "manages Priya" → the manager), as an index for statesRelation; null when
 * it asks none of them.
 */
export function askedRelation(clause: string): number | null {
  const terms = new Set(tokenize(clause).map((t) => t.term));
  const i = askedTerms.findIndex((asked) => asked.some((t) => terms.has(t)));
  return i < 0 ? null : i;
}

/** Whether a field's label states the relation ("Decider", "Author and decider", «Решение принимала»). */
export function statesRelation(label: string, relation: number): boolean {
  return RELATIONS[relation]?.stated.test(label) ?? false;
}

/** The words a note labels the relation with ("decider decided decision"): a search for its line. */
export function relationLabel(relation: number): string {
  return RELATIONS[relation]?.label ?? '';
}

/** The graph's relation type of the relation ("decided_by"): a note's front matter states it so. */
export function relationGraphType(relation: number): string | null {
  return RELATIONS[relation]?.graph ?? null;
}

/**
 * Whether a field's label makes the note the named person's work: she decided it or wrote it
 * ("Decider:", "Author and decider:", «Решение принимала:»); not a relation of the note's own
 * subject to her ("Reports to:").
 */
export function statesWorkOf(label: string): boolean {
  return RELATIONS.some((r) => (r.graph === 'decided_by' || r.graph === 'authored_by') && r.stated.test(label));
}
