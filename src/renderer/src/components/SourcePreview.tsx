import { useEffect, useRef } from 'react';
import { useAppFields } from '../store.ts';

/** The cited lines in their file, highlighted, with the lines around them and "open in editor". */
export function SourcePreview() {
  const { preview, closePreview, openInEditor, readWholeFile, restrictedDocs } = useAppFields('preview', 'closePreview', 'openInEditor', 'readWholeFile', 'restrictedDocs');
  const first = useRef<HTMLDivElement>(null);
  useEffect(() => {
    first.current?.scrollIntoView({ block: 'center' });
  }, [preview?.source]);
  if (!preview) return null;
  const source = preview.source;
  const lines = source ? source.text.split('\n') : [];
  return (
    <aside className="preview" role="dialog" aria-label={`Source ${preview.locator}`} data-testid="source-preview">
      <header className="preview__header">
        <div>
          <div className="preview__path">{preview.path}</div>
          <div className="muted small">
            lines {preview.start}–{preview.end}
            {source && restrictedDocs.includes(source.doc_id) && <span className="badge badge--restricted">restricted note</span>}
            {source?.stale && <span className="badge badge--warn">changed since indexing: showing the indexed text</span>}
          </div>
        </div>
        <div className="preview__actions">
          <button type="button" className="btn btn--ghost" onClick={() => void openInEditor(preview.locator)}>
            Open in editor
          </button>
          <button type="button" className="btn btn--icon" onClick={closePreview} aria-label="Close preview" title="Close (Esc)">
            ×
          </button>
        </div>
      </header>
      {preview.openError && (
        <div className="preview__open-error" role="alert" data-testid="open-error">
          <p>
            <strong>Could not open it in an editor.</strong> {preview.openError}
          </p>
          {!preview.whole && (
            <button type="button" className="btn btn--primary" onClick={() => void readWholeFile()}>
              Read the whole file here
            </button>
          )}
        </div>
      )}
      {preview.error && (
        <p className="error-line" role="alert">
          {preview.error}
        </p>
      )}
      {!source && !preview.error && <p className="muted">Loading…</p>}
      {source && (
        <div className="code" role="region" aria-label="File lines">
          {lines.map((text, i) => {
            const n = source.start_line + i;
            const cited = n >= preview.start && n <= preview.end;
            return (
              <div key={n} ref={n === preview.start ? first : undefined} className={`code__line${cited ? ' code__line--cited' : ''}`} data-line={n} data-cited={cited || undefined}>
                <span className="code__no">{n}</span>
                <span className="code__text">{text || ' '}</span>
              </div>
            );
          })}
          {source.truncated && <div className="muted small">… the range continues; open the file to read on.</div>}
        </div>
      )}
    </aside>
  );
}
