// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import type { AnswerEnvelope } from '../../shared/contract.ts';
import { createClient, type SynapsisBridge } from '../../shared/rpc.ts';
import { useApp } from './store.ts';

const initial = useApp.getState();
beforeEach(() => useApp.setState(initial, true));

/** A bridge that answers from a table and streams the given tokens for answer/ask. */
function fakeBridge(answers: Record<string, unknown>, tokens: { text: string; attempt: number }[] = []): SynapsisBridge & { calls: { method: string; params: unknown }[] } {
  const calls: { method: string; params: unknown }[] = [];
  return {
    shell: 'test',
    calls,
    async request(method, params, options) {
      calls.push({ method, params });
      if (method === 'answer/ask') for (const t of tokens) options?.onProgress?.({ trace_id: 't', ...t });
      if (!(method in answers)) return { ok: false, error: { code: 'E_SYN_BAD_REQUEST', message: `no ${method} here`, retryable: false } };
      return { ok: true, result: answers[method] };
    },
    cancel() {},
    on: () => () => {},
    onConnection: () => () => {},
  };
}

const HEALTH = { roots: [], status: 'ok', degradations: [], documents: { indexed: 0 } };

describe('the app store', () => {
  it('starts with onboarding for an empty workspace and not for one with folders', async () => {
    useApp.getState().connect(createClient(fakeBridge({ 'health/get': HEALTH, 'index/status': {}, 'models/list': [] })));
    await expect.poll(() => useApp.getState().onboarding).toBe(true);
    useApp.setState(initial, true);
    useApp.getState().connect(createClient(fakeBridge({ 'health/get': { ...HEALTH, roots: [{ id: 1, path: '/n' }] }, 'index/status': {}, 'models/list': [] })));
    await expect.poll(() => useApp.getState().onboarding).toBe(false);
  });

  it('streams answer tokens, restarts the text for a revision, then keeps the envelope', async () => {
    const envelope = { query: 'q', answer: 'final [1]', citations: [], snippets: [] } as unknown as AnswerEnvelope;
    const seen: string[] = [];
    const unsubscribe = useApp.subscribe((s) => s.asking && seen.push(s.asking.text));
    const bridge = fakeBridge({ 'answer/ask': envelope }, [
      { text: 'Draft ', attempt: 1 },
      { text: 'one.', attempt: 1 },
      { text: 'Better', attempt: 2 },
    ]);
    useApp.setState({ client: createClient(bridge) });
    useApp.getState().setAllowRestricted(false);
    await useApp.getState().ask('  Why?  ');
    unsubscribe();
    expect(seen).toContain('Draft one.');
    expect(seen.at(-1)).toBe('Better');
    expect(useApp.getState().answer).toBe(envelope);
    expect(useApp.getState().asking).toBeNull();
    expect(useApp.getState().history[0]).toBe('Why?');
    expect(bridge.calls.find((c) => c.method === 'answer/ask')?.params).toEqual({ query: 'Why?', context: { allow_sensitivity: [] }, new_thread: true });
  });

  it('copies a turn as markdown, with the copy command where the window denies the clipboard', async () => {
    const thread = { id: 't_0123456789abcdef', title: 'Q', created_at: 'a', updated_at: 'a', turns: 1, turns_list: [] };
    const bridge = fakeBridge({ 'threads/export': { markdown: '## Q\n\nA [1]\n', filename: 'Q.md', hidden: 0 } });
    useApp.setState({ client: createClient(bridge), thread });
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new Error('denied')) } });
    document.execCommand = ((command: string) => {
      copied.push(`${command}:${document.querySelector('textarea')?.value ?? ''}`);
      return true;
    }) as typeof document.execCommand;
    await useApp.getState().copyTurn(1);
    expect(bridge.calls.find((c) => c.method === 'threads/export')?.params).toEqual({ id: thread.id, turn: 1, allow_sensitivity: [] });
    expect(copied).toEqual(['copy:## Q\n\nA [1]\n']);
    expect(useApp.getState().toasts.at(-1)).toMatchObject({ kind: 'info', text: 'Copied as markdown, with its sources.' });
    document.execCommand = (() => false) as typeof document.execCommand;
    await useApp.getState().copyTurn(1);
    expect(useApp.getState().toasts.at(-1)).toMatchObject({ kind: 'error', text: expect.stringContaining('Could not copy') });
  });

  it('asks a follow-up in the open thread, starts a new one after New, and reads the thread again when restricted notes are shown', async () => {
    const thread = { id: 't_0123456789abcdef', title: 'Who?', created_at: 'a', updated_at: 'a', turns: 1, turns_list: [] };
    const envelope = { query: 'Who?', answer: 'Maya [1]', citations: [], snippets: [], thread: { id: thread.id, turn: 1, searched_as: null, carried: [] } } as unknown as AnswerEnvelope;
    const bridge = fakeBridge({ 'answer/ask': envelope, 'threads/get': thread, 'threads/list': { threads: [thread] } });
    useApp.setState({ client: createClient(bridge) });
    await useApp.getState().ask('Who?');
    expect(useApp.getState().thread?.id).toBe(thread.id);
    await expect.poll(() => useApp.getState().threads.length).toBe(1);
    await useApp.getState().ask('and when?');
    const asks = bridge.calls.filter((c) => c.method === 'answer/ask').map((c) => c.params as Record<string, unknown>);
    expect(asks.map((p) => [p.new_thread, p.thread_id])).toEqual([[true, undefined], [undefined, thread.id]]);

    const reads = () => bridge.calls.filter((c) => c.method === 'threads/get').map((c) => (c.params as { allow_sensitivity: string[] }).allow_sensitivity);
    const before = reads().length;
    useApp.getState().setAllowRestricted(true);
    await expect.poll(() => reads().length).toBe(before + 1);
    expect(reads().at(-1)).toEqual(['restricted']);

    useApp.getState().newThread();
    expect(useApp.getState().thread).toBeNull();
    await useApp.getState().ask('What is QUIC?');
    expect((bridge.calls.filter((c) => c.method === 'answer/ask').at(-1)!.params as Record<string, unknown>).new_thread).toBe(true);
  });

  it('asks with restricted notes only when the user allowed them, and shows errors as toasts', async () => {
    const bridge = fakeBridge({});
    useApp.setState({ client: createClient(bridge), allowRestricted: true });
    await useApp.getState().ask('salary bands');
    expect(bridge.calls[0]?.params).toMatchObject({ context: { allow_sensitivity: ['restricted'] } });
    expect(useApp.getState().toasts.map((t) => t.text)).toEqual(['no answer/ask here']);
  });

  it('searches with the filters as the request context, lists a tag without words, and drops an empty query', async () => {
    const bridge = fakeBridge({ 'search/query': { chunks: [], meta: {} } });
    useApp.setState({ client: createClient(bridge) });
    useApp.getState().setQuery('relay');
    useApp.getState().setFilters({ types: ['code'], tags: ['ops'] });
    await expect.poll(() => useApp.getState().results).not.toBeNull();
    expect(bridge.calls.at(-1)?.params).toEqual({ query: 'relay', k: 20, context: { allow_sensitivity: [], roots: [], types: ['code'], tags: ['ops'] } });
    // No words but a tag: the notes tagged so are asked for.
    useApp.getState().setQuery('   ');
    await useApp.getState().search();
    expect(bridge.calls.at(-1)?.params).toMatchObject({ query: '   ', context: { tags: ['ops'] } });
    // No words and no tag: nothing is asked.
    const asked = bridge.calls.length;
    useApp.getState().setFilters({ tags: [] });
    await useApp.getState().search();
    expect(useApp.getState().results).toBeNull();
    expect(bridge.calls.length).toBe(asked);
  });

  it('previews the lines around a cited range, keeping the page of a PDF locator, with its related notes', async () => {
    const bridge = fakeBridge({ 'source/get': { text: 'x' }, 'source/related': { path: 'docs/x.pdf', related: [], links: [], similarity: 'words' } });
    useApp.setState({ client: createClient(bridge) });
    await useApp.getState().openPreview('docs/x.pdf#page=3&L20-L22');
    const sent = (method: string) => bridge.calls.filter((c) => c.method === method).map((c) => c.params);
    expect(sent('source/get')).toEqual([{ locator: 'docs/x.pdf#page=3&L8-L34', allow_sensitivity: [] }]);
    expect(sent('source/related')).toEqual([{ locator: 'docs/x.pdf', k: 8, allow_sensitivity: [] }]);
    expect(useApp.getState().preview).toMatchObject({ path: 'docs/x.pdf', start: 20, end: 22, cited: true, view: 'lines', note: null, source: { text: 'x' }, related: { similarity: 'words' } });
    await useApp.getState().openPreview('notes/a.md#section');
    expect(useApp.getState().preview?.error).toMatch(/not a line range/);
  });

  it('opens a markdown note rendered, follows links into the pane and goes Back', async () => {
    const bridge = fakeBridge({ 'source/get': { text: '# A', start_line: 1, end_line: 1, truncated: false }, 'source/related': { path: 'x', related: [], links: [], similarity: 'none' } });
    useApp.setState({ client: createClient(bridge) });
    await useApp.getState().openPreview('notes/a.md#L3-L4');
    const gets = () => bridge.calls.filter((c) => c.method === 'source/get').map((c) => (c.params as { locator: string }).locator);
    // The lines around the citation and the whole note, for the rendered view.
    expect(gets()).toEqual(['notes/a.md#L1-L16', 'notes/a.md']);
    expect(useApp.getState().preview).toMatchObject({ view: 'note', cited: true, note: { text: '# A' } });
    await useApp.getState().followInPreview('notes/b.md');
    expect(useApp.getState().preview).toMatchObject({ path: 'notes/b.md', cited: false });
    expect(useApp.getState().previewHistory).toEqual(['notes/a.md#L3-L4']);
    await useApp.getState().previewBack();
    expect(useApp.getState().preview).toMatchObject({ locator: 'notes/a.md#L3-L4', start: 3, end: 4 });
    expect(useApp.getState().previewHistory).toEqual([]);
    useApp.getState().setPreviewView('lines');
    expect(useApp.getState().preview?.view).toBe('lines');
    // Opened afresh (a citation, a result), the pane forgets where it was.
    await useApp.getState().followInPreview('notes/c.md');
    await useApp.getState().openPreview('notes/d.md');
    expect(useApp.getState().previewHistory).toEqual([]);
  });

  it('asks the engine for the tags that start with what is typed', async () => {
    const bridge = fakeBridge({ 'search/tags': { tags: [{ tag: 'howto', count: 7 }], total: 1 } });
    useApp.setState({ client: createClient(bridge), allowRestricted: true });
    await useApp.getState().suggestTags('how');
    expect(bridge.calls.at(-1)).toEqual({ method: 'search/tags', params: { prefix: 'how', limit: 30, allow_sensitivity: ['restricted'] } });
    expect(useApp.getState().tagSuggestions).toEqual([{ tag: 'howto', count: 7 }]);
  });

  it('reads health once for a burst of completed index runs (a watched folder being edited)', async () => {
    const listeners = new Map<string, (p: unknown) => void>();
    const bridge = fakeBridge({ 'health/get': HEALTH, 'index/status': {}, 'models/list': [], 'app/info': { demo: null } });
    bridge.on = (event, listener) => (listeners.set(event, listener), () => {});
    useApp.getState().connect(createClient(bridge));
    await expect.poll(() => useApp.getState().health).not.toBeNull();
    const healthCalls = () => bridge.calls.filter((c) => c.method === 'health/get').length;
    const before = healthCalls();
    for (let i = 0; i < 20; i++) listeners.get('syn.index.completed')?.({ indexed: i });
    expect(useApp.getState().lastReport).toEqual({ indexed: 19 });
    await expect.poll(healthCalls, { timeout: 3000 }).toBe(before + 1);
    await new Promise((r) => setTimeout(r, 700));
    expect(healthCalls()).toBe(before + 1);
  });

  it('reads health counting restricted notes only while the user shows them', async () => {
    const bridge = fakeBridge({ 'health/get': HEALTH, 'index/status': {}, 'models/list': [], 'app/info': { demo: null }, 'index/documents': [] });
    useApp.getState().connect(createClient(bridge));
    await expect.poll(() => useApp.getState().health).not.toBeNull();
    const asked = () => bridge.calls.filter((c) => c.method === 'health/get').map((c) => (c.params as { allow_sensitivity?: string[] }).allow_sensitivity);
    expect(asked().at(-1)).toEqual([]);
    const before = asked().length;
    useApp.getState().setAllowRestricted(true);
    await expect.poll(() => asked().length).toBe(before + 1);
    expect(asked().at(-1)).toEqual(['restricted']);
    useApp.getState().setAllowRestricted(false);
    await expect.poll(() => asked().length).toBe(before + 2);
    expect(asked().at(-1)).toEqual([]);
  });

  it('reads the counts again within a second of the index moving, at most once a second', async () => {
    const listeners = new Map<string, (p: unknown) => void>();
    const bridge = fakeBridge({ 'health/get': HEALTH, 'index/status': {}, 'models/list': [], 'app/info': { demo: null } });
    bridge.on = (event, listener) => (listeners.set(event, listener), () => {});
    useApp.getState().connect(createClient(bridge));
    await expect.poll(() => useApp.getState().health).not.toBeNull();
    const healthCalls = () => bridge.calls.filter((c) => c.method === 'health/get').length;
    const before = healthCalls();
    // A run's status, 20 times in 400 ms.
    for (let i = 0; i < 20; i++) {
      listeners.get('index/status')?.({ running: true, paused: false, watching: true, pending_jobs: 20 - i, progress: null });
      await new Promise((r) => setTimeout(r, 20));
    }
    // Read while the run goes on, not only when it completes (HEALTH_EVERY_MS: 1 s; generous for a busy machine).
    await expect.poll(healthCalls, { timeout: 5000 }).toBeGreaterThan(before);
    await new Promise((r) => setTimeout(r, 1200));
    expect(healthCalls() - before).toBeLessThanOrEqual(2);
  });

  it('shows a repeated message once, and at most three toasts', () => {
    const { notify } = useApp.getState();
    notify('error', 'The connection to the engine was lost; try again.');
    notify('error', 'The connection to the engine was lost; try again.');
    expect(useApp.getState().toasts.map((t) => t.text)).toEqual(['The connection to the engine was lost; try again.']);
    for (const n of [1, 2, 3]) notify('info', `note ${n}`);
    expect(useApp.getState().toasts.map((t) => t.text)).toEqual(['note 1', 'note 2', 'note 3']);
  });
});
