import type { Command } from 'commander';
import type { RegisteredCommand } from '../command.ts';
import { formatIndexReport } from '../format.ts';

/** `index/addRoot` for each folder, then `index/watch` until Ctrl+C, printing each run that changed something. */
export const watch: RegisteredCommand = {
  name: 'watch',
  examples: ['synapsis watch                 keep every root current until Ctrl+C', 'synapsis watch ~/notes         add a folder, then watch'],
  register: (parent, { io, globals, print, withEngine }) =>
    parent
      .command('watch')
      .description('keep the index current: finish interrupted work, then re-index files as they change (Ctrl+C stops)')
      .argument('[paths...]', 'folders to add before watching (default: every root)')
      .action(async (paths: string[], _o: unknown, cmd: Command) => {
        const opts = globals(cmd);
        await withEngine(opts, async (engine) => {
          for (const p of paths) await engine.call('index/addRoot', { path: p });
          const sub = engine.on('syn.index.completed', (r) => {
            if (r.indexed + r.removed + r.failed + r.skipped === 0) return;
            print(opts, r, `updated: ${formatIndexReport(r)}`);
          });
          await engine.call('index/watch', { enabled: true });
          const roots = await engine.call('index/roots', {});
          io.err(`watching ${roots.map((r) => r.path).join(', ')} (Ctrl+C to stop)\n`);
          await new Promise<void>((resolve) => {
            const stop = () => resolve();
            process.once('SIGINT', stop);
            process.once('SIGTERM', stop);
          });
          await engine.call('index/watch', { enabled: false });
          sub.dispose();
        });
      }),
};
