/**
 * What a `synapsis` command is: one file under commands/, either a contract method with the
 * request it builds from the command line and the text it prints (`MethodCommand`), or, for the
 * commands that are not one method (index, graph, bench, eval, web, mcp, ...), a `register`
 * function. The program in main.ts only registers them and owns the shared plumbing (`CliContext`).
 */
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import type { Engine, EngineOptions } from '../engine/engine.ts';
import { resolveDataDir } from '../engine/core/paths.ts';
import type { Method, RequestOf, ResponseOf } from '../shared/contract.ts';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

export interface GlobalOptions {
  dataDir?: string;
  modelsDir?: string;
  json?: boolean;
}

/** What every engine a command opens is given: the one data dir resolution (--data-dir, $SYNAPSIS_DATA_DIR, $SYN_INDEX_PATH, default). */
export function engineOptions(opts: GlobalOptions): EngineOptions & { dataDir: string } {
  return { dataDir: resolveDataDir(opts.dataDir), ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}) };
}

/** The plumbing main.ts hands every command. */
export interface CliContext {
  io: Io;
  globals(cmd: Command): GlobalOptions;
  /** JSON of `value` with --json, else the `human` text. */
  print(opts: GlobalOptions, value: unknown, human: string): void;
  /** A writer: takes the data dir's lock. */
  withEngine<T>(opts: GlobalOptions, fn: (engine: Engine) => Promise<T>, readOnly?: boolean): Promise<T>;
  /** A reader: works beside the app or `synapsis watch` indexing the same data dir. */
  withReader<T>(opts: GlobalOptions, fn: (engine: Engine) => Promise<T>): Promise<T>;
}

/** A command that is one contract method: the program parses, calls `engine.call(method, request)` and prints. */
export interface MethodCommand<M extends Method, O = Record<string, never>> {
  name: string;
  description: string;
  arguments?: Argument[];
  options?: Option[];
  /** `synapsis <name> --help` ends with these; each runs as written against an indexed workspace. */
  examples: string[];
  method: M;
  /** Takes the data dir's lock (default: a reader). */
  writes?: boolean;
  toRequest(args: string[], opts: O): RequestOf<M>;
  /** Instead of a plain `engine.call(method, request)`: what a command adds to the call (streamed tokens, Ctrl+C). */
  call?(engine: Engine, request: RequestOf<M>, run: { io: Io; opts: GlobalOptions }): Promise<ResponseOf<M>>;
  /** The text a person reads; `{ json, human }` when --json prints something else than the response. Throws to fail the command. */
  format(result: ResponseOf<M>, input: { args: string[]; opts: O; engine: Engine }): string | { json: unknown; human: string };
}

/** A command that is not one method (several methods, no engine, or a long-running server). */
export interface RegisteredCommand {
  name: string;
  examples: string[];
  register(parent: Command, ctx: CliContext): Command;
}

export type CommandModule = RegisteredCommand | MethodCommand<Method, never>;

/** Commands that found problems (doctor, a damaged store in health): they printed them; the exit code says so. */
export class ChecksFailed extends Error {}

export function registerCommand(parent: Command, module: CommandModule, ctx: CliContext): Command {
  const command = 'register' in module ? module.register(parent, ctx) : registerMethod(parent, module as unknown as MethodCommand<Method, unknown>, ctx);
  if (module.examples.length > 0) command.addHelpText('after', examplesText(module.examples));
  return command;
}

export function examplesText(lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}

function registerMethod<M extends Method, O>(parent: Command, spec: MethodCommand<M, O>, ctx: CliContext): Command {
  const command = parent.command(spec.name).description(spec.description);
  for (const argument of spec.arguments ?? []) command.addArgument(argument);
  for (const option of spec.options ?? []) command.addOption(option);
  return command.action(async (...params: unknown[]) => {
    const cmd = params.at(-1) as Command;
    const opts = params.at(-2) as O;
    const args = params.slice(0, -2) as string[];
    const globals = ctx.globals(cmd);
    await ctx.withEngine(
      globals,
      async (engine) => {
        const request = spec.toRequest(args, opts);
        const result = spec.call ? await spec.call(engine, request, { io: ctx.io, opts: globals }) : await engine.call(spec.method, request);
        const shown = spec.format(result, { args, opts, engine });
        if (typeof shown === 'string') ctx.print(globals, result, shown);
        else ctx.print(globals, shown.json, shown.human);
      },
      spec.writes !== true,
    );
  });
}

/** The method commands are declared with these; `call` is typed from the contract. */
export function methodCommand<M extends Method, O = Record<string, never>>(spec: MethodCommand<M, O>): MethodCommand<M, O> {
  return spec;
}

export function option(flags: string, description: string, parse?: (value: string, previous: never) => unknown, defaultValue?: unknown): Option {
  const o = new Option(flags, description);
  if (parse) o.argParser(parse as (value: string, previous: unknown) => unknown);
  if (defaultValue !== undefined) o.default(defaultValue);
  return o;
}

/** A repeatable option collecting its values (`--include a --include b`). */
export function repeatable(flags: string, description: string): Option {
  return option(flags, description, collect, []);
}

export function argument(name: string, description: string): Argument {
  return new Argument(name, description);
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('expected a positive integer');
  return Number(value);
}

export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected an integer >= 0');
  return Number(value);
}

export function nonNegativeNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected a number >= 0');
  return n;
}

export function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  return n;
}

/**
 * The options `search` and `ask` share: which paths and sensitivities to read, and which lists to
 * use. `noun` names what they filter ("results", "sources") in the help.
 */
export function scopeOptions(noun: string): Option[] {
  return [
    repeatable('--include <glob>', `only ${noun} whose path matches (repeatable)`),
    repeatable('--exclude <glob>', `leave out ${noun} whose path matches (repeatable)`),
    repeatable('--allow <sensitivity>', 'also read chunks with this sensitivity, e.g. restricted (repeatable)'),
  ];
}

/** `--mode`: the retrieval lists to use. */
export function modeOption(): Option {
  return new Option('--mode <mode>', 'lists to use (default: hybrid with an embedding model, else bm25)').choices(['bm25', 'dense', 'hybrid']);
}

/** Says on stderr, at most every 2 s and once at the end, how far the upgrade of an older store's word index has come. */
export function upgradeLine(io: Io, now: () => number = Date.now): (notes: { done: number; total: number }) => void {
  let last = -Infinity;
  return ({ done, total }) => {
    if (done < total && now() - last < 2000) return;
    last = now();
    io.err(`upgrading the word index to this version of Synapsis: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} notes re-read${done >= total ? ', done' : '…'}\n`);
  };
}
