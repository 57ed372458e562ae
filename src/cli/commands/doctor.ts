import path from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../engine/core/config.ts';
import { resolveDataDir } from '../../engine/core/paths.ts';
import { ChecksFailed, option, type RegisteredCommand } from '../command.ts';
import { formatDoctor, runDoctor } from '../doctor.ts';

/** Checks the installation without opening an engine (a broken one is what it diagnoses). */
export const doctor: RegisteredCommand = {
  name: 'doctor',
  examples: ['synapsis doctor', 'synapsis doctor --no-llm --json'],
  register: (parent, { globals, print }) =>
    parent
      .command('doctor')
      .description('check the installation: Node, native modules, GPU detection, models, store and disk space, with a fix for each problem')
      .addOption(option('--no-llm', 'skip starting node-llama-cpp'))
      .action(async (cmdOpts: { llm: boolean }, cmd: Command) => {
        const opts = globals(cmd);
        const config = loadConfig({}, process.env);
        const dataDir = resolveDataDir(opts.dataDir);
        const checks = await runDoctor({
          dataDir,
          modelsDir: path.resolve(opts.modelsDir ?? path.join(dataDir, 'models')),
          skipLlm: !cmdOpts.llm,
          configuredModels: [
            ...(config.embedModel ? [{ role: 'embed', ref: config.embedModel }] : []),
            ...(config.chatModel ? [{ role: 'chat', ref: config.chatModel }] : []),
            ...(config.rerankModel ? [{ role: 'rerank', ref: config.rerankModel }] : []),
          ],
        });
        print(opts, { ok: checks.every((c) => c.status !== 'fail'), checks }, formatDoctor(checks));
        if (checks.some((c) => c.status === 'fail')) throw new ChecksFailed();
      }),
};
