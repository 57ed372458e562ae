import { Command, CommanderError } from 'commander';
import { createEngine, type Engine } from '../engine/engine.ts';
import { resolveDataDir } from '../engine/core/paths.ts';
import { storeDamage } from '../engine/store/integrity.ts';
import { isSynapsisError, serializeError } from '../shared/errors.ts';
import { terminalJson, terminalLine, terminalText } from '../shared/terminal-safe.ts';
import { ChecksFailed, engineOptions, registerCommand, upgradeLine, type CliContext, type CommandModule, type GlobalOptions, type Io } from './command.ts';
import { ask } from './commands/ask.ts';
import { bench } from './commands/bench.ts';
import { demo } from './commands/demo.ts';
import { doctor } from './commands/doctor.ts';
import { documents } from './commands/documents.ts';
import { evaluate } from './commands/eval.ts';
import { graph } from './commands/graph.ts';
import { health } from './commands/health.ts';
import { indexFolders } from './commands/index-folders.ts';
import { manifest } from './commands/manifest.ts';
import { mcp } from './commands/mcp.ts';
import { downloadsDisabled } from '../engine/llm/download.ts';
import { modelsAdd } from './commands/models-add.ts';
import { modelsCatalog } from './commands/models-catalog.ts';
import { modelsList } from './commands/models-list.ts';
import { modelsPull } from './commands/models-pull.ts';
import { modelsRemove } from './commands/models-remove.ts';
import { quality } from './commands/quality.ts';
import { repair } from './commands/repair.ts';
import { rootsAdd } from './commands/roots-add.ts';
import { rootsList } from './commands/roots-list.ts';
import { rootsRemove } from './commands/roots-remove.ts';
import { search } from './commands/search.ts';
import { related } from './commands/related.ts';
import { source } from './commands/source.ts';
import { tags } from './commands/tags.ts';
import { threadsDelete, threadsExport, threadsList, threadsRename, threadsShow } from './commands/threads.ts';
import { traces } from './commands/traces.ts';
import { tune } from './commands/tune.ts';
import { watch } from './commands/watch.ts';
import { web } from './commands/web.ts';
import { PACKAGE_VERSION } from './resources.ts';

export { readQuestions, SAMPLE_QUESTIONS, SAMPLE_VAULT, type FixtureQuestion } from './resources.ts';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** The program's commands in the order `synapsis --help` lists them; a group holds its subcommands. */
const commands = (): (CommandModule | { group: string; description: string; commands: CommandModule[] })[] => [
  indexFolders,
  search,
  ask,
  source,
  related,
  tags,
  graph,
  documents,
  mcp,
  doctor,
  traces,
  evaluate,
  tune,
  quality,
  health,
  repair,
  { group: 'threads', description: 'the conversations of this workspace: list, show, export as markdown, rename, delete', commands: [threadsList, threadsShow, threadsExport, threadsRename, threadsDelete] },
  { group: 'roots', description: 'list, add or remove the folders of this workspace', commands: [rootsList, rootsAdd, rootsRemove] },
  { group: 'models', description: 'the GGUF models this workspace uses (embedding, chat, rerank)', commands: [modelsList, modelsCatalog, ...(downloadsDisabled() ? [] : [modelsPull]), modelsAdd, modelsRemove] }, // SYNAPSIS_OFFLINE=1: no pull
  web,
  watch,
  bench,
  demo,
  manifest,
];


async function withEngine<T>(opts: GlobalOptions, fn: (engine: Engine) => Promise<T>, readOnly = false, io?: Io): Promise<T> {
  const engine = createEngine({ ...engineOptions(opts), ...(readOnly ? { readOnly } : {}), ...(io ? { onStoreUpgrade: upgradeLine(io) } : {}) });
  try {
    return await fn(engine);
  } finally {
    await engine.dispose();
  }
}

export function buildProgram(io: Io): Command {
  const program = new Command();
  program
    .name('synapsis')
    .version(PACKAGE_VERSION, '-V, --version', 'print the version')
    .description('Synapsis: an air-gapped second brain. Index your folders, search them, ask with citations.')
    .option('--data-dir <dir>', 'workspace data directory (default: $SYNAPSIS_DATA_DIR, then $SYN_INDEX_PATH, then the OS app-data folder)')
    .option('--models-dir <dir>', 'where imported GGUF models live (default: <data-dir>/models)')
    .option('--json', 'print machine-readable JSON on stdout')
    .showHelpAfterError('(run synapsis --help for usage)')
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride()
    .addHelpText(
      'after',
      `
Examples:
  synapsis index ~/notes --data-dir ~/.synapsis-work     index a folder (incremental on re-run)
  synapsis search "storage decision" --k 5              ranked passages with file:line locators
  synapsis search "quarterly budget" --json             the same as JSON
  synapsis health                                       what is indexed, skipped or failed, and why
  synapsis demo                                         index the sample vault and run its questions

Exit codes: 0 success, 1 failure, 2 bad usage or input.`,
    );

  const ctx: CliContext = {
    io,
    globals: (cmd) => cmd.optsWithGlobals() as GlobalOptions,
    print: (opts, value, human) => io.out(opts.json ? `${JSON.stringify(value, null, 2)}\n` : `${human}\n`),
    withEngine: (opts, fn, readOnly) => withEngine(opts, fn, readOnly, io),
    // Commands that only read open the data dir as a reader: they work beside the app or `synapsis watch` indexing it.
    withReader: (opts, fn) => withEngine(opts, fn, true, io),
  };
  for (const entry of commands()) {
    if (!('group' in entry)) {
      registerCommand(program, entry, ctx);
      continue;
    }
    const group = program.command(entry.group).description(entry.description);
    for (const command of entry.commands) registerCommand(group, command, ctx);
  }
  return program;
}

/** Runs the CLI and returns the exit code instead of exiting, so tests can call it in process. */
export async function runCli(argv: string[], rawIo: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) }): Promise<number> {
  const json = argv.includes('--json');
  // Names and lines from the user's files reach the terminal shown, never obeyed (escape sequences, bidi overrides).
  const io: Io = { out: (t) => rawIo.out(json ? terminalJson(t) : terminalText(t)), err: (t) => rawIo.err(terminalText(t)) };
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT_OK;
      return EXIT_USAGE;
    }
    if (error instanceof ChecksFailed) return EXIT_FAILURE;
    // SQLite reading a damaged page, wherever it surfaced: the coded error naming the repair, no stack.
    const failure = storeDamage(resolveDataDir(program.opts<GlobalOptions>().dataDir), error) ?? error;
    const serialized = serializeError(failure);
    if (json) io.out(`${JSON.stringify({ error: serialized }, null, 2)}\n`);
    else io.err(`error [${serialized.code}]: ${terminalLine(serialized.message)}\n`);
    if (!isSynapsisError(failure)) io.err(`${(failure as Error).stack ?? ''}\n`);
    return serialized.code === 'E_SYN_BAD_REQUEST' || serialized.code === 'E_SYN_NOT_FOUND' ? EXIT_USAGE : EXIT_FAILURE;
  }
}
