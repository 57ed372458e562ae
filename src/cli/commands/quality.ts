import path from 'node:path';
import type { Command } from 'commander';
import { option, positiveInt, repeatable, type RegisteredCommand } from '../command.ts';

export const quality: RegisteredCommand = {
  name: 'quality',
  examples: ['synapsis quality --dataset ../shared/data/scifact --dataset ../shared/data/cosqa --embed-model all-MiniLM-L6-v2.Q8_0.gguf --embed-model multilingual-e5-small.Q4_0.gguf --work-dir /tmp/quality'],
  register: (parent, { io, globals, print }) =>
    parent
      .command('quality')
      .description('the ablation table of docs/quality.md: BM25, each embedder, plain RRF, the default profile and each technique switched, on BEIR datasets (test splits)')
      .addOption(repeatable('--dataset <dir>', 'a BEIR dataset (repeat it for several)').makeOptionMandatory())
      .addOption(repeatable('--embed-model <file>', 'GGUF embedding model (repeat it for several)'))
      .addOption(option('--work-dir <dir>', 'a folder per dataset is kept here: corpus, index and embeddings (reruns cost the queries only)').makeOptionMandatory())
      .addOption(option('--limit <n>', 'only the first N judged queries of each dataset', positiveInt))
      .action(async (cmdOpts: { dataset: string[]; embedModel: string[]; workDir: string; limit?: number }, cmd: Command) => {
        const opts = globals(cmd);
        const { runAblation, ablationTable } = await import('../eval/ablation.ts');
        const rows = await runAblation({
          datasets: cmdOpts.dataset,
          embedModels: cmdOpts.embedModel,
          workRoot: path.resolve(cmdOpts.workDir),
          ...(cmdOpts.limit ? { limit: cmdOpts.limit } : {}),
          ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}),
          log: (line) => io.err(`${line}\n`),
        });
        print(opts, rows, ablationTable(rows));
      }),
};
