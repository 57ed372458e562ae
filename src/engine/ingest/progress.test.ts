import { describe, expect, it } from 'vitest';
import { ProgressTracker, type FolderBacklog } from './progress.ts';

const idle: FolderBacklog = { scan: 0, words: 0, passages: 0, sentences: 0 };

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('ProgressTracker', () => {
  it('reports the phase, done/total, the rate over the last seconds and one ETA, per folder and overall', () => {
    const c = clock();
    const tracker = new ProgressTracker(c.now);
    tracker.begin('words', 100, [['/a', 60], ['/b', 40]]);
    for (let i = 1; i <= 20; i++) {
      c.advance(100);
      tracker.advanceFolder('/a');
      tracker.update(i);
    }
    const p = tracker.snapshot({ roots: ['/a', '/b'], paused: false, backlog: new Map([['/a', idle], ['/b', idle]]) });
    expect(p).toMatchObject({ phase: 'words', state: 'running', done: 20, total: 100, rate_per_s: 10, eta_s: 8 });
    expect(p.folders).toEqual([
      { root: '/a', phase: 'words', state: 'running', done: 20, total: 60, rate_per_s: 10, eta_s: 8 },
      { root: '/b', phase: 'words', state: 'running', done: 0, total: 40, rate_per_s: 10, eta_s: 8 },
    ]);
  });

  it('has no rate or ETA until the phase has run a second, and the rate falls when work stalls', () => {
    const c = clock();
    const tracker = new ProgressTracker(c.now);
    tracker.begin('passages', 1000, [['/a', 1000]]);
    c.advance(500);
    tracker.update(50);
    const early = tracker.snapshot({ roots: ['/a'], paused: false, backlog: new Map() });
    expect([early.rate_per_s, early.eta_s]).toEqual([null, null]);
    c.advance(500);
    tracker.update(100);
    expect(tracker.snapshot({ roots: ['/a'], paused: false, backlog: new Map() }).rate_per_s).toBe(100);
    c.advance(9000); // nothing done for 9 s
    expect(tracker.snapshot({ roots: ['/a'], paused: false, backlog: new Map() }).rate_per_s).toBe(10);
  });

  it('while paused: the phase is paused with no rate or ETA; after a pause the rate is measured again', () => {
    const c = clock();
    const tracker = new ProgressTracker(c.now);
    tracker.begin('passages', 100, [['/a', 100]]);
    c.advance(2000);
    tracker.update(50);
    const paused = tracker.snapshot({ roots: ['/a'], paused: true, backlog: new Map() });
    expect(paused).toMatchObject({ phase: 'passages', state: 'paused', done: 50, rate_per_s: null, eta_s: null });
    expect(paused.folders[0]).toMatchObject({ state: 'paused', rate_per_s: null, eta_s: null });
    tracker.restartRate();
    c.advance(60_000); // the pause
    tracker.update(51);
    expect(tracker.snapshot({ roots: ['/a'], paused: false, backlog: new Map() }).rate_per_s).toBeCloseTo(1 / 60, 1);
    tracker.restartRate();
    c.advance(500);
    expect(tracker.snapshot({ roots: ['/a'], paused: false, backlog: new Map() }).rate_per_s).toBeNull();
  });

  it('with nothing worked on, folders show what waits for them in the store (restart, pause), and nothing once it is done', () => {
    const tracker = new ProgressTracker(clock().now);
    const backlog = new Map<string, FolderBacklog>([
      ['/a', { ...idle, passages: 300, sentences: 900 }],
      ['/b', { ...idle, words: 5, passages: 0 }],
      ['/c', { ...idle, scan: 1 }],
      ['/d', idle],
    ]);
    const p = tracker.snapshot({ roots: ['/a', '/b', '/c', '/d'], paused: false, backlog });
    expect(p.folders.map((f) => [f.root, f.phase, f.state, f.done, f.total])).toEqual([
      ['/a', 'passages', 'waiting', 0, 300],
      ['/b', 'words', 'waiting', 0, 5],
      ['/c', 'scan', 'waiting', 0, 1],
      ['/d', 'done', 'done', 0, 0],
    ]);
    expect(p).toMatchObject({ phase: 'scan', state: 'waiting', total: 1, eta_s: null });
    expect(tracker.snapshot({ roots: ['/a'], paused: true, backlog }).state).toBe('paused');
    const done = tracker.snapshot({ roots: ['/a', '/d'], paused: false, backlog: new Map([['/a', idle], ['/d', idle]]) });
    expect(done).toEqual({ phase: 'done', state: 'done', done: 0, total: 0, rate_per_s: null, eta_s: null, folders: [expect.objectContaining({ phase: 'done' }), expect.objectContaining({ phase: 'done' })] });
  });

  it('a folder that finished its part of the phase shows its next phase as waiting, not the finished one', () => {
    const tracker = new ProgressTracker(clock().now);
    tracker.begin('words', 3, [['/a', 1], ['/b', 2]]);
    expect(tracker.advanceFolder('/a')).toBe(true);
    tracker.update(1);
    const p = tracker.snapshot({ roots: ['/a', '/b'], paused: false, backlog: new Map([['/a', { ...idle, words: 1, passages: 7 }], ['/b', idle]]) });
    expect(p.folders[0]).toMatchObject({ root: '/a', phase: 'passages', state: 'waiting', total: 7 });
    expect(p.folders[1]).toMatchObject({ root: '/b', phase: 'words', state: 'running', done: 0, total: 2 });
  });

  it('ends a phase without leaving its numbers behind (no stale ETA)', () => {
    const c = clock();
    const tracker = new ProgressTracker(c.now);
    tracker.begin('passages', 10, [['/a', 10]]);
    c.advance(5000);
    tracker.update(9);
    tracker.end();
    const p = tracker.snapshot({ roots: ['/a'], paused: false, backlog: new Map([['/a', idle]]) });
    expect(p).toMatchObject({ phase: 'done', state: 'done', eta_s: null, rate_per_s: null });
    expect(p.folders[0]).toMatchObject({ phase: 'done', eta_s: null });
  });
});
