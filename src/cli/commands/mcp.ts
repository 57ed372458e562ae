import type { Command } from 'commander';
import { createEngine } from '../../engine/engine.ts';
import { engineOptions, type RegisteredCommand } from '../command.ts';
import { runMcp } from '../mcp.ts';

export const mcp: RegisteredCommand = {
  name: 'mcp',
  examples: ['synapsis mcp --data-dir ~/.synapsis-work     (register this command in the MCP client; see the README)'],
  register: (parent, { io, globals }) =>
    parent
      .command('mcp')
      .description('serve this workspace to MCP clients over stdio: tools search, answer_query, get_source, graph_neighbors; documents as resources')
      .action(async (_o: unknown, cmd: Command) => {
        const opts = globals(cmd);
        await runMcp(() => createEngine({ ...engineOptions(opts), readOnly: true, warmGraph: true }), (text) => io.err(text));
      }),
};
