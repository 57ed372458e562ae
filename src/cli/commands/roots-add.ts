import { argument, methodCommand, repeatable } from '../command.ts';

export const rootsAdd = methodCommand<'index/addRoot', { include: string[]; exclude: string[] }>({
  name: 'add',
  description: '',
  method: 'index/addRoot',
  writes: true,
  arguments: [argument('<path>', 'folder to add')],
  options: [repeatable('--include <glob>', 'only index files matching this glob (repeatable)'), repeatable('--exclude <glob>', 'skip files matching this glob (repeatable)')],
  examples: ['synapsis roots add ~/notes --exclude "drafts/**"'],
  toRequest: ([folder], o) => ({ path: folder!, include: o.include, exclude: o.exclude }),
  format: (root) => `added ${root.path} (run synapsis index to index it)`,
});
