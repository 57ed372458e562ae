import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HashedEmbedder } from '../../src/cli/bench/hashed-embedder.ts';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import type { ChatModel, GenerateOptions, Generation } from '../../src/engine/llm/chat.ts';
import { EVENT_NAMES } from '../../src/shared/contract.ts';
import { TempDirs } from '../helpers/tmp.ts';

/**
 * A restricted note (front matter `sensitivity: restricted`) carries canaries in every place text
 * can travel from: title, heading, body, tags, front-matter people, wikilinks and @mentions. Every
 * surface is then searched for them: results in each mode, answer prompts (a recording chat model),
 * answers, traces, metrics, events, logs, the graph, documents, sources, RPC and MCP. Allowing the
 * sensitivity explicitly must find them, which proves the canaries are indexed and findable.
 */
const CANARY = /quetzalcanary|Ximena Quetzal|Project Zorblax|zorblaxtag|9731-PAYBAND/i;
const RESTRICTED = `---
title: Quetzalcanary pay bands
tags: [zorblaxtag, hr]
sensitivity: restricted
people: [Ximena Quetzal]
project: Project Zorblax
---
# Quetzalcanary salary bands

The 9731-PAYBAND table for Project Zorblax was approved by [[Ximena Quetzal]] and @ximenaquetzal.
Salary bands, offsite budget and the relay rollout are confidential. See [[Relay rollout]].
`;
const PUBLIC = {
  'relay.md': '# Relay rollout\n\nThe relay rollout starts in May. Maya owns the offsite budget. See [[Salary process]].\n',
  'salary.md': '# Salary process\n\nSalary reviews happen every March; bands are set by the founders.\n',
  'notes/offsite.md': '---\ntags: [offsite]\n---\n# Offsite\n\nThe offsite budget covers travel to Lisbon. The relay rollout is discussed there.\n',
};
const QUERIES = ['quetzalcanary salary bands', 'Ximena Quetzal', 'Project Zorblax 9731-PAYBAND', 'salary bands offsite budget relay rollout', '#zorblaxtag'];

class RecordingChat implements ChatModel {
  readonly name = 'recording';
  readonly prompts: string[] = [];
  async contextSize() {
    return 8192;
  }
  async countTokens(text: string) {
    return Math.ceil(text.length / 4);
  }
  async generate(options: GenerateOptions): Promise<Generation> {
    this.prompts.push(`${options.system}\n${options.user}`);
    const base = { tokensIn: 10, tokensOut: 5, firstTokenMs: 1, tokensPerS: 100, aborted: false };
    if (options.jsonSchema) {
      const json = { verdict: 'APPROVE', unsupported: [], feedback: '', entities: [], relations: [] };
      return { ...base, text: JSON.stringify(json), json };
    }
    const text = 'Salary bands are set by the founders [1].';
    options.onText?.(text);
    return { ...base, text };
  }
  async unload() {}
}

const temp = new TempDirs();
let vault: string;
let dataDir: string;
let engine: Engine;
const chat = new RecordingChat();
const events: unknown[] = [];
const logged: string[] = [];
afterAll(async () => {
  await engine?.dispose();
  temp.cleanup();
});

beforeAll(async () => {
  vault = temp.make('syn-restricted-vault-', { ...PUBLIC, 'hr/bands.md': RESTRICTED });
  dataDir = temp.make('syn-restricted-data-');
  engine = createEngine({ dataDir, env: {}, chat, embedder: new HashedEmbedder(64), config: { graphLlm: false } });
  for (const name of EVENT_NAMES) engine.on(name, (payload) => void events.push({ name, payload }));
  const report = await engine.index([vault]);
  expect(report).toMatchObject({ indexed: 4, failed: 0 });
});

/** Runs `fn` with console and process output captured into `logged`. */
async function capturingLogs<T>(fn: () => Promise<T>): Promise<T> {
  const spies = [
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')))),
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (logged.push(String(chunk)), true)),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (logged.push(String(chunk)), true)),
  ];
  try {
    return await fn();
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

/**
 * The first canary in `value`, after removing what the caller itself sent (`echoes`): a result that
 * repeats the query, or a not-found error that names the entity asked for, reveals nothing.
 */
const leaks = (value: unknown, echoes: readonly string[] = []) => {
  let text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  for (const echo of echoes) {
    for (const piece of [echo, ...echo.split(/[^\p{L}\p{N}-]+/u)].filter((p) => p.length > 2)) {
      text = text.replace(new RegExp(piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '');
    }
  }
  return text.match(CANARY)?.[0] ?? null;
};
const errorOf = async (work: () => unknown) => {
  try {
    await work();
    return null;
  } catch (error) {
    return error as Error & { code?: string };
  }
};

describe('restricted content stays out of every engine surface', () => {
  it('is indexed and found when its sensitivity is allowed (the canaries are real)', async () => {
    const allowed = await engine.retrieve('quetzalcanary', { allow_sensitivity: ['restricted'] }, 5);
    expect(leaks(allowed.chunks)).not.toBeNull();
    expect(leaks(engine.documents({ allow_sensitivity: ['restricted'] }))).not.toBeNull();
    expect(leaks(engine.graphNeighbors('Ximena Quetzal', 1, { allow_sensitivity: ['restricted'] }))).not.toBeNull();
  });

  it('never reaches search results, answers, prompts, traces, metrics, events or logs', async () => {
    await capturingLogs(async () => {
      for (const query of QUERIES) {
        for (const mode of ['bm25', 'dense', 'hybrid'] as const) {
          const result = await engine.retrieve(query, { mode, explain: true }, 10).catch((error: Error) => error);
          // A query can be refused (it names only hidden notes); the refusal carries no content either.
          expect(leaks(result instanceof Error ? result.message : result, [query])).toBeNull();
        }
        const envelope = await engine.answer(query).catch((error: Error) => error);
        expect(leaks(envelope instanceof Error ? envelope.message : envelope, [query])).toBeNull();
        expect(leaks(await engine.call('search/query', { query, k: 10 }).catch((e: Error) => e.message), [query])).toBeNull();
        expect(leaks(await engine.call('answer/ask', { query }).catch((e: Error) => e.message), [query])).toBeNull();
      }
      await engine.extractGraphWithModel({ budget_ms: 5000 });
    });
    expect(chat.prompts.length).toBeGreaterThan(QUERIES.length); // answers and the graph stage did ask the model
    expect(chat.prompts.filter((p) => leaks(p, QUERIES))).toEqual([]);
    expect(leaks(engine.traces(1000), QUERIES)).toBeNull();
    expect(engine.traces(1000).length).toBeGreaterThanOrEqual(QUERIES.length);
    expect(leaks(engine.metrics())).toBeNull();
    expect(leaks(events, QUERIES)).toBeNull();
    expect(logged.filter((l) => leaks(l, QUERIES))).toEqual([]);
  });

  it('answers a question about a word only the restricted note holds as if no file held it', async () => {
    // "your files never mention X" is computed over what the caller may see: otherwise its absence
    // would tell that a restricted note mentions X.
    // Asked of an engine without the stand-in embedder: it hashes each word to buckets of its own, so
    // two words no file holds ("zanzibarquill", "flibbertigibbet") get other sentence cosines, other
    // confidences and, across the Answered bar, other outcomes. Read by words alone, the two questions
    // differ only in whether a hidden note holds the word.
    const lexical = createEngine({ dataDir: temp.make('syn-restricted-lexical-'), env: {}, chat, config: { graphLlm: false } });
    expect(await lexical.index([vault])).toMatchObject({ indexed: 4, failed: 0 });
    const answerFor = async (word: string, allow: string[] = []) => {
      const envelope = await lexical.answer(`What does ${word} mean for the offsite?`, { context: { allow_sensitivity: allow } });
      return { never: envelope.limits.find((l) => l.code === 'terms_never_mentioned')?.detail ?? '', missing: envelope.missing_terms, outcome: envelope.outcome, confidence: envelope.confidence };
    };
    const absent = await answerFor('flibbertigibbet');
    const hidden = await answerFor('quetzalcanary');
    expect(absent.never).toContain('flibbertigibbet');
    expect(hidden.never).toBe(absent.never.replace('flibbertigibbet', 'quetzalcanary'));
    expect(hidden.missing).toEqual(absent.missing.map((t) => t.replace('flibbertigibbet', 'quetzalcanary')));
    expect(hidden.outcome).toBe(absent.outcome);
    expect(hidden.confidence).toBe(absent.confidence);
    // Allowed, the word is known again.
    expect((await answerFor('quetzalcanary', ['restricted'])).never).not.toContain('quetzalcanary');
    await lexical.dispose();
  });

  it('keeps the passages of an allowed question out of traces read without the same allowance', async () => {
    await engine.answer('quetzalcanary salary bands', { context: { allow_sensitivity: ['restricted'] } });
    const allowed = engine.traces(1, { allow_sensitivity: ['restricted'] })[0]!;
    expect(allowed.retrieved.some((l) => l.startsWith('hr/bands.md#'))).toBe(true);
    const plain = engine.traces(1)[0]!;
    expect(plain.trace_id).toBe(allowed.trace_id);
    expect(plain.retrieved.length).toBeGreaterThan(0);
    expect(plain.retrieved.filter((l) => l.startsWith('hr/'))).toEqual([]);
    expect(plain.reranked.filter((l) => l.startsWith('hr/'))).toEqual([]);
  });

  it('never reaches documents, sources, the graph or health', async () => {
    expect(leaks(engine.documents())).toBeNull();
    expect(leaks(await engine.call('index/documents', {}))).toBeNull();
    const denied = await errorOf(() => engine.source('hr/bands.md#L1-L12'));
    expect(denied).toMatchObject({ code: 'E_SYN_NOT_FOUND' });
    expect(leaks(denied!.message)).toBeNull();
    const viaRpc = await errorOf(() => engine.call('source/get', { locator: 'hr/bands.md' }));
    expect(viaRpc).toMatchObject({ code: 'E_SYN_NOT_FOUND' });
    for (const entity of ['Ximena Quetzal', 'Project Zorblax', '#zorblaxtag', 'Relay rollout', 'Salary process', 'hr/bands.md']) {
      const result = await Promise.resolve()
        .then(() => engine.graphNeighbors(entity, 2))
        .catch((error: Error) => error.message);
      expect(leaks(result, [entity])).toBeNull();
    }
    expect(leaks(engine.graphOverview({ limit: 100 }))).toBeNull();
    expect(leaks(await engine.call('graph/overview', { limit: 100 }))).toBeNull();
    expect(leaks(engine.graphSubgraph({ paths: ['relay.md', 'salary.md', 'hr/bands.md'], hops: 3, max_nodes: 500 }))).toBeNull();
    const pathResult = await Promise.resolve()
      .then(() => engine.graphPath('Relay rollout', 'Ximena Quetzal'))
      .catch((error: Error) => error.message);
    expect(leaks(pathResult, ['Ximena Quetzal'])).toBeNull();
    const health = await engine.health();
    expect(leaks(health.issues)).toBeNull();
  });
});

describe('restricted content stays out of MCP responses (synapsis mcp over stdio)', () => {
  let client: Client;
  let stderr = '';
  type ToolResult = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: unknown };
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;

  beforeAll(async () => {
    await engine.dispose(); // the MCP server is another process: it needs the data dir
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve(import.meta.dirname, '..', '..', 'bin', 'synapsis.js'), 'mcp', '--data-dir', dataDir],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SYN_EMBED_MODEL: '', SYN_CHAT_MODEL: '' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => void (stderr += d.toString()));
    client = new Client({ name: 'synapsis-security-test', version: '1.0.0' });
    await client.connect(transport);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it('tools, resources and errors carry none of it', async () => {
    const responses: unknown[] = [];
    for (const query of QUERIES) {
      for (const response of [
        await call('search', { query, top_k: 10 }),
        await call('search', { query, top_k: 10, scope: { include_globs: ['hr/**'] } }),
        await call('answer_query', { query }),
      ]) {
        expect(leaks(response, [query])).toBeNull();
        responses.push(response);
      }
    }
    const source = await call('get_source', { locator: 'hr/bands.md#L1-L12' });
    expect(source.isError).toBe(true);
    responses.push(source);
    for (const entity of ['Ximena Quetzal', 'Relay rollout', 'Salary process']) expect(leaks(await call('graph_neighbors', { entity, hops: 2 }), [entity])).toBeNull();
    const { resources } = await client.listResources();
    expect(resources.length).toBe(3);
    responses.push(resources);
    for (const r of resources) responses.push(await client.readResource({ uri: r.uri }));
    const hidden = await client.readResource({ uri: resources[0]!.uri.replace(/[^/]+$/, 'hr%2Fbands.md') }).catch((error: Error) => error.message);
    responses.push(hidden);
    expect(responses.slice(QUERIES.length * 3).map((r) => leaks(r)).filter(Boolean)).toEqual([]);
    expect(leaks(stderr, QUERIES)).toBeNull();
    // The searches did run: public notes were found.
    expect(JSON.stringify(responses)).toMatch(/relay\.md/);
  });
});
