import type { FolderProgress, IndexProgress } from '../../../shared/contract.ts';
import { PHASE_LABEL, progressText, UPGRADE_LABEL } from '../../../shared/progress-text.ts';
import { useAppFields } from '../store.ts';
import { FolderPicker } from './FolderPicker.tsx';
import { formatCount, formatMs } from './text.tsx';

/** One line of the progress model (the engine's index status): a folder's, or all folders' together. */
function ProgressBar({ progress, testId }: { progress: Omit<IndexProgress, 'folders'> | FolderProgress; testId: string }) {
  const pct = progress.phase === 'done' ? 100 : progress.total > 0 ? Math.min(100, Math.round((progress.done / progress.total) * 100)) : 0;
  return (
    <div className="progress" data-testid={testId} data-stage={progress.phase} data-state={progress.state}>
      <div className="progress__bar" role="progressbar" aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100} aria-label={`${progress.upgrade ? UPGRADE_LABEL : PHASE_LABEL[progress.phase]} ${pct}%`}>
        <span style={{ width: `${pct}%` }} />
      </div>
      <div className="progress__text small">{progressText(progress)}</div>
    </div>
  );
}

export function LibraryView() {
  const { roots, health, status, lastReport, removeFolder, indexNow, pause, resume, watchFolders } = useAppFields('roots', 'health', 'status', 'lastReport', 'removeFolder', 'indexNow', 'pause', 'resume', 'watchFolders');
  const issues = health?.issues ?? [];
  const running = status?.running ?? false;
  return (
    <section className="view view--library" aria-label="Library">
      <header className="view__header view__header--row">
        <div>
          <h1>Library</h1>
          <p className="muted">
            {health ? `${formatCount(health.documents.indexed)} documents · ${formatCount(health.chunks)} passages` : 'Loading…'}
            {status?.watching && ' · watching for changes'}
            {!watchFolders && !status?.watching && <span data-testid="not-watching"> · not watching for changes (started with --no-watch): Re-scan picks them up</span>}
            {status && status.pending_jobs > 0 && ` · ${formatCount(status.pending_jobs)} files waiting`}
          </p>
        </div>
        <div className="row">
          {status?.paused ? (
            <button type="button" className="btn btn--primary" onClick={() => void resume()}>
              Resume indexing
            </button>
          ) : (
            <button type="button" className="btn btn--ghost" onClick={() => void pause()} disabled={!running && !(status?.watching ?? false)}>
              Pause
            </button>
          )}
          <button type="button" className="btn btn--ghost" onClick={() => void indexNow()} disabled={running || roots.length === 0 || (status?.paused ?? false)}>
            {running ? 'Indexing…' : 'Re-scan now'}
          </button>
        </div>
      </header>
      {status?.paused && (
        <p className="notice" role="status">
          Indexing is paused. Changes to your files wait in the queue; nothing already indexed is lost.
        </p>
      )}

      <h2>Folders</h2>
      <ul className="roots">
        {roots.map((r) => (
          <li key={r.id} className="root" data-testid="root">
            <div className="root__head">
              <span className="root__path">{r.path}</span>
              {r.exclude.length > 0 && <span className="muted small">skips {r.exclude.join(', ')}</span>}
              <button
                type="button"
                className="link small danger"
                onClick={() => {
                  if (window.confirm(`Remove ${r.path} from Synapsis? Its files stay on disk; only the index forgets them.`)) void removeFolder(r.path);
                }}
              >
                Remove
              </button>
            </div>
            {(() => {
              const mine = status?.progress?.folders.find((f) => f.root === r.path);
              return mine ? <ProgressBar progress={mine} testId="root-progress" /> : <div className="muted small">{running ? 'Waiting for its turn…' : ''}</div>;
            })()}
          </li>
        ))}
      </ul>
      {roots.length === 0 && <p className="muted">No folders yet. Add the folders that hold your notes, documents and code.</p>}
      <FolderPicker />
      {status?.progress && roots.length > 1 && status.progress.phase !== 'done' && <ProgressBar progress={status.progress} testId="overall-progress" />}

      {lastReport && !running && (
        // While a run works, its progress is the news: the last run's counts would contradict it.
        <p className="muted small" data-testid="last-report">
          Last run: {lastReport.indexed} indexed, {lastReport.unchanged} unchanged, {lastReport.removed} removed, {lastReport.skipped} skipped, {lastReport.failed} failed in {formatMs(lastReport.duration_ms)}.
        </p>
      )}

      <h2>Files with issues {issues.length > 0 && <span className="count">{issues.length}</span>}</h2>
      {issues.length === 0 ? (
        <p className="muted">Every file was read in full.</p>
      ) : (
        <table className="issues" data-testid="issues">
          <thead>
            <tr>
              <th>File</th>
              <th>Status</th>
              <th>Why</th>
            </tr>
          </thead>
          <tbody>
            {issues.map((i) => (
              <tr key={`${i.path}:${i.status}`}>
                <td className="mono">{i.path}</td>
                <td>
                  <span className={`badge badge--${i.status === 'failed' ? 'reject' : 'warn'}`}>{i.status}</span>
                </td>
                <td>{i.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
