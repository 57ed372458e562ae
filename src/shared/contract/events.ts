/**
 * The events namespace: what the engine and the host push to subscribers, by name.
 */
import type { DownloadProgress } from './host.ts';
import type { IndexReport, IndexStatus } from './indexing.ts';

/** Typed events; names are the specification's (`syn.*`) plus UI progress streams. */
export interface EventMap {
  'index/progress': {
    /** embed: chunk vectors; sentences: sentence vectors (after every model's chunk vectors). */
    stage: 'scan' | 'lexical' | 'embed' | 'sentences' | 'graph' | 'done';
    /** The root folder the run works on (absolute, as registered); absent for a run over several roots' embeddings. */
    root?: string;
    files_done: number;
    files_total: number;
    path?: string;
    rate_per_s: number;
    eta_s: number | null;
  };
  'syn.index.requested': { sources: string[] };
  'syn.index.completed': IndexReport;
  'syn.retrieve.completed': { query: string; results: number; latency_ms: number };
  'syn.retrieve.denied': { query: string; reason: string };
  /** A piece of answer text as the model writes it (a retry starts again with attempt 2). */
  'answer/token': { trace_id: string; text: string; attempt: number };
  'answer/stage': { trace_id: string; stage: 'retrieve' | 'context' | 'synthesize' | 'critic' | 'revise' | 'done' };
  /** The answer reader's quote, as soon as the passages are read: shown while a chat model still writes (and may be withdrawn). */
  'answer/quote': { trace_id: string; answer: string; outcome: 'answered' | 'partial' | 'not_found' };
  'syn.answer.completed': { trace_id: string; verdict: string | null; confidence: number; latency_ms: number };
  /** Indexing started, stopped, was paused or resumed, or watching was turned on or off. */
  'index/status': IndexStatus;
  /** The host's model download: bytes, rate, and each state change (checked, registered, failed). */
  'models/download': DownloadProgress;
  /** Desktop shell only: a .md file was opened with the app (file association). */
  'app/openFile': { path: string };
}
export type EventName = keyof EventMap;
/** Every event name at run time (transports subscribe to each). */
export const EVENT_NAMES = [
  'index/progress',
  'index/status',
  'syn.index.requested',
  'syn.index.completed',
  'syn.retrieve.completed',
  'syn.retrieve.denied',
  'answer/token',
  'answer/stage',
  'answer/quote',
  'syn.answer.completed',
  'models/download',
  'app/openFile',
] as const satisfies readonly EventName[];
// Fails to compile when an event is added to EventMap but not to EVENT_NAMES.
type MissingEventNames = Exclude<EventName, (typeof EVENT_NAMES)[number]>;
const everyEventListed: MissingEventNames extends never ? true : never = true;
void everyEventListed;
