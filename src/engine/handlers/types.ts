/**
 * The engine's handlers are typed from the contract (docs/design.md §2): one per method, taking the
 * request as validated at the engine boundary and returning the method's response.
 */
import type { Method, ParsedRequestOf, ResponseOf } from '../../shared/contract.ts';
import type { AnswerOptions } from '../answer/answer.ts';

/** What a transport adds to a request: cancellation, and the answer's tokens as they are written. */
export interface CallContext {
  signal?: AbortSignal;
  onToken?: AnswerOptions['onToken'];
  /** Sees each prompt sent to the chat model (library callers: tests prove what enters it). */
  onPrompt?: AnswerOptions['onPrompt'];
}

/**
 * One method's handler. A handler may answer synchronously: the library API keeps its synchronous
 * reads (source, graph, roots), and `call` awaits whatever comes back.
 */
export type Handler<M extends Method> = (req: ParsedRequestOf<M>, ctx: CallContext) => ResponseOf<M> | Promise<ResponseOf<M>>;

/** A namespace's handlers (checked with `satisfies`, which keeps each one's own signature). */
export type Handlers = { [M in Method]?: Handler<M> };

/** Every method's handler: the table `call` dispatches on. */
export type HandlerTable = { [M in Method]: Handler<M> };
