/** What the reading measured, for the calibrated scorer (reader/features.ts): the evidence of the outcome, the quote's lead and the candidates around it. */
import type { Candidate, CandidateRow, ReadingSignals } from './types.ts';
import { coverage, isMarkupFragment, SELECTION_FEATURES } from './selection.ts';
import { quotedSims0, round3 } from './outcome.ts';
import type { Judgement, QuoteContext } from './outcome.ts';
import { retrievalSignals } from './retrieval-signals.ts';
import { namesNewTerm, sentenceWords } from './sentence-signals.ts';

/** The signals of a reading: the judgement's evidence, the lead's shape and score against the runner-up of another note, and the question's. */
export function readingSignals(ctx: QuoteContext, judgement: Judgement): ReadingSignals {
  const { picked } = ctx;
  const { candidates, passages, all, allTotal, unknown, parts, stats, lang } = ctx.weighed;
  const { table, order } = ctx.scores;
  const { sims, withVector } = ctx.vectors;
  const { partReadings, heldShare, partScore, bestPart, togetherMargin, meanSim, quoteSims, causes } = judgement;
  // What the reading measured, for the calibrated scorer: the quote's lead, or the best candidate when nothing is quoted.
  const leadAt = picked[0] ?? order[0];
  const leadC = leadAt === undefined ? undefined : candidates[leadAt];
  const totalOf = (i: number | undefined) => (i === undefined ? 0 : table[i]!.reduce((sum, r) => sum + r.score, 0));
  const runnerAt = order.find((i) => i !== leadAt && candidates[i]!.doc !== leadC?.doc);
  const leadTotal = totalOf(leadAt);
  // Retrieval's side (retrieval-signals.ts): the passages in rank order, each with its note, and the question's words the vault holds.
  const ranks = [...passages.keys()].sort((a, b) => a - b);
  const noteOf = new Map<number, unknown>();
  for (const c of candidates) if (!noteOf.has(c.snippetIndex)) noteOf.set(c.snippetIndex, c.doc);
  const known = all.filter((t) => (stats.get(t.stem)?.df ?? 0) > 0).map((t) => ({ term: t.term, idf: Math.max(stats.get(t.stem)!.idf, 0.05) }));
  const retrieval = retrievalSignals(
    ranks.map((r) => passages.get(r)!),
    ranks.map((r) => noteOf.get(r)),
    known,
    leadC?.doc,
  );
  // The best coverage of the first part by a sentence that holds a value of its asked type: a question whose notes never state such a value near its words has none.
  const typedCover = table.reduce((best, row) => (row[0]!.typed ? Math.max(best, row[0]!.cov) : best), 0);
  // The share of the first three passages' sentences that hold a value of the asked type: none, for a price the notes never state.
  const first3 = new Set(ranks.slice(0, 3));
  const inFirst3 = candidates.flatMap((c, i) => (first3.has(c.snippetIndex) ? [i] : []));
  const typedShare = inFirst3.length > 0 ? inFirst3.filter((i) => table[i]![0]!.typed).length / inFirst3.length : 0;
  // A question that asks for a name ("which option", "who") answered by a lead that names nothing the
  // question does not: the sentence restates what was asked ("I solved this with the Sphinx
  // literalinclude directive" for "which literalinclude option…").
  const asksName = NAME_TYPES.has(parts[0]?.asked.type ?? 'any');
  const leadUnnamed = asksName && leadC ? namesNewTerm(leadC.text, sentenceWords(leadC.text, lang), all.map((t) => t.term)) === false : false;
  return {
    held: round3(heldShare),
    partMean: round3(partScore),
    partMin: round3(partReadings.length > 0 ? Math.min(...partReadings.map((p) => p.score)) : 0),
    partBest: round3(bestPart),
    parts: parts.length,
    partsAnswered: partReadings.filter((p) => p.answered).length,
    togetherMargin: round3(togetherMargin),
    leadCoverage: round3(leadAt === undefined ? 0 : table[leadAt]![0]!.cov),
    leadWhole: round3(leadC ? coverage(leadC, all, allTotal) : 0),
    leadTyped: leadAt !== undefined && table[leadAt]![0]!.typed ? 1 : 0,
    leadRank: leadC?.snippetIndex ?? 0,
    runnerUp: round3(leadTotal > 0 ? Math.min(1.5, totalOf(runnerAt) / leadTotal) : 0),
    ...leadShape(leadC),
    quoted: picked.length,
    candidates: candidates.length,
    passages: passages.size,
    unknownShare: round3(all.length > 0 ? unknown.length / all.length : 0),
    questionWords: all.filter((t) => t.w > 0).length,
    askedType: parts[0]?.asked.type ?? 'any',
    strict: parts[0]?.asked.strict ? 1 : 0,
    simGap: round3(withVector.length >= 2 && quoteSims.length > 0 ? Math.max(...quoteSims) - meanSim : 0),
    simBest: round3(quotedSims0(picked.length > 0 ? picked : order, sims)),
    hasVectors: withVector.length >= 2 ? 1 : 0,
    causes,
    ...retrieval,
    typedCover: round3(typedCover),
    typedShare: round3(typedShare),
    leadUnnamed: leadUnnamed ? 1 : 0,
  };
}

/** The asked types answered by a name: a person, a place, a thing ("which option"). */
const NAME_TYPES = new Set(['person', 'place', 'entity']);

/** The shape of the lead sentence: a line of code, a list item or step, a field line, ending in a colon or a question mark, a markup fragment, its length in words. */
function leadShape(leadC: Candidate | undefined) {
  return {
    leadCode: leadC?.code ? 1 : 0,
    leadItem: leadC?.item || leadC?.steps ? 1 : 0,
    leadField: leadC?.subject !== undefined ? 1 : 0,
    leadColon: leadC && /[:：]\s*$/.test(leadC.text) ? 1 : 0,
    leadQuestion: leadC && /[?？]\s*$/.test(leadC.text) ? 1 : 0,
    leadMarkup: leadC && isMarkupFragment(leadC.text) ? 1 : 0,
    leadWords: leadC ? leadC.text.split(/\s+/).filter(Boolean).length : 0,
  };
}

/** Each candidate's selection features summed over the parts, when the options ask for them (for fitting the selection weights). */
export function candidateRows(ctx: QuoteContext): { candidateRows?: CandidateRow[] } {
  const { options } = ctx;
  const { candidates } = ctx.weighed;
  const { table } = ctx.scores;
  return options.collectCandidates ? { candidateRows: candidates.map((c, i): CandidateRow => ({ text: c.text, snippetIndex: c.snippetIndex, features: SELECTION_FEATURES.map((_, k) => round3(table[i]!.reduce((sum, r) => sum + r.f[k]!, 0))) })) } : {};
}
