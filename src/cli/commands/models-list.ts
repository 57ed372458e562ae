import { methodCommand } from '../command.ts';

export const modelsList = methodCommand({
  name: 'list',
  description: 'list imported models with their role, architecture and dimension',
  method: 'models/list',
  examples: ['synapsis models list --json'],
  toRequest: () => ({}),
  format: (list, { engine }) =>
    list.length
      ? list.map((m) => `${m.id}  ${m.role.padEnd(6)}  ${m.architecture}  dim ${m.dimension}  ctx ${m.context_length}  ${m.file}  (${m.name})${m.languages ? `  languages ${m.languages.join(',')}` : ''}`).join('\n')
      : `no models in ${engine.modelsDir} (synapsis models add <file.gguf>)`,
});
