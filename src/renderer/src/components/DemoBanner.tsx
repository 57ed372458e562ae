import { progressText } from '../../../shared/progress-text.ts';
import { useApp, useAppFields } from '../store.ts';

/** Shown while the demo workspace is open: what it is, its first indexing, reset and leave. */
export function DemoBanner() {
  const { demo, status, resetDemo, exitDemo } = useAppFields('demo', 'status', 'resetDemo', 'exitDemo');
  if (!demo?.active) return null;
  const live = status?.progress && status.progress.phase !== 'done' ? status.progress : null;
  // The tour is ready once passages are embedded: sentence vectors follow while it is used (questions
  // pause them), and until they are in, no quote is badged Answered.
  const sentences = status?.running && live?.phase === 'sentences' ? live : null;
  return (
    <div className="demo-banner" role="status" data-testid="demo-banner">
      <div>
        <strong>Demo</strong> — the notes, decisions and code of a fictional company (Lumen Labs). Your own folders are not touched.
        {demo.models.length > 0 ? <span className="muted"> Models: {demo.models.join(', ')}.</span> : <span className="muted"> No models found: search is lexical, answers quote the sources.</span>}
        {status?.running && !sentences && (
          <div className="demo-banner__progress" data-testid="demo-progress">
            <div className="progress__bar" role="progressbar" aria-label="Preparing the demo" aria-valuenow={live && live.total ? Math.round((live.done / live.total) * 100) : 0}>
              <span style={{ width: `${live && live.total ? Math.round((live.done / live.total) * 100) : 5}%` }} />
            </div>
            <span className="small muted">
              Preparing the demo{live ? `: ${progressText(live)}` : '…'}
            </span>
          </div>
        )}
        {sentences && (
          <div className="small muted" data-testid="demo-sentences">
            The tour is ready; its answers can be badged Answered once the sentences they quote are embedded ({progressText(sentences)}).
          </div>
        )}
      </div>
      <div className="row">
        <button type="button" className="btn btn--ghost" onClick={() => void resetDemo()}>
          Reset demo
        </button>
        <button type="button" className="btn btn--ghost" onClick={() => void exitDemo()}>
          Leave the demo
        </button>
      </div>
    </div>
  );
}

/** The guided tour: each question and what it shows off. */
export function TourList() {
  const { demo, askTour, tourStep } = useAppFields('demo', 'askTour', 'tourStep');
  // Whether a question is being answered, not its streamed text: a token must not re-render the tour.
  const busy = useApp((s) => s.asking !== null);
  if (!demo?.active || demo.tour.length === 0) return null;
  return (
    <section className="tour" aria-label="Guided tour">
      <h2>Guided tour</h2>
      <ol className="tour__list">
        {demo.tour.map((step) => (
          <li key={step.id} className={`tour__step${tourStep === step.id ? ' tour__step--on' : ''}`}>
            <button type="button" className="tour__ask" disabled={busy} onClick={() => void askTour(step.id)} data-testid={`tour-${step.id}`}>
              <span className="tour__shows">{step.shows}</span>
              <span className="tour__question">{step.question}</span>
            </button>
            <p className="muted small">{step.note}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
