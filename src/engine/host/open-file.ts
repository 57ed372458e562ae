/**
 * "Open in editor" for a citation: the file of an indexed document, at its line, in the user's
 * editor or with the OS. The file comes from the engine's own record of the document (never from
 * the request), must still lie under its root after symlinks are resolved, and is passed to the
 * editor as one argument without a shell, so no path can inject a command.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createError } from '../../shared/errors.ts';
import { obsidianUrl, obsidianVaultOf } from '../ingest/obsidian.ts';

export interface OpenTarget {
  root: string;
  /** Relative to the root, as indexed. */
  path: string;
  line: number;
}

export interface OpenResult {
  opened: boolean;
  file: string;
  line: number;
  how: string;
}

/** Splits an editor template like `code --goto {file}:{line}` into arguments, then fills them. */
export function editorCommand(template: string, file: string, line: number): string[] {
  const words = template.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) throw createError('E_SYN_BAD_REQUEST', 'SYNAPSIS_EDITOR is empty: set it to a command such as "code --goto {file}:{line}"');
  if (!words.some((w) => w.includes('{file}'))) words.push('{file}');
  return words.map((w) => w.replaceAll('{file}', file).replaceAll('{line}', String(line)));
}

/** The file's absolute path, refused unless it is a regular file under the root (symlinks resolved). */
export function resolveInsideRoot(target: OpenTarget): string {
  const rootReal = fs.realpathSync(target.root);
  let real: string;
  try {
    real = fs.realpathSync(path.resolve(rootReal, target.path));
  } catch {
    throw createError('E_SYN_NOT_FOUND', `${target.path} is no longer on disk under ${target.root}`);
  }
  if (real !== rootReal && !real.startsWith(rootReal + path.sep)) {
    throw createError('E_SYN_RETRIEVE_DENIED', `${target.path} resolves outside its folder ${target.root}; it is not opened`);
  }
  if (!fs.statSync(real).isFile()) throw createError('E_SYN_BAD_REQUEST', `${target.path} is not a file`);
  return real;
}

/** The OS's opener for a file or an address (it cannot jump to a line). */
function osOpener(target: string): string[] {
  if (process.platform === 'darwin') return ['open', target];
  if (process.platform === 'win32') return ['explorer.exe', target];
  return ['xdg-open', target];
}

/**
 * How long an opener may take to fail. xdg-open, open and most editors' launchers hand the file to
 * a running program and exit within this; one still running is an editor that stays open.
 */
export const OPENER_GRACE_MS = 1500;

/** What xdg-open's exit codes mean (xdg-utils). */
const XDG_EXIT: Record<number, string> = {
  1: 'a syntax error in its command line',
  2: 'the file does not exist',
  3: 'no application is set to open this kind of file',
  4: 'the opening application failed',
};

/**
 * Starts a program without a shell. Resolves once it is running past the grace time or has exited 0;
 * rejects when it cannot start or exits with an error within the grace time (xdg-open exits 3 when
 * no application opens the file), so a failure is reported instead of "opened".
 */
function spawnDetached(argv: readonly string[], graceMs = OPENER_GRACE_MS): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ['ignore', 'ignore', 'pipe'], shell: false });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 400) stderr += chunk.toString('utf8');
    });
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stderr?.destroy();
      child.unref();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => settle(), graceMs);
    child.once('error', (error) => settle(createError('E_SYN_BAD_REQUEST', `Could not start ${argv[0]}: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (code === 0) return settle();
      const name = path.basename(argv[0]!);
      const meaning = code !== null && name === 'xdg-open' ? XDG_EXIT[code] : undefined;
      const said = stderr.trim().split('\n')[0]?.slice(0, 200);
      const why = signal ? `was stopped by ${signal}` : `exited with code ${code}${meaning ? ` (${meaning})` : ''}`;
      settle(createError('E_SYN_BAD_REQUEST', `${name} could not open it: it ${why}${said ? `: ${said}` : ''}`));
    });
  });
}

/**
 * Opens the file: `SYNAPSIS_EDITOR` (a command with {file} and {line}) when set, else the OS's
 * opener for the file type (which cannot jump to a line; the result says so).
 */
export async function openInEditor(target: OpenTarget, env: NodeJS.ProcessEnv = process.env): Promise<OpenResult> {
  const file = resolveInsideRoot(target);
  const line = Math.max(1, Math.trunc(target.line));
  const template = env.SYNAPSIS_EDITOR?.trim();
  const argv = template ? editorCommand(template, file, line) : osOpener(file);
  const how = template ? `${argv[0]} (SYNAPSIS_EDITOR) at line ${line}` : `${argv[0]} (the OS opener; set SYNAPSIS_EDITOR="code --goto {file}:{line}" to open at the line)`;
  await spawnDetached(argv);
  return { opened: true, file, line, how };
}

/**
 * Opens a local HTML page in the default browser: web mode's --open hands over the tokened address
 * this way (cli/web.ts writeHandoffPage), never on a command line.
 */
export async function openLocalPage(file: string): Promise<void> {
  if (!path.isAbsolute(file) || !/\.html$/.test(file) || !fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
    throw createError('E_SYN_BAD_REQUEST', 'Only a local .html page is opened this way');
  }
  await spawnDetached(osOpener(file));
}

/**
 * Opens a note in Obsidian: its vault's `obsidian://open` address, through `SYNAPSIS_OPENER` (a
 * command given the address) when set, else the OS's opener, which hands it to Obsidian.
 */
export async function openInObsidian(target: OpenTarget, env: NodeJS.ProcessEnv = process.env): Promise<OpenResult> {
  const file = resolveInsideRoot(target);
  const vault = obsidianVaultOf(target.root);
  if (!vault) throw createError('E_SYN_BAD_REQUEST', `${target.root} is not in an Obsidian vault (no .obsidian folder): open it in an editor instead`);
  const url = obsidianUrl(vault, file);
  const opener = env.SYNAPSIS_OPENER?.trim();
  const argv = opener ? [...opener.split(/\s+/), url] : osOpener(url);
  await spawnDetached(argv);
  return { opened: true, file, line: Math.max(1, Math.trunc(target.line)), how: `Obsidian (${url})` };
}

/** Opens an http address on this machine in the default browser (web mode's --open). */
export async function openUrl(url: string): Promise<void> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost):\d+\//.test(url)) throw createError('E_SYN_BAD_REQUEST', 'Only this machine\'s loopback addresses are opened');
  await spawnDetached(osOpener(url));
}
