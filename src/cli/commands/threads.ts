/** `synapsis threads list|show|export|rename|delete`: the conversations of this workspace. */
import { terminalLine, terminalText } from '../../shared/terminal-safe.ts';
import { argument, methodCommand, option, positiveInt, repeatable } from '../command.ts';

export const threadsList = methodCommand<'threads/list', { limit?: number }>({
  name: 'list',
  description: 'list the conversations, newest first',
  method: 'threads/list',
  options: [option('--limit <n>', 'at most this many (default 200)', positiveInt)],
  examples: ['synapsis threads list', 'synapsis threads list --json'],
  toRequest: (_args, o) => (o.limit ? { limit: o.limit } : {}),
  format: ({ threads }) =>
    threads.length === 0
      ? 'no conversations yet: synapsis ask "…" --thread new starts one'
      : threads.map((t) => `${t.id}  ${t.updated_at.slice(0, 16).replace('T', ' ')}  ${String(t.turns).padStart(3)} q  ${terminalLine(t.title)}`).join('\n'),
});

export const threadsShow = methodCommand<'threads/get', { allow: string[] }>({
  name: 'show',
  description: 'print a conversation: each question, what it was searched as, the answer and its sources',
  method: 'threads/get',
  arguments: [argument('<id>', 'the thread (synapsis threads list)')],
  options: [repeatable('--allow <sensitivity>', 'also show answers from notes with this sensitivity, e.g. restricted (repeatable)')],
  examples: ['synapsis threads show t_0123456789abcdef'],
  toRequest: ([id], o) => ({ id: id!, allow_sensitivity: o.allow }),
  format: (t) => {
    const lines = [terminalLine(t.title), ''];
    for (const turn of t.turns_list) {
      lines.push(`${turn.ordinal}. ${terminalLine(turn.question)}`);
      if (turn.searched_as) lines.push(`   searched as: ${terminalLine(turn.searched_as)}`);
      if (!turn.hidden && turn.interrupted) {
        lines.push('   (interrupted: the answer was not finished; ask the same question in this thread to resume it)');
        if (turn.interrupted.quote) lines.push(...terminalText(turn.interrupted.quote).split('\n').map((l) => `   > ${l}`));
      } else if (turn.hidden || !turn.answer) lines.push('   (the answer uses restricted notes: --allow restricted shows it)');
      else {
        lines.push(...terminalText(turn.answer.answer).split('\n').map((l) => `   ${l}`));
        for (const c of turn.answer.citations) lines.push(`     [${c.n}] ${terminalLine(c.path)}:${c.start_line}-${c.end_line}`);
      }
      lines.push('');
    }
    return lines.join('\n').trimEnd();
  },
});

export const threadsExport = methodCommand<'threads/export', { allow: string[]; turn?: number }>({
  name: 'export',
  description: 'print a conversation as markdown, with its citations (redirect it to a file)',
  method: 'threads/export',
  arguments: [argument('<id>', 'the thread (synapsis threads list)')],
  options: [
    repeatable('--allow <sensitivity>', 'include answers from notes with this sensitivity, e.g. restricted (repeatable)'),
    option('--turn <n>', 'only this question of the thread (1 for the first)', positiveInt),
  ],
  examples: ['synapsis threads export t_0123456789abcdef > conversation.md'],
  toRequest: ([id], o) => ({ id: id!, allow_sensitivity: o.allow, ...(o.turn ? { turn: o.turn } : {}) }),
  format: (out) => terminalText(out.markdown.trimEnd()),
});

export const threadsRename = methodCommand<'threads/rename'>({
  name: 'rename',
  description: 'give a conversation another title',
  method: 'threads/rename',
  arguments: [argument('<id>', 'the thread'), argument('<title>', 'its new title')],
  examples: ['synapsis threads rename t_0123456789abcdef "QUIC decision"'],
  toRequest: ([id, title]) => ({ id: id!, title: title! }),
  format: (t) => `${t.id} is now "${terminalLine(t.title)}"`,
});

export const threadsDelete = methodCommand<'threads/delete'>({
  name: 'delete',
  description: 'delete a conversation and its answers (your notes are untouched)',
  method: 'threads/delete',
  arguments: [argument('<id>', 'the thread')],
  examples: ['synapsis threads delete t_0123456789abcdef'],
  toRequest: ([id]) => ({ id: id! }),
  format: (r) => `deleted ${r.id}`,
});
