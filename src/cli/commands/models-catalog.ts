import os from 'node:os';
import type { Command } from 'commander';
import { activeCatalog, recommendedModels } from '../../engine/llm/catalog.ts';
import { downloadsDisabled, offlineSetting } from '../../engine/llm/download.ts';
import type { RegisteredCommand } from '../command.ts';

const size = (m: { size_bytes: number; size_exact: boolean }) => `${m.size_exact ? '' : '~'}${Math.round(m.size_bytes / 1e6)} MB`;

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
        const picked = new Set(recommendedModels(os.totalmem(), catalog).map((m) => m.id));
        const lines = catalog.map(
          (m) =>
            `${m.id.padEnd(24)} ${m.role.padEnd(6)} ${size(m).padStart(9)}  ${m.license.padEnd(10)}  RAM ${Math.round(m.ram_bytes / 1024 ** 3)} GB${picked.has(m.id) ? '  (recommended here)' : ''}\n    ${m.good_for}${m.uri ? '' : '\n    no public download of this exact file: from a folder (synapsis models add) or a mirror'}${m.sha256 === null ? `\n    unverified (${m.unverified ?? 'no sha256 pinned'}): never recommended; synapsis models pull ${m.id} --allow-unverified` : ''}`,
        );
        const how = downloadsDisabled() ? `downloads are off (${offlineSetting()}): synapsis models add <folder>` : 'synapsis models pull <id> | --recommended, or synapsis models add <folder>';
        print(opts, catalog.map((m) => ({ ...m, recommended_here: picked.has(m.id) })), `${lines.join('\n')}\n\n${how}`);
      }),
};
