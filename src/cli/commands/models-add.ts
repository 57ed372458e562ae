import { Option } from 'commander';
import { argument, methodCommand, option } from '../command.ts';

export const modelsAdd = methodCommand<'models/add', { role?: 'embed' | 'chat' | 'rerank'; languages?: string }>({
  name: 'add',
  description: 'import a GGUF file into the models dir (copied; its id is the hash of its content)',
  method: 'models/add',
  writes: true,
  arguments: [argument('<file>', 'path to a .gguf file')],
  options: [
    new Option('--role <role>', 'what the model is for (default: guessed from its header)').choices(['embed', 'chat', 'rerank']),
    option('--languages <codes>', 'languages an embedding model covers, comma separated: en,ru or * for all (default: from its header and name)'),
  ],
  examples: ['synapsis models add ~/Downloads/all-MiniLM-L6-v2.Q8_0.gguf', 'synapsis models add ~/models/qwen2.5-1.5b-instruct-q4_k_m.gguf --role chat'],
  // The registry checks the codes (E_SYN_BAD_REQUEST naming a bad one); the command hands them over as they are.
  toRequest: ([file], o) => ({
    path: file!,
    ...(o.role ? { role: o.role } : {}),
    ...(o.languages !== undefined ? { languages: o.languages.split(',').map((l) => l.trim()).filter(Boolean) } : {}),
  }),
  format: (info) => `added ${info.file} as ${info.role} model ${info.id} (${info.architecture}, dim ${info.dimension}${info.languages ? `, languages ${info.languages.join(',')}` : ''}); the next synapsis index embeds your notes with it`,
});
