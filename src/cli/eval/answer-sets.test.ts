import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { cli } from '../../../test/helpers/cli.ts';
import { formatAnswerReport, formatAnswerSets } from '../commands/eval.ts';
import { readManifest, runAnswerSets } from './answer-sets.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

/** A manifest with two small vault sets in its test role (and a SQuAD file, which eval does not ask). */
function manifestDir() {
  return temp.make('syn-sets-', {
    'outage/outage.md': '# Relay outage\n\nThe relay outage on Friday lasted 47 minutes. Nobody lost data.\n',
    'outage.questions.json': JSON.stringify([
      { id: 'o1', question: 'How long did the relay outage last?', kind: 'single', sources: ['outage.md'], answer_contains: ['47 minutes'] },
      { id: 'o2', question: 'Which team owns the billing service?', kind: 'unanswerable', sources: [], answer_contains: [] },
    ]),
    'tea/tea.md': '# Tea\n\nGreen tea is brewed at 80 degrees for two minutes.\n',
    'tea.questions.json': JSON.stringify([{ id: 't1', question: 'At what temperature is green tea brewed?', kind: 'single', sources: ['tea.md'], answer_contains: ['80 degrees'] }]),
    'squad.json': '{"data": []}',
    'sets.json': JSON.stringify({
      train: [{ name: 'tea-train', vault: 'tea', questions: 'tea.questions.json' }],
      dev: [{ name: 'tea-dev', vault: 'tea', questions: 'tea.questions.json' }],
      test: [
        { name: 'outage', vault: 'outage', questions: 'outage.questions.json' },
        { name: 'tea', vault: 'tea', questions: 'tea.questions.json' },
        { name: 'squad-file', squad: 'squad.json' },
      ],
    }),
  });
}

describe('synapsis eval --answers --sets', () => {
  it('asks every vault set of the role and pools their questions into one summary', async () => {
    const dir = manifestDir();
    const work = temp.make('syn-sets-work-');
    const report = await runAnswerSets({ manifest: path.join(dir, 'sets.json'), role: 'test', workDir: work });
    expect(report.sets.map((s) => [s.set, s.questions, s.answerable, s.unanswerable])).toEqual([
      ['outage', 2, 1, 1],
      ['tea', 1, 1, 0],
    ]);
    expect(report.skipped).toEqual(['squad-file']);
    // Pooled over the three questions: every share is of the pooled counts, not a mean of the sets' shares.
    expect([report.pooled.questions, report.pooled.answerable, report.pooled.unanswerable]).toEqual([3, 2, 1]);
    const correct = report.sets.reduce((n, s) => n + s.fully_correct * s.answerable, 0);
    expect(report.pooled.fully_correct).toBeCloseTo(correct / 2, 3);
    expect(report.pooled.abstained_unanswerable).toBe(report.sets[0]!.abstained_unanswerable);
    expect(report.pooled.reliability.reduce((n, b) => n + b.answers, 0)).toBe(report.sets.reduce((n, s) => n + s.reliability.reduce((m, b) => m + b.answers, 0), 0));
    // No rows unless asked for; each set kept its own work dir.
    expect(report.sets.every((s) => s.rows === undefined) && report.pooled.rows === undefined).toBe(true);
    expect(fs.readdirSync(work).sort()).toEqual(['outage', 'tea']);
    // The pooled reliability table is printed after the rows, each bucket a line; a set's own report has its own.
    expect(report.pooled.reliability.length).toBeGreaterThan(0);
    const printed = formatAnswerSets(report);
    expect(printed).toContain('pooled reliability\n\n| confidence | answers | predicted | observed |');
    for (const b of report.pooled.reliability) expect(printed).toContain(`| ${b.from.toFixed(1)}–${b.to.toFixed(1)} | ${b.answers} |`);
    const own = report.sets.find((s) => s.reliability.length > 0)!;
    expect(formatAnswerReport(own)).toContain('\n\n| confidence | answers | predicted | observed |\n|---|---:|---:|---:|\n|');
  });

  it('prints a row per set and the pooled row, and names what is wrong with its arguments', async () => {
    const dir = manifestDir();
    const manifest = path.join(dir, 'sets.json');
    const ok = await cli(['eval', '--answers', '--sets', manifest, '--role', 'test']);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/\| outage \| 2 \|/);
    expect(ok.out).toMatch(/\| tea \| 1 \|/);
    expect(ok.out).toMatch(/\| \*\*pooled\*\* \(2 sets\) \| 3 \|/);
    expect(ok.out).toContain('not asked (SQuAD-format, for synapsis tune --answers): squad-file');
    const noRole = await cli(['eval', '--answers', '--sets', manifest]);
    expect(noRole.code).toBe(2);
    expect(noRole.err).toContain('--sets <manifest> and --role <train|dev|calibration|test> go together');
    const empty = await cli(['eval', '--answers', '--sets', manifest, '--role', 'calibration']);
    expect(empty.code).toBe(2);
    expect(empty.err).toContain('names no calibration sets');
    const both = await cli(['eval', '--answers', '--sets', manifest, '--role', 'test', '--vault', dir]);
    expect(both.code).toBe(2);
    expect(both.err).toContain('--sets names its own vaults and questions: leave out --vault');
    const withoutAnswers = await cli(['eval', '--sets', manifest, '--role', 'test']);
    expect(withoutAnswers.code).toBe(2);
    expect(withoutAnswers.err).toContain('--sets, --role go with --answers only');
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ train: [], dev: [], holdout: [] }));
    expect(() => readManifest(bad)).toThrow(/Answer sets manifest .*bad\.json: .*train/);
  });
});
