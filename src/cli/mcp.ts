/**
 * `synapsis mcp`: the second brain as a Model Context Protocol server over stdio, so an assistant
 * (Claude Desktop, an IDE agent, any MCP client) can search the notes, get cited answers, open the
 * exact lines behind a citation and walk the link graph. A thin adapter over the contract: each tool
 * is one method (search → search/query, answer_query → answer/ask, get_source → source/get,
 * graph_neighbors → graph/neighbors, the document resources → index/documents), its input the
 * method's request schema narrowed for a client, and it calls `engine.call`. The sensitivity policy
 * is never relaxed here (restricted notes are not searchable, answerable, listable or readable
 * through MCP).
 *
 * The server is a reader (engine readOnly): it takes no data-dir lock, so the app, `synapsis watch`
 * or `synapsis index` keep indexing while a client is connected, and every request sees what they
 * have committed. It ends, releasing everything, when the client closes stdin.
 */
import path from 'node:path';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCErrorResponse, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage, type MessageExtraInfo, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Engine } from '../engine/index.ts';
import { fileUri, MAX_SOURCE_LINES, rootedLocator } from '../engine/retrieve/source.ts';
import { AnswerEnvelopeSchema, contract, GraphNeighborsSchema, MAX_QUERY_CHARS, RelatedResultSchema, RetrieveContextSchema, SourceLinesSchema } from '../shared/contract.ts';
import { isSynapsisError, serializeError } from '../shared/errors.ts';

const retrieveContext = RetrieveContextSchema.shape;
const searchRequest = contract['search/query'].request.shape;
const answerRequest = contract['answer/ask'].request.shape;
const sourceRequest = contract['source/get'].request.shape;
const neighborsRequest = contract['graph/neighbors'].request.shape;
const relatedRequest = contract['source/related'].request.shape;

/** A list of the retrieve context, narrowed for a client: optional, at most 50 entries of at most `itemMax` characters. */
const scopeList = (field: typeof retrieveContext.include_globs, itemMax: number, description: string) => z.array(field.unwrap().element.max(itemMax)).max(50).optional().describe(description);

/** The part of the retrieve context a client may set (never allow_sensitivity). */
const ScopeSchema = z
  .object({
    include_globs: scopeList(retrieveContext.include_globs, 500, 'only files whose path (relative to its folder) matches one of these globs, e.g. "projects/**"'),
    exclude_globs: scopeList(retrieveContext.exclude_globs, 500, 'leave out files matching these globs'),
    languages: scopeList(retrieveContext.languages, 50, 'a code language (python, typescript) or a note language (ru, en)'),
    tags: scopeList(retrieveContext.tags, 100, 'documents carrying any of these tags'),
  })
  .strict()
  .describe('where to look; everything indexed when absent');

const FindingSchema = z.object({
  uri: z.string().describe('file:// URI of the source file'),
  locator: z.string().describe('path#Lstart-Lend, for get_source'),
  path: z.string(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  language: z.string().nullable(),
  code: z.string().describe('the passage text'),
  score: z.number(),
});


type Scope = z.infer<typeof ScopeSchema>;

function contextOf(scope: Scope | undefined) {
  return {
    include_globs: scope?.include_globs ?? [],
    exclude_globs: scope?.exclude_globs ?? [],
    languages: scope?.languages ?? [],
    tags: scope?.tags ?? [],
    // Never relaxed over MCP: the policy hides restricted notes from every tool.
    allow_sensitivity: [],
  };
}

function failure(error: unknown) {
  const e = serializeError(error, 'E_SYN_BAD_REQUEST');
  return { isError: true, content: [{ type: 'text' as const, text: `error [${e.code}]: ${e.message}` }] };
}

async function guarded<T>(fn: () => Promise<T>): Promise<T | ReturnType<typeof failure>> {
  try {
    return await fn();
  } catch (error) {
    return failure(error);
  }
}

/** `engine` may be a getter: it is asked on each request (a data dir indexed after the server started, see runMcp). */
export function createMcpServer(source: Engine | (() => Engine), version = '0.1.0'): McpServer {
  const current = typeof source === 'function' ? source : () => source;
  const server = new McpServer(
    { name: 'synapsis', version },
    {
      instructions:
        'Synapsis searches and answers from the user\'s own local files. Every finding and citation carries a locator (path#Lstart-Lend); ' +
        'call get_source with it to read the exact lines. answer_query abstains ("not found in your files") rather than guess.',
    },
  );

  server.registerTool(
    'search',
    {
      title: 'Search the notes',
      description: 'Hybrid (BM25 + embeddings) search over the indexed files. Returns ranked passages with file URI, line range, language and text.',
      inputSchema: {
        query: searchRequest.query.min(1).describe('what to look for; "quoted phrases" and prefix* work'),
        scope: ScopeSchema.optional(),
        top_k: searchRequest.k.unwrap().max(50).optional().describe('how many passages (default 8)'),
      },
      outputSchema: { findings: z.array(FindingSchema), latency_ms: z.number(), mode: z.string() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, scope, top_k }) =>
      guarded(async () => {
        const result = await current().call('search/query', { query, k: top_k ?? 8, context: contextOf(scope) });
        const findings = result.chunks.map((c) => ({
          uri: fileUri(path.join(c.root, c.path)),
          locator: c.locator,
          path: c.path,
          start_line: c.start_line,
          end_line: c.end_line,
          language: c.tags.language ?? c.tags.lang ?? null,
          code: c.text,
          score: c.score,
        }));
        const text = findings.length
          ? findings.map((f, i) => `${i + 1}. ${f.locator} (score ${f.score.toFixed(3)})\n${f.code}`).join('\n\n')
          : `No passages match ${JSON.stringify(query)}.`;
        return { content: [{ type: 'text' as const, text }], structuredContent: { findings, latency_ms: result.latency_ms, mode: result.meta.mode } };
      }),
  );

  server.registerTool(
    'answer_query',
    {
      title: 'Answer from the notes, with citations',
      description:
        'Answers a question from the indexed files only. Every sentence cites [n]; citations carry path and line range. ' +
        'A critic checks the answer against the sources and it abstains when they do not hold the answer.',
      inputSchema: {
        query: answerRequest.query.describe(`the question (at most ${MAX_QUERY_CHARS} characters)`),
        scope: ScopeSchema.optional(),
        top_k: answerRequest.k.unwrap().max(50).optional().describe('passages retrieved before the context is packed (default 8)'),
        rerank_top_n: retrieveContext.rerank_top_n.unwrap().max(200).optional().describe('fused candidates the reranker scores, when a rerank model is configured'),
      },
      outputSchema: AnswerEnvelopeSchema.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, scope, top_k, rerank_top_n }) =>
      guarded(async () => {
        const envelope = await current().call('answer/ask', {
          query,
          ...(top_k ? { k: top_k } : {}),
          context: { ...contextOf(scope), ...(rerank_top_n ? { rerank_top_n } : {}) },
        });
        const sources = envelope.citations.map((c) => `[${c.n}] ${c.path}:${c.start_line}-${c.end_line}${c.stale ? ' (changed since indexing)' : ''}`);
        const text = [envelope.answer, '', ...(sources.length ? ['Sources:', ...sources] : []), `${envelope.answer_mode}; verdict ${envelope.verdict ?? 'none'}; confidence ${envelope.confidence.toFixed(2)}`].join('\n');
        return { content: [{ type: 'text' as const, text }], structuredContent: envelope };
      }),
  );

  server.registerTool(
    'get_source',
    {
      title: 'Read the exact lines behind a locator',
      description: 'Returns the lines a finding or citation points at (path#Lstart-Lend), from an indexed file only. Marks lines whose file changed since indexing as stale.',
      inputSchema: { locator: sourceRequest.locator.describe('path#Lstart-Lend, as search and answer_query return it') },
      outputSchema: SourceLinesSchema.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ locator }) =>
      guarded(async () => {
        const source = await current().call('source/get', { locator });
        const header = `${source.locator}${source.stale ? ' (changed since indexing: lines as indexed)' : ''}${source.truncated ? ` (cut at ${MAX_SOURCE_LINES} lines)` : ''}`;
        return { content: [{ type: 'text' as const, text: `${header}\n${source.text}` }], structuredContent: source };
      }),
  );

  server.registerTool(
    'graph_neighbors',
    {
      title: 'Follow links from a note, person, project or tag',
      description:
        'The neighbourhood of an entity in the knowledge graph of the notes: notes, people, projects, names and tags linked by [[wikilinks]], ' +
        'markdown links, front-matter fields (people, project, owner, ...), #tags, @mentions and names in the text. Each edge carries the locator of the lines that state it.',
      inputSchema: {
        entity: neighborsRequest.entity.describe('a note title or alias, person, project, name or #tag'),
        hops: neighborsRequest.hops.removeDefault().optional().describe('how far to follow links (default 1)'),
      },
      outputSchema: GraphNeighborsSchema.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ entity, hops }) =>
      guarded(async () => {
        const result = await current().call('graph/neighbors', { entity, hops: hops ?? 1 });
        const text = result.found
          ? [`${result.entity}: ${result.nodes.length - 1} neighbours within ${hops ?? 1} hop(s)`, ...result.edges.map((e) => `${e.source} -${e.relation}-> ${e.target}  (${e.locator})`)].join('\n')
          : `No entity "${entity}" in the link graph.${result.suggestions.length ? ` Did you mean: ${result.suggestions.join(', ')}?` : ''}`;
        return { content: [{ type: 'text' as const, text }], structuredContent: result };
      }),
  );

  server.registerTool(
    'related_notes',
    {
      title: 'Find the notes related to one',
      description:
        'The notes related to an indexed note, best first, each with why: it links here or is linked from it, the names and tags both carry, ' +
        'or a passage alike (by the embedding model, or shared words without one), with the locator of the lines that make the reason.',
      inputSchema: {
        locator: relatedRequest.locator.describe('the note: its path, or a locator as search returns it'),
        top_k: relatedRequest.k.removeDefault().optional().describe('how many related notes (1-50, default 8)'),
      },
      outputSchema: RelatedResultSchema.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ locator, top_k }) =>
      guarded(async () => {
        const result = await current().call('source/related', { locator, ...(top_k ? { k: top_k } : {}) });
        const text = result.related.length
          ? [`Related to ${result.path}:`, ...result.related.map((n, i) => `${i + 1}. ${n.path}: ${n.reasons.map((r) => r.text).join('; ')}`)].join('\n')
          : `Nothing is related to ${result.path}: no note links to it or shares its names or passages.`;
        return { content: [{ type: 'text' as const, text }], structuredContent: result };
      }),
  );

  server.registerResource(
    'document',
    new ResourceTemplate('synapsis://document/{doc_id}', {
      list: async () => {
        const docs = await current().call('index/documents', {});
        // Two roots holding one relative path: each document's URI names its root, so each reads its own file.
        const count = new Map<string, number>();
        for (const d of docs) count.set(d.path, (count.get(d.path) ?? 0) + 1);
        return {
          resources: docs.map((d) => ({
            uri: `synapsis://document/${encodeURIComponent((count.get(d.path) ?? 0) > 1 ? rootedLocator(d.root, d.path) : d.doc_id)}`,
            name: d.path,
            title: d.title ?? d.path,
            description: `${d.type}${d.language ? ` (${d.language})` : ''} in ${d.root}`,
            mimeType: d.type === 'markdown' ? 'text/markdown' : 'text/plain',
          })),
        };
      },
    }),
    { title: 'Indexed documents', description: 'Each indexed file (restricted ones left out), as its text' },
    async (uri, variables) => {
      // A doc_id is the document's path in its root: the policy and the not-found error are source()'s.
      // The library method, not source/get: the contract's request has no line cap to lift for a whole file.
      const source = current().source(decodeURIComponent(String(variables.doc_id)), { max_lines: 20_000 });
      return { contents: [{ uri: uri.href, mimeType: source.type === 'markdown' ? 'text/markdown' : 'text/plain', text: source.text }] };
    },
  );

  return server;
}

/**
 * A transport that ends the session once its input has ended and every request received is
 * answered. The SDK's stdio transport never notices stdin closing (it only listens for data), so a
 * client that closed its end left the server waiting on nothing: Node exited 13 (an unsettled
 * top-level await) without disposing the engine. Closing on end alone would drop the answers to
 * requests the client sent just before closing (the SDK aborts handlers on close).
 */
export class DrainingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly pending = new Set<RequestId>();
  private ended = false;
  private closing = false;

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message, extra) => {
      if (isJSONRPCRequest(message)) this.pending.add(message.id);
      else if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
        // A cancelled request gets no answer.
        this.pending.delete((message.params as { requestId?: RequestId } | undefined)?.requestId ?? '');
        queueMicrotask(() => this.closeIfDone());
      }
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion = (version: string): void => this.inner.setProtocolVersion?.(version);

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      await this.inner.send(message, options);
    } finally {
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
        this.pending.delete(message.id ?? '');
        this.closeIfDone();
      }
    }
  }

  close(): Promise<void> {
    this.closing = true;
    return this.inner.close();
  }

  /** The client closed its end: close once the requests in flight are answered. */
  endOfInput(): void {
    this.ended = true;
    this.closeIfDone();
  }

  private closeIfDone(): void {
    if (this.ended && !this.closing && this.pending.size === 0) void this.close();
  }
}

/**
 * Serves the engine until the client closes the connection: by default over stdio, ending when
 * stdin ends (after answering what was asked before), or on `stop`.
 */
export async function serveMcp(
  engine: Engine | (() => Engine),
  options: { transport?: Transport; input?: NodeJS.ReadableStream | null; stop?: AbortSignal } = {},
): Promise<void> {
  const transport = new DrainingTransport(options.transport ?? new StdioServerTransport());
  const input = options.input !== undefined ? options.input : options.transport ? null : process.stdin;
  const server = createMcpServer(engine);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  const ended = () => transport.endOfInput();
  const stop = () => void server.close();
  input?.once('end', ended);
  input?.once('close', ended);
  input?.once('error', ended);
  options.stop?.addEventListener('abort', stop, { once: true });
  try {
    await server.connect(transport);
    if (options.stop?.aborted) stop();
    await closed;
  } finally {
    input?.off('end', ended);
    input?.off('close', ended);
    input?.off('error', ended);
    options.stop?.removeEventListener('abort', stop);
  }
}

/** A store that is missing or must be upgraded by a writer: the server starts and says so per request until it is fixed. */
function waitsForWriter(error: unknown): boolean {
  const reason = isSynapsisError(error) ? error.details?.reason : undefined;
  return reason === 'no_index' || reason === 'needs_upgrade';
}

/**
 * `synapsis mcp`: opens the data dir as a reader and serves it over stdio until the client closes
 * stdin or SIGINT/SIGTERM arrives, then disposes the engine. A data dir not indexed yet (or whose
 * store a writer must upgrade) is served anyway: each request says what to run, and the first one
 * after the writer created the store opens it, so the client need not be restarted.
 */
export async function runMcp(open: () => Engine, log: (text: string) => void): Promise<void> {
  let engine: Engine | null = null;
  const current = (): Engine => (engine ??= open());
  try {
    const e = current();
    const roots = await e.call('index/roots', {});
    log(`synapsis mcp: serving ${e.dataDir} over stdio (${roots.length} roots), read-only beside any Synapsis that indexes it\n`);
  } catch (error) {
    if (!waitsForWriter(error)) throw error;
    log(`synapsis mcp: serving over stdio; ${(error as Error).message}\n`);
  }
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await serveMcp(current, { stop: stop.signal });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await (engine as Engine | null)?.dispose();
  }
}
