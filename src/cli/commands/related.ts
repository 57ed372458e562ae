import { terminalLine } from '../../shared/terminal-safe.ts';
import { argument, methodCommand, option, positiveInt, repeatable } from '../command.ts';

export const related = methodCommand<'source/related', { k?: number; allow: string[] }>({
  name: 'related',
  description: 'the notes related to one, each with why: links either way, shared names and tags, a passage alike',
  method: 'source/related',
  arguments: [argument('<locator>', 'the note: its path, or a locator as results print it')],
  options: [option('-k, --k <n>', 'number of related notes (1-50, default 8)', positiveInt), repeatable('--allow <sensitivity>', 'also consider notes with this sensitivity, e.g. restricted (repeatable)')],
  examples: ['synapsis related "projects/Relay server.md"', 'synapsis related "people/Maya Chen.md" -k 3 --json'],
  toRequest: ([locator], o) => ({ locator: locator!, ...(o.k !== undefined ? { k: o.k } : {}), allow_sensitivity: o.allow }),
  format: (r) => {
    const how = r.similarity === 'vectors' ? 'passages alike by the embedding model' : r.similarity === 'words' ? 'passages alike by shared words (no embedding model)' : 'no passages compared';
    if (r.related.length === 0) return `── ${terminalLine(r.path)}: no related notes (nothing links here or shares its names; ${how})`;
    const lines = r.related.map((n, i) => [`${i + 1}. ${terminalLine(n.title)}  ${terminalLine(n.path)}${n.restricted ? '  (restricted)' : ''}`, ...n.reasons.map((x) => `     ${terminalLine(x.text)}${x.locator ? `  (${terminalLine(x.locator)})` : ''}`)].join('\n'));
    return [`── related to ${terminalLine(r.path)} (${how})`, ...lines].join('\n');
  },
});
