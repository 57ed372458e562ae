import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { activeCatalog, catalogModel, downloadUri, isCatalogFile, publicVariant, recommendedModels, type CatalogModel, type ModelsAtHand } from '../../engine/llm/catalog.ts';
import { pullModel, type PulledModel } from '../../engine/llm/download.ts';
import { ModelRegistry } from '../../engine/llm/registry.ts';
import { createError } from '../../shared/errors.ts';
import { engineOptions, nonNegativeNumber, option, type RegisteredCommand } from '../command.ts';

const MB = (n: number) => `${Math.round(n / 1e6)} MB`;

/** `synapsis models pull`: the one command that uses the network, and only when asked; absent with SYNAPSIS_OFFLINE=1. */
export const modelsPull: RegisteredCommand = {
  name: 'pull',
  examples: ['synapsis models pull --recommended', 'synapsis models pull multilingual-e5-small qwen2.5-1.5b-instruct', 'SYNAPSIS_MODEL_MIRROR=https://models.intranet/synapsis synapsis models pull --recommended'],
  register: (parent, { io, globals, print, withEngine }) =>
    parent
      .command('pull')
      .description('download catalog models (synapsis models catalog), check their sha256 and register them; an interrupted pull resumes')
      .argument('[ids...]', 'catalog ids')
      .option('--recommended', 'the default embedder and the largest recommended chat model this machine has the memory for')
      .addOption(option('--ram <GB>', 'memory to choose --recommended models for (default: this machine\'s)', nonNegativeNumber))
      .addOption(option('--mirror <url>', 'fetch <url>/<file> instead of the public address (default: $SYNAPSIS_MODEL_MIRROR); https, or http on this machine'))
      .addOption(option('--allow-unverified', 'also pull a model the catalog marks unverified (no sha256 pinned: only its GGUF header is checked)'))
      .addOption(option('--allow-http', 'accept a plain-http mirror on another machine (default: refused; SYNAPSIS_MODEL_MIRROR_ALLOW_HTTP=1)'))
      .action(async (ids: string[], cmdOpts: { recommended?: boolean; ram?: number; mirror?: string; allowUnverified?: boolean; allowHttp?: boolean }, cmd: Command) => {
        const opts = globals(cmd);
        const resolved = engineOptions(opts);
        const modelsDir = path.resolve(resolved.modelsDir ?? path.join(resolved.dataDir, 'models'));
        const mirror = cmdOpts.mirror ?? process.env.SYNAPSIS_MODEL_MIRROR;
        const chosen = chooseModels(ids, cmdOpts.recommended === true, cmdOpts.ram === undefined ? os.totalmem() : cmdOpts.ram * 1024 ** 3, activeCatalog(), modelsAtHand(modelsDir, mirror));
        // --recommended fetches what can be fetched and names the rest (a model named by id fails instead).
        const models = cmdOpts.recommended ? chosen.filter((m) => downloadUri(m, mirror) !== null || fs.existsSync(path.join(modelsDir, m.file))) : chosen;
        for (const m of chosen.filter((c) => !models.includes(c))) {
          const variant = publicVariant(m, activeCatalog());
          io.err(`pull: skipping ${m.id}: no public download of this exact file; synapsis models add <folder> imports it (or --mirror <url>${variant ? `, or pull ${variant.id}, the same model as a public download` : ''})\n`);
        }
        if (models.length === 0) throw createError('E_SYN_MODEL_UNAVAILABLE', 'None of the recommended models can be downloaded here: import them with synapsis models add <folder>, or name a mirror with --mirror');
        const total = models.reduce((s, m) => s + m.size_bytes, 0);
        io.err(`pull: ${models.map((m) => m.id).join(', ')} (${MB(total)}${models.every((m) => m.size_exact) ? '' : ' or so'}) into ${modelsDir}\n`);
        const pulled: { model: CatalogModel; file: PulledModel }[] = [];
        for (const model of models) {
          let shown = -1;
          const file = await pullModel(model, {
            modelsDir,
            ...(mirror ? { mirror } : {}),
            allowUnverified: cmdOpts.allowUnverified === true,
            ...(cmdOpts.allowHttp ? { allowHttp: true } : {}),
            onProgress: (p) => {
              const pct = p.total_bytes > 0 ? Math.floor((p.downloaded_bytes / p.total_bytes) * 10) * 10 : 0;
              if (pct === shown) return;
              shown = pct;
              io.err(`pull: ${model.id} ${pct}% (${MB(p.downloaded_bytes)} of ${MB(p.total_bytes)})\n`);
            },
          });
          pulled.push({ model, file });
        }
        const registered = await withEngine(opts, async (engine) => {
          const infos = [];
          for (const { model, file } of pulled) {
            infos.push(await engine.call('models/add', { path: file.path, role: model.role, ...(model.role === 'embed' ? { languages: model.languages } : {}) }));
          }
          return infos;
        });
        const lines = pulled.map(({ model, file }, i) => {
          const check = file.pinned ? 'sha256 verified' : `unverified, no sha256 pinned: GGUF header checked, sha256 ${file.sha256}`;
          return `${file.reused ? 'present' : 'pulled'} ${model.file} (${MB(fs.statSync(file.path).size)}, ${check}, ${model.license}) as ${model.role} model ${registered[i]!.id}`;
        });
        print(opts, registered.map((info, i) => ({ ...info, catalog_id: pulled[i]!.model.id, sha256: pulled[i]!.file.sha256, verified: pulled[i]!.file.pinned, reused: pulled[i]!.file.reused })), `${lines.join('\n')}\nthe next synapsis index uses them`);
      }),
};

export function chooseModels(ids: string[], recommended: boolean, totalRam: number, catalog: readonly CatalogModel[] = activeCatalog(), atHand: ModelsAtHand = {}): CatalogModel[] {
  if (recommended === (ids.length > 0)) throw createError('E_SYN_BAD_REQUEST', 'Name catalog ids or --recommended (synapsis models catalog lists them)');
  if (recommended) return recommendedModels(totalRam, catalog, null, atHand);
  return ids.map((id) => {
    const model = catalogModel(id, catalog);
    if (!model) throw createError('E_SYN_BAD_REQUEST', `No model "${id}" in the catalog; known: ${catalog.map((m) => m.id).join(', ')}`);
    return model;
  });
}

/**
 * What a models dir holds and a mirror serves, for --recommended to choose among the files of one
 * model: a catalog file registered there (by name or sha256) or lying there, and the mirror.
 */
export function modelsAtHand(modelsDir: string, mirror: string | undefined): ModelsAtHand {
  let registered: { file: string; id: string }[] = [];
  try {
    registered = new ModelRegistry(modelsDir).list();
  } catch {
    // An unreadable registry: the files in the folder still count.
  }
  return {
    installed: (m) => registered.some((r) => isCatalogFile(m, r)) || fs.existsSync(path.join(modelsDir, m.file)),
    ...(mirror ? { mirror } : {}),
  };
}
