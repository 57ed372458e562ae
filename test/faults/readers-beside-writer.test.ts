import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HashedEmbedder } from '../../src/cli/bench/hashed-embedder.ts';
import { createEngine } from '../../src/engine/engine.ts';
import { LOCK_FILE } from '../../src/engine/store/data-dir-lock.ts';
import { CHILD_TEST_LIMIT_MS, REPLY_LIMIT_MS } from '../helpers/limits.ts';
import { TempDirs } from '../helpers/tmp.ts';
import { BIN, exited, FIXTURES, ROOT, runCliProcess, spawnTs, waitForLine } from './helpers.ts';

/**
 * One writer, many readers: the app, `synapsis watch` or `synapsis index` write a data dir while
 * `synapsis search`, `ask` and an MCP client read it, each in its own process.
 */
const temp = new TempDirs();
afterAll(() => temp.cleanup());

/** No models from the machine's environment: lexical retrieval and extractive answers. */
const CLI_ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' };
const READ = path.join(FIXTURES, 'read-engine.ts');

type Found = { paths: string[]; texts: string[]; error?: { code: string; message: string } };

/** One request to the read-engine fixture: a line out, its JSON reply back. */
async function ask(child: ChildProcessWithoutNullStreams, mode: 'bm25' | 'dense', query: string): Promise<Found> {
  const reply = waitForLine(child, /^\{/);
  child.stdin.write(`${mode} ${query}\n`);
  const found = JSON.parse(await reply) as Found;
  if (found.error) throw new Error(`${found.error.code}: ${found.error.message}`);
  return found;
}

/** `synapsis mcp` spoken to line by line (JSON-RPC over stdio), so the test sees its exit code. */
class McpProcess {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = '';
  private buffer = '';
  private nextId = 1;
  private readonly waiting = new Map<number, (message: Record<string, unknown>) => void>();

  constructor(dataDir: string) {
    this.child = spawn(process.execPath, [BIN, 'mcp', '--data-dir', dataDir], { cwd: ROOT, env: CLI_ENV, stdio: 'pipe' });
    this.child.stdout.setEncoding('utf8').on('data', (text: string) => {
      this.buffer += text;
      let end: number;
      while ((end = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 1);
        const message = JSON.parse(line) as { id?: number };
        if (message.id !== undefined) this.waiting.get(message.id)?.(message);
      }
    });
    this.child.stderr.setEncoding('utf8').on('data', (text: string) => void (this.stderr += text));
  }

  /** Sends a request; resolves with its response (the whole JSON-RPC message). */
  send(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const answered = new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${method} within ${REPLY_LIMIT_MS} ms; stderr: ${this.stderr}`)), REPLY_LIMIT_MS);
      this.waiting.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return answered;
  }

  async initialize(): Promise<void> {
    await this.send('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fault-test', version: '1' } });
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  }

  /** The search tool's result: the paths found, or the error text of a tool that failed. */
  async search(query: string): Promise<{ paths: string[]; error: string | null }> {
    const { result } = (await this.send('tools/call', { name: 'search', arguments: { query } })) as {
      result: { isError?: boolean; content: { text: string }[]; structuredContent?: { findings: { path: string }[] } };
    };
    return { paths: result.structuredContent?.findings.map((f) => f.path) ?? [], error: result.isError ? result.content[0]!.text : null };
  }
}

describe('readers beside the writer of a data dir', () => {
  it('a reader in another process searches while the writer holds the data dir, and sees each commit, lexically and densely', async () => {
    const vault = temp.make('syn-rw-vault-', { 'a.md': '# Alpha\n\nThe relay listens on port 7000.\n' });
    const dataDir = temp.make('syn-rw-data-');
    const writer = createEngine({ dataDir, env: {}, embedder: new HashedEmbedder(64) });
    const reader = spawnTs(READ, [dataDir]);
    try {
      await writer.index([vault]);
      await waitForLine(reader, /^ready \d+/);
      expect((await ask(reader, 'bm25', 'relay port')).paths).toEqual(['a.md']);
      expect((await ask(reader, 'dense', 'relay port')).paths).toEqual(['a.md']); // loads the vector index

      // The writer commits a new note: the reader's next request finds it, in the FTS index and in its vector index.
      fs.writeFileSync(path.join(vault, 'b.md'), '# Bravo\n\nThe zeppelin hangar opens at dawn.\n');
      await writer.index([vault]);
      expect((await ask(reader, 'bm25', 'zeppelin hangar')).paths).toEqual(['b.md']);
      expect((await ask(reader, 'dense', 'zeppelin hangar dawn')).paths[0]).toBe('b.md');

      // A deleted note leaves both.
      fs.rmSync(path.join(vault, 'a.md'));
      await writer.index([vault]);
      expect((await ask(reader, 'bm25', 'relay port')).paths).toEqual([]);
      expect((await ask(reader, 'dense', 'relay listens port')).paths).not.toContain('a.md');

      // Meanwhile a second writer is refused, and the CLI's search reads beside both.
      const [index, search] = await Promise.all([
        runCliProcess(['index', vault, '--data-dir', dataDir, '--quiet'], CLI_ENV),
        runCliProcess(['search', 'zeppelin', '--data-dir', dataDir, '--k', '1'], CLI_ENV),
      ]);
      expect(index.code).toBe(1);
      expect(index.stderr).toContain(`error [E_SYN_STORE_FAILED]: The data dir ${dataDir} is in use by another Synapsis (process ${process.pid}`);
      expect(search.stderr).toBe('');
      expect(search.code).toBe(0);
      expect(search.stdout).toMatch(/^1\. b\.md#L1-L3/);
    } finally {
      reader.stdin.end();
      expect(await exited(reader)).toEqual({ code: 0, signal: null });
      await writer.dispose();
    }
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  }, CHILD_TEST_LIMIT_MS);

  it('synapsis search and synapsis index work while synapsis mcp serves the data dir, and the server follows the new index', async () => {
    const vault = temp.make('syn-rw-vault-', { 'a.md': '# Alpha\n\nThe relay listens on port 7000.\n' });
    const dataDir = temp.make('syn-rw-data-');
    const first = createEngine({ dataDir, env: {} });
    await first.index([vault]);
    await first.dispose();

    const mcp = new McpProcess(dataDir);
    await mcp.initialize();
    expect(await mcp.search('relay')).toEqual({ paths: ['a.md'], error: null });
    fs.writeFileSync(path.join(vault, 'b.md'), '# Bravo\n\nThe zeppelin hangar opens at dawn.\n');
    const [search, index] = await Promise.all([
      runCliProcess(['search', 'relay', '--data-dir', dataDir, '--k', '1'], CLI_ENV),
      runCliProcess(['index', '--data-dir', dataDir, '--quiet', '--json'], CLI_ENV),
    ]);
    expect(search.stderr).toBe('');
    expect(search.stdout).toMatch(/^1\. a\.md#L1-L3/);
    expect(index.stderr).toBe('');
    expect(JSON.parse(index.stdout)).toMatchObject({ indexed: 1, failed: 0 });
    // The server, started before the note existed, finds it.
    expect(await mcp.search('zeppelin')).toEqual({ paths: ['b.md'], error: null });

    mcp.child.stdin.end();
    expect(await exited(mcp.child)).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  }, CHILD_TEST_LIMIT_MS);

  it('synapsis mcp exits 0 when its client closes stdin, at once or right after a request, and leaves no lock', async () => {
    // Nothing indexed yet: the server starts, says so per request, and opens the store once a writer made it.
    const vault = temp.make('syn-rw-vault-', { 'a.md': '# Alpha\n\nThe relay listens on port 7000.\n' });
    const dataDir = temp.make('syn-rw-data-');
    // stdin is /dev/null: the client is gone before the server starts.
    const closedAtOnce = spawn(process.execPath, [BIN, 'mcp', '--data-dir', dataDir], { cwd: ROOT, env: CLI_ENV, stdio: ['ignore', 'ignore', 'ignore'] });
    const atOnceExit = new Promise((resolve) => closedAtOnce.on('exit', (code, signal) => resolve({ code, signal })));
    const mcp = new McpProcess(dataDir);
    await mcp.initialize();
    const before = await mcp.search('relay');
    expect(before.error).toContain(`The data dir ${dataDir} has no index yet: \`synapsis index <folder>\` creates it`);

    const writer = createEngine({ dataDir, env: {} });
    await writer.index([vault]);
    await writer.dispose();
    // The last request is still being answered when the client closes its end: the answer comes, then the exit.
    const last = mcp.search('relay');
    mcp.child.stdin.end();
    expect(await last).toEqual({ paths: ['a.md'], error: null });
    expect(await exited(mcp.child)).toEqual({ code: 0, signal: null });

    expect(await atOnceExit).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  }, CHILD_TEST_LIMIT_MS);
});
