import type { Command } from 'commander';
import { createError } from '../../shared/errors.ts';
import { repeatable, option, type RegisteredCommand } from '../command.ts';
import { formatIndexReport } from '../format.ts';
import { createProgressReporter } from '../progress.ts';

/** `index/addRoot` for each folder given with --include/--exclude, then `index/run`, with progress on stderr. */
export const indexFolders: RegisteredCommand = {
  name: 'index',
  examples: ['synapsis index ~/notes ~/code                        index two folders (re-run: only changes)', 'synapsis index ~/notes --exclude "archive/**"         skip a subfolder', 'synapsis index --json                                 re-index every root, report as JSON'],
  register: (parent, { globals, print, withEngine }) =>
    parent
      .command('index')
      .description('index folders (each becomes a root of this workspace); no folder: re-index every root')
      .argument('[paths...]', 'folders to index')
      .addOption(repeatable('--include <glob>', 'only index files matching this glob (repeatable)'))
      .addOption(repeatable('--exclude <glob>', 'skip files matching this glob (repeatable)'))
      .addOption(option('--quiet', 'no progress output'))
      .action(async (paths: string[], cmdOpts: { include: string[]; exclude: string[]; quiet?: boolean }, cmd: Command) => {
        const opts = globals(cmd);
        await withEngine(opts, async (engine) => {
          if (cmdOpts.include.length > 0 || cmdOpts.exclude.length > 0) {
            if (paths.length === 0) throw createError('E_SYN_BAD_REQUEST', '--include and --exclude need at least one folder');
            for (const p of paths) await engine.call('index/addRoot', { path: p, include: cmdOpts.include, exclude: cmdOpts.exclude });
          }
          const progress = createProgressReporter(process.stderr, cmdOpts.quiet === true);
          const sub = engine.on('index/progress', (e) => progress.update(e));
          try {
            const report = await engine.call('index/run', { sources: paths });
            progress.stop();
            print(opts, report, formatIndexReport(report));
          } finally {
            progress.stop();
            sub.dispose();
          }
        });
      }),
};
