import { argument, methodCommand, modeOption, option, positiveInt, scopeOptions } from '../command.ts';
import { terminalLine } from '../../shared/terminal-safe.ts';
import { formatAnswer } from '../format.ts';

interface AskOptions {
  k?: number;
  include: string[];
  exclude: string[];
  allow: string[];
  mode?: 'bm25' | 'dense' | 'hybrid';
  critic: boolean;
  thread?: string;
}

export const ask = methodCommand<'answer/ask', AskOptions>({
  name: 'ask',
  description: 'answer a question from your files, streamed, with file:line citations checked by a critic',
  method: 'answer/ask',
  arguments: [argument('<question>', 'what you want to know')],
  options: [
    option('-k, --k <n>', 'passages to retrieve before packing the context', positiveInt),
    ...scopeOptions('sources'),
    modeOption(),
    option('--no-critic', 'skip the model critic (deterministic citation checks still run)'),
    option('--thread <id>', 'ask in this conversation (a follow-up keeps its context), or "new" to start one; synapsis threads list shows them'),
  ],
  examples: [
    'synapsis ask "Why did we postpone QUIC?" --thread new',
    'synapsis ask "and who decided it?" --thread t_0123456789abcdef', 'synapsis ask "Who owns the relay?" --include "people/**" --json'],
  toRequest: ([question], o) => ({
    query: question!,
    ...(o.k ? { k: o.k } : {}),
    ...(o.mode ? { mode: o.mode } : {}),
    context: { include_globs: o.include, exclude_globs: o.exclude, allow_sensitivity: o.allow },
    critic: o.critic !== false,
    ...(o.thread === 'new' ? { new_thread: true } : o.thread ? { thread_id: o.thread } : {}),
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
  format: (envelope) => {
    const t = envelope.thread;
    if (!t) return formatAnswer(envelope);
    const head = t.searched_as ? [`Searched as: ${terminalLine(t.searched_as)}`, ''] : [];
    return [...head, formatAnswer(envelope), `conversation ${t.id}, question ${t.turn} (follow up: synapsis ask "…" --thread ${t.id})`].join('\n');
  },
});
