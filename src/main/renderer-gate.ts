/**
 * What the desktop renderer may ask of the engine. The renderer's MessagePort reaches the engine's
 * utilityProcess directly, so a script injected into the page could send any contract method; this
 * gate, in the engine's process, passes only the methods the UI calls. Adding a folder or importing
 * a model reads files anywhere on disk, so those two pass only for a path the user chose in the
 * native dialog: the main process opens the dialog and tells the engine's process what was picked
 * (a grant, over the parent port the renderer cannot reach).
 */
import type { AnyMethod } from '../shared/contract.ts';
import { createError } from '../shared/errors.ts';
import type { RpcResponseMessage } from '../shared/rpc.ts';

/** Every method src/renderer calls (renderer-gate.test.ts keeps this list and the UI in step). */
export const RENDERER_METHODS: ReadonlySet<string> = new Set<AnyMethod>([
  'app/info',
  'app/pickFolder',
  'app/pickModelFile',
  'app/pickModelFolder',
  'app/restart',
  'answer/ask',
  'demo/exit',
  'demo/reset',
  'demo/start',
  'graph/overview',
  'graph/global',
  'graph/subgraph',
  'health/get',
  'index/addRoot',
  'index/documents',
  'index/pause',
  'index/removeRoot',
  'index/resume',
  'index/run',
  'index/status',
  'index/watch',
  'models/add',
  'models/cancelDownload',
  'models/catalog',
  'models/download',
  'models/importFolder',
  'models/list',
  'models/measure',
  'models/remove',
  'search/query',
  'search/tags',
  'source/get',
  'source/related',
  'source/embeds',
  'source/open',
  'system/info',
  'threads/delete',
  'threads/export',
  'threads/get',
  'threads/list',
  'threads/rename',
]);

/**
 * Methods the renderer calls only in web mode, which has no system dialog: the desktop gate refuses
 * them, so on the desktop a folder is chosen in the native dialog and nothing else lists folders.
 */
export const WEB_ONLY_METHODS: ReadonlySet<string> = new Set<AnyMethod>(['app/listFolders']);

/** What the user picked in a native dialog: a folder to index, a model file or a folder of models to import. */
export type PickKind = 'folder' | 'model' | 'modelFolder';
export interface GrantMessage {
  type: 'grant';
  kind: PickKind;
  path: string;
}

/** The methods that read a path the user must have picked, and which dialog picks it. */
const PICKED_PATH: Partial<Record<string, PickKind>> = { 'index/addRoot': 'folder', 'models/add': 'model', 'models/importFolder': 'modelFolder' };
const PICKED_WHAT: Record<PickKind, [string, string]> = { folder: ['a folder', 'adds folders'], model: ['a model file', 'imports models'], modelFolder: ['a folder of models', 'imports models from folders'] };

export function isGrantMessage(value: unknown): value is GrantMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  return m.type === 'grant' && (m.kind === 'folder' || m.kind === 'model' || m.kind === 'modelFolder') && typeof m.path === 'string' && m.path.length > 0;
}

export interface RendererGate {
  /** Remembers a path the user picked in the native dialog. */
  grant(kind: PickKind, path: string): void;
  /**
   * 'pass' for a message the engine may see; otherwise the response that refuses it (an error
   * response to that request), or 'drop' for a request without a usable id.
   */
  check(message: unknown): 'pass' | 'drop' | RpcResponseMessage;
}

export function createRendererGate(): RendererGate {
  const granted: Record<PickKind, Set<string>> = { folder: new Set(), model: new Set(), modelFolder: new Set() };
  const refuse = (id: number, message: string, details: Record<string, unknown>): RpcResponseMessage => ({
    type: 'response',
    id,
    ok: false,
    error: createError('E_SYN_BAD_REQUEST', message, details).toJSON(),
  });
  return {
    grant(kind, path) {
      granted[kind].add(path);
    },
    check(message) {
      if (typeof message !== 'object' || message === null) return 'pass';
      const m = message as Record<string, unknown>;
      if (m.type !== 'request') return 'pass';
      if (!Number.isSafeInteger(m.id)) return 'drop';
      const id = m.id as number;
      const method = typeof m.method === 'string' ? m.method : '';
      if (!RENDERER_METHODS.has(method)) return refuse(id, `"${method.slice(0, 100)}" is not available to the desktop window`, { method: method.slice(0, 100) });
      const kind = PICKED_PATH[method];
      if (kind) {
        const path = (m.params as { path?: unknown } | null | undefined)?.path;
        if (typeof path !== 'string' || !granted[kind].has(path)) {
          const [what, does] = PICKED_WHAT[kind];
          return refuse(id, `Choose ${what} with Browse… first: the desktop app only ${does} picked in the system dialog`, { method });
        }
      }
      return 'pass';
    },
  };
}

/** A pipe's receiver behind the gate: what passes goes to `receive`, a refusal straight back by `reply`. */
export function gatedReceiver(gate: RendererGate, receive: (message: unknown) => void, reply: (message: RpcResponseMessage) => void): (message: unknown) => void {
  return (message) => {
    const verdict = gate.check(message);
    if (verdict === 'pass') receive(message);
    else if (verdict !== 'drop') reply(verdict);
  };
}
