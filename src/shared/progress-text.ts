/**
 * The words for the indexing progress model (contract/indexing.ts IndexProgress): one wording for
 * the app's Library, Settings and sidebar and for `synapsis health`, so they say the same thing.
 */
import type { IndexProgress, ProgressPhase } from './contract/indexing.ts';

type PhaseProgress = Omit<IndexProgress, 'folders'>;

export const PHASE_LABEL: Record<ProgressPhase, string> = {
  scan: 'Scanning for changes',
  words: 'Indexing words',
  passages: 'Embedding passages',
  sentences: 'Embedding sentences',
  graph: 'Reading notes for the graph',
  done: 'Up to date',
};

const UNIT: Record<ProgressPhase, string> = { scan: 'folder', words: 'file', passages: 'passage', sentences: 'sentence', graph: 'note', done: '' };
const unit = (phase: ProgressPhase, n: number) => (n === 1 ? UNIT[phase] : `${UNIT[phase]}s`);

export function countText(n: number): string {
  return n.toLocaleString('en-US');
}

export function durationText(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** "Embedding passages · 1,200 / 5,000 passages · 21.5/s · ETA 3 min 5 s", "Paused: Embedding passages · 3,800 passages left", "Waiting: …", "Up to date". */
/** The words phase while an older store's word index is rebuilt (its units are notes). */
export const UPGRADE_LABEL = 'Upgrading the word index';

export function progressText(p: PhaseProgress): string {
  if (p.phase === 'done') return PHASE_LABEL.done;
  const parts = [p.upgrade ? UPGRADE_LABEL : PHASE_LABEL[p.phase]];
  // What waits (not started, or held before it started) is a count left; what runs, a count done of all.
  const units = (n: number) => (p.upgrade ? (n === 1 ? 'note' : 'notes') : unit(p.phase, n));
  if (p.state !== 'running' && p.done === 0 && p.total > 0) parts.push(`${countText(p.total)} ${units(p.total)} left`);
  else if (p.total > 0) parts.push(`${countText(p.done)} / ${countText(p.total)} ${units(p.total)}`);
  if (p.state === 'running') {
    if (p.rate_per_s !== null) parts.push(`${p.rate_per_s}/s`);
    parts.push(p.eta_s === null ? 'ETA when measured' : `ETA ${durationText(p.eta_s)}`);
  }
  const text = parts.join(' · ');
  return p.state === 'paused' ? `Paused: ${text}` : p.state === 'waiting' ? `Waiting: ${text}` : text;
}
