/**
 * The one RPC contract (docs/design.md §2): method name -> request and response schemas, plus typed
 * events. Every transport (CLI, IPC over MessagePort, WebSocket, MCP) is a thin adapter over
 * this map; requests are validated with these schemas at the engine boundary. Each namespace's
 * schemas live in contract/<namespace>.ts; this file joins their methods into the one map.
 */
import type { z } from 'zod';
import { answerMethods } from './contract/answer.ts';
import { graphMethods } from './contract/graph.ts';
import type { HostContract, HostMethod } from './contract/host.ts';
import { indexMethods } from './contract/indexing.ts';
import { modelsMethods } from './contract/models.ts';
import { searchMethods } from './contract/search.ts';
import { sourceMethods } from './contract/source.ts';
import { systemMethods } from './contract/system.ts';
import { threadsMethods } from './contract/threads.ts';

export * from './contract/answer.ts';
export * from './contract/events.ts';
export * from './contract/graph.ts';
export * from './contract/host.ts';
export * from './contract/indexing.ts';
export * from './contract/limits.ts';
export * from './contract/models.ts';
export * from './contract/search.ts';
export * from './contract/source.ts';
export * from './contract/system.ts';
export * from './contract/threads.ts';

export const contract = {
  ...indexMethods,
  ...searchMethods,
  ...systemMethods,
  ...answerMethods,
  ...sourceMethods,
  ...graphMethods,
  ...modelsMethods,
  ...threadsMethods,
} as const;

export type Contract = typeof contract;
export type Method = keyof Contract;
export type RequestOf<M extends Method> = z.input<Contract[M]['request']>;
export type ParsedRequestOf<M extends Method> = z.output<Contract[M]['request']>;
export type ResponseOf<M extends Method> = z.output<Contract[M]['response']>;

export const METHODS = Object.keys(contract) as Method[];

export function isMethod(name: string): name is Method {
  return Object.prototype.hasOwnProperty.call(contract, name);
}

/** Every method a UI can call: the engine's and the host's. */
export type AnyMethod = Method | HostMethod;
type AnyContract = Contract & HostContract;
export type AnyRequestOf<M extends AnyMethod> = z.input<AnyContract[M]['request']>;
export type AnyResponseOf<M extends AnyMethod> = z.output<AnyContract[M]['response']>;
