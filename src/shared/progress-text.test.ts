import { describe, expect, it } from 'vitest';
import { progressText } from './progress-text.ts';

describe('progressText', () => {
  it('says the phase, done of all, the rate and one ETA while it runs', () => {
    expect(progressText({ phase: 'passages', state: 'running', done: 1200, total: 5000, rate_per_s: 21.5, eta_s: 185 })).toBe('Embedding passages · 1,200 / 5,000 passages · 21.5/s · ETA 3 min 5 s');
    expect(progressText({ phase: 'words', state: 'running', done: 0, total: 40, rate_per_s: null, eta_s: null })).toBe('Indexing words · 0 / 40 files · ETA when measured');
    // The word index of an older store, rebuilt from its chunks when this version opens it.
    expect(progressText({ phase: 'words', state: 'running', done: 12500, total: 50000, rate_per_s: 693.6, eta_s: 54, upgrade: true })).toBe('Upgrading the word index · 12,500 / 50,000 notes · 693.6/s · ETA 54 s');
  });

  it('says what is left, with no rate or ETA, while paused or waiting; and only "Up to date" when done', () => {
    expect(progressText({ phase: 'passages', state: 'paused', done: 0, total: 3800, rate_per_s: null, eta_s: null })).toBe('Paused: Embedding passages · 3,800 passages left');
    expect(progressText({ phase: 'sentences', state: 'paused', done: 10, total: 90, rate_per_s: null, eta_s: null })).toBe('Paused: Embedding sentences · 10 / 90 sentences');
    expect(progressText({ phase: 'scan', state: 'waiting', done: 0, total: 1, rate_per_s: null, eta_s: null })).toBe('Waiting: Scanning for changes · 1 folder left');
    expect(progressText({ phase: 'done', state: 'done', done: 0, total: 0, rate_per_s: 3, eta_s: 1 })).toBe('Up to date');
  });
});
