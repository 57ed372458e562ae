import path from 'node:path';
import { createError } from '../../shared/errors.ts';
import { argument, methodCommand } from '../command.ts';

export const rootsRemove = methodCommand({
  name: 'remove',
  description: '',
  method: 'index/removeRoot',
  writes: true,
  arguments: [argument('<path>', 'folder to remove, with everything indexed from it')],
  examples: ['synapsis roots remove ~/old-notes'],
  toRequest: ([folder]) => ({ path: folder! }),
  format: (result, { args: [folder] }) => {
    if (!result.removed) throw createError('E_SYN_BAD_REQUEST', `Not a root of this workspace: ${path.resolve(folder!)}`);
    return `removed ${path.resolve(folder!)} and its ${result.documents_removed} documents`;
  },
});
