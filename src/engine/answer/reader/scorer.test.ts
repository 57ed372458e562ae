import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SELECTION, SELECTION_FEATURES } from '../reader.ts';
import { ANSWERABLE_FEATURES, FEATURE_NAMES, featureVector, readingFeatures } from './features.ts';
import { answerableProbability, answerProbability, calibratedOutcome, checkProfile, defaultReaderProfile, loadReaderProfile, type ReaderProfile } from './scorer.ts';
import type { ReadingSignals } from '../reader.ts';

const signals: ReadingSignals = {
  held: 1, partMean: 0.9, partMin: 0.9, partBest: 0.9, parts: 1, partsAnswered: 1, togetherMargin: 0.4, leadCoverage: 0.9, leadWhole: 0.9,
  leadTyped: 1, leadRank: 0, runnerUp: 0.5, leadCode: 0, leadItem: 0, leadField: 0, leadColon: 0, leadQuestion: 0, leadMarkup: 0, leadWords: 12, quoted: 1,
  candidates: 40, passages: 8, unknownShare: 0, questionWords: 4, askedType: 'duration', strict: 0, simGap: 0, simBest: 0, hasVectors: 0,
};

const profile = (over: Partial<ReaderProfile> = {}): ReaderProfile => ({
  version: 1,
  features: [...FEATURE_NAMES],
  mean: FEATURE_NAMES.map(() => 0),
  scale: FEATURE_NAMES.map(() => 1),
  weights: FEATURE_NAMES.map((f) => (f === 'held' ? 4 : 0)),
  bias: -2,
  answered_at: 0.8,
  abstain_below: 0.3,
  fitted: {},
  ...over,
});

describe('readingFeatures', () => {
  it.each([
    ['held', 1],
    ['lead_rank', 1],
    ['parts_answered_share', 1],
    ['type_value', 1],
    ['type_name', 0],
    ['reader_answered', 1],
    ['sim_best', 0],
  ] as const)('%s is %d for a one-part duration question answered by the first passage', (name, value) => {
    expect(readingFeatures({ outcome: 'answered', answerability: 0.9, signals })[name]).toBeCloseTo(value, 6);
  });

  it('clips values into their ranges and turns a rank into 1/(1+rank)', () => {
    const f = readingFeatures({ outcome: 'partial', answerability: 3, signals: { ...signals, leadRank: 3, togetherMargin: -7, simBest: 0.8, hasVectors: 1 } });
    expect(f.answerability).toBe(1);
    expect(f.lead_rank).toBe(0.25);
    expect(f.together_margin).toBe(-1);
    expect(f.sim_best).toBe(0.8);
    expect(f.reader_answered).toBe(0);
  });

  it('gives a vector in the order of FEATURE_NAMES, 0 for what is missing', () => {
    const v = featureVector({ held: 0.5 });
    expect(v).toHaveLength(FEATURE_NAMES.length);
    expect(v[FEATURE_NAMES.indexOf('held')]).toBe(0.5);
    expect(v.filter((x) => x !== 0)).toEqual([0.5]);
  });
});

describe('the scorer', () => {
  it('turns features into a probability that grows with a positively weighted feature', () => {
    const high = answerProbability(profile(), readingFeatures({ outcome: 'answered', answerability: 1, signals }));
    const low = answerProbability(profile(), readingFeatures({ outcome: 'answered', answerability: 1, signals: { ...signals, held: 0.1 } }));
    expect(high).toBeCloseTo(1 / (1 + Math.exp(-2)), 3);
    expect(low).toBeLessThan(high);
  });

  it.each([
    ['answered', 0.9, 'answered'],
    ['answered', 0.5, 'partial'],
    ['answered', 0.1, 'not_found'],
    ['partial', 0.95, 'partial'],
    ['partial', 0.2, 'not_found'],
    ['not_found', 0.99, 'not_found'],
  ] as const)('a reader outcome %s with p %d becomes %s', (reader, p, expected) => {
    expect(calibratedOutcome(profile(), reader, p)).toBe(expected);
  });

  /** An answerable model that weighs only `part_best`, the reader's own not found and the scattered cause, with its bar. */
  const answerable = (at: number): NonNullable<ReaderProfile['answerable']> => ({
    features: [...ANSWERABLE_FEATURES],
    mean: ANSWERABLE_FEATURES.map(() => 0),
    scale: ANSWERABLE_FEATURES.map(() => 1),
    weights: ANSWERABLE_FEATURES.map((f) => (f === 'part_best' ? 4 : f === 'nf_scattered' ? -3 : f === 'reader_not_found' ? -1 : 0)),
    bias: -2,
    at,
  });

  it.each([
    // reader outcome, scorer p, answerable p, profile with an answerable model at 0.6?, outcome
    ['not_found', 0.1, 0.7, true, 'partial'],
    ['not_found', 0.1, 0.6, true, 'partial'],
    ['not_found', 0.1, 0.59, true, 'not_found'],
    ['not_found', 0.1, null, true, 'not_found'],
    ['not_found', 0.35, 0.1, true, 'partial'],
    ['not_found', 0.99, 0.99, false, 'not_found'],
    ['answered', 0.9, 0.1, true, 'answered'],
    ['answered', 0.1, 0.99, true, 'partial'],
    ['answered', 0.1, 0.59, true, 'not_found'],
    ['answered', 0.1, 0.99, false, 'not_found'],
    ['partial', 0.95, 0.1, true, 'partial'],
    ['partial', 0.2, 0.7, true, 'partial'],
  ] as const)('a reader outcome %s with p %d and answerable p %s (answerable model: %s) becomes %s', (reader, p, a, withModel, expected) => {
    const prof = profile(withModel ? { answerable: answerable(0.6) } : {});
    expect(calibratedOutcome(prof, reader, p, false, a)).toBe(expected);
  });

  it("tells by the answerable model whether the notes answer: its best part for it, the reader's not found and scattered words against it; null without a model", () => {
    const read = (outcome: 'answered' | 'not_found', partBest: number, scattered: number) => readingFeatures({ outcome, answerability: 0.3, signals: { ...signals, partBest, causes: { nothing: 0, unknownAttribute: 0, scattered, partLow: 0, evidenceLow: 0, unstated: 0 } } });
    const prof = profile({ answerable: answerable(0.6) });
    expect(answerableProbability(prof, read('answered', 1, 0))).toBeCloseTo(1 / (1 + Math.exp(-2)), 3);
    expect(answerableProbability(prof, read('not_found', 1, 0))).toBeCloseTo(1 / (1 + Math.exp(-1)), 3);
    expect(answerableProbability(prof, read('not_found', 1, 1))).toBeCloseTo(1 / (1 + Math.exp(2)), 3);
    expect(answerableProbability(prof, read('answered', 0.2, 0))!).toBeLessThan(answerableProbability(prof, read('answered', 1, 0))!);
    expect(answerableProbability(profile(), read('answered', 1, 0))).toBeNull();
    expect(read('not_found', 1, 1).nf_scattered).toBe(1);
    expect(read('not_found', 1, 1).reader_not_found).toBe(1);
    expect(read('answered', 1, 1).reader_not_found).toBe(0);
    // A reading stored before the causes were recorded has none.
    expect(readingFeatures({ outcome: 'not_found', answerability: 0.3, signals }).nf_scattered).toBe(0);
  });

  it('refuses an answerable model fitted on other features', () => {
    expect(() => checkProfile(profile({ answerable: { ...answerable(0.5), features: ['part_best'] } }), 'x.json')).toThrow(/tells answerable questions by other features/);
    expect(() => checkProfile(profile({ answerable: { ...answerable(0.5), weights: [1] } }), 'x.json')).toThrow(/tells answerable questions by other features/);
    expect(checkProfile(profile({ answerable: answerable(0.5) }), 'x.json').answerable?.at).toBe(0.5);
  });

  it('holds a reading with sentence vectors to its own Answered bar, when the profile has one', () => {
    const both = profile({ answered_at: 0.7, answered_at_vectors: 0.85 });
    expect(calibratedOutcome(both, 'answered', 0.8)).toBe('answered');
    expect(calibratedOutcome(both, 'answered', 0.8, true)).toBe('partial');
    expect(calibratedOutcome(both, 'answered', 0.9, true)).toBe('answered');
    expect(calibratedOutcome(profile({ answered_at: 0.7 }), 'answered', 0.8, true)).toBe('answered');
    expect(() => checkProfile(profile({ answered_at: 0.7, answered_at_vectors: 0.2, abstain_below: 0.3 }), 'x.json')).toThrow(/answered_at_vectors/);
  });

  it('refuses a profile fitted on other features, or with crossed thresholds, naming the problem', () => {
    expect(() => checkProfile({ ...profile(), features: ['held'] }, 'x.json')).toThrow(/other features/);
    expect(() => checkProfile(profile({ answered_at: 0.2, abstain_below: 0.5 }), 'x.json')).toThrow(/abstain_below/);
    expect(() => checkProfile({ version: 2 }, 'x.json')).toThrow(/x\.json is not valid/);
  });

  it('refuses selection weights for other sentence features, or that are not numbers', () => {
    expect(() => checkProfile({ ...profile(), selection: { features: ['coverage'], weights: [1] } }, 'x.json')).toThrow(/ranks sentences by other features/);
    const n = SELECTION_FEATURES.length;
    expect(() => checkProfile({ ...profile(), selection: { features: [...SELECTION_FEATURES], weights: new Array(n - 1).fill(0.1) } }, 'x.json')).toThrow(/ranks sentences by other features/);
    expect(checkProfile({ ...profile(), selection: { features: [...SELECTION_FEATURES], weights: [...DEFAULT_SELECTION] } }, 'x.json').selection?.weights).toEqual(DEFAULT_SELECTION);
  });

  it('loads a profile file and names an unreadable one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-profile-'));
    const file = path.join(dir, 'p.json');
    fs.writeFileSync(file, JSON.stringify(profile()));
    expect(loadReaderProfile(file).answered_at).toBe(0.8);
    fs.writeFileSync(file, '{not json');
    expect(() => loadReaderProfile(file)).toThrow(/Cannot read the reader profile/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('ships a valid profile whose thresholds are ordered', () => {
    const shipped = defaultReaderProfile();
    expect(shipped.abstain_below).toBeLessThanOrEqual(shipped.answered_at);
    expect(shipped.features).toEqual([...FEATURE_NAMES]);
    // Its answerable model reads the features this version computes; its bar and the abstention
    // threshold are the ones the fit chose on the dev sets, and each holds something back.
    expect(shipped.answerable?.features).toEqual([...ANSWERABLE_FEATURES]);
    const fitted = shipped.fitted.answerable as { at: number; abstain_below: number };
    expect(shipped.answerable!.at).toBe(fitted.at);
    expect(shipped.abstain_below).toBe(fitted.abstain_below);
    expect(shipped.answerable!.at).toBeGreaterThan(0);
    expect(shipped.abstain_below).toBeGreaterThan(0);
  });

  it("ships an answerable model that reads the reader's and retrieval's sides the way their meaning says", () => {
    const shipped = defaultReaderProfile();
    const none = { nothing: 0, unknownAttribute: 0, scattered: 0, partLow: 0, evidenceLow: 0, unstated: 0 };
    const read = (outcome: 'answered' | 'not_found', over: Partial<ReadingSignals>) => answerableProbability(shipped, readingFeatures({ outcome, answerability: 0.5, signals: { ...signals, partBest: 0.6, causes: none, ...over } }))!;
    // A question whose best part reads well is more likely answered in the notes than one read poorly.
    expect(read('answered', { partBest: 0.9 })).toBeGreaterThan(read('answered', { partBest: 0.3 }));
    // The reader's own not found, with the question's words scattered over sentences, speaks against it.
    expect(read('answered', {})).toBeGreaterThan(read('not_found', { causes: { ...none, scattered: 1 } }));
    // A sentence holding a value of the asked type that covers the question speaks for it.
    expect(read('answered', { typedCover: 0.9 })).toBeGreaterThan(read('answered', { typedCover: 0.1 }));
  });
});
