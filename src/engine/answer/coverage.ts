/**
 * Does the material mention what the question is about? The share of the question's content
 * words found in the snippets, each weighted by its rarity in the whole index (idf), and the words
 * no file mentions at all. It informs, it does not decide: on the sample vault's questions it does
 * not separate the unanswerable ones (0.58, 0.59) from answerable paraphrases ("postpone" asked,
 * "deferred" written: 0.45), so it lowers confidence and tells the user which words their files
 * never use, and the critic decides whether to abstain.
 */
import { tokenize } from '../search/analyzer.ts';
import { contentTerms } from './checks.ts';
import type { Snippet } from './types.ts';

export interface Coverage {
  /** Weighted share of question terms present, in [0, 1]; 1 for a question with no content words. */
  share: number;
  /** Question terms (stemmed) no snippet holds, rarest first. */
  missing: string[];
  /** Question words (as the user wrote them) that no chunk of the whole index holds. */
  unknown: string[];
}

/** Words that frame a question rather than say what it is about (stemmed forms too). */
const QUESTION_WORDS = new Set(
  (
    'what which who whom whose when where why how does doe did do long often many much kind sort tell explain describe mean ' +
    'что какой какая какое какие каков кто когда где куда откуда почему зачем как сколько скольк ли'
  ).split(' '),
);

export function questionCoverage(
  question: string,
  snippets: readonly Snippet[],
  /** idf and document frequency of each term in the whole index. */
  termStats: (terms: readonly string[]) => Map<string, { idf: number; df: number }>,
): Coverage {
  const terms = [...new Set(contentTerms(question))].filter((t) => !QUESTION_WORDS.has(t));
  const written = new Map<string, string>();
  for (const t of tokenize(question)) if (!written.has(t.term)) written.set(t.term, t.raw);
  if (terms.length === 0) return { share: 1, missing: [], unknown: [] };
  const present = new Set<string>();
  for (const s of snippets) {
    for (const t of tokenize(`${s.title}\n${s.heading ?? ''}\n${s.text}`)) {
      present.add(t.term);
      for (const p of t.parts) present.add(p);
    }
  }
  const stats = termStats(terms);
  let total = 0;
  let found = 0;
  const missing: { term: string; w: number }[] = [];
  for (const t of terms) {
    const w = Math.max(stats.get(t)?.idf ?? 0, 1e-3);
    total += w;
    if (present.has(t)) found += w;
    else missing.push({ term: t, w });
  }
  missing.sort((a, b) => b.w - a.w);
  const unknown = missing.filter((m) => (stats.get(m.term)?.df ?? 0) === 0).map((m) => written.get(m.term) ?? m.term);
  return { share: Math.round((found / total) * 1000) / 1000, missing: missing.map((m) => m.term), unknown };
}
