import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/cli/mcp.ts';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import { TempDirs } from '../helpers/tmp.ts';

/**
 * Two roots holding the same relative path (`rootA/notes/x.md`, `rootB/notes/x.md`): every
 * locator and resource URI must name one file, and the lines it opens must be that file's.
 */
const temp = new TempDirs();
let engine: Engine;
let rootA: string;
let rootB: string;
afterAll(async () => {
  await engine?.dispose();
  temp.cleanup();
});

beforeAll(async () => {
  rootA = temp.make('syn-rootA-', { 'notes/x.md': '# X\n\nThe alpaca budget is 10 euros.\n', 'only-a.md': '# A\n\nalpaca notes\n' });
  rootB = temp.make('syn-rootB-', { 'notes/x.md': '# X\n\nThe bison budget is 20 euros.\n' });
  engine = createEngine({ dataDir: temp.make('syn-two-roots-data-'), env: {} });
  await engine.index([rootA, rootB]);
});

describe('the same relative path in two roots', () => {
  it('gives each result a locator that names its root, and source opens that root\'s file', async () => {
    const bison = (await engine.retrieve('bison budget', {}, 5)).chunks[0]!;
    expect(bison.locator).toBe(`${rootB}/notes/x.md#L1-L3`);
    const alpaca = (await engine.retrieve('alpaca budget', {}, 5)).chunks.find((c) => c.path === 'notes/x.md')!;
    expect(alpaca.locator).toBe(`${rootA}/notes/x.md#L1-L3`);
    const fromB = engine.source(bison.locator);
    expect(fromB).toMatchObject({ root: rootB, stale: false, locator: bison.locator });
    expect(fromB.text).toContain('bison');
    expect(engine.source(alpaca.locator).text).toContain('alpaca');
    // A path no other root holds keeps its short locator.
    expect((await engine.retrieve('alpaca notes', {}, 5)).chunks.find((c) => c.path === 'only-a.md')?.locator).toBe('only-a.md#L1-L3');
  });

  it('refuses the bare relative locator, naming both files', () => {
    let error: (Error & { code?: string }) | null = null;
    try {
      engine.source('notes/x.md#L3');
    } catch (e) {
      error = e as Error & { code?: string };
    }
    expect(error?.code).toBe('E_SYN_BAD_REQUEST');
    expect(error?.message).toContain(`${rootA}/notes/x.md#L3`);
    expect(error?.message).toContain(`${rootB}/notes/x.md#L3`);
  });

  it('gives the two documents two MCP resource URIs, each reading its own file', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createMcpServer(engine);
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    try {
      const { resources } = await client.listResources();
      const xs = resources.filter((r) => r.name === 'notes/x.md');
      expect(xs).toHaveLength(2);
      expect(new Set(xs.map((r) => r.uri)).size).toBe(2);
      const texts = await Promise.all(xs.map(async (r) => String((await client.readResource({ uri: r.uri })).contents.map((c) => ('text' in c ? c.text : '')).join(''))));
      expect(texts.some((t) => t.includes('alpaca'))).toBe(true);
      expect(texts.some((t) => t.includes('bison'))).toBe(true);
      const search = await client.callTool({ name: 'search', arguments: { query: 'bison budget' } });
      const locator = (search.structuredContent as { findings: { locator: string }[] }).findings[0]!.locator;
      const src = await client.callTool({ name: 'get_source', arguments: { locator } });
      expect(JSON.stringify(src.content)).toContain('bison');
      expect(path.isAbsolute(locator)).toBe(true);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
