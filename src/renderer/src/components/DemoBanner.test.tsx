// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { IndexStatus } from '../../../shared/contract/indexing.ts';
import { useApp } from '../store.ts';
import { DemoBanner } from './DemoBanner.tsx';

const initial = useApp.getState();
afterEach(() => {
  cleanup();
  useApp.setState(initial, true);
});

const demo = { available: true, active: true, data_dir: '/tmp/demo', models: ['multilingual-e5-small.Q4_0.gguf'], tour: [] };
const running = (phase: IndexStatus['progress']['phase'], done: number, total: number): IndexStatus => ({
  running: true,
  paused: false,
  watching: false,
  pending_jobs: 0,
  progress: { phase, state: 'running', done, total, rate_per_s: 30, eta_s: 20, folders: [] },
});

describe('DemoBanner', () => {
  it('shows the progress bar while words are indexed and passages embedded', () => {
    useApp.setState({ demo, status: running('passages', 120, 247) });
    render(<DemoBanner />);
    expect(screen.getByTestId('demo-progress').textContent).toContain('Preparing the demo: Embedding passages · 120 / 247 passages');
    expect(screen.queryByTestId('demo-sentences')).toBeNull();
  });

  it('calls the tour ready once the sentences are embedded, and says what they change', () => {
    useApp.setState({ demo, status: running('sentences', 400, 1062) });
    render(<DemoBanner />);
    expect(screen.queryByTestId('demo-progress')).toBeNull();
    const line = screen.getByTestId('demo-sentences').textContent ?? '';
    expect(line).toContain('The tour is ready');
    expect(line).toContain('badged Answered once the sentences they quote are embedded (Embedding sentences · 400 / 1,062 sentences');
  });

  it('says nothing of progress once the demo is indexed', () => {
    useApp.setState({ demo, status: { running: false, paused: false, watching: false, pending_jobs: 0, progress: { phase: 'done', state: 'done', done: 0, total: 0, rate_per_s: null, eta_s: null, folders: [] } } });
    render(<DemoBanner />);
    expect(screen.getByTestId('demo-banner')).toBeTruthy();
    expect(screen.queryByTestId('demo-progress')).toBeNull();
    expect(screen.queryByTestId('demo-sentences')).toBeNull();
  });
});
