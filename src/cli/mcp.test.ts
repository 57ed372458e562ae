import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../test/helpers/tmp.ts';
import { SAMPLE_VAULT, runCli } from './main.ts';

const temp = new TempDirs();
const BIN = path.resolve(import.meta.dirname, '..', '..', 'bin', 'synapsis.js');

type ToolResult = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };

describe('synapsis mcp (the SDK client over stdio, sample vault)', () => {
  const dataDir = temp.make('syn-mcp-data-');
  let client: Client;
  let stderr = '';
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;

  beforeAll(async () => {
    const code = await runCli(['index', SAMPLE_VAULT, '--data-dir', dataDir, '--quiet', '--json'], { out: () => {}, err: () => {} });
    expect(code).toBe(0);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--data-dir', dataDir],
      // No models: lexical retrieval and extractive answers, whatever the machine's environment names.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => void (stderr += d.toString()));
    client = new Client({ name: 'synapsis-test', version: '1.0.0' });
    await client.connect(transport);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    temp.cleanup();
  });

  it('lists the five tools with their input schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['answer_query', 'get_source', 'graph_neighbors', 'related_notes', 'search']);
    const answer = tools.find((t) => t.name === 'answer_query')!;
    expect(answer.inputSchema.required).toEqual(['query']);
    expect(Object.keys(answer.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['query', 'scope', 'top_k', 'rerank_top_n']));
    expect(stderr).toMatch(/serving .* over stdio/);
  });

  it('answers a sample-vault question with citations to the file and lines that hold the answer', async () => {
    const r = await call('answer_query', { query: 'How much engineering time was reserved for bug bashing before Kestrel goes GA?' });
    expect(r.isError).toBeFalsy();
    const env = r.structuredContent as { answer: string; answer_mode: string; citations: { path: string; start_line: number; end_line: number }[] };
    expect(env.answer_mode).toBe('extractive');
    expect(env.answer).toContain('12 engineer-days');
    expect(env.citations.map((c) => c.path)).toContain('meetings/2026-04-22 Porto offsite.md');
    expect(r.content[0]!.text).toMatch(/Sources:\n\[\d+\] meetings\/2026-04-22 Porto offsite\.md:\d+-\d+/);
  });

  it('search returns findings with a file URI, lines, language and the passage; get_source opens the exact lines', async () => {
    const r = await call('search', { query: 'make relay-dev', top_k: 3, scope: { include_globs: ['howto/**'] } });
    const findings = (r.structuredContent as { findings: { uri: string; locator: string; path: string; start_line: number; end_line: number; language: string | null; code: string }[] }).findings;
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.path.startsWith('howto/'))).toBe(true);
    const top = findings[0]!;
    expect(top.uri).toMatch(/^file:\/\/\/.*howto\/Run%20the%20relay%20locally\.md$/);
    expect(top.language).toBe('markdown');
    expect(top.code).toContain('make relay-dev');
    const src = await call('get_source', { locator: top.locator });
    const lines = src.structuredContent as { start_line: number; end_line: number; text: string; stale: boolean };
    expect([lines.start_line, lines.end_line]).toEqual([top.start_line, top.end_line]);
    expect(lines.text.split('\n')).toHaveLength(top.end_line - top.start_line + 1);
    expect(lines.text).toContain('make relay-dev');
    expect(lines.stale).toBe(false);
  });

  it('follows links from a person, each edge with the line that makes it', async () => {
    const r = await call('graph_neighbors', { entity: 'maya chen', hops: 1 });
    const g = r.structuredContent as { found: boolean; entity: string; nodes: { label: string }[]; edges: { relation: string; locator: string; target: string }[] };
    expect(g.found).toBe(true);
    expect(g.entity).toBe('Maya Chen');
    expect(g.nodes.map((n) => n.label)).toContain('2026-03-14 Storage decision');
    const decided = g.edges.find((e) => e.relation === 'decided_by' && e.target === 'Maya Chen');
    // The evidence is the front-matter line itself: `decided_by: Maya Chen` is line 8 of that record.
    expect(decided?.locator).toBe('decisions/2026-03-14 Storage decision.md#L8-L8');
  });

  it('lists the notes related to one, each with why', async () => {
    const r = await call('related_notes', { locator: 'people/Sofia Lindqvist.md', top_k: 5 });
    expect(r.isError).toBeFalsy();
    const result = r.structuredContent as { path: string; related: { path: string; reasons: { kind: string; text: string }[] }[] };
    expect(result.path).toBe('people/Sofia Lindqvist.md');
    expect(result.related).toHaveLength(5);
    expect(result.related[0]!.reasons.length).toBeGreaterThan(0);
    // The restricted note names her, and is never listed.
    expect(result.related.map((n) => n.path).some((p) => p.startsWith('hr/'))).toBe(false);
    expect(r.content[0]!.text).toMatch(/^Related to people\/Sofia Lindqvist\.md:\n1\. /);
  });

  it('never serves restricted notes: not in search, answers, sources, resources or the graph', async () => {
    const search = await call('search', { query: 'compensation review salary bands' });
    const paths = (search.structuredContent as { findings: { path: string }[] }).findings.map((f) => f.path);
    expect(paths.some((p) => p.startsWith('hr/'))).toBe(false);
    const src = await call('get_source', { locator: 'hr/Compensation review 2026.md#L1-L5' });
    expect(src.isError).toBe(true);
    expect(src.content[0]!.text).toMatch(/E_SYN_NOT_FOUND/);
    expect(src.content[0]!.text).not.toMatch(/restricted/);
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(20);
    expect(resources.some((r) => r.name.startsWith('hr/'))).toBe(false);
    const graph = await call('graph_neighbors', { entity: 'Compensation review 2026' });
    expect((graph.structuredContent as { found: boolean }).found).toBe(false);
  });

  it('serves indexed documents as resources', async () => {
    const { resources } = await client.listResources();
    const doc = resources.find((r) => r.name === 'howto/Error codes.md')!;
    expect(doc.uri).toMatch(/^synapsis:\/\/document\/.+/);
    const read = await client.readResource({ uri: doc.uri });
    expect((read.contents[0] as { text: string }).text).toContain('AUR-1102');
    await expect(client.readResource({ uri: 'synapsis://document/hr%2FCompensation%20review%202026.md' })).rejects.toThrow(/No indexed document/);
    await expect(client.readResource({ uri: 'synapsis://document/nowhere.md' })).rejects.toThrow(/No indexed document/);
  });

  it('rejects bad input with a clear error and keeps serving', async () => {
    // The same cap and words as the CLI, the library and the answer/ask request.
    const long = await call('answer_query', { query: 'x'.repeat(10_001) });
    expect(long.isError).toBe(true);
    expect(long.content[0]!.text).toMatch(/question is longer than 10,000 characters/);
    const longSearch = await call('search', { query: 'x'.repeat(10_001) });
    expect(longSearch.isError).toBe(true);
    expect(longSearch.content[0]!.text).toMatch(/query is longer than 10,000 characters/);
    const traversal = await call('get_source', { locator: '../../../etc/passwd#L1-L3' });
    expect(traversal.isError).toBe(true);
    expect(traversal.content[0]!.text).toMatch(/E_SYN_BAD_REQUEST.*"\.\."/);
    const absent = await call('get_source', { locator: 'nowhere.md#L1-L2' });
    expect(absent.content[0]!.text).toMatch(/E_SYN_NOT_FOUND/);
    const badRange = await call('get_source', { locator: 'howto/Error codes.md#L9-L3' });
    expect(badRange.content[0]!.text).toMatch(/not a range/);
    const hops = await call('graph_neighbors', { entity: 'Maya Chen', hops: 9 });
    expect(hops.isError).toBe(true);
    const ok = await call('search', { query: 'AUR-1102' });
    expect(ok.isError).toBeFalsy();
  });
});
