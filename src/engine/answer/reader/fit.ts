/**
 * Fitting the reader's scorer: L2-regularised logistic regression by Newton's method over
 * standardised features, and the two thresholds chosen on dev rows. Pure functions: the command
 * that collects rows is `synapsis tune --answers` (src/cli/eval/tune-answers.ts).
 */
import { ANSWERABLE_FEATURES, FEATURE_NAMES, FEATURE_SIGNS, featureVector } from './features.ts';
import { logit, type ReaderProfile, standardise } from './scorer.ts';

export interface LabelledRow {
  features: Record<string, number>;
  /** The quote states the asked fact. */
  label: boolean;
  /** The reader's own outcome before calibration. */
  readerOutcome: 'answered' | 'partial' | 'not_found';
  /** The reader had a quote (it did not answer "not found"): the scorer decides only these. */
  quoted: boolean;
  /** The question has an answer in the notes. */
  answerable: boolean;
  /**
   * The reader said not found but had a quote it withheld: the label then says whether the withheld
   * quote holds the fact, and the features describe it (the answerable model reads these rows too).
   */
  withheld?: boolean;
}

/** Solves A x = b (A symmetric positive definite, small) by Gaussian elimination with partial pivoting. */
export function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    const d = m[c]![c]!;
    if (Math.abs(d) < 1e-12) continue;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / d;
      if (f === 0) continue;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => (Math.abs(row[i]!) < 1e-12 ? 0 : row[n]! / row[i]!));
}

/**
 * Weights and bias of a logistic regression on standardised x (bias not penalised). `signs` (1, -1 or
 * 0 per feature) keeps a weight on its side of zero: a feature known to speak for the answer never
 * ends up speaking against it because the training sets barely vary it (active-set Newton: a weight
 * held at zero stays out of the step while the gradient pushes it across; each step is halved until
 * the penalised loss falls, so clipping a weight at its bound never sends the fit astray). `rowWeights`
 * (default 1 each) weighs each row's loss: a row of weight 3 counts as three copies of it.
 */
export function fitLogistic(x: readonly number[][], y: readonly boolean[], lambda = 1, iterations = 50, signs: readonly number[] = [], rowWeights: readonly number[] = []): { weights: number[]; bias: number } {
  const d = x[0]?.length ?? 0;
  let w = new Array<number>(d + 1).fill(0);
  const bound = (k: number) => signs[k] ?? 0;
  const weightOf = (i: number) => rowWeights[i] ?? 1;
  const loss = (v: readonly number[]) => {
    let sum = 0;
    for (let i = 0; i < x.length; i++) {
      const z = x[i]!.reduce((acc, u, k) => acc + u * v[k]!, v[d]!);
      // log(1 + e^-z) for a true label, log(1 + e^z) for a false one, computed without overflow.
      const m = y[i] ? -z : z;
      sum += weightOf(i) * (m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m)));
    }
    for (let k = 0; k < d; k++) sum += 0.5 * lambda * v[k]! ** 2;
    return sum;
  };
  let current = loss(w);
  for (let it = 0; it < iterations; it++) {
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    for (let i = 0; i < x.length; i++) {
      const xi = [...x[i]!, 1];
      const z = xi.reduce((s, v, k) => s + v * w[k]!, 0);
      const p = 1 / (1 + Math.exp(-z));
      const r = weightOf(i) * (p - (y[i] ? 1 : 0));
      const s = weightOf(i) * Math.max(p * (1 - p), 1e-9);
      for (let a = 0; a <= d; a++) {
        grad[a]! += r * xi[a]!;
        const sa = s * xi[a]!;
        if (sa === 0) continue;
        for (let b = a; b <= d; b++) hess[a]![b]! += sa * xi[b]!;
      }
    }
    for (let a = 0; a <= d; a++) for (let b = 0; b < a; b++) hess[a]![b] = hess[b]![a]!;
    for (let a = 0; a < d; a++) {
      grad[a]! += lambda * w[a]!;
      hess[a]![a]! += lambda;
    }
    hess[d]![d]! += 1e-6;
    // A weight at zero that the gradient would carry across its bound is held there for this step.
    for (let k = 0; k < d; k++) {
      if (bound(k) === 0 || w[k] !== 0 || bound(k) * grad[k]! < 0) continue;
      grad[k] = 0;
      for (let j = 0; j <= d; j++) hess[k]![j] = hess[j]![k] = 0;
      hess[k]![k] = 1;
    }
    const step = solve(hess, grad);
    const at = (t: number) =>
      w.map((v, k) => {
        const next = v - t * step[k]!;
        return k < d && bound(k) !== 0 && bound(k) * next < 0 ? 0 : next;
      });
    let t = 1;
    let next = at(t);
    let nextLoss = loss(next);
    while (nextLoss > current && t > 1e-6) {
      t /= 2;
      next = at(t);
      nextLoss = loss(next);
    }
    if (nextLoss > current) break;
    const moved = Math.max(...next.map((v, k) => Math.abs(v - w[k]!)));
    w = next;
    current = nextLoss;
    if (moved < 1e-7) break;
  }
  return { weights: w.slice(0, d), bias: w[d]! };
}

/** Means and scales (standard deviations, 1 where a feature does not vary) of the rows' features. */
export function standardisation(rows: readonly number[][]): { mean: number[]; scale: number[] } {
  const d = rows[0]?.length ?? FEATURE_NAMES.length;
  const mean = new Array<number>(d).fill(0);
  for (const r of rows) for (let k = 0; k < d; k++) mean[k]! += r[k]! / rows.length;
  const scale = new Array<number>(d).fill(0);
  for (const r of rows) for (let k = 0; k < d; k++) scale[k]! += (r[k]! - mean[k]!) ** 2 / rows.length;
  return { mean: mean.map((m) => round(m, 6)), scale: scale.map((v) => (Math.sqrt(v) < 1e-6 ? 1 : round(Math.sqrt(v), 6))) };
}

const round = (v: number, digits = 4) => Math.round(v * 10 ** digits) / 10 ** digits;

/** The profile's probability for a row. */
export function rowProbability(profile: Pick<ReaderProfile, 'mean' | 'scale' | 'weights' | 'bias'>, row: Pick<LabelledRow, 'features'>): number {
  return 1 / (1 + Math.exp(-logit(profile.weights, profile.bias, standardise(profile, featureVector(row.features)))));
}

/**
 * The mean log loss of probabilities p over the rows the reader quoted something for (the rows the
 * scorer speaks for): how well they predict whether each quote states the asked fact; lower is better.
 * A probability is kept within [1e-6, 1 - 1e-6], so that one confident miss costs a bounded amount.
 */
export function logLoss(rows: readonly LabelledRow[], p: readonly number[]): number {
  let sum = 0;
  let n = 0;
  rows.forEach((r, i) => {
    if (!r.quoted) return;
    const q = Math.min(1 - 1e-6, Math.max(1e-6, p[i]!));
    sum -= Math.log(r.label ? q : 1 - q);
    n++;
  });
  return n === 0 ? 0 : round(sum / n, 4);
}

/** Fits weights on the rows the reader quoted something for. */
export function fitScorer(rows: readonly LabelledRow[], lambda = 1): Pick<ReaderProfile, 'features' | 'mean' | 'scale' | 'weights' | 'bias'> {
  const quoted = rows.filter((r) => r.quoted);
  const raw = quoted.map((r) => featureVector(r.features));
  const { mean, scale } = standardisation(raw);
  const x = raw.map((v) => standardise({ mean, scale }, v));
  const { weights, bias } = fitLogistic(x, quoted.map((r) => r.label), lambda, 50, FEATURE_NAMES.map((n) => FEATURE_SIGNS[n] ?? 0));
  return { features: [...FEATURE_NAMES], mean, scale, weights: weights.map((w) => round(w, 5)), bias: round(bias, 5) };
}

/** A recalibration of the scorer's logit z: P = 1 / (1 + e^-(a z + b)), a > 0. */
export interface Recalibration {
  a: number;
  b: number;
}

/**
 * Platt scaling: the slope and shift of the logit that best predict, over rows the scorer was not
 * fitted on, whether each quote states the asked fact (the quoted rows of `rows`, scored p). A slope
 * below 1 says the scorer is over-confident there. Null when the rows cannot tell (fewer than
 * `minRows` quoted, or every quote right or every one wrong). The slope is kept positive, so the
 * order of the probabilities, and so every ranking by them, is unchanged.
 */
export function fitRecalibration(rows: readonly LabelledRow[], p: readonly number[], minRows = 40): Recalibration | null {
  const logitOf = (v: number) => {
    const q = Math.min(1 - 1e-6, Math.max(1e-6, v));
    return Math.log(q / (1 - q));
  };
  const kept = rows.flatMap((r, i) => (r.quoted ? [{ z: logitOf(p[i]!), label: r.label }] : []));
  const right = kept.filter((k) => k.label).length;
  if (kept.length < minRows || right === 0 || right === kept.length) return null;
  // A light penalty on the slope only keeps a near-separable handful of rows from a runaway slope.
  const { weights, bias } = fitLogistic(
    kept.map((k) => [k.z]),
    kept.map((k) => k.label),
    0.01,
    100,
    [1],
  );
  if (!(weights[0]! > 0)) return null;
  return { a: round(weights[0]!, 5), b: round(bias, 5) };
}

/** A scorer whose logits are recalibrated: weights and bias scaled by a, bias shifted by b (same features, same order). */
export function recalibrated<T extends Pick<ReaderProfile, 'weights' | 'bias'>>(fit: T, { a, b }: Recalibration): T {
  return { ...fit, weights: fit.weights.map((w) => round(w * a, 5)), bias: round(fit.bias * a + b, 5) };
}

export interface OutcomeCounts {
  answered: number;
  answeredRight: number;
  precision: number | null;
  /** Answerable questions not answered (reader not found or below the abstention threshold). */
  answerableAbstained: number;
  unanswerableAbstained: number;
  /** Answerable questions whose shown answer (answered or partial) holds the fact. */
  fullyCorrect: number;
}

/** The Answered bar of a row: one for every row, or one per kind of row (read with sentence vectors or not). */
export type AnsweredBar = number | ((row: LabelledRow) => number);
const barOf = (bar: AnsweredBar, row: LabelledRow) => (typeof bar === 'number' ? bar : bar(row));

/**
 * The answerable model's side of the outcome: each row's P(the notes answer), and its bar. Without
 * it a quote below the abstention threshold is not found, and so is every reader's not found.
 */
export interface AnswerableSide {
  p: readonly number[];
  at: number;
}

/** Whether a row's quote (or withheld quote) is shown, under the thresholds (scorer.ts calibratedOutcome). */
export function rowShown(r: LabelledRow, p: number, abstainBelow: number, answerable?: { p: number; at: number }): boolean {
  if (!answerable) return r.quoted && p >= abstainBelow;
  if (!r.quoted && !r.withheld) return false;
  return p >= abstainBelow || answerable.p >= answerable.at;
}

/** What the thresholds would make of rows scored with probabilities p (and the answerable model's, when given). */
export function outcomeCounts(rows: readonly LabelledRow[], p: readonly number[], answeredAt: AnsweredBar, abstainBelow: number, answerableSide?: AnswerableSide): OutcomeCounts {
  let answered = 0;
  let right = 0;
  let ansAbs = 0;
  let unAbs = 0;
  let correct = 0;
  const answerable = rows.filter((r) => r.answerable).length;
  const unanswerable = rows.length - answerable;
  rows.forEach((r, i) => {
    const abstained = !rowShown(r, p[i]!, abstainBelow, answerableSide ? { p: answerableSide.p[i]!, at: answerableSide.at } : undefined);
    const isAnswered = !abstained && r.quoted && r.readerOutcome === 'answered' && p[i]! >= barOf(answeredAt, r);
    if (isAnswered) {
      answered++;
      if (r.label) right++;
    }
    if (abstained) {
      if (r.answerable) ansAbs++;
      else unAbs++;
    } else if (r.answerable && r.label) correct++;
  });
  return {
    answered,
    answeredRight: right,
    precision: answered === 0 ? null : round(right / answered),
    answerableAbstained: answerable === 0 ? 0 : round(ansAbs / answerable),
    unanswerableAbstained: unanswerable === 0 ? 0 : round(unAbs / unanswerable),
    fullyCorrect: answerable === 0 ? 0 : round(correct / answerable),
  };
}

/**
 * The lowest probability from which the answers badged Answered, over every group of readings
 * pooled (the calibration sets' and the dev sets'), are right at least `target` of the time, and are
 * expected to be: the mean probability of those answers reaches `target` too (at least `minAnswers`
 * answers). Counting alone picks, among many bars, one where a few dozen answers happen to look
 * good; the recalibrated probabilities of all of them say how often such answers are right on notes
 * nobody tuned on. 1 when no bar reaches the target.
 */
export function chooseAnsweredAtPooled(groups: readonly { rows: readonly LabelledRow[]; p: readonly number[] }[], target = 0.9, minAnswers = 10): number {
  const answered = groups.flatMap(({ rows, p }) => rows.flatMap((r, i) => (r.readerOutcome === 'answered' ? [{ p: p[i]!, label: r.label }] : [])));
  answered.sort((a, b) => b.p - a.p);
  let best = 1;
  let n = 0;
  let right = 0;
  let sum = 0;
  // From the surest answer down: each bar (to three places, rounded down, so every answer counted
  // clears it) badges the answers at or above it.
  const bar = (v: number) => Math.floor(v * 1000) / 1000;
  for (let k = 0; k < answered.length; k++) {
    const a = answered[k]!;
    n++;
    sum += a.p;
    if (a.label) right++;
    if (k + 1 < answered.length && bar(answered[k + 1]!.p) === bar(a.p)) continue;
    if (n >= minAnswers && right / n >= target && sum / n >= target) best = bar(a.p);
  }
  return best;
}

/**
 * Of the rows the reader itself answered (those a bar can badge Answered), the `n` with the highest
 * probability: how many of them state the asked fact. Null when there are fewer than `n`. What a bar
 * at that height would give, whether or not one is chosen.
 */
export function surestRight(rows: readonly LabelledRow[], p: readonly number[], n: number): { answers: number; right: number } | null {
  const answered = rows.flatMap((r, i) => (r.readerOutcome === 'answered' ? [{ p: p[i]!, label: r.label }] : []));
  if (answered.length < n) return null;
  const surest = answered.sort((a, b) => b.p - a.p).slice(0, n);
  return { answers: n, right: surest.filter((x) => x.label).length };
}

/** One question's candidate sentences: their selection features and whether each holds the asked fact. */
export interface CandidateSet {
  features: number[][];
  holds: boolean[];
}

/** A candidate can lead the quote only when it holds some of the question's words (reader.ts: coverage > 0). */
const eligible = (f: readonly number[]) => (f[0] ?? 0) > 0;

/** The sets a ranking can be learnt from: an eligible sentence holds the fact and another does not. */
function learnable(sets: readonly CandidateSet[]): { f: number[][]; y: boolean[] }[] {
  return sets.flatMap((s) => {
    const at = s.features.flatMap((f, i) => (eligible(f) ? [i] : []));
    const y = at.map((i) => s.holds[i]!);
    return y.some(Boolean) && y.some((v) => !v) ? [{ f: at.map((i) => s.features[i]!), y }] : [];
  });
}

/**
 * The share of questions whose best-ranked eligible sentence holds the fact, of those where one does:
 * how often these weights pick a right lead when there is one to pick. Ties go to the earlier sentence.
 */
export function selectionAccuracy(sets: readonly CandidateSet[], weights: readonly number[]): { questions: number; right: number; accuracy: number } {
  let questions = 0;
  let right = 0;
  for (const s of sets) {
    let best = -1;
    let bestScore = -Infinity;
    s.features.forEach((f, i) => {
      if (!eligible(f)) return;
      const score = f.reduce((sum, v, k) => sum + v * (weights[k] ?? 0), 0);
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    });
    if (!s.holds.some((h, i) => h && eligible(s.features[i]!))) continue;
    questions++;
    if (best >= 0 && s.holds[best]) right++;
  }
  return { questions, right, accuracy: questions === 0 ? 0 : right / questions };
}

/**
 * Weights that rank the sentences that hold the asked fact first: a listwise softmax (the probability
 * the question's right sentences take among its eligible ones) maximised by gradient descent with an
 * L2 penalty on the distance from the hand-set weights (started there), then scaled to their L1 norm.
 * The penalty pulls toward the hand-set weights, not toward zero: a feature the training questions
 * barely vary (SQuAD asks no "How do I…", so the how-to features) keeps its hand-set weight instead
 * of fading. Pure and deterministic.
 */
export function fitSelection(sets: readonly CandidateSet[], start: readonly number[], lambda = 0.01, iterations = 400): number[] {
  const data = learnable(sets);
  const d = start.length;
  const norm = start.reduce((s, v) => s + Math.abs(v), 0) || 1;
  // A softmax over scores of about one unit is nearly flat: start at a temperature that separates them.
  let w = start.map((v) => (v * 10) / norm);
  const anchor = [...w];
  let velocity = new Array<number>(d).fill(0);
  const rate = 0.5;
  for (let it = 0; it < iterations && data.length > 0; it++) {
    const grad = w.map((v, k) => 2 * lambda * (v - anchor[k]!));
    for (const q of data) {
      const scores = q.f.map((f) => f.reduce((s, v, k) => s + v * w[k]!, 0));
      const top = Math.max(...scores);
      const e = scores.map((s) => Math.exp(s - top));
      const all = e.reduce((a, b) => a + b, 0);
      const pos = e.reduce((a, v, i) => a + (q.y[i] ? v : 0), 0);
      // d(-log(pos/all))/dw = E_all[f] - E_pos[f]
      for (let i = 0; i < q.f.length; i++) {
        const coef = e[i]! / all - (q.y[i] ? e[i]! / pos : 0);
        if (coef === 0) continue;
        const f = q.f[i]!;
        for (let k = 0; k < d; k++) grad[k]! += (coef * f[k]!) / data.length;
      }
    }
    velocity = velocity.map((v, k) => 0.9 * v - rate * grad[k]!);
    w = w.map((v, k) => v + velocity[k]!);
  }
  const l1 = w.reduce((s, v) => s + Math.abs(v), 0) || 1;
  return w.map((v) => Math.round(((v * norm) / l1) * 1e4) / 1e4);
}

/** The rows the answerable model reads: readings with a quote, shown or withheld. */
export const answerableRows = (rows: readonly LabelledRow[]): LabelledRow[] => rows.filter((r) => r.quoted || r.withheld === true);

export type AnswerableModel = NonNullable<ReaderProfile['answerable']>;

/** A row's answerable features: its reading's, with the reader's own not found (derived for rows collected before it was a feature). */
const answerableVector = (row: Pick<LabelledRow, 'features' | 'readerOutcome'>): number[] =>
  featureVector({ ...row.features, reader_not_found: row.features.reader_not_found ?? (row.readerOutcome === 'not_found' ? 1 : 0) }, ANSWERABLE_FEATURES);

/**
 * Fits the answerable model: P(the question has an answer in the notes) over ANSWERABLE_FEATURES,
 * on the rows of readings with a quote or a withheld quote, each label the question's (answerable or
 * not) whatever its quote holds. No sign is imposed: a feature may say the quote is wrong and the
 * notes right. Its bar is chosen with the abstention threshold (chooseShowBars).
 */
export function fitAnswerable(rows: readonly LabelledRow[], lambda = 1, rowWeights: readonly number[] = []): Omit<AnswerableModel, 'at'> {
  const raw = rows.map(answerableVector);
  const { mean, scale } = standardisation(raw);
  const x = raw.map((v) => standardise({ mean, scale }, v));
  const { weights, bias } = fitLogistic(x, rows.map((r) => r.answerable), lambda, 50, [], rowWeights);
  return { features: [...ANSWERABLE_FEATURES], mean, scale, weights: weights.map((w) => round(w, 5)), bias: round(bias, 5) };
}

/**
 * Row weights under which each kind of row weighs as much in total as every other kind (mean weight
 * 1): two kinds of 500 and 50 rows weigh 0.55 and 5.5 a row. The answerable model's training rows are
 * mostly SQuAD's Wikipedia paragraphs; weighed by kind, the notes' own readings count as much as
 * SQuAD's in the fit.
 */
export function kindWeights(kinds: readonly string[]): number[] {
  const counts = new Map<string, number>();
  for (const k of kinds) counts.set(k, (counts.get(k) ?? 0) + 1);
  return kinds.map((k) => kinds.length / (counts.size * counts.get(k)!));
}

/** The answerable model's probability for a row. */
export function answerableRowProbability(model: Omit<AnswerableModel, 'at'>, row: Pick<LabelledRow, 'features' | 'readerOutcome'>): number {
  return 1 / (1 + Math.exp(-logit(model.weights, model.bias, standardise(model, answerableVector(row)))));
}

/** The mean log loss of the answerable model's probabilities against the questions' answerability. */
export function answerableLogLoss(rows: readonly LabelledRow[], p: readonly number[]): number {
  return logLoss(rows.map((r) => ({ ...r, label: r.answerable, quoted: true })), p);
}

/** The two bars that decide Not in your notes, and what they make of the rows they were chosen on. */
export interface ShowBars {
  abstainBelow: number;
  at: number;
  counts: OutcomeCounts;
}

/**
 * What a pair of bars is chosen by: the share of unanswerable questions abstained, less the share of
 * answerable ones abstained, plus the share shown with their fact. The three are the targets the bars
 * move, each a share, weighed alike: an answerable question shown with its fact counts twice (not
 * abstained, and right), one shown without it once.
 */
export const showScore = (c: Pick<OutcomeCounts, 'unanswerableAbstained' | 'answerableAbstained' | 'fullyCorrect'>): number => c.unanswerableAbstained - c.answerableAbstained + c.fullyCorrect;

/**
 * The abstention threshold and the answerable model's bar, chosen together on the rows (every
 * question, each with its scorer probability and answerable probability) for the best showScore: a
 * quote is shown when it clears either. Without an answerable model (null) the abstention threshold
 * is chosen alone. The lowest bars on a tie; the abstention threshold stays at or below the lowest
 * Answered bar. Both are tried in steps of 0.01.
 */
export function chooseShowBars(rows: readonly LabelledRow[], p: readonly number[], pAnswerable: readonly number[] | null, answeredAt: AnsweredBar): ShowBars {
  const lowest = Math.min(...rows.map((r) => barOf(answeredAt, r)), 1);
  let best: ShowBars | null = null;
  let bestScore = -Infinity;
  for (let s = 0; s <= 100 && s / 100 <= lowest + 1e-9; s++) {
    for (let t = pAnswerable ? 0 : 100; t <= 100; t++) {
      const counts = outcomeCounts(rows, p, answeredAt, s / 100, pAnswerable ? { p: pAnswerable, at: t / 100 } : undefined);
      const score = showScore(counts);
      if (score > bestScore + 1e-9) {
        bestScore = score;
        best = { abstainBelow: s / 100, at: t / 100, counts };
      }
    }
  }
  return best!;
}
