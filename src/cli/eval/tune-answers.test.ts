import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FEATURE_NAMES } from '../../engine/answer/reader/features.ts';
import { loadReaderProfile } from '../../engine/answer/reader/scorer.ts';
import { type CandidateSet, type LabelledRow, outcomeCounts, rowProbability } from '../../engine/answer/reader/fit.ts';
import { DEFAULT_SELECTION, SELECTION_FEATURES } from '../../engine/answer/reader/selection.ts';
import { runTuneAnswers } from './tune-answers.ts';
import { cli } from '../../../test/helpers/cli.ts';
import { SHARED_DIR } from '../../../test/helpers/tmp.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Rows whose label follows `held`: right when the quote holds most of the question. */
function rows(n: number, seed: number, answerable = true): LabelledRow[] {
  let s = seed;
  const next = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  return Array.from({ length: n }, () => {
    const held = next();
    return { features: Object.fromEntries(FEATURE_NAMES.map((f) => [f, f === 'held' ? held : 0])), label: answerable && held > 0.5, readerOutcome: 'answered' as const, answerable, quoted: true };
  });
}

describe('synapsis tune --answers', () => {
  it('fits a profile from collected rows, chooses its thresholds on the dev rows and writes what it measured', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-tune-answers-'));
    dirs.push(dir);
    const manifest = path.join(dir, 'sets.json');
    fs.writeFileSync(manifest, JSON.stringify({ train: [{ name: 't', vault: 'v', questions: 'q.json' }], dev: [{ name: 'd', vault: 'v', questions: 'r.json' }] }));
    const saved = path.join(dir, 'rows.json');
    fs.writeFileSync(saved, JSON.stringify([{ name: 't', role: 'train', rows: rows(400, 1) }, { name: 'd', role: 'dev', rows: [...rows(200, 2), ...rows(10, 3, false)] }]));
    const out = path.join(dir, 'profile.json');
    const report = await runTuneAnswers({ manifest, out, rows: saved, workDir: path.join(dir, 'work') });
    const profile = loadReaderProfile(out);
    expect(profile.weights[FEATURE_NAMES.indexOf('held')]).toBeGreaterThan(0);
    expect(profile.answered_at).toBeLessThan(1);
    expect(profile.abstain_below).toBeLessThanOrEqual(profile.answered_at);
    const dev = profile.fitted.dev_counts as { precision: number; answered: number };
    expect(dev.answered).toBeGreaterThanOrEqual(20);
    expect(dev.precision).toBeGreaterThanOrEqual(0.9);
    expect(report.sets.map((s) => [s.name, s.role, s.questions])).toEqual([['t', 'train', 400], ['d', 'dev', 210]]);
  });

  /**
   * Not-found readings with a withheld quote, a third of them unanswerable: separable, the quote holds
   * the fact when its best part reads well, and an unanswerable question's reads worse; else by chance.
   */
  function withheld(n: number, seed: number, separable: boolean): LabelledRow[] {
    let s = seed;
    const next = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    return Array.from({ length: n }, (_, i) => {
      const answerable = i % 3 !== 0;
      const part = separable && !answerable ? next() * 0.6 : next();
      const label = answerable && (separable ? part > 0.7 : next() < 0.3);
      return { features: { part_best: part, nf_scattered: 1 }, label, readerOutcome: 'not_found' as const, answerable, quoted: false, withheld: true };
    });
  }

  it('fits an answerable model that tells answerable questions from the rest, its bar chosen with the abstention threshold on dev', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-tune-answers-'));
    dirs.push(dir);
    const manifest = path.join(dir, 'sets.json');
    fs.writeFileSync(manifest, JSON.stringify({ train: [{ name: 't', vault: 'v', questions: 'q.json' }], dev: [{ name: 'd', vault: 'v', questions: 'r.json' }], calibration: [{ name: 'c', vault: 'w', questions: 's.json' }] }));
    const saved = path.join(dir, 'rows.json');
    // One answered quote in ten is labelled against its `held`: the Answered bar is then a real height, not the least probability.
    const noisy = (n: number, seed: number) => rows(n, seed).map((r, i) => (i % 10 === 0 ? { ...r, label: !r.label } : r));
    fs.writeFileSync(saved, JSON.stringify([{ name: 't', role: 'train', rows: [...noisy(400, 1), ...withheld(300, 4, true)] }, { name: 'd', role: 'dev', rows: [...noisy(200, 2), ...withheld(150, 5, true)] }, { name: 'c', role: 'calibration', rows: [...noisy(120, 6), ...withheld(90, 7, true).map((r) => ({ ...r, label: false }))] }]));
    const lines: string[] = [];
    await runTuneAnswers({ manifest, out: path.join(dir, 'p.json'), rows: saved, workDir: path.join(dir, 'work'), log: (l) => lines.push(l) });
    const profile = loadReaderProfile(path.join(dir, 'p.json'));
    const fitted = profile.fitted.answerable as { kept: boolean; at: number; abstain_below: number; dev: { answerable_abstained: number; unanswerable_abstained: number; fully_correct: number }; dev_scorer_alone: { answerable_abstained: number; unanswerable_abstained: number; fully_correct: number }; calibration: unknown };
    expect(fitted.kept).toBe(true);
    expect(profile.answerable?.weights[profile.answerable.features.indexOf('part_best')]).toBeGreaterThan(0);
    expect(profile.answerable?.at).toBe(fitted.at);
    expect(profile.abstain_below).toBe(fitted.abstain_below);
    // The withheld quotes of answerable questions that read well are shown, the unanswerable ones' held
    // back: the bars score better than the scorer's threshold alone.
    const j = (c: { answerable_abstained: number; unanswerable_abstained: number; fully_correct: number }) => c.unanswerable_abstained - c.answerable_abstained + c.fully_correct;
    expect(fitted.dev.unanswerable_abstained).toBeGreaterThan(0.9);
    expect(fitted.dev.answerable_abstained).toBeLessThan(fitted.dev_scorer_alone.answerable_abstained - 0.1);
    expect(j(fitted.dev)).toBeGreaterThan(j(fitted.dev_scorer_alone) + 0.05);
    expect(fitted.calibration).toBeDefined();
    expect(lines.some((l) => /^answerable: a quote is shown from p [\d.]+ or when the notes answer from [\d.]+: dev /.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith('answerable: calibration '))).toBe(true);
  });

  it('fits no answerable model when the training rows hold answerable questions only, and says so', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-tune-answers-'));
    dirs.push(dir);
    const manifest = path.join(dir, 'sets.json');
    fs.writeFileSync(manifest, JSON.stringify({ train: [{ name: 't', vault: 'v', questions: 'q.json' }], dev: [{ name: 'd', vault: 'v', questions: 'r.json' }] }));
    const saved = path.join(dir, 'rows.json');
    fs.writeFileSync(saved, JSON.stringify([{ name: 't', role: 'train', rows: rows(400, 1) }, { name: 'd', role: 'dev', rows: [...rows(200, 2), ...withheld(150, 5, true)] }]));
    const lines: string[] = [];
    await runTuneAnswers({ manifest, out: path.join(dir, 'p.json'), rows: saved, workDir: path.join(dir, 'work'), log: (l) => lines.push(l) });
    const profile = loadReaderProfile(path.join(dir, 'p.json'));
    expect(profile.answerable).toBeUndefined();
    expect((profile.fitted.answerable as { kept: boolean }).kept).toBe(false);
    expect(lines.some((l) => /^answerable: not fitted \(400 training rows, 0 unanswerable/.test(l))).toBe(true);
  });

  it('keeps the hand-set selection weights for rows it is given, and asks nothing again', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-tune-answers-'));
    dirs.push(dir);
    const manifest = path.join(dir, 'sets.json');
    // The vaults named do not exist: asking any set again would fail.
    fs.writeFileSync(manifest, JSON.stringify({ train: [{ name: 't', vault: 'v', questions: 'q.json' }], dev: [{ name: 'd', vault: 'v', questions: 'r.json' }] }));
    // Questions whose right sentence is told by the feature the hand-set weights weigh least, while a
    // wrong one covers more of the question: fitted weights lead with the right one more often.
    const quiet = DEFAULT_SELECTION.reduce((k, w, i) => (Math.abs(w) < Math.abs(DEFAULT_SELECTION[k]!) ? i : k), 1);
    const candidates = (n: number): CandidateSet[] =>
      Array.from({ length: n }, (_, q) => {
        const c = 0.4 + (q % 7) * 0.03;
        const sentence = (coverage: number, signal: number) => SELECTION_FEATURES.map((_, i) => (i === 0 ? coverage : i === quiet ? signal : 0));
        return { features: [sentence(c, 1), sentence(c + 0.1, 0), sentence(c - 0.2, 0)], holds: [true, false, false] };
      });
    const saved = path.join(dir, 'rows.json');
    fs.writeFileSync(saved, JSON.stringify([{ name: 't', role: 'train', rows: rows(400, 1), candidates: candidates(200) }, { name: 'd', role: 'dev', rows: rows(200, 2), candidates: candidates(100) }]));
    const lines: string[] = [];
    await runTuneAnswers({ manifest, out: path.join(dir, 'p.json'), rows: saved, workDir: path.join(dir, 'work'), log: (l) => lines.push(l) });
    const profile = loadReaderProfile(path.join(dir, 'p.json'));
    const selection = profile.fitted.selection as { kept: string; fitted_dev: { right: number }; hand_dev: { right: number } };
    expect(selection.fitted_dev.right).toBeGreaterThan(selection.hand_dev.right);
    expect(selection.kept).toBe('hand-set');
    expect(profile.selection).toBeUndefined();
    expect(lines.some((l) => /the rows given were read with the hand-set weights, kept/.test(l))).toBe(true);
    expect(lines.some((l) => / set .*: asking/.test(l))).toBe(false);
  });

  it('chooses the Answered bar on the calibration sets and dev at once when the manifest names them, the rest on dev', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-tune-answers-'));
    dirs.push(dir);
    const manifest = path.join(dir, 'sets.json');
    fs.writeFileSync(manifest, JSON.stringify({ train: [{ name: 't', vault: 'v', questions: 'q.json' }], dev: [{ name: 'd', vault: 'v', questions: 'r.json' }], calibration: [{ name: 'c', vault: 'w', questions: 's.json' }] }));
    // On the calibration set a quote must hold more of the question to be right than on the others:
    // to be right 9 times in 10 there, Answered must ask for more.
    const unseen = rows(300, 5).map((r) => ({ ...r, label: r.features.held! > 0.7 }));
    const saved = path.join(dir, 'rows.json');
    fs.writeFileSync(saved, JSON.stringify([{ name: 't', role: 'train', rows: rows(400, 1) }, { name: 'd', role: 'dev', rows: rows(200, 2) }, { name: 'c', role: 'calibration', rows: unseen }]));
    const onDev = path.join(dir, 'dev-only.json');
    fs.writeFileSync(path.join(dir, 'sets-dev.json'), JSON.stringify({ train: [{ name: 't', vault: 'v', questions: 'q.json' }], dev: [{ name: 'd', vault: 'v', questions: 'r.json' }] }));
    fs.writeFileSync(path.join(dir, 'rows-dev.json'), JSON.stringify([{ name: 't', role: 'train', rows: rows(400, 1) }, { name: 'd', role: 'dev', rows: rows(200, 2) }]));
    await runTuneAnswers({ manifest: path.join(dir, 'sets-dev.json'), out: onDev, rows: path.join(dir, 'rows-dev.json'), workDir: path.join(dir, 'work') });
    const out = path.join(dir, 'profile.json');
    const report = await runTuneAnswers({ manifest, out, rows: saved, workDir: path.join(dir, 'work') });
    const profile = loadReaderProfile(out);
    expect(profile.fitted.answered_bars_from).toEqual({ lexical: 'calibration and dev' });
    // The bar holds on dev too: Answered is right 9 times in 10 on both.
    const devRows = rows(200, 2);
    expect(outcomeCounts(devRows, devRows.map((r) => rowProbability(profile, r)), profile.answered_at, 0).precision!).toBeGreaterThanOrEqual(0.9);
    expect(loadReaderProfile(onDev).fitted.answered_bars_from).toEqual({ lexical: 'dev' });
    // The bar chosen on dev alone is right less than 9 times in 10 on the calibration rows.
    const devProfile = loadReaderProfile(onDev);
    expect(outcomeCounts(unseen, unseen.map((r) => rowProbability(devProfile, r)), devProfile.answered_at, 0).precision!).toBeLessThan(0.9);
    // The calibration rows are right less often than the fit says: the logit is recalibrated on them
    // (its order kept), so the probabilities predict those rows better.
    const recal = profile.fitted.recalibration as { a: number; b: number; log_loss_before: number; log_loss_after: number };
    expect(recal.a).toBeGreaterThan(0);
    expect(recal.log_loss_after).toBeLessThan(recal.log_loss_before);
    expect(profile.fitted.calibration_reliability).toEqual(expect.arrayContaining([expect.objectContaining({ answers: expect.any(Number) })]));
    const cal = profile.fitted.calibration_counts as { precision: number; answered: number };
    expect(cal.answered).toBeGreaterThanOrEqual(20);
    expect(cal.precision).toBeGreaterThanOrEqual(0.9);
    expect(report.sets.map((s) => s.role)).toEqual(['train', 'dev', 'calibration']);
    // A calibration set the reader answers fewer than 20 questions of cannot choose a bar: dev does.
    fs.writeFileSync(saved, JSON.stringify([{ name: 't', role: 'train', rows: rows(400, 1) }, { name: 'd', role: 'dev', rows: rows(200, 2) }, { name: 'c', role: 'calibration', rows: unseen.slice(0, 19) }]));
    await runTuneAnswers({ manifest, out, rows: saved, workDir: path.join(dir, 'work') });
    expect(loadReaderProfile(out).fitted.answered_bars_from).toEqual({ lexical: 'dev' });
    expect(loadReaderProfile(out).answered_at).toBe(loadReaderProfile(onDev).answered_at);
    // The command says what the bars give on the calibration sets.
    fs.writeFileSync(saved, JSON.stringify([{ name: 't', role: 'train', rows: rows(400, 1) }, { name: 'd', role: 'dev', rows: rows(200, 2) }, { name: 'c', role: 'calibration', rows: unseen }]));
    const printed = await cli(['tune', '--answers', '--sets', manifest, '--rows', saved, '--out', out, '--work-dir', path.join(dir, 'work')]);
    expect(printed.code).toBe(0);
    const line = /^calibration \(the Answered bars\): (\d+) Answered, right (\d+\.\d)%$/m.exec(printed.out);
    expect(line).not.toBeNull();
    expect(Number(line![1])).toBe(cal.answered);
    expect(Number(line![2])).toBeGreaterThanOrEqual(90);
    // And how the surest answers it could badge fare there, whether or not a bar was found.
    const surest = profile.fitted.calibration_surest as { lexical: { answers: number; right: number }[] };
    expect(surest.lexical.map((s) => s.answers)).toEqual([20, 40]);
    expect(printed.out).toMatch(new RegExp(`^calibration, of the answers it could badge: the 20 surest ${Math.round((surest.lexical[0]!.right / 20) * 100)}%, the 40 surest \\d+% right$`, 'm'));
  });

  it('asks the sets marked with vectors twice, lexically and with the embedding model, each pass its own rows', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-tune-answers-'));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'v'));
    // Twelve projects, each with its budget in a note of its own: enough quoted questions to fit on.
    const words = ['zebra', 'glacier', 'violin', 'pepper', 'rocket', 'coral', 'falcon', 'quartz', 'tulip', 'lantern', 'harbor', 'meteor'];
    words.forEach((w, i) => fs.writeFileSync(path.join(dir, 'v', `${w}.md`), `# ${w}\n\nThe ${w} project budget is ${1000 + i * 250} euros. The ${w} team meets on Mondays.\n`));
    const q = (w: string, i: number) => ({ question: `What is the ${w} project budget?`, kind: 'single', sources: [`${w}.md`], answer_contains: [String(1000 + i * 250)] });
    fs.writeFileSync(path.join(dir, 'q.json'), JSON.stringify(words.map(q)));
    fs.writeFileSync(path.join(dir, 'r.json'), JSON.stringify([{ question: 'When does the zebra team meet?', kind: 'single', sources: ['zebra.md'], answer_contains: ['Mondays'] }]));
    const manifest = path.join(dir, 'sets.json');
    fs.writeFileSync(manifest, JSON.stringify({ train: [{ name: 't', vault: 'v', questions: 'q.json', vectors: true }], dev: [{ name: 'd', vault: 'v', questions: 'r.json' }] }));
    const work = path.join(dir, 'work');
    const report = await runTuneAnswers({ manifest, out: path.join(dir, 'p.json'), embedModels: [path.join(SHARED_DIR, 'models', 'stories260K.gguf')], workDir: work });
    expect(report.sets.map((s) => [s.name, s.role, s.questions])).toEqual([['t', 'train', 12], ['t +vectors', 'train', 12], ['d', 'dev', 1]]);
    const saved = JSON.parse(fs.readFileSync(path.join(work, 'rows.json'), 'utf8')) as { name: string; rows: LabelledRow[] }[];
    const vectors = (name: string) => saved.find((s) => s.name === name)!.rows.map((r) => r.features.has_vectors);
    expect(new Set(vectors('t'))).toEqual(new Set([0]));
    expect(new Set(vectors('t +vectors'))).toEqual(new Set([1]));
    expect(vectors('d')).toEqual([0]);
  }, 120_000);

  it('names a manifest that is not one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syn-tune-answers-'));
    dirs.push(dir);
    const manifest = path.join(dir, 'sets.json');
    fs.writeFileSync(manifest, JSON.stringify({ train: [{ name: 't', vault: 'v' }], dev: [] }));
    await expect(runTuneAnswers({ manifest, out: path.join(dir, 'p.json') })).rejects.toThrow(/Answer sets manifest .*sets\.json/);
  });
});
