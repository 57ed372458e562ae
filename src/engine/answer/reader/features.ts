/**
 * The calibrated scorer's inputs: plain numbers that say how well the reader's quote answers the
 * question. Each is interpretable on its own (a share, a 0/1 flag, a rank turned into 1/(1+rank));
 * the scorer (scorer.ts) weighs them with weights fitted on question sets (`synapsis tune --answers`).
 */
import type { Reading, ReadingSignals } from '../reader.ts';

/** The asked types grouped by the kind of value that answers them. */
const TYPE_GROUPS: Record<string, string> = {
  duration: 'value',
  date: 'value',
  number: 'value',
  money: 'value',
  person: 'name',
  place: 'name',
  entity: 'name',
  reason: 'reason',
  definition: 'reason',
  procedure: 'procedure',
  any: 'any',
};

/** The features in a fixed order: a profile's weights follow it. */
export const FEATURE_NAMES = [
  'answerability',
  'reader_answered',
  'held',
  'part_mean',
  'part_min',
  'part_best',
  'parts_answered_share',
  'multi_part',
  'together_margin',
  'lead_coverage',
  'lead_whole',
  'lead_typed',
  'lead_rank',
  'runner_up',
  'lead_code',
  'lead_item',
  'lead_field',
  'lead_colon',
  'lead_question',
  'lead_markup',
  'lead_words',
  'quoted_several',
  'unknown_share',
  'question_words',
  'strict',
  'type_value',
  'type_name',
  'type_reason',
  'type_procedure',
  'type_any',
  'has_vectors',
  'sim_best',
  'sim_gap',
  'lead_stable',
  'lead_unnamed',
] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];

/**
 * The side each feature must speak for, where its meaning says it: more of the question held, a
 * value of the asked type, a steadier or better-ranked lead speak for the answer; a close runner-up,
 * words the vault lacks, a quote that asks a question or reads as markup speak against it. The fit
 * keeps these weights on their side (fit.ts), so a feature the training sets barely vary (nearly
 * every SQuAD lead holds a value of its type) cannot end up reversed.
 */
export const FEATURE_SIGNS: Partial<Record<FeatureName | RetrievalName, 1 | -1>> = {
  answerability: 1,
  reader_answered: 1,
  held: 1,
  part_mean: 1,
  part_min: 1,
  part_best: 1,
  parts_answered_share: 1,
  together_margin: 1,
  lead_coverage: 1,
  lead_whole: 1,
  lead_typed: 1,
  lead_rank: 1,
  lead_stable: 1,
  sim_best: 1,
  sim_gap: 1,
  runner_up: -1,
  unknown_share: -1,
  lead_question: -1,
  lead_markup: -1,
  lead_unnamed: -1,
  top_share: 1,
  top3_share: 1,
  rank_gap: 1,
  missing_rare: -1,
  lead_first_note: 1,
  typed_cover: 1,
  typed_share: 1,
};
/**
 * Why the reader said not found, each 0 or 1 (outcome.ts NotFoundCauses): read only by the answerable
 * model, which decides whether the notes answer at all (scorer.ts answerableProbability).
 */
export const CAUSE_NAMES = ['nf_unknown_attribute', 'nf_scattered', 'nf_part_low', 'nf_evidence_low', 'nf_unstated'] as const;
export type CauseName = (typeof CAUSE_NAMES)[number];

/**
 * Retrieval's side of answerability (retrieval-signals.ts), each a share in [0, 1] or a 0/1 flag: the
 * question's idf the first passage and the first three hold, the first passage's share less the
 * fifth's, the rarest question word no passage holds (its idf over the question's highest), the
 * distinct notes of the first five passages (over five), whether the lead is of the first passage's
 * note, the best coverage of the question by a sentence holding a value of the asked type, and the
 * share of the first three passages' sentences that hold such a value.
 */
export const RETRIEVAL_NAMES = ['top_share', 'top3_share', 'rank_gap', 'missing_rare', 'top_notes', 'lead_first_note', 'typed_cover', 'typed_share'] as const;
export type RetrievalName = (typeof RETRIEVAL_NAMES)[number];

/**
 * The answerable model's features, in order (scorer.ts answerableProbability: P(the notes answer the
 * question at all), which decides Not in your notes): how much of the question the quote (or the
 * quote the reader withheld) and its best sentence hold, how well its parts read, how far one
 * sentence is from holding the question together, how close a passage of another note comes, what
 * the question asks and lacks, whether the reader itself said not found and why, retrieval's side
 * (RETRIEVAL_NAMES: how much of the question the first passages hold, the rarest question word no
 * passage holds, the notes of the first five passages, whether the quote is of the first passage's
 * note, sentences holding a value of the asked type) and the sentence vectors' cosines. The lead's
 * shape and the asked type are left out: they say whether this quote is the answer, not whether the
 * notes hold one.
 */
export const ANSWERABLE_FEATURES: readonly string[] = [
  'answerability',
  'held',
  'part_best',
  'part_min',
  'parts_answered_share',
  'together_margin',
  'lead_whole',
  'runner_up',
  'strict',
  'unknown_share',
  'question_words',
  'reader_not_found',
  ...CAUSE_NAMES,
  ...RETRIEVAL_NAMES,
  'has_vectors',
  'sim_best',
  'sim_gap',
];

/** The reader's own outcome as a feature: 1 when it said not found (read by the answerable model only). */
export type OutcomeName = 'reader_not_found';
export type Features = Record<FeatureName | CauseName | RetrievalName | OutcomeName, number>;

const clip = (v: number, lo: number, hi: number) => (Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : 0);

/**
 * Features of one reading. Retrieval's top score is left out on purpose: BM25's scale grows with the
 * vault, so a tiny vault's exact answer would read as weak (fitted with it, "What is the launch
 * date?" over two notes scored 0.60 for its exact sentence).
 */
export function readingFeatures(reading: Pick<Reading, 'outcome' | 'answerability' | 'signals'>): Features {
  const s: ReadingSignals = reading.signals;
  const group = TYPE_GROUPS[s.askedType] ?? 'any';
  return {
    answerability: clip(reading.answerability, 0, 1),
    reader_answered: reading.outcome === 'answered' ? 1 : 0,
    reader_not_found: reading.outcome === 'not_found' ? 1 : 0,
    held: clip(s.held, 0, 1),
    part_mean: clip(s.partMean, 0, 1),
    part_min: clip(s.partMin, 0, 1),
    part_best: clip(s.partBest, 0, 1),
    parts_answered_share: s.parts > 0 ? s.partsAnswered / s.parts : 0,
    multi_part: s.parts > 1 ? 1 : 0,
    together_margin: clip(s.togetherMargin, -1, 1),
    lead_coverage: clip(s.leadCoverage, 0, 1),
    lead_whole: clip(s.leadWhole, 0, 1),
    lead_typed: s.leadTyped,
    lead_rank: 1 / (1 + s.leadRank),
    runner_up: clip(s.runnerUp, 0, 1.5),
    lead_code: s.leadCode,
    lead_item: s.leadItem,
    lead_field: s.leadField,
    lead_colon: s.leadColon,
    lead_question: s.leadQuestion,
    lead_markup: s.leadMarkup,
    lead_words: Math.log1p(s.leadWords) / Math.log(100),
    quoted_several: s.quoted > 1 ? 1 : 0,
    unknown_share: clip(s.unknownShare, 0, 1),
    question_words: Math.log1p(s.questionWords) / Math.log(20),
    strict: s.strict,
    type_value: group === 'value' ? 1 : 0,
    type_name: group === 'name' ? 1 : 0,
    type_reason: group === 'reason' ? 1 : 0,
    type_procedure: group === 'procedure' ? 1 : 0,
    type_any: group === 'any' ? 1 : 0,
    has_vectors: s.hasVectors,
    sim_best: s.hasVectors ? clip(s.simBest, -1, 1) : 0,
    sim_gap: s.hasVectors ? clip(s.simGap, -1, 1) : 0,
    lead_stable: clip(s.leadStable ?? 1, 0, 1),
    lead_unnamed: s.leadUnnamed ?? 0,
    nf_unknown_attribute: s.causes?.unknownAttribute ?? 0,
    nf_scattered: s.causes?.scattered ?? 0,
    nf_part_low: s.causes?.partLow ?? 0,
    nf_evidence_low: s.causes?.evidenceLow ?? 0,
    nf_unstated: s.causes?.unstated ?? 0,
    ...retrievalFeatures(s),
  };
}

/** The retrieval features of a reading's signals (0 for a reading stored before they were measured). */
function retrievalFeatures(s: ReadingSignals): Record<RetrievalName, number> {
  return {
    top_share: clip(s.topShare ?? 0, 0, 1),
    top3_share: clip(s.top3Share ?? 0, 0, 1),
    rank_gap: clip(s.rankGap ?? 0, -1, 1),
    missing_rare: clip(s.missingRare ?? 0, 0, 1),
    top_notes: clip(s.topNotes ?? 0, 0, 1),
    lead_first_note: s.leadFirstNote ?? 0,
    typed_cover: clip(s.typedCover ?? 0, 0, 1),
    typed_share: clip(s.typedShare ?? 0, 0, 1),
  };
}

/** The features as a vector in FEATURE_NAMES order (or another list of names: the answerable model's). */
export function featureVector(f: Partial<Record<string, number>>, names: readonly string[] = FEATURE_NAMES): number[] {
  return names.map((n) => {
    const v = f[n];
    return typeof v === 'number' && Number.isFinite(v) ? v : 0;
  });
}
