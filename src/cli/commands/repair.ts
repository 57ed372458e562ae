import type { Command } from 'commander';
import { resolveDataDir } from '../../engine/core/paths.ts';
import type { RegisteredCommand } from '../command.ts';
import { formatRepair, repairWorkspace } from '../repair.ts';

export const repair: RegisteredCommand = {
  name: 'repair',
  examples: ['synapsis repair', 'synapsis repair ~/notes ~/code --data-dir ~/.synapsis-work'],
  register: (parent, { globals, print, withEngine }) =>
    parent
      .command('repair')
      .description('rebuild a damaged or lost store from the indexed folders, re-using the embeddings it can still read (the old file is kept aside)')
      .argument('[folders...]', 'folders to index when the store no longer says which')
      .action(async (folders: string[], _o: unknown, cmd: Command) => {
        const opts = globals(cmd);
        const result = await repairWorkspace(resolveDataDir(opts.dataDir), folders, (fn) => withEngine(opts, fn));
        print(opts, result, formatRepair(result));
      }),
};
