/**
 * The engine side of the UI protocol (src/shared/rpc.ts), over any message pipe: the utilityProcess
 * MessagePort and the web-mode WebSocket are thin adapters over this. Every request is validated
 * against the contract; an error crosses as {code, message, retryable}; an answer streams its
 * tokens as progress of its own request and stops when the client cancels it.
 */
import { EVENT_NAMES, hostContract, isHostMethod, isMethod, type AnyRequestOf, type AnyResponseOf, type HostMethod } from '../../shared/contract.ts';
import { createError, serializeError } from '../../shared/errors.ts';
import type { ClientMessage, ServerMessage } from '../../shared/rpc.ts';
import { describeIssues } from '../../shared/validate.ts';
import type { Disposable } from '../core/lifecycle.ts';
import type { EngineHost } from './engine-host.ts';
import { listFolders } from './list-folders.ts';
import { modelDownloadsOf } from './model-downloads.ts';
import { openInEditor, openInObsidian } from './open-file.ts';

export type HostHandlers = { [M in HostMethod]?: (request: AnyRequestOf<M>) => Promise<AnyResponseOf<M>> };

export interface RpcServerOptions {
  host: EngineHost;
  send: (message: ServerMessage) => void;
  shell: 'electron' | 'web' | 'test';
  version: string;
  /** Host methods this shell answers differently (Electron's folder picker). */
  handlers?: HostHandlers;
  env?: NodeJS.ProcessEnv;
}

/**
 * Events sent to every client; answer tokens go only to the request that asked (as progress), and
 * the retrieval events, which carry a client's query and what the policy hid, stay in the engine.
 */
const PRIVATE_EVENTS: ReadonlySet<string> = new Set(['answer/token', 'syn.retrieve.completed', 'syn.retrieve.denied']);
const BROADCAST = EVENT_NAMES.filter((e) => !PRIVATE_EVENTS.has(e));

function isClientMessage(value: unknown): value is ClientMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  if (!Number.isSafeInteger(m.id)) return false;
  return (m.type === 'request' && typeof m.method === 'string') || m.type === 'cancel';
}

export function serveRpc(options: RpcServerOptions): { receive(message: unknown): void } & Disposable {
  const { host, send } = options;
  const inFlight = new Map<number, AbortController>();
  let closed = false;
  const post = (message: ServerMessage) => {
    if (closed) return;
    try {
      send(message);
    } catch {
      // The client went away mid-request; nothing to tell it.
    }
  };
  const subscriptions = BROADCAST.map((event) => host.on(event, (payload) => post({ type: 'event', event, payload })));

  const downloads = () => modelDownloadsOf(host, options.env);
  const defaults: HostHandlers = {
    'source/open': async (req) => {
      const engine = await host.engine();
      const lines = engine.source(req.locator, { allow_sensitivity: req.allow_sensitivity ?? [], max_lines: 1 });
      const target = { root: lines.root, path: lines.path, line: lines.start_line };
      return req.app === 'obsidian' ? openInObsidian(target, options.env) : openInEditor(target, options.env);
    },
    'app/pickFolder': async () => ({ path: null }),
    'app/listFolders': async (req) => listFolders(req.path),
    'app/pickModelFile': async () => ({ path: null }),
    'app/pickModelFolder': async () => ({ path: null }),
    'models/catalog': () => downloads().catalog(),
    'models/download': (req) => downloads().download(req.ids),
    'models/cancelDownload': async () => downloads().cancel(),
    'models/importFolder': (req) => downloads().importFolder(req.path),
    'app/restart': async () => {
      await host.restart();
      return { restarted: true };
    },
    'app/info': async () => ({ shell: options.shell, version: options.version, data_dir: (await host.engine()).dataDir, demo: host.demoStatus(), watch: host.watches }),
    'demo/start': () => host.startDemo(),
    'demo/exit': () => host.exitDemo(),
    'demo/reset': () => host.resetDemo(),
  };
  const handlers = { ...defaults, ...options.handlers } as Required<HostHandlers>;

  async function handle(id: number, method: string, params: unknown): Promise<unknown> {
    if (isHostMethod(method)) {
      const parsed = hostContract[method].request.safeParse(params ?? {});
      if (!parsed.success) throw createError('E_SYN_BAD_REQUEST', `Invalid ${method} request: ${describeIssues(parsed.error)}`, { method });
      return (handlers[method] as (r: unknown) => Promise<unknown>)(parsed.data);
    }
    if (!isMethod(method)) throw createError('E_SYN_BAD_REQUEST', `Unknown method "${method.slice(0, 100)}"`);
    const engine = await host.engine();
    // Any request can be cancelled; an answer streams its tokens back as progress of this request.
    const controller = new AbortController();
    inFlight.set(id, controller);
    return engine.call(method, params as never, {
      signal: controller.signal,
      onToken: (text, attempt, traceId) => post({ type: 'progress', id, payload: { trace_id: traceId, text, attempt } }),
    });
  }

  return {
    receive(message) {
      if (closed || !isClientMessage(message)) return;
      if (message.type === 'cancel') {
        inFlight.get(message.id)?.abort();
        return;
      }
      const { id, method, params } = message;
      handle(id, method, params)
        .then((result) => post({ type: 'response', id, ok: true, result }))
        .catch((error: unknown) => post({ type: 'response', id, ok: false, error: serializeError(error, 'E_SYN_BAD_REQUEST') }))
        .finally(() => inFlight.delete(id));
    },
    dispose() {
      closed = true;
      for (const controller of inFlight.values()) controller.abort();
      inFlight.clear();
      for (const s of subscriptions) void s.dispose();
    },
  };
}
