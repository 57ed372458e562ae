/**
 * End-to-end harness: the built renderer (out/renderer) served by the real web server
 * (src/cli/web.ts) over a real engine, driven in Debian's Chromium through playwright-core.
 * The chat model is a deterministic stand-in (test/helpers/chat.ts) so the specs can assert what
 * streams and what is cited; everything else (index, search, graph, citations, security) is real.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createEngine } from '../../src/engine/engine.ts';
import type { EmbedderLike } from '../../src/engine/llm/runtime.ts';
import { EngineHost } from '../../src/engine/host/engine-host.ts';
import { startWebServer, type WebServer } from '../../src/cli/web.ts';
import { QuotingChat } from '../helpers/chat.ts';
import { SAMPLE_VAULT, TempDirs, writeFiles } from '../helpers/tmp.ts';

export const REPO = path.resolve(import.meta.dirname, '..', '..');
export const UI_DIR = path.join(REPO, 'out', 'renderer');
export const SCREENSHOTS = path.join(REPO, 'test-results', 'screenshots');

/** Chromium: $SYNAPSIS_CHROMIUM, or Debian's package. */
export function chromiumPath(): string | null {
  for (const p of [process.env.SYNAPSIS_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser']) if (p && fs.existsSync(p)) return p;
  return null;
}

/** The flags docs/design.md §8 names: headless, and no background traffic to Google's hosts. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('Chromium is not installed: run scripts/setup.sh (installs Debian\'s chromium) or set SYNAPSIS_CHROMIUM');
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

export interface App {
  server: WebServer;
  host: EngineHost;
  vault: string;
  dataDir: string;
  editorLog: string;
  /** Every request the page made, by URL. */
  requests: string[];
  page: Page;
  close(): Promise<void>;
}

/**
 * A fresh workspace over a copy of the sample vault, its server, and a page at the tokened address.
 * `SYNAPSIS_EDITOR` points at a script that records what it was asked to open.
 */
export async function openApp(
  browser: Browser,
  temp: TempDirs,
  options: { indexFirst?: boolean; chatDelayMs?: number; noChat?: boolean; embedder?: EmbedderLike; readerProfile?: string; env?: Record<string, string>; vault?: string; files?: Record<string, string | Uint8Array>; viewport?: { width: number; height: number } } = {},
): Promise<App> {
  const vault = temp.make('e2e-vault-');
  // A copy of the sample vault, or of `vault`, with `files` added.
  fs.cpSync(options.vault ?? SAMPLE_VAULT, vault, { recursive: true });
  writeFiles(vault, options.files ?? {});
  const dataDir = temp.make('e2e-data-');
  const tools = temp.make('e2e-tools-');
  const editorLog = path.join(tools, 'opened.json');
  const editor = path.join(tools, 'editor.mjs');
  fs.writeFileSync(editor, `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(editorLog)}, JSON.stringify(process.argv.slice(2)));\n`);
  const host = new EngineHost({ create: () => createEngine({ dataDir, env: {}, ...(options.noChat ? {} : { chat: new QuotingChat(options.chatDelayMs ?? 15) }), ...(options.embedder ? { embedder: options.embedder } : {}), ...(options.readerProfile ? { config: { readerProfile: options.readerProfile } } : {}) }), watch: true });
  if (options.indexFirst) await (await host.engine()).index([vault]);
  const server = await startWebServer({ host, staticDir: UI_DIR, port: 0, version: 'e2e', env: { SYNAPSIS_EDITOR: `${process.execPath} ${editor} --goto {file}:{line}`, ...options.env } });
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (r: Request) => requests.push(r.url()));
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.goto(server.openUrl);
  // Ready when the engine has answered: the main screen, or onboarding for an empty workspace.
  await page.locator('nav[aria-label=Main], [data-testid=onboarding]').first().waitFor();
  let closed = false;
  return {
    server,
    host,
    vault,
    dataDir,
    editorLog,
    requests,
    page,
    async close() {
      if (closed) return;
      closed = true;
      await context.close();
      await server.close();
      await host.dispose();
    },
  };
}

/** A suite of commands run as processes (startServer), with Chromium for their pages: stopped and cleaned up after the file. */
export function commandSuite(): { temp: TempDirs; browser: () => Browser } {
  const temp = new TempDirs();
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    stopAll();
    await browser?.close();
    temp.cleanup();
  });
  return { temp, browser: () => browser! };
}

/**
 * One web-mode suite: Chromium for the whole file, its temp dirs, and after each spec the check that
 * every page requested nothing but the server that served it (then the spec's apps and anything it
 * asked to clean up are closed).
 */
export function webSuite(): {
  temp: TempDirs;
  browser: () => Browser;
  open: (options?: Parameters<typeof openApp>[2]) => Promise<App>;
  cleanup: (fn: () => Promise<void>) => void;
} {
  const temp = new TempDirs();
  let browser: Browser | undefined;
  const opened: App[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    if (!fs.existsSync(path.join(UI_DIR, 'index.html'))) throw new Error(`${UI_DIR} is missing: npm run test:e2e builds it first`);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    temp.cleanup();
  });
  afterEach(async () => {
    for (const fn of cleanups.splice(0)) await fn();
    for (const app of opened.splice(0)) {
      const origin = `http://127.0.0.1:${app.server.port}`;
      expect(app.requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'))).toEqual([]);
      await app.close();
    }
  });
  return {
    temp,
    browser: () => browser!,
    async open(options) {
      const app = await openApp(browser!, temp, options);
      opened.push(app);
      return app;
    },
    cleanup: (fn) => void cleanups.push(fn),
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** A server process that prints one JSON line (its address) on stdout when ready. */
export interface ServerProcess<Info> {
  info: Info;
  /** SIGTERM, and the exit code. */
  stop(): Promise<number | null>;
}

const running = new Set<ChildProcess>();

/** Starts `command` and waits for its first stdout line, parsed as JSON; `stopAll` kills what a failed spec left running. */
export async function startServer<Info>(command: string, args: string[], options: SpawnOptions = {}): Promise<ServerProcess<Info>> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], ...options });
  running.add(child);
  const first = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code} before printing its address`)));
  });
  return {
    info: JSON.parse(first) as Info,
    stop: () => {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      return exited.finally(() => running.delete(child));
    },
  };
}

export function stopAll(): void {
  for (const child of running) child.kill('SIGTERM');
  running.clear();
}
