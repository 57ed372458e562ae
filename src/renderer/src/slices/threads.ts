import type { StateCreator } from 'zustand';
import type { Thread, ThreadSummary } from '../../../shared/contract.ts';
import { kit, type AppState } from './kit.ts';

/**
 * Conversations of the workspace (threads/*): the list, the open thread with its turns, and what a
 * person does with them. A question asked while a thread is open is its follow-up; with none open,
 * it starts one (slices/ask.ts).
 */
export interface ThreadsSlice {
  threads: ThreadSummary[];
  /** The open thread, read with the sensitivity this session allows; null: the next question starts one. */
  thread: Thread | null;
  loadThreads(): Promise<void>;
  /** Opens a thread: its turns, and its last answer as the current one. */
  openThread(id: string): Promise<void>;
  /** Reads the open thread again (after an answer, or when restricted notes are shown or hidden). */
  reloadThread(): Promise<void>;
  /** Closes the open thread: the next question starts a new one. */
  newThread(): void;
  renameThread(id: string, title: string): Promise<void>;
  deleteThread(id: string): Promise<void>;
  /** Saves the thread as a markdown file (a download). */
  exportThread(id: string): Promise<void>;
  /** Copies one turn of the open thread as markdown. */
  copyTurn(ordinal: number): Promise<void>;
}

/** Hands a text to the browser as a file download (web mode and the desktop window alike). */
function download(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/markdown;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Puts text on the clipboard: the Clipboard API, else (a window that denies the clipboard permission,
 * as the desktop app denies every permission request) a selected textarea and the copy command.
 */
async function copyText(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Fall through to the copy command.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.focus();
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  if (!copied) throw new Error('Could not copy: this window may not use the clipboard. Export .md saves the conversation instead.');
}

export const createThreadsSlice: StateCreator<AppState, [], [], ThreadsSlice> = (set, get) => {
  const { client, sensitivity, run } = kit(get);
  const read = (id: string) => client().call('threads/get', { id, allow_sensitivity: sensitivity() });
  return {
    threads: [],
    thread: null,

    loadThreads: () => run(async () => set({ threads: (await client().call('threads/list', {})).threads })),
    openThread: (id) =>
      run(async () => {
        // An answer being written goes on in its own conversation.
        get().detachAsk();
        const thread = await read(id);
        const last = thread.turns_list.at(-1);
        set({ thread, answer: last?.answer ?? null, draft: '', view: 'ask' });
      }),
    reloadThread: () =>
      run(async () => {
        const open = get().thread;
        if (!open) return;
        const thread = await read(open.id);
        if (get().thread?.id === open.id) set({ thread });
      }),
    newThread() {
      // An answer being written goes on in its own conversation (saved there when it is done).
      get().detachAsk();
      set({ thread: null, answer: null, draft: '' });
    },
    renameThread: (id, title) =>
      run(async () => {
        const renamed = await client().call('threads/rename', { id, title });
        set((s) => ({ threads: s.threads.map((t) => (t.id === id ? renamed : t)), thread: s.thread?.id === id ? { ...s.thread, title: renamed.title } : s.thread }));
      }),
    deleteThread: (id) =>
      run(async () => {
        await client().call('threads/delete', { id });
        set((s) => ({ threads: s.threads.filter((t) => t.id !== id), ...(s.thread?.id === id ? { thread: null, answer: null } : {}) }));
      }),
    exportThread: (id) =>
      run(async () => {
        const out = await client().call('threads/export', { id, allow_sensitivity: sensitivity() });
        download(out.filename, out.markdown);
        get().notify('info', `Saved ${out.filename}${out.hidden > 0 ? ` (${out.hidden} answer${out.hidden === 1 ? '' : 's'} from restricted notes left out)` : ''}.`);
      }),
    copyTurn: (ordinal) =>
      run(async () => {
        const open = get().thread;
        if (!open) return;
        const out = await client().call('threads/export', { id: open.id, turn: ordinal, allow_sensitivity: sensitivity() });
        await copyText(out.markdown);
        get().notify('info', 'Copied as markdown, with its sources.');
      }),
  };
};
