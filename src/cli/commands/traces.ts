import type { Command } from 'commander';
import { option, positiveInt, repeatable, type RegisteredCommand } from '../command.ts';

/** Not a contract method yet: the library's `traces()`. */
export const traces: RegisteredCommand = {
  name: 'traces',
  examples: ['synapsis traces --limit 20', 'synapsis traces --json'],
  register: (parent, { globals, print, withReader }) =>
    parent
      .command('traces')
      .description('one row per answer: latencies, retrieved passages, tokens, verdict, confidence, limits')
      .addOption(option('--limit <n>', 'newest N traces', positiveInt, 100))
      .addOption(repeatable('--allow <sensitivity>', 'also list passages of documents with this sensitivity (repeatable)'))
      .action(async (cmdOpts: { limit: number; allow: string[] }, cmd: Command) => {
        const opts = globals(cmd);
        await withReader(opts, async (engine) => {
          const rows = engine.traces(cmdOpts.limit, { allow_sensitivity: cmdOpts.allow });
          const text = rows
            .map((t) => `${t.started_at}  ${t.answer_mode.padEnd(10)} ${(t.verdict ?? '-').padEnd(7)} conf ${t.confidence.toFixed(2)}  ${Math.round(t.latencies_ms.total_ms ?? 0)} ms  ${t.query}`)
            .join('\n');
          print(opts, rows, text || 'No answers yet (synapsis ask "<question>").');
        });
      }),
};
