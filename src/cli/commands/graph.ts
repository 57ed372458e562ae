import type { Command } from 'commander';
import { createError } from '../../shared/errors.ts';
import { terminalLine } from '../../shared/terminal-safe.ts';
import { option, positiveInt, repeatable, type RegisteredCommand } from '../command.ts';

interface GraphOptions {
  hops: number;
  path?: string;
  limit: number;
  extract?: boolean;
  budget: number;
  allow: string[];
}

const notFound = (names: string[], suggestions: string[]) =>
  createError('E_SYN_NOT_FOUND', `No entity ${names.map((n) => `"${n}"`).join(' or ')} in the graph${suggestions.length ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : ''}`);

/** One of four methods, by its options: graph/extract, graph/overview (no entity), graph/path (--path), graph/neighbors. */
export const graph: RegisteredCommand = {
  name: 'graph',
  examples: ['synapsis graph "Maya Chen"', 'synapsis graph "#decision" --hops 2 --json', 'synapsis graph "Lukas Becker" --path "Project Aurora"', 'synapsis graph --limit 5', 'synapsis graph --extract --budget 120'],
  register: (parent, { globals, print, withEngine }) =>
    parent
      .command('graph')
      .description(
        'the knowledge graph: what links to an entity (notes, people, projects, tags, names; each link with the lines that state it), ' +
          'the shortest path between two entities (--path), or, with no entity, the central entities and communities',
      )
      .argument('[entity]', 'a note title, alias, person, project, name or #tag')
      .addOption(option('--hops <n>', 'how far to follow links (1-3)', positiveInt, 1))
      .addOption(option('--path <to>', 'the shortest chain of links from the entity to this one'))
      .addOption(option('--limit <n>', 'central entities and communities to list (without an entity)', positiveInt, 10))
      .addOption(option('--extract', 'let the chat model read notes it has not read yet and add the people, projects and relations it finds'))
      .addOption(option('--budget <seconds>', 'time --extract may take (the next run continues)', positiveInt, 60))
      .addOption(repeatable('--allow <sensitivity>', 'also follow links in documents with this sensitivity (repeatable)'))
      .action(async (entity: string | undefined, cmdOpts: GraphOptions, cmd: Command) => {
        const opts = globals(cmd);
        const allow_sensitivity = cmdOpts.allow;
        // --extract writes what the model finds into the graph: a writer; the rest reads.
        await withEngine(
          opts,
          async (engine) => {
            if (cmdOpts.extract) {
              if (entity !== undefined || cmdOpts.path) throw createError('E_SYN_BAD_REQUEST', '--extract takes no entity: synapsis graph --extract [--budget <seconds>]');
              const r = await engine.call('graph/extract', { budget_ms: cmdOpts.budget * 1000 });
              const human = [
                `model read ${r.chunks_read} chunks of ${r.documents_done} notes in ${(r.elapsed_ms / 1000).toFixed(1)} s: ${r.entities_found} entities, ${r.relations_found} relations kept (names the text holds)`,
                r.documents_pending > 0 ? `${r.documents_pending} notes still to read${r.stopped_by_budget ? ' (budget reached)' : ''}: run it again to continue` : 'every note has been read',
              ];
              print(opts, r, human.join('\n'));
              return;
            }
            if (entity === undefined) {
              if (cmdOpts.path) throw createError('E_SYN_BAD_REQUEST', '--path needs the entity to start from: synapsis graph <from> --path <to>');
              const o = await engine.call('graph/overview', { limit: cmdOpts.limit, allow_sensitivity });
              const human = [
                `${o.notes} notes, ${o.entities} entities, ${o.tags} tags, ${o.edges} links`,
                'central (PageRank):',
                ...o.central.map((n, i) => `  ${i + 1}. ${n.label}  [${n.type}, ${n.degree} links]`),
                'communities (Louvain):',
                ...o.communities.map((c) => `  ${c.id}. ${c.size} nodes, ${c.notes} notes: ${c.members.join(', ')}`),
              ];
              print(opts, o, human.map(terminalLine).join('\n'));
              return;
            }
            if (cmdOpts.path) {
              const p = await engine.call('graph/path', { from: entity, to: cmdOpts.path, allow_sensitivity });
              if (p.missing.length > 0) throw notFound(p.missing, p.suggestions);
              if (!p.found) throw createError('E_SYN_NOT_FOUND', `Nothing links "${p.from}" to "${p.to}" in the graph`);
              const human = [
                `${p.nodes.map((n) => n.label).join(' → ')}  (${p.nodes.length - 1} hop${p.nodes.length === 2 ? '' : 's'})`,
                'evidence:',
                ...p.edges.map((e) => `  ${e.source} -${e.relation}-> ${e.target}  (${e.locator})`),
              ];
              print(opts, p, human.map(terminalLine).join('\n'));
              return;
            }
            const g = await engine.call('graph/neighbors', { entity, hops: cmdOpts.hops, allow_sensitivity });
            if (!g.found) throw notFound([entity], g.suggestions);
            const human = [
              `${g.entity}: ${g.nodes.length - 1} linked within ${cmdOpts.hops} hop${cmdOpts.hops === 1 ? '' : 's'}`,
              ...g.nodes.filter((n) => n.hops > 0).map((n) => `  ${'  '.repeat(n.hops - 1)}${n.label}  [${n.kind === 'entity' ? n.type : n.kind}${n.hops > 1 ? `, ${n.hops} hops` : ''}]`),
              'links:',
              ...g.edges.map((e) => `  ${e.source} -${e.relation}-> ${e.target}  (${e.locator})`),
              ...(g.mentioned_in.length > 0 ? ['mentioned in:', ...g.mentioned_in.map((m) => `  ${m.locator}`)] : []),
            ];
            print(opts, g, human.map(terminalLine).join('\n'));
          },
          !cmdOpts.extract,
        );
      }),
};
