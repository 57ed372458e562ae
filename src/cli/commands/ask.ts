import { Option } from 'commander';
import { argument, methodCommand, option, positiveInt, repeatable } from '../command.ts';
import { formatAnswer } from '../format.ts';

interface AskOptions {
  k?: number;
  include: string[];
  exclude: string[];
  allow: string[];
  mode?: 'bm25' | 'dense' | 'hybrid';
  critic: boolean;
}

export const ask = methodCommand<'answer/ask', AskOptions>({
  name: 'ask',
  description: 'answer a question from your files, streamed, with file:line citations checked by a critic',
  method: 'answer/ask',
  arguments: [argument('<question>', 'what you want to know')],
  options: [
    option('-k, --k <n>', 'passages to retrieve before packing the context', positiveInt),
    repeatable('--include <glob>', 'only sources whose path matches (repeatable)'),
    repeatable('--exclude <glob>', 'leave out sources whose path matches (repeatable)'),
    repeatable('--allow <sensitivity>', 'also use chunks with this sensitivity, e.g. restricted (repeatable)'),
    new Option('--mode <mode>', 'retrieval lists to use').choices(['bm25', 'dense', 'hybrid']),
    option('--no-critic', 'skip the model critic (deterministic citation checks still run)'),
  ],
  examples: ['synapsis ask "Why did we postpone QUIC?"', 'synapsis ask "Who owns the relay?" --include "people/**" --json'],
  toRequest: ([question], o) => ({
    query: question!,
    ...(o.k ? { k: o.k } : {}),
    ...(o.mode ? { mode: o.mode } : {}),
    context: { include_globs: o.include, exclude_globs: o.exclude, allow_sensitivity: o.allow },
    critic: o.critic !== false,
  }),
  // The answer streams to stderr as it is written (stdout keeps the envelope); Ctrl+C stops it.
  call: async (engine, request, { io, opts }) => {
    const controller = new AbortController();
    const cancel = () => controller.abort();
    process.once('SIGINT', cancel);
    let attemptShown = 0;
    try {
      const envelope = await engine.call('answer/ask', request, {
        signal: controller.signal,
        onToken: (text, attempt) => {
          if (opts.json) return;
          if (attempt !== attemptShown) {
            if (attemptShown > 0) io.err('\n(the critic asked for a revision)\n');
            attemptShown = attempt;
          }
          io.err(text);
        },
      });
      if (!opts.json && attemptShown > 0) io.err('\n\n');
      return envelope;
    } finally {
      process.off('SIGINT', cancel);
    }
  },
  format: (envelope) => formatAnswer(envelope),
});
