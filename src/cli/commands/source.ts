import path from 'node:path';
import { MAX_SOURCE_LINES } from '../../engine/retrieve/source.ts';
import { terminalLine } from '../../shared/terminal-safe.ts';
import { argument, methodCommand, repeatable } from '../command.ts';

export const source = methodCommand<'source/get', { allow: string[] }>({
  name: 'source',
  description: 'print the exact lines behind a locator from search or ask (path#L3-L9, or path:3-9)',
  method: 'source/get',
  arguments: [argument('<locator>', 'as results print it, e.g. "decisions/2026-03-14 Storage decision.md#L12-L20"')],
  options: [repeatable('--allow <sensitivity>', 'also open documents with this sensitivity, e.g. restricted (repeatable)')],
  examples: ['synapsis source "howto/Error codes.md#L5-L12"', 'synapsis source src/sync_engine.ts:40-60 --json'],
  toRequest: ([locator], o) => ({ locator: locator!, allow_sensitivity: o.allow }),
  format: (s) => {
    const width = String(s.end_line).length;
    const body = s.text
      .split('\n')
      .map((line, i) => `${String(s.start_line + i).padStart(width)}  ${line}`)
      .join('\n');
    const notes = [s.stale ? '(the file changed since indexing: these are the lines as indexed; synapsis index refreshes them)' : '', s.truncated ? `(cut at ${MAX_SOURCE_LINES} lines)` : ''].filter(Boolean);
    return [`── ${terminalLine(path.join(s.root, s.path))}  lines ${s.start_line}-${s.end_line}`, body, ...notes].join('\n');
  },
});
