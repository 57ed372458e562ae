import { terminalLine } from '../../shared/terminal-safe.ts';
import { argument, methodCommand, option, positiveInt, repeatable } from '../command.ts';

export const tags = methodCommand<'search/tags', { limit?: number; allow: string[] }>({
  name: 'tags',
  description: 'the tags of the indexed notes with how many notes carry each, most used first (what search --tag takes)',
  method: 'search/tags',
  arguments: [argument('[prefix]', 'only tags that start with this')],
  options: [option('--limit <n>', 'tags listed at most (1-1000, default 50)', positiveInt), repeatable('--allow <sensitivity>', 'also count notes with this sensitivity, e.g. restricted (repeatable)')],
  examples: ['synapsis tags', 'synapsis tags dec --json'],
  toRequest: ([prefix], o) => ({ prefix: prefix ?? '', ...(o.limit !== undefined ? { limit: o.limit } : {}), allow_sensitivity: o.allow }),
  format: (r) => {
    if (r.tags.length === 0) return 'No tags.';
    const width = String(r.tags[0]!.count).length;
    const more = r.total > r.tags.length ? [`(${r.total - r.tags.length} more; --limit ${r.total} lists them all)`] : [];
    return [...r.tags.map((t) => `${String(t.count).padStart(width)}  #${terminalLine(t.tag)}`), ...more].join('\n');
  },
});
