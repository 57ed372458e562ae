import { terminalLine } from '../../shared/terminal-safe.ts';
import { methodCommand } from '../command.ts';

export const rootsList = methodCommand({
  name: 'list',
  description: 'list the roots',
  method: 'index/roots',
  examples: ['synapsis roots list --json'],
  toRequest: () => ({}),
  format: (list) => (list.length ? list.map((r) => terminalLine(r.path)).join('\n') : 'no roots'),
});
