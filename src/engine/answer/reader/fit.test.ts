import { describe, expect, it } from 'vitest';
import { FEATURE_NAMES, ANSWERABLE_FEATURES } from './features.ts';
import { answerableRowProbability, answerableRows, type CandidateSet, chooseShowBars, fitAnswerable, kindWeights, showScore, chooseAnsweredAtPooled, fitLogistic, fitSelection, selectionAccuracy, fitScorer, fitRecalibration, type LabelledRow, logLoss, outcomeCounts, recalibrated, rowProbability, solve, standardisation, surestRight } from './fit.ts';

/** A deterministic stream of numbers in [0, 1). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('solve', () => {
  it('solves a small linear system', () => {
    const x = solve([[4, 1], [1, 3]], [1, 2]);
    expect(x[0]).toBeCloseTo(1 / 11, 9);
    expect(x[1]).toBeCloseTo(7 / 11, 9);
  });
});

/** 3,000 rows of two features whose labels follow P = sigmoid(2a - b + bias). */
function labelled(seed: number, bias: number): { x: number[][]; y: boolean[] } {
  const next = rng(seed);
  const x: number[][] = [];
  const y: boolean[] = [];
  for (let i = 0; i < 3000; i++) {
    const a = next() * 4 - 2;
    const b = next() * 4 - 2;
    x.push([a, b]);
    y.push(next() < 1 / (1 + Math.exp(-(2 * a - 1 * b + bias))));
  }
  return { x, y };
}

describe('fitLogistic', () => {
  it('recovers the sign and rough size of the weights that made the labels', () => {
    const { x, y } = labelled(7, 0.5);
    const { weights, bias } = fitLogistic(x, y, 0.01);
    expect(weights[0]).toBeGreaterThan(1.6);
    expect(weights[0]).toBeLessThan(2.4);
    expect(weights[1]).toBeLessThan(-0.7);
    expect(weights[1]).toBeGreaterThan(-1.3);
    expect(bias).toBeGreaterThan(0.3);
    expect(bias).toBeLessThan(0.7);
  });

  it('keeps a signed weight on its side of zero and fits the others as before', () => {
    const { x, y } = labelled(11, 0);
    // b speaks against the label; held to speak for it, its weight stays at 0, and a's is still found.
    const held = fitLogistic(x, y, 0.01, 50, [0, 1]);
    expect(held.weights[1]).toBe(0);
    expect(held.weights[0]).toBeGreaterThan(1.4);
    // The same sign as the data's: the bound does not bind.
    const free = fitLogistic(x, y, 0.01, 50, [1, -1]);
    const plain = fitLogistic(x, y, 0.01);
    expect(free.weights[0]).toBeCloseTo(plain.weights[0]!, 6);
    expect(free.weights[1]).toBeCloseTo(plain.weights[1]!, 6);
  });

  it('fits a row of weight 2 as two copies of it', () => {
    const { x, y } = labelled(5, 0.2);
    const weights = x.map((_, i) => (i % 3 === 0 ? 2 : 1));
    const doubled = fitLogistic(x, y, 1, 50, [], weights);
    const copies = fitLogistic([...x, ...x.filter((_, i) => i % 3 === 0)], [...y, ...y.filter((_, i) => i % 3 === 0)], 1);
    expect(doubled.weights[0]).toBeCloseTo(copies.weights[0]!, 6);
    expect(doubled.weights[1]).toBeCloseTo(copies.weights[1]!, 6);
    expect(doubled.bias).toBeCloseTo(copies.bias, 6);
    // Weights of 1 are the plain fit.
    expect(fitLogistic(x, y, 1, 50, [], x.map(() => 1))).toEqual(fitLogistic(x, y, 1));
  });

  it('keeps weights finite on separable data (the L2 penalty)', () => {
    const { weights } = fitLogistic([[-1], [-2], [1], [2]], [false, false, true, true], 1);
    expect(Number.isFinite(weights[0])).toBe(true);
    expect(weights[0]).toBeGreaterThan(0);
  });
});

describe('standardisation', () => {
  it('gives means and standard deviations, 1 for a constant feature', () => {
    const { mean, scale } = standardisation([[1, 5], [3, 5]]);
    expect(mean).toEqual([2, 5]);
    expect(scale).toEqual([1, 1]);
  });
});

/** Rows whose label follows one feature (held): a scorer should learn it. */
function rows(n: number, seed: number, answerable = true): LabelledRow[] {
  const next = rng(seed);
  return Array.from({ length: n }, () => {
    const held = next();
    const features = Object.fromEntries(FEATURE_NAMES.map((f) => [f, f === 'held' ? held : next() * 0.1]));
    return { features, label: answerable && next() < held, readerOutcome: 'answered' as const, answerable, quoted: true };
  });
}

describe('fitScorer and the thresholds', () => {
  const train = rows(2000, 1);
  const fitted = fitScorer(train);

  it('weighs the feature that predicts the label most', () => {
    const held = FEATURE_NAMES.indexOf('held');
    const biggest = fitted.weights.reduce((best, w, i) => (Math.abs(w) > Math.abs(fitted.weights[best]!) ? i : best), 0);
    expect(biggest).toBe(held);
    expect(rowProbability(fitted, { features: { held: 0.95 } })).toBeGreaterThan(rowProbability(fitted, { features: { held: 0.1 } }));
  });

  it('scores probabilities by their log loss over the quoted rows: the fitted ones beat a constant and a coin flip', () => {
    const dev = rows(1000, 2);
    const p = dev.map((r) => rowProbability(fitted, r));
    const share = dev.filter((r) => r.quoted && r.label).length / dev.filter((r) => r.quoted).length;
    expect(logLoss(dev, p)).toBeLessThan(logLoss(dev, dev.map(() => share)));
    expect(logLoss(dev, dev.map(() => 0.5))).toBeCloseTo(Math.log(2), 3);
    // A certain miss costs a bounded amount; rows without a quote do not count.
    const miss: LabelledRow = { features: {}, label: false, answerable: true, quoted: true, readerOutcome: 'answered' };
    expect(logLoss([miss], [1])).toBeCloseTo(-Math.log(1e-6), 3);
    expect(logLoss([{ ...miss, quoted: false }], [1])).toBe(0);
  });

  it('chooses the lowest Answered threshold that reaches the precision target on dev rows', () => {
    const dev = rows(1000, 2);
    const p = dev.map((r) => rowProbability(fitted, r));
    const at = chooseAnsweredAtPooled([{ rows: dev, p }], 0.9);
    const counts = outcomeCounts(dev, p, at, 0);
    expect(counts.precision).not.toBeNull();
    expect(counts.precision!).toBeGreaterThanOrEqual(0.9);
    // Just below the threshold the target is missed: it is the lowest one that holds.
    const below = outcomeCounts(dev, p, at - 0.01, 0);
    expect(below.precision!).toBeLessThan(0.9 + 0.02);
    expect(chooseAnsweredAtPooled([{ rows: dev, p }], 1.01)).toBe(1);
  });

  it('takes an Answered threshold where the pooled answers above it are right, and expected to be right, at the target', () => {
    const row = (p: number, label: boolean) => ({ row: { features: {}, label, answerable: true, quoted: true, readerOutcome: 'answered' as const }, p });
    const group = (g: ReturnType<typeof row>[]) => ({ rows: g.map((x) => x.row), p: g.map((x) => x.p) });
    // 30 answers from 0.703 to 0.993, all right: counting alone would badge them all, but their mean
    // probability (0.848) says such answers are right about 85% of the time; the bar rises until the
    // mean above it reaches 0.9 (0.803 up: 0.898; 0.813 up: 0.903).
    const sure = Array.from({ length: 30 }, (_, i) => row(0.703 + i * 0.01, true));
    const at = chooseAnsweredAtPooled([group(sure)], 0.9, 10);
    expect(at).toBeCloseTo(0.813, 3);
    const above = sure.filter((x) => x.p >= at);
    expect(above.reduce((sum, x) => sum + x.p, 0) / above.length).toBeGreaterThanOrEqual(0.9);
    // Two groups are pooled: 12 calibration answers and 12 dev answers from 0.88 up are too few alone
    // (at least 20), enough together; a wrong one among them still leaves 23 of 24 right.
    const calibration = Array.from({ length: 12 }, (_, i) => row(0.88 + i * 0.01, i !== 5));
    const dev = Array.from({ length: 12 }, (_, i) => row(0.885 + i * 0.01, true));
    expect(chooseAnsweredAtPooled([group(calibration)], 0.9, 20)).toBe(1);
    expect(chooseAnsweredAtPooled([group(calibration), group(dev)], 0.9, 20)).toBeCloseTo(0.88, 3);
    // Answers that are wrong too often leave no bar, however sure they look.
    expect(chooseAnsweredAtPooled([group(sure.map((x, i) => ({ ...x, row: { ...x.row, label: i % 3 === 0 } })))], 0.9, 10)).toBe(1);
    // Every answer counted clears the bar: it is rounded down to three places.
    expect(chooseAnsweredAtPooled([group(Array.from({ length: 10 }, () => row(0.9996, true)))], 0.9, 10)).toBe(0.999);
  });

  it('abstains where the unanswerable questions are told best from the answerable ones', () => {
    const dev = [...rows(500, 3), ...rows(200, 4, false).map((r) => ({ ...r, features: { ...r.features, held: r.features.held! * 0.3 } }))];
    const p = dev.map((r) => rowProbability(fitted, r));
    const at = chooseAnsweredAtPooled([{ rows: dev, p }], 0.9);
    // Without an answerable model only the abstention threshold decides.
    const { abstainBelow: below } = chooseShowBars(dev, p, null, at);
    const j = (t: number) => showScore(outcomeCounts(dev, p, at, t));
    expect(below).toBeGreaterThan(0);
    expect(below).toBeLessThanOrEqual(at);
    expect(outcomeCounts(dev, p, at, below).unanswerableAbstained).toBeGreaterThan(outcomeCounts(dev, p, at, 0).unanswerableAbstained);
    // No other threshold scores better: unanswerable abstained, less answerable abstained, plus facts shown.
    for (const t of [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]) expect(j(below)).toBeGreaterThanOrEqual(j(t) - 1e-9);
  });
});

describe('fitRecalibration', () => {
  // A scorer that is over-confident on unseen notes: where it says p, a quote is right with the
  // probability of the logit halved and shifted down by one.
  const next = rng(11);
  const logitOf = (p: number) => Math.log(p / (1 - p));
  const p = Array.from({ length: 4000 }, () => 0.02 + 0.96 * next());
  const rowsOf = (ps: readonly number[]): LabelledRow[] => ps.map((v) => ({ features: {}, label: next() < 1 / (1 + Math.exp(-(0.5 * logitOf(v) - 1))), answerable: true, quoted: true, readerOutcome: 'answered' }));
  const unseen = rowsOf(p);

  it('finds the slope and shift of the logit that the unseen rows say, and the probabilities it gives predict them better', () => {
    const r = fitRecalibration(unseen, p)!;
    expect(r.a).toBeCloseTo(0.5, 1);
    expect(r.b).toBeCloseTo(-1, 1);
    const after = p.map((v) => 1 / (1 + Math.exp(-(r.a * logitOf(v) + r.b))));
    expect(logLoss(unseen, after)).toBeLessThan(logLoss(unseen, p));
  });

  it('folds into the scorer: the same order of probabilities, each one recalibrated', () => {
    const fit = fitScorer(rows(600, 1));
    const r = { a: 0.6, b: -0.8 };
    const scaled = recalibrated(fit, r);
    const dev = rows(300, 2);
    const before = dev.map((x) => rowProbability(fit, x));
    const after = dev.map((x) => rowProbability(scaled, x));
    for (let i = 0; i < dev.length; i++) {
      expect(after[i]!).toBeCloseTo(1 / (1 + Math.exp(-(r.a * logitOf(before[i]!) + r.b))), 3);
      if (i > 0 && Math.abs(before[i]! - before[i - 1]!) > 1e-3) expect(Math.sign(after[i]! - after[i - 1]!)).toBe(Math.sign(before[i]! - before[i - 1]!));
    }
  });

  it('says nothing from too few quoted rows, or rows that are all right or all wrong', () => {
    expect(fitRecalibration(unseen.slice(0, 39), p.slice(0, 39))).toBeNull();
    expect(fitRecalibration(unseen.map((r) => ({ ...r, quoted: false })), p)).toBeNull();
    expect(fitRecalibration(unseen.map((r) => ({ ...r, label: true })), p)).toBeNull();
  });
});

describe('surestRight', () => {
  const row = (label: boolean, readerOutcome: LabelledRow['readerOutcome'] = 'answered'): LabelledRow => ({ features: {}, label, answerable: true, quoted: true, readerOutcome });
  it('counts the right ones among the n most probable rows the reader answered, the others left out', () => {
    const rows = [row(true), row(false), row(true), row(true, 'partial'), row(false)];
    const p = [0.9, 0.8, 0.7, 0.99, 0.1];
    expect(surestRight(rows, p, 2)).toEqual({ answers: 2, right: 1 });
    expect(surestRight(rows, p, 3)).toEqual({ answers: 3, right: 2 });
    expect(surestRight(rows, p, 5)).toBeNull();
  });
});

describe('fitSelection', () => {
  // Two features: coverage (what makes a candidate eligible) and a second signal. In these questions
  // the right sentence is the one with the second signal, while coverage is a little higher on a wrong one.
  const sets = (count: number, seed: number): CandidateSet[] => {
    const next = rng(seed);
    return Array.from({ length: count }, () => {
      const right = 0.4 + next() * 0.3;
      return {
        features: [
          [right, 1],
          [right + 0.1, 0],
          [right - 0.2, 0],
          [0, 1],
        ],
        holds: [true, false, false, false],
      };
    });
  };

  it('learns the signal the hand-set weights miss, and scales to their L1 norm', () => {
    const start = [1, 0];
    const train = sets(200, 3);
    expect(selectionAccuracy(train, start).accuracy).toBe(0);
    const weights = fitSelection(train, start, 0.001);
    expect(weights[1]).toBeGreaterThan(0);
    expect(Math.abs(weights[0]!) + Math.abs(weights[1]!)).toBeCloseTo(1, 3);
    expect(selectionAccuracy(sets(100, 9), weights)).toEqual({ questions: 100, right: 100, accuracy: 1 });
  });

  it('never leads with a sentence that holds none of the question words, and counts only questions it could get right', () => {
    const only: CandidateSet[] = [
      { features: [[0, 5], [0.2, 0]], holds: [true, false] },
      { features: [[0.5, 0], [0.4, 1]], holds: [false, true] },
    ];
    // The first question's right sentence is not eligible: it is not counted.
    expect(selectionAccuracy(only, [0, 1])).toEqual({ questions: 1, right: 1, accuracy: 1 });
    expect(selectionAccuracy(only, [1, 0])).toEqual({ questions: 1, right: 0, accuracy: 0 });
  });

  it('keeps the start weight of a feature the training questions never vary, instead of letting it fade', () => {
    // A third feature, equal for every candidate of every training question (as the how-to features
    // are on SQuAD): the questions say nothing of it, so the penalty alone moves it.
    const flat = sets(200, 3).map((s) => ({ ...s, features: s.features.map((f) => [...f, 1]) }));
    const weights = fitSelection(flat, [0.5, 0, 0.5], 0.1);
    expect(weights[1]).toBeGreaterThan(0);
    expect(weights[2]).toBeGreaterThan(0.2);
  });

  it('keeps the start weights, scaled, when nothing can be learnt', () => {
    expect(fitSelection([{ features: [[1, 0]], holds: [true] }], [0.5, 0.5])).toEqual([0.5, 0.5]);
  });
});

describe('the answerable model', () => {
  /** A reading: `part_best` and the scattered cause as given; the reader's outcome not found (a withheld quote) unless said. */
  const read = (partBest: number, scattered: number, label: boolean, answerable = true, outcome: LabelledRow['readerOutcome'] = 'not_found'): LabelledRow => ({
    features: { part_best: partBest, nf_scattered: scattered, reader_answered: outcome === 'answered' ? 1 : 0 },
    label,
    readerOutcome: outcome,
    quoted: outcome !== 'not_found',
    answerable,
    ...(outcome === 'not_found' ? { withheld: true } : {}),
  });

  it('reads the readings with a quote, shown or withheld', () => {
    const quoted = read(0.5, 0, true, true, 'answered');
    const nothing: LabelledRow = { features: {}, label: false, readerOutcome: 'not_found', quoted: false, answerable: true };
    expect(answerableRows([quoted, nothing, read(0.5, 0, true)])).toEqual([quoted, read(0.5, 0, true)]);
  });

  it("learns that a question whose best part reads well is answered in the notes, and that one with scattered words or the reader's not found is less likely", () => {
    const next = rng(11);
    const rows = Array.from({ length: 600 }, () => {
      const part = next();
      const scattered = next() < 0.5 ? 1 : 0;
      const found = next() < 0.5;
      return read(part, scattered, false, next() < (scattered ? 0.1 : part) * (found ? 1 : 0.5), found ? 'answered' : 'not_found');
    });
    const model = fitAnswerable(rows, 1);
    expect(model.features).toEqual([...ANSWERABLE_FEATURES]);
    expect(model.weights[ANSWERABLE_FEATURES.indexOf('part_best')]).toBeGreaterThan(0);
    expect(model.weights[ANSWERABLE_FEATURES.indexOf('nf_scattered')]).toBeLessThan(0);
    // The reader's own not found is derived from its outcome for rows stored without the feature.
    expect(model.weights[ANSWERABLE_FEATURES.indexOf('reader_not_found')]).toBeLessThan(0);
    expect(answerableRowProbability(model, read(0.9, 0, true))).toBeGreaterThan(answerableRowProbability(model, read(0.9, 1, true)));
    expect(answerableRowProbability(model, read(0.9, 0, true))).toBeGreaterThan(answerableRowProbability(model, read(0.1, 0, true)));
    expect(answerableRowProbability(model, read(0.9, 0, true, true, 'answered'))).toBeGreaterThan(answerableRowProbability(model, read(0.9, 0, true)));
  });

  it.each([
    // kinds, weights: each kind weighs as much in total as each other, the mean weight 1
    [['squad', 'squad', 'squad', 'vault'], [2 / 3, 2 / 3, 2 / 3, 2]],
    [['a', 'a', 'b', 'b'], [1, 1, 1, 1]],
    [['only', 'only'], [1, 1]],
    [[], []],
  ] as const)('weighs the rows of kinds %j as %j', (kinds, weights) => {
    const w = kindWeights(kinds);
    expect(w).toHaveLength(weights.length);
    w.forEach((v, i) => expect(v).toBeCloseTo(weights[i]!, 9));
  });

  it('lets the rare kind of training row decide when it is weighed by kind', () => {
    // 300 rows of one kind where part_best says nothing, 30 of another where it says everything.
    const next = rng(5);
    const noise = Array.from({ length: 300 }, () => read(next(), 0, false, next() < 0.3));
    const telling = Array.from({ length: 30 }, (_, i) => read(i / 30, 0, false, i >= 15));
    const rows = [...noise, ...telling];
    const kinds = rows.map((_, i) => (i < 300 ? 'squad' : 'vault'));
    const at = ANSWERABLE_FEATURES.indexOf('part_best');
    const plain = fitAnswerable(rows, 1).weights[at]!;
    const weighed = fitAnswerable(rows, 1, kindWeights(kinds)).weights[at]!;
    expect(weighed).toBeGreaterThan(2 * Math.max(plain, 0.05));
  });

  // Questions: [scorer p, answerable p, reader outcome, the quote holds the fact?, answerable?]
  const scored: [number, number, LabelledRow['readerOutcome'], boolean, boolean][] = [
    [0.9, 0.9, 'answered', true, true],
    [0.8, 0.3, 'answered', true, true],
    [0.2, 0.8, 'partial', false, true],
    [0.2, 0.7, 'not_found', true, true],
    [0.1, 0.6, 'not_found', false, true],
    [0.3, 0.5, 'answered', false, false],
    [0.1, 0.2, 'not_found', false, false],
    [0.6, 0.1, 'answered', false, false],
  ];
  const rows = scored.map(([, , outcome, label, answerable]) => read(0, 0, label, answerable, outcome));
  const p = scored.map(([v]) => v);
  const pa = scored.map(([, v]) => v);

  it.each([
    // abstention threshold, answerable bar: answerable abstained, unanswerable abstained, fact shown (shares)
    [0, 1, 0, 0, 0.6],
    [0.7, 1, 0.6, 1, 0.4],
    [0.7, 0.6, 0, 1, 0.6],
    [0.7, 0.65, 0.2, 1, 0.6],
    [0.5, 0.5, 0, 0.3333, 0.6],
  ])('with the abstention threshold %d and the answerable bar %d: answerable abstained %d, unanswerable %d, fact shown %d', (below, at, aa, ua, fc) => {
    const c = outcomeCounts(rows, p, 0.85, below, { p: pa, at });
    expect([c.answerableAbstained, c.unanswerableAbstained, c.fullyCorrect]).toEqual([aa, ua, fc]);
    // Answered needs the reader's answer above the Answered bar, whatever the answerable model says.
    expect(c.answered).toBe(1);
  });

  it('chooses the two bars together for the best score: unanswerable abstained, less answerable abstained, plus facts shown', () => {
    const bars = chooseShowBars(rows, p, pa, 0.85);
    expect(bars.counts.answerableAbstained).toBe(0);
    expect(bars.counts.unanswerableAbstained).toBe(1);
    expect(bars.abstainBelow).toBeGreaterThan(0.6);
    expect(bars.abstainBelow).toBeLessThanOrEqual(0.8);
    expect(bars.at).toBeGreaterThan(0.5);
    expect(bars.at).toBeLessThanOrEqual(0.6);
    // The abstention threshold stays at or below the Answered bar.
    expect(chooseShowBars(rows, p, pa, 0.5).abstainBelow).toBeLessThanOrEqual(0.5);
  });
});
