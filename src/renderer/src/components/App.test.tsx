// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type SynapsisBridge } from '../../../shared/rpc.ts';
import { useApp } from '../store.ts';
import { App } from './App.tsx';

const initial = useApp.getState();
afterEach(() => {
  cleanup();
  useApp.setState(initial, true);
});

function bridge(roots: { id: number; path: string; include: string[]; exclude: string[]; added_at: string }[]): SynapsisBridge {
  const answers: Record<string, unknown> = {
    'health/get': { status: 'ok', degradations: [], roots, documents: { indexed: 3, skipped: 0, failed: 0, total: 3, by_type: {} }, chunks: 9, issues: [], models: { embed: null, chat: null, rerank: null, gpu: false, threads: 2 }, vectors: { count: 0, dimension: 0, backend: null, pending: 0 }, config: {}, data_dir: '/d', index_version: 'v', schema_version: 7, pending_jobs: 0 },
    'index/status': { running: false, paused: false, watching: true, pending_jobs: 0 },
    'models/list': [],
    'app/info': { shell: 'test', version: '1', data_dir: '/d', demo: { available: true, active: false, data_dir: '/tmp/demo', models: [], tour: [] } },
    'system/info': { platform: 'linux', arch: 'x64', cpus: 2, cpu_model: 'cpu', memory_bytes: 2 ** 33, gpu: false, gpu_reason: 'No supported GPU', threads: 2, runtime_error: null },
  };
  return {
    shell: 'test',
    request: async (method) => (method in answers ? { ok: true, result: answers[method] } : { ok: false, error: { code: 'E_SYN_BAD_REQUEST', message: method, retryable: false } }),
    cancel() {},
    on: () => () => {},
    onConnection: () => () => {},
  };
}

describe('App', () => {
  it('while the engine rebuilds an older store\'s word index, says so in the sidebar with its progress', async () => {
    const listeners = new Map<string, (payload: unknown) => void>();
    // The engine is not open yet: requests wait; the host's status events arrive.
    const opening: SynapsisBridge = { shell: 'test', request: () => new Promise(() => undefined), cancel() {}, on: (event, listener) => (listeners.set(event, listener), () => listeners.delete(event)), onConnection: () => () => {} };
    await act(async () => void useApp.getState().connect(createClient(opening)));
    render(<App />);
    const progress = { phase: 'words', state: 'running', done: 12500, total: 50000, rate_per_s: 693.6, eta_s: 54, upgrade: true, folders: [] };
    await act(async () => listeners.get('index/status')?.({ running: true, paused: false, watching: false, pending_jobs: 0, progress }));
    expect(screen.getByTestId('index-badge').textContent).toContain('Upgrading the word index · 12,500 / 50,000 notes · 693.6/s · ETA 54 s');
  });

  it('without an engine connection explains how to open web mode', () => {
    render(<App />);
    expect(screen.getByText(/Open the address that `synapsis web` printed/)).toBeTruthy();
  });

  it('opens on onboarding for an empty workspace', async () => {
    await act(async () => void useApp.getState().connect(createClient(bridge([]))));
    render(<App />);
    expect(await screen.findByTestId('onboarding')).toBeTruthy();
  });

  it('is keyboard-first: Ctrl+K asks, Ctrl+/ searches, Alt+5 opens settings', async () => {
    await act(async () => void useApp.getState().connect(createClient(bridge([{ id: 1, path: '/notes', include: [], exclude: [], added_at: '' }]))));
    render(<App />);
    await screen.findByRole('navigation', { name: 'Main' });
    fireEvent.keyDown(window, { key: '/', ctrlKey: true });
    expect(await screen.findByLabelText('Search query')).toBeTruthy();
    fireEvent.keyDown(window, { key: '5', altKey: true });
    expect(await screen.findByText('Settings and health')).toBeTruthy();
    expect(await screen.findByText(/No supported GPU/)).toBeTruthy();
    // The demo is offered in settings too, not only on the first screen.
    expect(await screen.findByTestId('settings-demo')).toBeTruthy();
    fireEvent.keyDown(window, { key: 'k', metaKey: true });
    expect(await screen.findByLabelText('Question')).toBeTruthy();
    expect(screen.getByTestId('index-badge').textContent).toContain('Watching for changes');
  });
});
