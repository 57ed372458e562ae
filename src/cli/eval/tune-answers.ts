/**
 * `synapsis tune --answers`: fits the answer reader's scorer. A manifest names training and dev
 * question sets (vaults with question files, or SQuAD-format files turned into vaults); each set is
 * indexed and asked with the reader uncalibrated, each quote labelled by whether it holds the asked
 * fact; the weights are fitted on the training rows, the penalty and the abstention threshold chosen
 * on the dev rows, the Answered thresholds on the calibration rows when the manifest names such sets
 * (else on the dev rows), and the profile written with the numbers it was chosen by.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_SELECTION, SELECTION_FEATURES } from '../../engine/answer/reader.ts';
import { type AnswerableSide, answerableLogLoss, answerableRowProbability, answerableRows, type CandidateSet, chooseAnsweredAtPooled, chooseShowBars, fitAnswerable, fitRecalibration, fitScorer, fitSelection, kindWeights, type LabelledRow, logLoss, outcomeCounts, rowProbability, recalibrated, selectionAccuracy, showScore, surestRight } from '../../engine/answer/reader/fit.ts';
import { checkProfile, type ReaderProfile } from '../../engine/answer/reader/scorer.ts';
import { createError } from '../../shared/errors.ts';
import { type AnswerRow, auroc, reliabilityTable, runAnswerEval } from './answers.ts';
import { type AnswerManifest, readManifest, type SetSpec } from './answer-sets.ts';
import { squadToVault } from './squad.ts';

type Role = 'train' | 'dev' | 'calibration';

export interface TuneAnswersOptions {
  manifest: string;
  /** Where the fitted profile is written. */
  out: string;
  embedModels?: string[];
  workDir?: string;
  modelsDir?: string;
  /** Reuse the rows of an earlier run (the labelled features per question) instead of asking again. */
  rows?: string;
  /** Precision of Answered to reach on the dev rows. Default 0.9. */
  target?: number;
  log?: (line: string) => void;
}

export interface SetRows {
  name: string;
  role: Role;
  rows: LabelledRow[];
  /** Each question's candidate sentences with their selection features (what the selection weights are fitted on). */
  candidates?: CandidateSet[];
  /** The selection weights the rows were read with (absent: the reader's hand-set ones). */
  selection?: number[];
}

export interface TuneAnswersReport {
  file: string;
  profile: ReaderProfile;
  sets: { name: string; role: string; questions: number; quoted: number; quote_right: number }[];
}

/**
 * The precision of Answered the thresholds aim at on the dev rows, over at least MIN_ANSWERED answers
 * (fewer would make the bar a matter of one or two questions).
 */
const DEFAULT_TARGET = 0.9;
const MIN_ANSWERED = 20;
/** How many of the most probable answered readings the profile reports the right share of (`*_surest`). */
const SUREST = [20, 40];
/**
 * L2 penalties tried; the one whose probabilities score best on the dev rows (the lowest mean log
 * loss over the quoted readings: every dev reading counts, not just the few at the Answered bar) is
 * written in the profile.
 */
const LAMBDAS = [0.3, 1, 3, 10, 30, 100, 300, 1000];
/** Fewer training rows than this (readings with a quote or a withheld one), or questions of one kind only: no answerable model is fitted. */
const ANSWERABLE_MIN_ROWS = 20;

/** L2 penalties tried for the selection weights, chosen by the dev questions' right leads. */
const SELECTION_LAMBDAS = [0.001, 0.003, 0.01, 0.03, 0.1];
/** Fitted selection weights replace the hand-set ones only when they pick a right lead this much more often on dev. */
const SELECTION_MIN_GAIN = 0.01;

/**
 * A row of the reader's own reading: its quote labelled by whether it holds the asked fact, and a
 * not-found reading's withheld quote the same way.
 */
const toLabelled = (r: AnswerRow): LabelledRow | null => {
  if (!r.features || !r.reader_outcome) return null;
  const withheld = !r.quoted && r.reader_outcome === 'not_found' && r.withheld_correct !== undefined;
  const label = withheld ? r.answerable && r.withheld_correct === true : r.quote_correct;
  return { features: r.features, label, readerOutcome: r.reader_outcome, answerable: r.answerable, quoted: r.quoted, ...(withheld ? { withheld } : {}) };
};

/** Asks one set with the reader uncalibrated and returns its labelled rows and candidate sentences. */
async function collect(spec: SetSpec, base: string, work: string, options: TuneAnswersOptions, selection: number[] | undefined, embedModels: readonly string[], index: string): Promise<Pick<SetRows, 'rows' | 'candidates'>> {
  const at = (p: string) => path.resolve(base, p);
  let vault = spec.vault ? at(spec.vault) : '';
  let questions = spec.questions ? at(spec.questions) : '';
  if (spec.squad) {
    const made = squadToVault(at(spec.squad), path.join(work, `squad-${spec.name}`), { ...(spec.articles ? { articles: spec.articles } : {}), ...(spec.questions_per_article ? { questionsPerArticle: spec.questions_per_article } : {}) });
    vault = made.vault;
    questions = made.questions;
  }
  const report = await runAnswerEval({
    vault,
    questions,
    embedModels: [...embedModels],
    readerProfile: 'none',
    ...(selection ? { readerSelection: selection } : {}),
    collectCandidates: true,
    details: true,
    workDir: path.join(work, `index-${index}`),
    ...(options.modelsDir ? { modelsDir: options.modelsDir } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const rows = (report.rows ?? []).filter((r) => r.kind !== 'restricted');
  return {
    rows: rows.flatMap((r) => toLabelled(r) ?? []),
    candidates: rows.flatMap((r) => (r.answerable && r.candidates ? [{ features: r.candidates.map((c) => c.features), holds: r.candidates.map((c) => c.holds) }] : [])),
  };
}

/**
 * Asks every set of the manifest (with these selection weights, or the hand-set ones). When the
 * manifest marks sets with `vectors`, every set is asked lexically and the marked ones again with the
 * embedding models; when it marks none, every set is asked with the embedding models given.
 */
async function collectAll(manifest: AnswerManifest, base: string, work: string, options: TuneAnswersOptions, selection: number[] | undefined): Promise<SetRows[]> {
  const log = options.log ?? (() => {});
  const models = options.embedModels ?? [];
  const marked = [...manifest.train, ...manifest.dev, ...(manifest.calibration ?? [])].some((s) => s.vectors);
  const sets: SetRows[] = [];
  for (const role of ['train', 'dev', 'calibration'] as const) {
    for (const spec of manifest[role] ?? []) {
      const passes: { name: string; models: readonly string[] }[] = marked ? [{ name: spec.name, models: [] }, ...(spec.vectors && models.length > 0 ? [{ name: `${spec.name} +vectors`, models }] : [])] : [{ name: spec.name, models }];
      for (const pass of passes) {
        log(`${role} set ${pass.name}: asking${selection ? ' with the fitted selection' : ''}`);
        sets.push({ name: pass.name, role, ...(await collect(spec, base, work, options, selection, pass.models, pass.name.replace(' +', '+'))), ...(selection ? { selection } : {}) });
      }
    }
  }
  return sets;
}

/**
 * The selection weights: fitted on the training sets' candidate sentences, the penalty chosen on the
 * dev sets', kept only when they pick a right lead more often on dev than the hand-set weights (and,
 * once every set is asked again with them, when the dev quotes hold the fact no less often).
 */
function chooseSelection(sets: readonly SetRows[]) {
  const of = (role: string) => sets.filter((s) => s.role === role).flatMap((s) => s.candidates ?? []);
  const train = of('train');
  const dev = of('dev');
  const hand = { train: selectionAccuracy(train, DEFAULT_SELECTION), dev: selectionAccuracy(dev, DEFAULT_SELECTION) };
  const tried = SELECTION_LAMBDAS.map((lambda) => {
    const weights = fitSelection(train, DEFAULT_SELECTION, lambda);
    return { lambda, weights, train: selectionAccuracy(train, weights), dev: selectionAccuracy(dev, weights) };
  });
  const best = tried.reduce((a, b) => (b.dev.accuracy > a.dev.accuracy ? b : a));
  const adopted = train.length > 0 && best.dev.accuracy >= hand.dev.accuracy + SELECTION_MIN_GAIN;
  return { adopted, best, hand, tried, quotes: undefined as { hand: number; fitted: number } | undefined };
}

/** The dev sets' answerable questions whose quote holds the asked fact. */
const devQuotesRight = (sets: readonly SetRows[]) => sets.filter((s) => s.role === 'dev').reduce((n, s) => n + s.rows.filter((r) => r.answerable && r.quoted && r.label).length, 0);

/**
 * The answerable model (P(the notes answer the question at all)): fitted on the training sets'
 * readings with a quote or a withheld one, SQuAD's and the vaults' weighing alike (kindWeights), its
 * bar chosen together with the abstention threshold on the dev sets' questions (chooseShowBars) and
 * its penalty the one whose bars score best there. The calibration sets' counts are
 * reported beside what the scorer alone made of them. Null model when the training rows cannot be
 * fitted: the abstention threshold is then chosen alone the same way.
 */
function chooseAnswerable(train: readonly LabelledRow[], trainKinds: readonly string[], dev: readonly LabelledRow[], calibration: readonly LabelledRow[], scorer: (r: LabelledRow) => number, answeredAt: Parameters<typeof outcomeCounts>[2], log: (line: string) => void) {
  const trainRows = answerableRows(train);
  const kindOf = new Map(train.map((r, i) => [r, trainKinds[i] ?? 'vault']));
  const rowWeights = kindWeights(trainRows.map((r) => kindOf.get(r)!));
  const devRows = answerableRows(dev);
  const pDev = dev.map(scorer);
  const pCalibration = calibration.map(scorer);
  const counted = (c: ReturnType<typeof outcomeCounts>) => ({ answerable_abstained: c.answerableAbstained, unanswerable_abstained: c.unanswerableAbstained, fully_correct: c.fullyCorrect });
  const alone = chooseShowBars(dev, pDev, null, answeredAt);
  const summary = { train_rows: trainRows.length, train_unanswerable: trainRows.filter((r) => !r.answerable).length, dev_rows: devRows.length, dev_unanswerable: devRows.filter((r) => !r.answerable).length };
  const unanswerable = summary.train_unanswerable;
  if (trainRows.length < ANSWERABLE_MIN_ROWS || unanswerable === 0 || unanswerable === trainRows.length || devRows.length === 0) {
    log(`answerable: not fitted (${trainRows.length} training rows, ${unanswerable} unanswerable; ${devRows.length} dev rows): abstention threshold ${alone.abstainBelow}`);
    return { model: null, abstainBelow: alone.abstainBelow, side: (): AnswerableSide | undefined => undefined, fitted: { ...summary, kept: false, reason: 'too few rows to fit' } };
  }
  // The model's probability is never shown, only compared with its bar: the penalty is the one whose
  // bars score best on the dev questions (showScore), the lower log loss on a tie.
  const tried = LAMBDAS.map((lambda) => {
    const fit = fitAnswerable(trainRows, lambda, rowWeights);
    const bars = chooseShowBars(dev, pDev, dev.map((r) => answerableRowProbability(fit, r)), answeredAt);
    return { lambda, fit, bars, logLoss: answerableLogLoss(devRows, devRows.map((r) => answerableRowProbability(fit, r))) };
  });
  const gain = (b: (typeof tried)[number], a: (typeof tried)[number]) => showScore(b.bars.counts) - showScore(a.bars.counts);
  const best = tried.reduce((a, b) => (gain(b, a) > 1e-9 || (Math.abs(gain(b, a)) <= 1e-9 && b.logLoss < a.logLoss) ? b : a));
  const pa = (rows: readonly LabelledRow[]) => rows.map((r) => answerableRowProbability(best.fit, r));
  const separation = auroc(devRows.flatMap((r) => (r.answerable ? [answerableRowProbability(best.fit, r)] : [])), devRows.flatMap((r) => (r.answerable ? [] : [answerableRowProbability(best.fit, r)])));
  const bars = best.bars;
  const side = (rows: readonly LabelledRow[]): AnswerableSide => ({ p: pa(rows), at: bars.at });
  const calibrationWith = calibration.length > 0 ? outcomeCounts(calibration, pCalibration, answeredAt, bars.abstainBelow, side(calibration)) : null;
  const calibrationAlone = calibration.length > 0 ? outcomeCounts(calibration, pCalibration, answeredAt, alone.abstainBelow) : null;
  const line = (c: ReturnType<typeof outcomeCounts>) => `answerable abstained ${(100 * c.answerableAbstained).toFixed(1)}%, unanswerable abstained ${(100 * c.unanswerableAbstained).toFixed(1)}%, fact shown ${(100 * c.fullyCorrect).toFixed(1)}%`;
  log(`answerable: ${trainRows.length} training rows (${unanswerable} unanswerable), ${devRows.length} dev rows (${summary.dev_unanswerable} unanswerable); dev AUROC ${separation?.toFixed(3) ?? 'n/a'} (lambda ${best.lambda})`);
  log(`answerable: a quote is shown from p ${bars.abstainBelow} or when the notes answer from ${bars.at}: dev ${line(bars.counts)}`);
  log(`answerable: the scorer alone (abstention threshold ${alone.abstainBelow}): dev ${line(alone.counts)}`);
  if (calibrationWith && calibrationAlone) log(`answerable: calibration ${line(calibrationWith)}; the scorer alone: ${line(calibrationAlone)}`);
  const fitted = {
    ...summary,
    kept: true,
    lambda: best.lambda,
    dev_log_loss_by_lambda: Object.fromEntries(tried.map((t) => [t.lambda, t.logLoss])),
    dev_score_by_lambda: Object.fromEntries(tried.map((t) => [t.lambda, Math.round(showScore(t.bars.counts) * 1e4) / 1e4])),
    dev_auroc: separation,
    at: bars.at,
    abstain_below: bars.abstainBelow,
    dev: counted(bars.counts),
    dev_scorer_alone: { abstain_below: alone.abstainBelow, ...counted(alone.counts) },
    ...(calibrationWith && calibrationAlone ? { calibration: counted(calibrationWith), calibration_scorer_alone: counted(calibrationAlone) } : {}),
  };
  return { model: { ...best.fit, at: bars.at }, abstainBelow: bars.abstainBelow, side, fitted };
}

/**
 * How the readings the reader answered fare at the top of the probability, per kind of reading (with
 * sentence vectors or not): what the Answered bars had to choose from. A bar of 1 says no height
 * reached the target; this says how far off it was.
 */
function surestByKind(rows: readonly LabelledRow[], p: readonly number[], vectorKind: boolean) {
  const kind = (vectors: boolean) => {
    const idx = rows.flatMap((r, i) => ((r.features.has_vectors === 1) === vectors ? [i] : []));
    return SUREST.flatMap((n) => surestRight(idx.map((i) => rows[i]!), idx.map((i) => p[i]!), n) ?? []);
  };
  return { lexical: kind(false), ...(vectorKind ? { vectors: kind(true) } : {}) };
}

/**
 * Rows read with the hand-set selection weights fit them; when the fitted ones lead right more often,
 * every set is asked again with them (not for rows given with --rows: those are reused as they are),
 * and they are kept when their quotes hold the fact no less often on dev. The scorer is then fitted
 * on the quotes the shipped reader will make.
 */
async function settleSelection(sets: SetRows[], manifest: AnswerManifest, base: string, work: string, options: TuneAnswersOptions, log: (line: string) => void): Promise<{ sets: SetRows[]; chosen: ReturnType<typeof chooseSelection> }> {
  const chosen = chooseSelection(sets);
  const lead = `selection: right lead on dev ${chosen.hand.dev.right}/${chosen.hand.dev.questions} hand-set, ${chosen.best.dev.right}/${chosen.best.dev.questions} fitted (lambda ${chosen.best.lambda})`;
  if (chosen.adopted && options.rows) {
    chosen.adopted = false;
    log(`${lead}: the rows given were read with the hand-set weights, kept (asking again with the fitted ones needs a run without --rows)`);
    return { sets, chosen };
  }
  log(`${lead}: ${chosen.adopted ? 'fitted kept' : 'hand-set kept'}`);
  if (!chosen.adopted) return { sets, chosen };
  const selected = await collectAll(manifest, base, work, options, chosen.best.weights);
  fs.writeFileSync(path.join(work, 'rows-selected.json'), JSON.stringify(selected));
  log(`rows saved: ${path.join(work, 'rows-selected.json')} (refit with --rows)`);
  // A better lead does not always make a better quote: the hand-set weights' quote may hold the
  // fact in its second sentence, and a lead that holds fewer question words may be withheld.
  chosen.quotes = { hand: devQuotesRight(sets), fitted: devQuotesRight(selected) };
  log(`selection: dev quotes that hold the fact ${chosen.quotes.hand} hand-set, ${chosen.quotes.fitted} fitted`);
  if (chosen.quotes.fitted < chosen.quotes.hand) {
    chosen.adopted = false;
    log('selection: the fitted weights quote the fact less often on dev: hand-set kept');
    return { sets, chosen };
  }
  return { sets: selected, chosen };
}

export async function runTuneAnswers(options: TuneAnswersOptions): Promise<TuneAnswersReport> {
  const log = options.log ?? (() => {});
  const manifest = readManifest(options.manifest);
  const base = path.dirname(path.resolve(options.manifest));
  const work = options.workDir ? path.resolve(options.workDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'synapsis-tune-answers-'));
  fs.mkdirSync(work, { recursive: true });
  let sets: SetRows[];
  let chosen: ReturnType<typeof chooseSelection> | null = null;
  try {
    if (options.rows) {
      sets = JSON.parse(fs.readFileSync(options.rows, 'utf8')) as SetRows[];
    } else {
      sets = await collectAll(manifest, base, work, options, undefined);
      fs.writeFileSync(path.join(work, 'rows.json'), JSON.stringify(sets));
      log(`rows saved: ${path.join(work, 'rows.json')} (refit with --rows)`);
    }
    if (!sets.some((s) => s.selection)) ({ sets, chosen } = await settleSelection(sets, manifest, base, work, options, log));
  } finally {
    if (!options.workDir) fs.rmSync(work, { recursive: true, force: true });
  }
  const selection = sets.find((s) => s.selection)?.selection;
  const train = sets.filter((s) => s.role === 'train').flatMap((s) => s.rows);
  const dev = sets.filter((s) => s.role === 'dev').flatMap((s) => s.rows);
  const calibration = sets.filter((s) => s.role === 'calibration').flatMap((s) => s.rows);
  if (train.filter((r) => r.quoted).length < 20) throw createError('E_SYN_BAD_REQUEST', 'Fewer than 20 training questions got a quote: give more training sets');
  const target = options.target ?? DEFAULT_TARGET;
  // The Answered bar is chosen within each kind of reading: without sentence vectors, and (when the
  // dev sets were read with them too) with them; on the calibration sets' readings of that kind and the
  // dev sets' pooled when the reader answers at least MIN_ANSWERED of the calibration ones, else on
  // the dev sets' alone. Above it the answers must be right at least `target` of the time and their
  // recalibrated probabilities must say so too (chooseAnsweredAtPooled).
  const withVectors = (r: LabelledRow) => r.features.has_vectors === 1;
  const vectorRows = dev.some(withVectors);
  const barRows = (keep: (r: LabelledRow) => boolean) => {
    const unseen = calibration.filter(keep);
    const from = unseen.filter((r) => r.readerOutcome === 'answered').length >= MIN_ANSWERED ? ('calibration and dev' as const) : ('dev' as const);
    return { from, groups: from === 'dev' ? [dev.filter(keep)] : [unseen, dev.filter(keep)] };
  };
  const lexicalBar = barRows((r) => !withVectors(r));
  const vectorBar = vectorRows ? barRows(withVectors) : undefined;
  const barsFor = (fit: Parameters<typeof rowProbability>[0]) => {
    const barOn = ({ groups }: { groups: LabelledRow[][] }) => chooseAnsweredAtPooled(groups.map((rows) => ({ rows, p: rows.map((r) => rowProbability(fit, r)) })), target, MIN_ANSWERED);
    const at = barOn(lexicalBar);
    const atVectors = vectorBar ? barOn(vectorBar) : undefined;
    const bar = (r: LabelledRow) => (atVectors !== undefined && withVectors(r) ? atVectors : at);
    return { at, atVectors, bar };
  };
  const tried = LAMBDAS.map((lambda) => {
    const fit = fitScorer(train, lambda);
    const p = dev.map((r) => rowProbability(fit, r));
    const { bar } = barsFor(fit);
    return { lambda, fit, p, answered: outcomeCounts(dev, p, bar, 0).answered, logLoss: logLoss(dev, p) };
  });
  // The penalty is chosen on the dev rows too: by the log loss of its probabilities there. (The number
  // of answers that reach the precision target moves by a handful between penalties, by which rows
  // happen to sit at the bar: too few to choose by.)
  const best = tried.reduce((a, b) => (b.logLoss < a.logLoss ? b : a));
  // On notes nobody tuned on, a quote is right less often than the training and dev rows say: the
  // calibration sets' readings rescale the logit (Platt scaling, order kept), so the confidence shown
  // is how often such a quote states the fact on unseen notes, and the bars are chosen on that scale.
  const pCalibrationBefore = calibration.map((r) => rowProbability(best.fit, r));
  const recalibration = calibration.length > 0 ? fitRecalibration(calibration, pCalibrationBefore) : null;
  const fitted = recalibration ? recalibrated(best.fit, recalibration) : best.fit;
  if (calibration.length > 0) log(recalibration ? `recalibration on the calibration sets: logit x ${recalibration.a} ${recalibration.b < 0 ? '-' : '+'} ${Math.abs(recalibration.b)}` : 'recalibration: the calibration sets cannot tell (too few quotes, or all right or all wrong): none');
  const pDev = recalibration ? dev.map((r) => rowProbability(fitted, r)) : best.p;
  const { at: answeredAtLexical, atVectors: answeredAtVectors, bar: answeredAt } = barsFor(fitted);
  const pCalibration = calibration.map((r) => rowProbability(fitted, r));
  const surest = (rows: readonly LabelledRow[], p: readonly number[]) => surestByKind(rows, p, vectorRows);
  // Each training row's kind: a SQuAD-format set's (Wikipedia paragraphs) or a vault set's (notes).
  const squadSets = new Set(manifest.train.filter((s) => s.squad).map((s) => s.name));
  const trainKinds = sets.filter((s) => s.role === 'train').flatMap((s) => s.rows.map(() => (squadSets.has(s.name.replace(/ \+vectors$/, '')) ? 'squad' : 'vault')));
  const answerable = chooseAnswerable(train, trainKinds, dev, calibration, (r) => rowProbability(fitted, r), answeredAt, log);
  const abstainBelow = answerable.abstainBelow;
  const counts = (rows: readonly LabelledRow[], p: readonly number[]) => outcomeCounts(rows, p, answeredAt, abstainBelow, answerable.side(rows));
  const pTrain = train.map((r) => rowProbability(fitted, r));
  const perSet = sets.map((s) => {
    const p = s.rows.map((r) => rowProbability(fitted, r));
    return { name: s.name, role: s.role, ...counts(s.rows, p), uncalibrated: outcomeCounts(s.rows, s.rows.map(() => 1), 0, 0) };
  });
  const profile = checkProfile(
    {
      version: 1,
      ...fitted,
      answered_at: answeredAtLexical,
      ...(answeredAtVectors !== undefined ? { answered_at_vectors: answeredAtVectors } : {}),
      abstain_below: abstainBelow,
      ...(selection ? { selection: { features: [...SELECTION_FEATURES], weights: selection } } : {}),
      ...(answerable.model ? { answerable: answerable.model } : {}),
      fitted: {
        answerable: answerable.fitted,
        selection: chosen
          ? { kept: chosen.adopted ? 'fitted' : 'hand-set', lambda: chosen.best.lambda, hand_dev: chosen.hand.dev, fitted_dev: chosen.best.dev, hand_train: chosen.hand.train, fitted_train: chosen.best.train, ...(chosen.quotes ? { dev_quotes_right: chosen.quotes } : {}), tried: chosen.tried.map((t) => ({ lambda: t.lambda, dev: t.dev.accuracy, train: t.train.accuracy })) }
          : { kept: selection ? 'fitted (rows read with it)' : 'hand-set (rows read with it)' },
        command: 'synapsis tune --answers --sets <manifest> --out <file>',
        train: sets.filter((s) => s.role === 'train').map((s) => `${s.name} (${s.rows.length})`),
        dev: sets.filter((s) => s.role === 'dev').map((s) => `${s.name} (${s.rows.length})`),
        ...(calibration.length > 0
          ? {
              calibration: sets.filter((s) => s.role === 'calibration').map((s) => `${s.name} (${s.rows.length})`),
              calibration_counts: counts(calibration, pCalibration),
              recalibration: recalibration
                ? { ...recalibration, log_loss_before: logLoss(calibration, pCalibrationBefore), log_loss_after: logLoss(calibration, pCalibration) }
                : null,
              calibration_reliability: reliabilityTable(calibration.flatMap((r, i) => (r.quoted ? [{ p: pCalibration[i]!, correct: r.label }] : []))),
              calibration_surest: surest(calibration, pCalibration),
            }
          : {}),
        answered_bars_from: { lexical: lexicalBar.from, ...(vectorBar ? { vectors: vectorBar.from } : {}) },
        target_precision: target,
        lambda: best.lambda,
        dev_log_loss_by_lambda: Object.fromEntries(tried.map((t) => [t.lambda, t.logLoss])),
        answered_by_lambda: Object.fromEntries(tried.map((t) => [t.lambda, t.answered])),
        train_counts: counts(train, pTrain),
        dev_counts: counts(dev, pDev),
        dev_surest: surest(dev, pDev),
        dev_reliability: reliabilityTable(dev.flatMap((r, i) => (r.quoted ? [{ p: pDev[i]!, correct: r.label }] : []))),
        per_set: perSet,
      },
    },
    'the fitted profile',
  );
  fs.mkdirSync(path.dirname(path.resolve(options.out)), { recursive: true });
  fs.writeFileSync(options.out, `${JSON.stringify(profile, null, 1)}\n`);
  return {
    file: path.resolve(options.out),
    profile,
    sets: sets.map((s) => ({ name: s.name, role: s.role, questions: s.rows.length, quoted: s.rows.filter((r) => r.quoted).length, quote_right: s.rows.filter((r) => r.label).length })),
  };
}
