import fs from 'node:fs';
import { Option, type Command } from 'commander';
import { ChecksFailed, option, type RegisteredCommand } from '../command.ts';
import { defaultEmbedPlan } from '../../engine/llm/resolve.ts';
import { unusedEmbedderNote } from '../../shared/embed-plan.ts';
import { serializeError } from '../../shared/errors.ts';
import { ggufFilesIn } from '../../engine/llm/model-folder.ts';

export const modelsAdd: RegisteredCommand = {
  name: 'add',
  examples: [
    'synapsis models add ~/Downloads/all-MiniLM-L6-v2.Q8_0.gguf',
    'synapsis models add ~/models/qwen2.5-1.5b-instruct-q4_k_m.gguf --role chat',
    'synapsis models add /media/usb/models   # every GGUF file of the folder',
  ],
  register: (parent, { globals, print, withEngine }) =>
    parent
      .command('add')
      .description('import a GGUF file, or every GGUF file of a folder, into the models dir (copied; an id is the hash of the content)')
      .argument('<path>', 'a .gguf file, or a folder holding them (a USB stick)')
      .addOption(new Option('--role <role>', 'what the model is for (default: guessed from its header)').choices(['embed', 'chat', 'rerank']))
      .addOption(option('--languages <codes>', 'languages an embedding model covers, comma separated: en,ru or * for all (default: from its header and name)'))
      .action(async (source: string, o: { role?: 'embed' | 'chat' | 'rerank'; languages?: string }, cmd: Command) => {
        const opts = globals(cmd);
        const folder = fs.existsSync(source) && fs.statSync(source).isDirectory();
        const files = folder ? ggufFilesIn(source) : [source];
        // The registry checks the codes (E_SYN_BAD_REQUEST naming a bad one); the command hands them over as they are.
        const extra = {
          ...(o.role ? { role: o.role } : {}),
          ...(o.languages !== undefined ? { languages: o.languages.split(',').map((l) => l.trim()).filter(Boolean) } : {}),
        };
        const results = await withEngine(opts, async (engine) => {
          const out: ({ file: string; model: Awaited<ReturnType<typeof engine.call<'models/add'>>> } | { file: string; error: ReturnType<typeof serializeError> })[] = [];
          for (const file of files) {
            if (!folder) {
              out.push({ file, model: await engine.call('models/add', { path: file, ...extra }) });
              continue;
            }
            // One unreadable file on a stick does not stop the others.
            try {
              out.push({ file, model: await engine.call('models/add', { path: file, ...extra }) });
            } catch (error) {
              out.push({ file, error: serializeError(error) });
            }
          }
          // An embedding model the default plan leaves out (its languages are covered): what using it too costs and gains.
          const configured = engine.config.embedModels !== undefined || engine.config.embedModel !== undefined;
          const plan = configured ? [] : defaultEmbedPlan(await engine.call('models/list', {}));
          return out.map((r) => ('model' in r ? { ...r, note: unusedEmbedderNote(r.model, plan) } : r));
        });
        const lines = results.map((r) =>
          'model' in r
            ? `added ${r.model.file} as ${r.model.role} model ${r.model.id} (${r.model.architecture}, dim ${r.model.dimension}${r.model.languages ? `, languages ${r.model.languages.join(',')}` : ''})${r.note ? `\n  ${r.note}` : ''}`
            : `skipped ${r.file}: ${r.error.message}`,
        );
        if (folder && files.length === 0) lines.push(`no .gguf files in ${source}`);
        else if (results.some((r) => 'model' in r && !r.note)) lines.push('the next synapsis index uses them');
        print(opts, folder ? results : (results[0] as { model: unknown }).model, lines.join('\n'));
        if (results.some((r) => 'error' in r) || (folder && files.length === 0)) throw new ChecksFailed();
      }),
};
