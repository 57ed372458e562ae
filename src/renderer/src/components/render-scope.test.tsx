// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { Profiler, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type SynapsisBridge } from '../../../shared/rpc.ts';
import { useApp } from '../store.ts';
import { AskView } from './AskView.tsx';
import { LibraryView } from './LibraryView.tsx';
import { SearchView } from './SearchView.tsx';
import { ThreadList } from './ThreadPanel.tsx';

const initial = useApp.getState();
afterEach(() => {
  cleanup();
  useApp.setState(initial, true);
});

const TOKENS = 30;

/** A bridge whose answer/ask streams TOKENS tokens, one per macrotask, then fails (no envelope to render). */
function streamingBridge(): SynapsisBridge {
  return {
    shell: 'test',
    async request(method, _params, options) {
      if (method !== 'answer/ask') return { ok: false, error: { code: 'E_SYN_BAD_REQUEST', message: method, retryable: false } };
      for (let i = 0; i < TOKENS; i++) {
        options?.onProgress?.({ trace_id: 't', text: `word${i} `, attempt: 1 });
        await new Promise((r) => setTimeout(r, 0));
      }
      return { ok: false, error: { code: 'E_SYN_MODEL_UNAVAILABLE', message: 'the model stopped', retryable: true } };
    },
    cancel() {},
    on: () => () => {},
    onConnection: () => () => {},
  };
}

describe('views select their fields', () => {
  it('a streamed answer token re-renders the answer, not the library or the search view', async () => {
    useApp.setState({ client: createClient(streamingBridge()) });
    const renders: Record<string, number> = { ask: 0, library: 0, search: 0, threads: 0 };
    const counted = (id: string, view: ReactNode) => (
      <Profiler id={id} onRender={() => void renders[id]!++}>
        {view}
      </Profiler>
    );
    render(
      <>
        {counted('ask', <AskView />)}
        {counted('library', <LibraryView />)}
        {counted('search', <SearchView />)}
        {counted('threads', <ThreadList />)}
      </>,
    );
    // What the views load when they mount (the search view's tag example) settles first.
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    const before = { ...renders };
    const streamed: string[] = [];
    const unsubscribe = useApp.subscribe((s) => s.asking && streamed.push(s.asking.text));
    await act(async () => {
      await useApp.getState().ask('what?');
    });
    unsubscribe();
    expect(streamed.length).toBeGreaterThanOrEqual(TOKENS);
    expect(renders.ask! - before.ask!).toBeGreaterThanOrEqual(2);
    expect(renders.library).toBe(before.library);
    expect(renders.search).toBe(before.search);
    // The conversation list re-renders when asking starts and ends, not per token.
    expect(renders.threads! - before.threads!).toBeLessThanOrEqual(2);
  });
});
