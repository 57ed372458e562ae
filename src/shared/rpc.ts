/**
 * The wire protocol every UI transport speaks (docs/design.md §2): the MessagePort between renderer and
 * the engine's utilityProcess, and the loopback WebSocket of web mode. Messages are plain JSON:
 *
 *   client -> engine  {type:'request', id, method, params} | {type:'cancel', id}
 *   engine -> client  {type:'response', id, ok:true, result} | {type:'response', id, ok:false, error}
 *                     {type:'progress', id, payload}   (answer tokens of that request)
 *                     {type:'event', event, payload}   (index progress, status, answer stages)
 *
 * `window.synapsis` is a `SynapsisBridge`; `createClient` puts the contract's types on it.
 */
import type { AnyMethod, AnyRequestOf, AnyResponseOf, EventMap, EventName } from './contract.ts';
import type { ErrorCode, SerializedError } from './errors.ts';

export type RpcRequestMessage = { type: 'request'; id: number; method: string; params: unknown };
export type RpcCancelMessage = { type: 'cancel'; id: number };
export type ClientMessage = RpcRequestMessage | RpcCancelMessage;
export type RpcOutcome = { ok: true; result: unknown } | { ok: false; error: SerializedError };
export type RpcResponseMessage = { type: 'response'; id: number } & RpcOutcome;
export type RpcProgressMessage = { type: 'progress'; id: number; payload: unknown };
export type RpcEventMessage = { type: 'event'; event: string; payload: unknown };
export type ServerMessage = RpcResponseMessage | RpcProgressMessage | RpcEventMessage;

/** A token of an answer as it streams (progress of an `answer/ask` request). */
export interface AnswerTokenProgress {
  trace_id: string;
  text: string;
  attempt: number;
}

/** What the preload exposes as `window.synapsis` (and web mode builds over its WebSocket). */
export interface SynapsisBridge {
  readonly shell: 'electron' | 'web' | 'test';
  /** Sends a request; `callId` names it for `cancel`; progress (answer tokens) goes to `onProgress`. Never rejects: errors come back as outcomes. */
  request(method: string, params: unknown, options?: { callId?: string; onProgress?: (payload: unknown) => void }): Promise<RpcOutcome>;
  cancel(callId: string): void;
  /** Subscribes to an engine event; returns the unsubscribe function. */
  on(event: string, listener: (payload: unknown) => void): () => void;
  /** Called when the connection to the engine drops or comes back (web mode reconnects). */
  onConnection(listener: (connected: boolean) => void): () => void;
}

/** An error as it crossed the wire, with its code. */
export class RpcError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  constructor(error: Pick<SerializedError, 'code' | 'message' | 'retryable'>) {
    super(error.message);
    this.name = 'RpcError';
    this.code = error.code;
    this.retryable = error.retryable;
  }
}

export function isServerMessage(value: unknown): value is ServerMessage {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  return type === 'response' || type === 'progress' || type === 'event';
}

/**
 * The client side of the protocol over any message pipe: pending requests by id, progress routed
 * to their request, events to their listeners. `send` failing or the pipe closing ends pending
 * requests with E_SYN_DISCONNECTED instead of leaving them hanging.
 */
export function createBridgeCore(send: (message: ClientMessage) => void, shell: SynapsisBridge['shell']) {
  let nextId = 1;
  const pending = new Map<number, { resolve: (o: RpcOutcome) => void; onProgress?: ((payload: unknown) => void) | undefined }>();
  const byCallId = new Map<string, number>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  const disconnected = (message: string): RpcOutcome => ({ ok: false, error: { code: 'E_SYN_DISCONNECTED', message, retryable: true } });

  const bridge: SynapsisBridge = {
    shell,
    request(method, params, options = {}) {
      const id = nextId++;
      return new Promise<RpcOutcome>((resolve) => {
        pending.set(id, { resolve, onProgress: options.onProgress });
        if (options.callId) byCallId.set(options.callId, id);
        try {
          send({ type: 'request', id, method, params: params ?? {} });
        } catch (error) {
          pending.delete(id);
          resolve(disconnected(`The engine is not reachable: ${(error as Error).message}`));
        }
      }).finally(() => {
        if (options.callId && byCallId.get(options.callId) === id) byCallId.delete(options.callId);
      });
    },
    cancel(callId) {
      const id = byCallId.get(callId);
      if (id === undefined) return;
      try {
        send({ type: 'cancel', id });
      } catch {
        // Disconnected: the request ends with the connection anyway.
      }
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => void set.delete(listener);
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      return () => void connectionListeners.delete(listener);
    },
  };

  return {
    bridge,
    /** Feed every message from the engine here. Anything that is not a protocol message is ignored. */
    receive(message: unknown) {
      if (!isServerMessage(message)) return;
      if (message.type === 'event') {
        for (const listener of [...(listeners.get(message.event) ?? [])]) {
          try {
            listener(message.payload);
          } catch (error) {
            console.error(`[synapsis] listener for ${message.event} threw:`, error);
          }
        }
        return;
      }
      const entry = pending.get(message.id);
      if (!entry) return;
      if (message.type === 'progress') {
        entry.onProgress?.(message.payload);
        return;
      }
      pending.delete(message.id);
      entry.resolve(message.ok ? { ok: true, result: message.result } : { ok: false, error: message.error });
    },
    /** The pipe closed: every pending request ends with an error naming why. */
    close(reason: string) {
      for (const [id, entry] of pending) {
        pending.delete(id);
        entry.resolve(disconnected(`The connection to the engine was lost (${reason}); try again.`));
      }
      for (const listener of connectionListeners) listener(false);
    },
    opened() {
      for (const listener of connectionListeners) listener(true);
    },
  };
}

export interface CallOptions {
  /** Cancels the request (an answer stops generating and returns what it has, marked cancelled). */
  signal?: AbortSignal;
  onToken?: (token: AnswerTokenProgress) => void;
}

/** The typed face of a bridge: `call` resolves with the contract's response type or throws an RpcError. */
export interface SynapsisClient {
  readonly shell: SynapsisBridge['shell'];
  call<M extends AnyMethod>(method: M, request: AnyRequestOf<M>, options?: CallOptions): Promise<AnyResponseOf<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void;
  onConnection(listener: (connected: boolean) => void): () => void;
}

let callCounter = 0;

export function createClient(bridge: SynapsisBridge): SynapsisClient {
  return {
    shell: bridge.shell,
    async call(method, request, options = {}) {
      const callId = `c${++callCounter}-${Date.now().toString(36)}`;
      const onAbort = () => bridge.cancel(callId);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const outcome = await bridge.request(method, request, {
          callId,
          ...(options.onToken ? { onProgress: (p: unknown) => options.onToken?.(p as AnswerTokenProgress) } : {}),
        });
        if (!outcome.ok) throw new RpcError(outcome.error);
        return outcome.result as AnyResponseOf<typeof method>;
      } finally {
        options.signal?.removeEventListener('abort', onAbort);
      }
    },
    on(event, listener) {
      return bridge.on(event, listener as (payload: unknown) => void);
    },
    onConnection(listener) {
      return bridge.onConnection(listener);
    },
  };
}
