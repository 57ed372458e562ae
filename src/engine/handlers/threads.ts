/** threads/*: conversations kept in the store, read through the sensitivity policy. */
import type { AnswerEnvelope, Thread, ThreadTurn } from '../../shared/contract.ts';
import { createError } from '../../shared/errors.ts';
import { exportFileName, threadMarkdown, turnMarkdown } from '../answer/thread-markdown.ts';
import type { Config } from '../core/config.ts';
import { createThread, deleteThread, isInterrupted, listThreads, renameThread, threadById, threadTurns } from '../store/queries/threads.ts';
import type { Store } from '../store/store.ts';
import type { Handlers } from './types.ts';

export interface ThreadsServices {
  store: Store;
  config: Config;
}

export const noThreadError = (id: string) => createError('E_SYN_BAD_REQUEST', `No thread ${id} in this workspace (synapsis threads list shows them).`, { thread_id: id });

/** A thread with its turns as this caller may read them. */
export function readThread({ store, config }: ThreadsServices, id: string, allowSensitivity: readonly string[]): Thread {
  const summary = threadById(store.db, id);
  if (!summary) throw noThreadError(id);
  const turns: ThreadTurn[] = threadTurns(store.db, id, { allowSensitivity, sensitivityEnable: config.sensitivityEnable }).map((t) => ({
    id: t.id,
    ordinal: t.ordinal,
    question: t.question,
    searched_as: t.searched_as,
    carried: t.carried,
    asked_at: t.asked_at,
    answer: isInterrupted(t.envelope) ? null : (t.envelope as AnswerEnvelope | null),
    interrupted: isInterrupted(t.envelope) ? { quote: t.envelope.quote, sources: t.envelope.sources } : null,
    hidden: t.hidden,
    restricted: t.restricted,
  }));
  return { ...summary, turns_list: turns };
}

export function createThreadsHandlers(services: ThreadsServices) {
  const { store } = services;
  return {
    'threads/list': (req) => ({ threads: listThreads(store.db, req.limit) }),
    'threads/get': (req) => readThread(services, req.id, req.allow_sensitivity),
    'threads/create': (req) => createThread(store.db, req.title, new Date().toISOString()),
    'threads/rename': (req) => {
      if (!renameThread(store.db, req.id, req.title)) throw noThreadError(req.id);
      return threadById(store.db, req.id)!;
    },
    'threads/delete': (req) => {
      if (!deleteThread(store.db, req.id)) throw noThreadError(req.id);
      return { id: req.id, deleted: true };
    },
    'threads/export': (req) => {
      const thread = readThread(services, req.id, req.allow_sensitivity);
      const turns = req.turn === undefined ? thread.turns_list : thread.turns_list.filter((t) => t.ordinal === req.turn);
      if (req.turn !== undefined && turns.length === 0) throw createError('E_SYN_BAD_REQUEST', `Thread ${req.id} has no turn ${req.turn} (it has ${thread.turns_list.length}).`, { thread_id: req.id });
      return {
        markdown: req.turn === undefined ? threadMarkdown(thread.title, turns, new Date().toISOString()) : `${turnMarkdown(turns[0]!)}\n`,
        filename: exportFileName(thread.title),
        hidden: turns.filter((t) => t.hidden).length,
      };
    },
  } satisfies Handlers;
}
