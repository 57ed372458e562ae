import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { resolveDataDir } from '../../engine/core/paths.ts';
import { createError } from '../../shared/errors.ts';
import { option, positiveInt, repeatable, type RegisteredCommand } from '../command.ts';

interface TuneOptions {
  dataset: string[];
  split: string[];
  name?: string;
  answers?: boolean;
  sets?: string;
  out?: string;
  rows?: string;
  embedModel: string[];
  limit?: number;
  minGain?: number;
  workDir?: string;
}

function fraction(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError('expected a number from 0 to 1');
  return n;
}

export const tune: RegisteredCommand = {
  name: 'tune',
  examples: [
    'synapsis tune --dataset ../shared/data/scifact --split train --name my-fit --embed-model all-MiniLM-L6-v2.Q8_0.gguf --embed-model multilingual-e5-small.Q4_0.gguf --work-dir /tmp/sf',
    'synapsis tune --answers --sets eval/answer-sets.json --out src/engine/answer/reader/answer-profile.json --work-dir /tmp/ta',
  ],
  register: (parent, { io, globals, print }) =>
    parent
      .command('tune')
      .description('fit a retrieval profile (fusion weights, RRF k, expansion, document scoring) on the training queries of a BEIR dataset and save it by name; with --answers, fit the answer reader\'s scorer on question sets')
      .addOption(repeatable('--dataset <dir>', 'folder with corpus.jsonl, queries.jsonl and qrels/<split>.tsv (repeat it to fit on several datasets together, each counting equally)'))
      .addOption(option('--answers', 'fit the answer reader\'s scorer (weights on the training sets, penalties and the abstention bar on the dev sets, its recalibration and the Answered bars on the calibration sets) instead of a retrieval profile'))
      .addOption(option('--sets <file>', 'with --answers: JSON manifest {"train": [...], "dev": [...], "calibration": [...]} of sets, each {name, vault, questions} or {name, squad} ("test" sets are never read)'))
      .addOption(option('--out <file>', 'with --answers: where to write the reader profile (JSON)'))
      .addOption(option('--rows <file>', 'with --answers: refit from the rows.json an earlier run left in its --work-dir instead of asking again'))
      .addOption(repeatable('--split <name>', 'training split (test splits are refused); one for every --dataset, or one per --dataset in the same order'))
      .addOption(option('--name <name>', 'name of the profile to save (letters, digits, _ . -)'))
      .addOption(repeatable('--embed-model <file>', 'GGUF embedding model (repeat it for several); none: lexical lists only'))
      .addOption(option('--limit <n>', 'fit on the first N training queries only', positiveInt))
      .addOption(option('--min-gain <x>', 'least nDCG@10 gain on the training queries for a parameter to move (default 0.001)', fraction))
      .addOption(option('--work-dir <dir>', 'keep the generated corpus and index here (shared with synapsis eval --work-dir)'))
      .action(async (cmdOpts: TuneOptions, cmd: Command) => {
        const opts = globals(cmd);
        if (cmdOpts.answers) {
          if (!cmdOpts.sets || !cmdOpts.out) throw createError('E_SYN_BAD_REQUEST', 'synapsis tune --answers needs --sets <manifest.json> and --out <profile.json>');
          const { runTuneAnswers } = await import('../eval/tune-answers.ts');
          const report = await runTuneAnswers({
            manifest: cmdOpts.sets,
            out: cmdOpts.out,
            embedModels: cmdOpts.embedModel,
            ...(cmdOpts.rows ? { rows: cmdOpts.rows } : {}),
            ...(cmdOpts.workDir ? { workDir: cmdOpts.workDir } : {}),
            ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}),
            log: (line) => io.err(`${line}\n`),
          });
          type Counts = { answered: number; precision: number | null; fullyCorrect: number; answerableAbstained: number; unanswerableAbstained: number };
          const dev = report.profile.fitted.dev_counts as Counts;
          const cal = report.profile.fitted.calibration_counts as Counts | undefined;
          // What the surest answered readings of the calibration sets give, whether or not a bar was found.
          const surest = (report.profile.fitted.calibration_surest as { lexical: { answers: number; right: number }[] } | undefined)?.lexical ?? [];
          const top = surest.map((s) => `the ${s.answers} surest ${((s.right / s.answers) * 100).toFixed(0)}%`).join(', ');
          const calibration = cal ? `\ncalibration (the Answered bars): ${cal.answered} Answered, right ${cal.precision === null ? 'n/a' : `${(cal.precision * 100).toFixed(1)}%`}${top ? `\ncalibration, of the answers it could badge: ${top} right` : ''}` : '';
          print(opts, report, `saved ${report.file}\nAnswered at p >= ${report.profile.answered_at}${report.profile.answered_at_vectors !== undefined ? ` (with sentence vectors: ${report.profile.answered_at_vectors})` : ""}, not in your notes below ${report.profile.abstain_below}\ndev: Answered right ${dev.precision === null ? 'n/a' : `${(dev.precision * 100).toFixed(1)}%`}, fact shown ${(dev.fullyCorrect * 100).toFixed(1)}%, answerable abstained ${(dev.answerableAbstained * 100).toFixed(1)}%, unanswerable abstained ${(dev.unanswerableAbstained * 100).toFixed(1)}%${calibration}`);
          return;
        }
        if (cmdOpts.dataset.length === 0 || !cmdOpts.name) throw createError('E_SYN_BAD_REQUEST', 'synapsis tune needs --dataset <dir> and --name <name> (or --answers with --sets and --out)');
        const name = cmdOpts.name;
        const splits = cmdOpts.split.length > 0 ? cmdOpts.split : ['train'];
        if (splits.length !== 1 && splits.length !== cmdOpts.dataset.length) {
          throw createError('E_SYN_BAD_REQUEST', `${cmdOpts.dataset.length} --dataset but ${splits.length} --split: give one --split for all, or one per --dataset in the same order`);
        }
        const { runTune } = await import('../eval/tune.ts');
        // Saved in this workspace: the engine (SYN_PROFILE=<name>) and synapsis eval --profile <name> find it there.
        const report = await runTune({
          sets: cmdOpts.dataset.map((dataset, i) => ({ dataset, split: splits[splits.length === 1 ? 0 : i]! })),
          name,
          embedModels: cmdOpts.embedModel,
          saveDir: resolveDataDir(opts.dataDir),
          ...(cmdOpts.limit ? { limit: cmdOpts.limit } : {}),
          ...(cmdOpts.minGain !== undefined ? { minGain: cmdOpts.minGain } : {}),
          ...(cmdOpts.workDir ? { workDir: cmdOpts.workDir } : {}),
          ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}),
          log: (line) => io.err(`${line}\n`),
        });
        print(opts, report, `saved ${report.file}\nnDCG@10 on ${report.queries} training queries: default profile ${report.ndcg_default}, fitted ${report.ndcg_fitted}\nuse it: SYN_PROFILE=${report.profile.name} (or --profile ${report.profile.name} with synapsis eval)`);
      }),
};
