import { createError } from '../../shared/errors.ts';
import { argument, methodCommand } from '../command.ts';

export const modelsRemove = methodCommand({
  name: 'remove',
  description: 'forget a model (its file stays in the models dir)',
  method: 'models/remove',
  writes: true,
  arguments: [argument('<ref>', 'model id, file name or name')],
  examples: ['synapsis models remove all-MiniLM-L6-v2.Q8_0.gguf'],
  toRequest: ([ref]) => ({ ref: ref! }),
  format: ({ model }, { args: [ref] }) => {
    if (!model) throw createError('E_SYN_BAD_REQUEST', `No model "${ref}"; synapsis models list shows them`);
    return { json: model, human: `removed ${model.file} (${model.id})` };
  },
});
