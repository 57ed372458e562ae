import type { Command } from 'commander';
import { createError } from '../../shared/errors.ts';
import type { RegisteredCommand } from '../command.ts';

/** Not a contract method yet: the library's `manifest()`. */
export const manifest: RegisteredCommand = {
  name: 'manifest',
  examples: ['synapsis manifest', 'synapsis manifest --json'],
  register: (parent, { globals, print, withReader }) =>
    parent
      .command('manifest')
      .description('the manifest of the current index: index version, embedding model, chunking parameters, chunk hashes')
      .action(async (_o: unknown, cmd: Command) => {
        const opts = globals(cmd);
        await withReader(opts, async (engine) => {
          const current = engine.manifest();
          if (!current) throw createError('E_SYN_NOT_FOUND', 'No manifest yet: it is written after the first indexing run (synapsis index <folder>)');
          const { hashes: _hashes, ...summary } = current as typeof current & { hashes?: unknown };
          print(opts, current, Object.entries(summary).map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join('\n'));
        });
      }),
};
