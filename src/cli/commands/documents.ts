import { terminalLine } from '../../shared/terminal-safe.ts';
import { methodCommand, repeatable } from '../command.ts';

export const documents = methodCommand<'index/documents', { allow: string[] }>({
  name: 'documents',
  description: 'list the indexed documents (restricted ones only with --allow)',
  method: 'index/documents',
  options: [repeatable('--allow <sensitivity>', 'also list documents with this sensitivity (repeatable)')],
  examples: ['synapsis documents', 'synapsis documents --allow restricted --json'],
  toRequest: (_args, o) => ({ allow_sensitivity: o.allow }),
  format: (docs) => (docs.length ? docs.map((d) => `${terminalLine(d.path)}  (${d.type}${d.language && d.language !== d.type ? `, ${d.language}` : ''})`).join('\n') : 'no documents indexed (synapsis index <folder>)'),
});
