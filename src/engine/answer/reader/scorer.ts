/**
 * The fitted scorer: P(the quote states the asked fact) from the reading's features, by logistic
 * regression over standardised features, and the outcome that probability earns. The weights and
 * the two thresholds live in a reader profile (answer-profile.json beside this file), written by
 * `synapsis tune --answers` from training question sets, the thresholds chosen on dev sets.
 */
import fs from 'node:fs';
import { z } from 'zod';
import { createError } from '../../../shared/errors.ts';
import defaultProfile from './answer-profile.json' with { type: 'json' };
import { SELECTION_FEATURES } from '../reader.ts';
import { ANSWERABLE_FEATURES, FEATURE_NAMES, featureVector, type Features } from './features.ts';

export const ReaderProfileSchema = z.object({
  version: z.literal(1),
  features: z.array(z.string()),
  mean: z.array(z.number()),
  scale: z.array(z.number()),
  weights: z.array(z.number()),
  bias: z.number(),
  /** At or above: Answered (chosen for >= 90% precision of Answered on the dev sets). */
  answered_at: z.number().min(0).max(1),
  /**
   * The same bar for a reading with sentence vectors (an embedder installed), chosen on the dev rows
   * read with them; absent: answered_at. A probability is calibrated over both kinds of reading, but
   * the Answered bar is chosen for >= 90% precision within each.
   */
  answered_at_vectors: z.number().min(0).max(1).optional(),
  /**
   * Below: Not in your notes, unless the answerable model says the notes answer (its `at`): a quote
   * this probable is shown, whatever the answerable model says.
   */
  abstain_below: z.number().min(0).max(1),
  /**
   * The weights that rank the candidate sentences (answer/reader.ts SELECTION_FEATURES), fitted on the
   * training sets' sentences that hold the asked fact; absent: the reader's hand-set weights.
   */
  selection: z.object({ features: z.array(z.string()), weights: z.array(z.number()) }).optional(),
  /**
   * Whether the notes answer the question at all: a logistic model over ANSWERABLE_FEATURES (the
   * reading's features, the reader's own not found and why, retrieval's side), fitted on the training
   * sets' readings, P(the question has an answer in the notes). At or above `at` the quote (or, when
   * the reader said not found, the quote it withheld) is shown, as Partly answered unless it earns
   * Answered; below it and below abstain_below: Not in your notes. Both bars are chosen together on
   * the dev sets. Absent: a quote below abstain_below is not found, and so is the reader's not found.
   */
  answerable: z
    .object({
      features: z.array(z.string()),
      mean: z.array(z.number()),
      scale: z.array(z.number()),
      weights: z.array(z.number()),
      bias: z.number(),
      at: z.number().min(0).max(1),
    })
    .optional(),
  /** Where the numbers come from: training and dev sets, and the scores measured. */
  fitted: z.record(z.string(), z.unknown()).default({}),
});
export type ReaderProfile = z.infer<typeof ReaderProfileSchema>;

/** Checks a profile: its features must be the ones this code computes, in order. */
export function checkProfile(raw: unknown, source: string): ReaderProfile {
  const parsed = ReaderProfileSchema.safeParse(raw);
  if (!parsed.success) throw createError('E_SYN_BAD_REQUEST', `Reader profile ${source} is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const p = parsed.data;
  const n = FEATURE_NAMES.length;
  if (p.features.join(',') !== FEATURE_NAMES.join(',') || p.mean.length !== n || p.scale.length !== n || p.weights.length !== n) {
    throw createError('E_SYN_BAD_REQUEST', `Reader profile ${source} was fitted on other features than this version computes: fit it again with synapsis tune --answers`);
  }
  if (p.selection && (p.selection.features.join(',') !== SELECTION_FEATURES.join(',') || p.selection.weights.length !== SELECTION_FEATURES.length || p.selection.weights.some((w) => !Number.isFinite(w)))) {
    throw createError('E_SYN_BAD_REQUEST', `Reader profile ${source} ranks sentences by other features than this version computes: fit it again with synapsis tune --answers`);
  }
  const m = p.answerable;
  if (m && (m.features.join(',') !== ANSWERABLE_FEATURES.join(',') || m.mean.length !== m.features.length || m.scale.length !== m.features.length || m.weights.length !== m.features.length)) {
    throw createError('E_SYN_BAD_REQUEST', `Reader profile ${source} tells answerable questions by other features than this version computes: fit it again with synapsis tune --answers`);
  }
  if (p.answered_at_vectors !== undefined && p.abstain_below > p.answered_at_vectors) throw createError('E_SYN_BAD_REQUEST', `Reader profile ${source}: abstain_below (${p.abstain_below}) is above answered_at_vectors (${p.answered_at_vectors})`);
  if (p.abstain_below > p.answered_at) throw createError('E_SYN_BAD_REQUEST', `Reader profile ${source}: abstain_below (${p.abstain_below}) is above answered_at (${p.answered_at})`);
  return p;
}

let builtIn: ReaderProfile | null = null;
/** The profile that ships with the product. */
export function defaultReaderProfile(): ReaderProfile {
  builtIn ??= checkProfile(defaultProfile, 'answer-profile.json');
  return builtIn;
}

/** A profile from a JSON file (a path a user gave), checked. */
export function loadReaderProfile(file: string): ReaderProfile {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw createError('E_SYN_BAD_REQUEST', `Cannot read the reader profile ${file}: ${(error as Error).message}`);
  }
  return checkProfile(raw, file);
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The linear score of standardised features (the logit). */
export function logit(weights: readonly number[], bias: number, x: readonly number[]): number {
  let z = bias;
  for (let i = 0; i < weights.length; i++) z += weights[i]! * x[i]!;
  return z;
}

/** Standardises a raw feature vector with a profile's means and scales. */
export function standardise(profile: Pick<ReaderProfile, 'mean' | 'scale'>, raw: readonly number[]): number[] {
  return raw.map((v, i) => (v - profile.mean[i]!) / (profile.scale[i]! || 1));
}

/** P(the quote states the asked fact), in [0, 1], rounded to 3 decimals. */
export function answerProbability(profile: ReaderProfile, features: Features): number {
  const p = sigmoid(logit(profile.weights, profile.bias, standardise(profile, featureVector(features))));
  return Math.round(p * 1000) / 1000;
}

/**
 * The answerable model's P(the notes answer the question at all), rounded to 3 decimals; null when
 * the profile has no answerable model.
 */
export function answerableProbability(profile: ReaderProfile, features: Features): number | null {
  const m = profile.answerable;
  if (!m) return null;
  const p = sigmoid(logit(m.weights, m.bias, standardise(m, featureVector(features, m.features))));
  return Math.round(p * 1000) / 1000;
}

export type CalibratedOutcome = 'answered' | 'partial' | 'not_found';

/** The Answered bar for a reading with or without sentence vectors. */
export function answeredBar(profile: Pick<ReaderProfile, 'answered_at' | 'answered_at_vectors'>, withVectors: boolean): number {
  return withVectors && profile.answered_at_vectors !== undefined ? profile.answered_at_vectors : profile.answered_at;
}

/**
 * The outcome a reading earns. Answered only when the reader found every part and the probability
 * clears the Answered bar. Otherwise the quote is shown as Partly answered (the quote, and the
 * closest passages, for the person to read) when it is probable enough (abstain_below) or the notes
 * most likely answer the question (the answerable model at or above its bar); else Not in your notes.
 * The reader's own not found is weighed the same way, its withheld quote in place of a quote (never
 * Answered); without an answerable model it stands.
 */
export function calibratedOutcome(profile: ReaderProfile, readerOutcome: CalibratedOutcome, probability: number, withVectors = false, answerable: number | null = null): CalibratedOutcome {
  const answers = profile.answerable !== undefined && answerable !== null && answerable >= profile.answerable.at;
  if (readerOutcome === 'not_found') return profile.answerable && (answers || probability >= profile.abstain_below) ? 'partial' : 'not_found';
  if (probability < profile.abstain_below && !answers) return 'not_found';
  if (readerOutcome === 'answered' && probability >= answeredBar(profile, withVectors)) return 'answered';
  return 'partial';
}
