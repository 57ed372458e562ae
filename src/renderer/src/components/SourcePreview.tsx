import { useEffect, useMemo, useRef } from 'react';
import type { RelatedResult, SourceLines } from '../../../shared/contract.ts';
import { renderNote, resolveNoteLink } from '../markdown.ts';
import type { Preview } from '../slices/source.ts';
import { useAppFields } from '../store.ts';

/**
 * The note rendered as markdown: wikilinks open in the pane, [[#Heading]] links scroll to it, a
 * #tag opens the search filtered by it, embeds show inline, the cited blocks marked.
 */
function RenderedNote({
  preview,
  note,
  related,
  onFollow,
  onTag,
}: {
  preview: Preview;
  note: SourceLines;
  related: RelatedResult | null;
  onFollow: (locator: string, anchor?: string) => void;
  onTag: (tag: string) => void;
}) {
  const embeds = preview.embeds ?? null;
  const links = useMemo(() => new Map([...(embeds?.links ?? []), ...(related?.links ?? [])].map((l) => [l.name, l.path])), [related, embeds]);
  const embedded = useMemo(() => new Map((embeds?.embeds ?? []).map((e) => [e.target, e])), [embeds]);
  const html = useMemo(
    () => renderNote(note.text, { firstLine: note.start_line, links, embeds: embedded, chain: [note.path], cited: preview.cited ? { start: preview.start, end: preview.end } : null }),
    [note, links, embedded, preview.cited, preview.start, preview.end],
  );
  return (
    <article
      className="note-body"
      aria-label="Note"
      data-testid="rendered-note"
      // markdown-it renders with raw HTML off: a note's tags arrive escaped, as text (markdown.ts).
      dangerouslySetInnerHTML={{ __html: html }}
      onClick={(e) => {
        const a = (e.target as HTMLElement).closest('a');
        if (!a) return;
        // Nothing in a note navigates the app away: notes open in the pane, addresses only show in their title.
        e.preventDefault();
        if (a.dataset.tag) {
          onTag(a.dataset.tag);
          return;
        }
        if (a.classList.contains('wikilink--here')) {
          const root = (e.currentTarget as HTMLElement).closest('.preview__main') as HTMLElement | null;
          const found = root ? anchorTarget(root, a.dataset.anchor ?? '') : null;
          found?.scrollIntoView({ block: 'start' });
          found?.classList.add('md-flash');
          setTimeout(() => found?.classList.remove('md-flash'), 1200);
          return;
        }
        const target = a.dataset.note ?? (a.dataset.href ? resolveNoteLink(note.path, a.dataset.href) : null);
        const anchor = (a.dataset.anchor ?? (a.dataset.href?.includes('#') ? a.dataset.href.slice(a.dataset.href.indexOf('#')) : '')).replace(/^#/, '');
        if (target) onFollow(target, anchor || undefined);
      }}
    />
  );
}

/** Numbered lines: around the cited ones, or the whole file. */
function NumberedLines({ preview, source }: { preview: Preview; source: SourceLines }) {
  const lines = source.text.split('\n');
  return (
    <div className="code" role="region" aria-label="File lines">
      {lines.map((text, i) => {
        const n = source.start_line + i;
        const cited = preview.cited && n >= preview.start && n <= preview.end;
        return (
          <div key={n} className={`code__line${cited ? ' code__line--cited' : ''}`} data-line={n} data-cited={cited || undefined}>
            <span className="code__no">{n}</span>
            <span className="code__text">{text || ' '}</span>
          </div>
        );
      })}
      {source.truncated && <div className="muted small">… the file continues; open it in your editor to read on.</div>}
    </div>
  );
}

/** Letters and digits only, lower case: how a [[Note#Heading]] link and the heading are compared. */
const headingKey = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** The rendered heading a link's #anchor names (by its words, or as a slug), or the block a `^id` names, if any. */
function anchorTarget(root: HTMLElement, anchor: string): Element | null {
  const bare = anchor.replace(/^#/, '');
  if (bare.startsWith('^')) return [...root.querySelectorAll('[id]')].find((el) => el.id === bare) ?? null;
  const want = headingKey(bare.split('#').pop() ?? bare);
  return [...root.querySelectorAll('h1, h2, h3, h4, h5, h6')].find((h) => headingKey(h.textContent ?? '') === want) ?? null;
}

const REASON_ICON: Record<string, string> = { links_here: '←', linked_from_here: '→', shares: '≈', similar: '¶' };

/** Related notes with why each is related; a click opens it in the pane (at the lines that make the reason). */
function RelatedRail({ preview, onFollow }: { preview: Preview; onFollow: (locator: string) => void }) {
  const related = preview.related;
  return (
    <aside className="related" aria-label="Related notes" data-testid="related-notes">
      <h2 className="related__title">Related notes</h2>
      {preview.relatedError && <p className="muted small">{preview.relatedError}</p>}
      {!related && !preview.relatedError && <p className="muted small">Looking…</p>}
      {related && related.related.length === 0 && <p className="muted small">Nothing links here, and no other note shares its names or passages.</p>}
      {related && related.related.length > 0 && (
        <ol className="related__list">
          {related.related.map((n) => (
            <li key={n.path}>
              <button type="button" className="related__item" data-testid="related-note" onClick={() => onFollow(n.reasons.find((r) => r.locator && !r.locator.startsWith(`${preview.path}#`))?.locator ?? n.path)}>
                <span className="related__name">
                  {n.title}
                  {n.restricted && <span className="badge badge--restricted">restricted</span>}
                </span>
                <span className="related__path">{n.path}</span>
                {n.reasons.map((r) => (
                  <span key={r.kind} className={`related__why related__why--${r.kind}`} data-testid="related-why">
                    <span aria-hidden="true">{REASON_ICON[r.kind]} </span>
                    {r.text}
                  </span>
                ))}
              </button>
            </li>
          ))}
        </ol>
      )}
      {related && (
        <p className="muted small related__how">
          {related.similarity === 'vectors' ? 'Links, shared names and passages alike (embedding model).' : related.similarity === 'words' ? 'Links, shared names and passages with the same words (no embedding model).' : 'Links and shared names.'}
        </p>
      )}
    </aside>
  );
}

/** The reading pane: the note rendered (or its lines), the cited lines highlighted, related notes beside it, Back, and "open in editor". */
export function SourcePreview() {
  const { preview, previewHistory, closePreview, openInEditor, readWholeFile, restrictedDocs, followInPreview, previewBack, setPreviewView, filterByTag } = useAppFields(
    'preview',
    'previewHistory',
    'closePreview',
    'openInEditor',
    'readWholeFile',
    'restrictedDocs',
    'followInPreview',
    'previewBack',
    'setPreviewView',
    'filterByTag',
  );
  const roots = useAppFields('roots').roots;
  const body = useRef<HTMLDivElement>(null);
  const shown = preview ? (preview.view === 'note' && preview.note ? preview.note : preview.source) : null;
  useEffect(() => {
    const root = body.current;
    if (!root || !shown) return;
    const first = root.querySelector('[data-cited]') ?? (preview?.anchor ? anchorTarget(root, preview.anchor) : null);
    if (first) first.scrollIntoView({ block: first.hasAttribute('data-cited') ? 'center' : 'start' });
    else root.scrollTop = 0;
  }, [shown, preview?.view, preview?.locator, preview?.anchor, preview?.embeds]);
  if (!preview) return null;
  const source = preview.source ?? preview.note;
  const rendered = preview.view === 'note' && preview.note;
  const follow = (locator: string, anchor?: string) => void followInPreview(locator, anchor);
  return (
    <aside className="preview" role="dialog" aria-label={`Source ${preview.locator}`} data-testid="source-preview">
      <header className="preview__header">
        <div className="preview__heading">
          {previewHistory.length > 0 && (
            <button type="button" className="btn btn--ghost preview__back" onClick={() => void previewBack()} data-testid="preview-back" title={`Back to ${previewHistory.at(-1)}`}>
              ← Back
            </button>
          )}
          <div>
            <div className="preview__path">{preview.path}</div>
            <div className="muted small">
              {preview.cited ? `lines ${preview.start}–${preview.end}` : 'whole note'}
              {source && restrictedDocs.includes(source.doc_id) && <span className="badge badge--restricted">restricted note</span>}
              {source?.stale && <span className="badge badge--warn">changed since indexing: showing the indexed text</span>}
            </div>
          </div>
        </div>
        <div className="preview__actions">
          {preview.note && (
            <div className="segmented" role="group" aria-label="Show as">
              <button type="button" className={preview.view === 'note' ? 'on' : undefined} aria-pressed={preview.view === 'note'} onClick={() => setPreviewView('note')}>
                Note
              </button>
              <button type="button" className={preview.view === 'lines' ? 'on' : undefined} aria-pressed={preview.view === 'lines'} onClick={() => setPreviewView('lines')}>
                Lines
              </button>
            </div>
          )}
          {source && roots.some((r) => r.path === source.root && r.obsidian_vault) && (
            <button type="button" className="btn btn--ghost" data-testid="open-in-obsidian" onClick={() => void openInEditor(preview.locator, 'obsidian')} title="Open this note in Obsidian (its folder is an Obsidian vault)">
              Open in Obsidian
            </button>
          )}
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
        <p className="error-line preview__error" role="alert">
          {preview.error}
        </p>
      )}
      <div className="preview__body">
        <div className="preview__main" ref={body}>
          {!shown && !preview.error && <p className="muted preview__loading">Loading…</p>}
          {rendered && <RenderedNote preview={preview} note={preview.note!} related={preview.related} onFollow={follow} onTag={filterByTag} />}
          {!rendered && preview.source && <NumberedLines preview={preview} source={preview.source} />}
          {rendered && preview.note!.truncated && <p className="muted small preview__loading">… the note continues past line {preview.note!.end_line}; open it in your editor to read on.</p>}
        </div>
        <RelatedRail preview={preview} onFollow={follow} />
      </div>
    </aside>
  );
}
