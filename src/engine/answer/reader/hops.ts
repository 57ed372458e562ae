/** The names a second search follows: what the quoted (or closest) sentences name beyond the question, and the notes they link to. */
import { tokenize } from '../../search/analyzer.ts';
import { matchForm, nameKey, phraseKey } from './text.ts';
import { isLabel, NAME_PHRASE } from './candidates.ts';
import { HOP_FROM, MAX_HOPS } from './render.ts';
import type { Scores } from './table.ts';
import type { QuestionWeights } from './weights.ts';

/**
 * The subjects a second hop would read about, at most MAX_HOPS: the names the best sentences hold (a
 * name of two words, or one the passages always capitalise), best sentence first; then the notes they
 * link to. Not a name the question gives, nor the title of a note already read.
 */
export function namesToFollow(question: string, weighed: QuestionWeights, scores: Scores, picked: readonly number[]): string[] {
  const { lang, candidates } = weighed;
  const { table, order } = scores;
  const asked = new Set(tokenize(question, lang).map((t) => matchForm(t.term)));
  const hops: string[] = [];
  const seenHop = new Set<string>();
  const addHop = (name: string) => {
    const key = phraseKey(name);
    const words = key.trim().split(' ');
    if (hops.length >= MAX_HOPS || seenHop.has(key) || words.every((w) => asked.has(nameKey(w, lang)))) return;
    seenHop.add(key);
    hops.push(name);
  };
  const top = [...new Set([...picked, ...order.slice(0, HOP_FROM)])].filter((i) => table[i]!.some((r) => r.cov > 0));
  // The names the best sentences hold (a name of two words, or one the passages always capitalise),
  // best sentence first; then the notes they link to.
  const topTitles = new Set(top.flatMap((i) => (candidates[i]!.titleKey ? [candidates[i]!.titleKey!] : [])));
  for (const key of topTitles) seenHop.add(key);
  for (const i of top) {
    const c = candidates[i]!;
    for (const m of c.text.matchAll(NAME_PHRASE)) {
      const words = m[0].split(/\s+/);
      if (!isLabel(c.text, m.index!, m[0]) && words.some((w) => c.names?.has(nameKey(w, lang))) && (words.length > 1 || c.nameOrder?.includes(nameKey(m[0], lang)))) addHop(m[0]);
    }
  }
  for (const i of top) for (const l of candidates[i]!.links ?? []) addHop(l);
  return hops;
}
