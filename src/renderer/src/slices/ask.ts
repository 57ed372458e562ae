import type { StateCreator } from 'zustand';
import type { AnswerEnvelope, EventMap } from '../../../shared/contract.ts';
import { kit, storage, type AppState } from './kit.ts';

export type AnswerStage = EventMap['answer/stage']['stage'];

export interface Asking {
  question: string;
  text: string;
  /** A revision (attempt 2) starts the text again. */
  attempt: number;
  stage: AnswerStage | null;
  controller: AbortController;
  /** The engine's trace of this question (from its first stage event): events of another question are not this one's. */
  traceId?: string;
  /** The answer reader's quote, there before a chat model's draft (which the critic may still withdraw). */
  quote?: EventMap['answer/quote'];
}

/** The ask view: the question being answered (its streamed text), the last answer, and past questions. */
export interface AskSlice {
  /** The question in the ask box: kept across views, filled by a tour step or a recent question. */
  draft: string;
  history: string[];
  asking: Asking | null;
  answer: AnswerEnvelope | null;
  setDraft(draft: string): void;
  ask(question: string): Promise<void>;
  cancelAsk(): void;
  /** Leaves the question being answered to finish in its own conversation (the engine saves it there), freeing the view. */
  detachAsk(): void;
}

/**
 * Recent questions are kept per workspace (its data dir): the demo's never show in the user's own.
 * Before the workspace is known (and for history kept before this), the shared key.
 */
export const historyKey = (dataDir: string | null | undefined) => (dataDir ? `history:${dataDir}` : 'history');

export const createAskSlice: StateCreator<AppState, [], [], AskSlice> = (set, get) => {
  const { client, sensitivity, run } = kit(get);
  return {
    draft: '',
    history: storage.get<string[]>('history', []),
    asking: null,
    answer: null,

    setDraft(draft) {
      set({ draft });
    },
    async ask(question) {
      const q = question.trim();
      if (!q || get().asking) return;
      get().asking?.controller.abort();
      const controller = new AbortController();
      const history = [q, ...get().history.filter((h) => h !== q)].slice(0, 50);
      storage.set(historyKey(get().workspace), history);
      set({ draft: q, asking: { question: q, text: '', attempt: 1, stage: 'retrieve', controller }, answer: null, history });
      // The engine saves the question in its conversation when asked: the list shows it at once.
      setTimeout(() => void get().loadThreads(), 300);
      await run(async () => {
        const mode = get().mode;
        // A question asked in an open thread is its follow-up; with none open it starts one.
        const thread = get().thread;
        const answer = await client().call(
          'answer/ask',
          { query: q, ...(mode !== 'auto' ? { mode } : {}), context: { allow_sensitivity: sensitivity() }, ...(thread ? { thread_id: thread.id } : { new_thread: true }) },
          {
            signal: controller.signal,
            onToken: (t) =>
              set((s) =>
                s.asking && s.asking.controller === controller
                  ? { asking: { ...s.asking, attempt: t.attempt, text: t.attempt === s.asking.attempt ? s.asking.text + t.text : t.text } }
                  : {},
              ),
          },
        );
        // Left for another conversation meanwhile (+ New, or one opened from the list): the answer is
        // saved in its own thread, and only the list shows that it arrived.
        if (get().asking?.controller !== controller) {
          void get().loadThreads();
          return;
        }
        set({ answer });
        if (answer.thread) {
          const t = await client().call('threads/get', { id: answer.thread.id, allow_sensitivity: sensitivity() });
          if (get().asking?.controller === controller || get().answer === answer) set({ thread: t });
          void get().loadThreads();
        }
      });
      set((s) => (s.asking?.controller === controller ? { asking: null } : {}));
    },
    cancelAsk() {
      get().asking?.controller.abort();
    },
    detachAsk() {
      if (get().asking) set({ asking: null, answer: null });
    },
  };
};
