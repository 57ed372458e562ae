import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { activeCatalog, publicVariant, recommendedModels, type CatalogModel } from '../../engine/llm/catalog.ts';
import { downloadsDisabled, offlineSetting } from '../../engine/llm/download.ts';
import { engineOptions, type RegisteredCommand } from '../command.ts';
import { modelsAtHand } from './models-pull.ts';

const size = (m: { size_bytes: number; size_exact: boolean }) => `${m.size_exact ? '' : '~'}${Math.round(m.size_bytes / 1e6)} MB`;

/** Where the file comes from, when the entry says more than its URI: a pinned revision, or no public copy (and which file of the same model has one). */
function sourceLine(m: CatalogModel, catalog: readonly CatalogModel[]): string {
  if (m.uri) return m.revision && m.sha256 ? `\n    public download pinned to revision ${m.revision.slice(0, 12)} and sha256 ${m.sha256.slice(0, 12)}…, checked before it is registered${m.size_exact ? '' : ' (size approximate)'}` : '';
  const public_ = publicVariant(m, catalog);
  return `\n    no public download of this exact file: from a folder (synapsis models add) or a mirror${public_ ? `; ${public_.id} is the same model as a public download` : ''}`;
}

/** `synapsis models catalog`: the models Synapsis knows, what each is for and needs; no network. */
export const modelsCatalog: RegisteredCommand = {
  name: 'catalog',
  examples: ['synapsis models catalog', 'synapsis models catalog --json'],
  register: (parent, { globals, print }) =>
    parent
      .command('catalog')
      .description('the models Synapsis knows: role, languages, size, licence, memory needed, what each is good for')
      .action((_opts: unknown, cmd: Command) => {
        const opts = globals(cmd);
        const catalog = activeCatalog();
        const resolved = engineOptions(opts);
        const modelsDir = path.resolve(resolved.modelsDir ?? path.join(resolved.dataDir, 'models'));
        const picked = new Set(recommendedModels(os.totalmem(), catalog, null, { ...modelsAtHand(modelsDir, process.env.SYNAPSIS_MODEL_MIRROR), offline: downloadsDisabled() }).map((m) => m.id));
        const lines = catalog.map(
          (m) =>
            `${m.id.padEnd(24)} ${m.role.padEnd(6)} ${size(m).padStart(9)}  ${m.license.padEnd(10)}  RAM ${Math.round(m.ram_bytes / 1024 ** 3)} GB${picked.has(m.id) ? '  (recommended here)' : ''}\n    ${m.good_for}${sourceLine(m, catalog)}${m.sha256 === null ? `\n    unverified (${m.unverified ?? 'no sha256 pinned'}): never recommended; synapsis models pull ${m.id} --allow-unverified` : ''}`,
        );
        const how = downloadsDisabled() ? `downloads are off (${offlineSetting()}): synapsis models add <folder>` : 'synapsis models pull <id> | --recommended, or synapsis models add <folder>';
        print(opts, catalog.map((m) => ({ ...m, recommended_here: picked.has(m.id) })), `${lines.join('\n')}\n\n${how}`);
      }),
};
