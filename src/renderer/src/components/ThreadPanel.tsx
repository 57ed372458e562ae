/**
 * Conversations in the Ask view: the workspace's threads (open one, start a new one, rename, delete,
 * export as markdown) and the earlier turns of the open thread, each with its citations clickable
 * and "Copy as markdown". Keyboard: Alt+N starts a new thread, ↑/↓ move through the list, F2
 * renames the focused thread.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ThreadTurn } from '../../../shared/contract.ts';
import { useApp, useAppFields } from '../store.ts';
import { AnswerBody } from './AnswerBody.tsx';
import { citationNumbers, LongText } from './text.tsx';

const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
};

function focusAsk() {
  setTimeout(() => document.getElementById('ask-input')?.focus(), 0);
}

/** The list of the workspace's threads, newest first. */
export function ThreadList() {
  const { threads, thread, openThread, newThread } = useAppFields('threads', 'thread', 'openThread', 'newThread');
  // A boolean, not the streamed answer: the list does not re-render per token.
  const busy = useApp((s) => s.asking !== null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.altKey && !e.ctrlKey && !e.metaKey && e.key.toLowerCase() === 'n') {
        e.preventDefault();
        useApp.getState().newThread();
        focusAsk();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const move = (e: KeyboardEvent<HTMLButtonElement>, id: string) => {
    const items = [...(list.current?.querySelectorAll<HTMLButtonElement>('.thread-item__open') ?? [])];
    const i = items.indexOf(e.currentTarget);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      items[Math.max(0, Math.min(items.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)))]?.focus();
    } else if (e.key === 'F2') {
      e.preventDefault();
      setRenaming(id);
    }
  };
  return (
    <aside className="threads" aria-label="Conversations">
      <div className="threads__head">
        <h2>Conversations</h2>
        <button
          type="button"
          className="btn btn--ghost btn--small"
          onClick={() => {
            newThread();
            focusAsk();
          }}
          title={busy ? 'Start a new conversation (Alt+N); the answer being written is saved in its own' : 'Start a new conversation (Alt+N)'}
          data-testid="new-thread"
        >
          + New
        </button>
      </div>
      {threads.length === 0 ? (
        <p className="muted small">Each question starts a conversation; ask a follow-up and it keeps the context.</p>
      ) : (
        <ul ref={list} className="threads__list">
          {threads.map((t) => (
            <li key={t.id} className={`thread-item${thread?.id === t.id ? ' thread-item--current' : ''}`}>
              {renaming === t.id ? (
                <RenameField id={t.id} title={t.title} done={() => setRenaming(null)} />
              ) : (
                <button
                  type="button"
                  className="thread-item__open"
                  aria-current={thread?.id === t.id ? 'true' : undefined}
                  onClick={() => void openThread(t.id)}
                  onKeyDown={(e) => move(e, t.id)}
                  title={`${t.title} — F2 to rename`}
                  data-testid="thread-item"
                >
                  <span className="thread-item__title" dir="auto">{t.title}</span>
                  <span className="thread-item__meta muted">
                    {t.turns} {t.turns === 1 ? 'question' : 'questions'} · {when(t.updated_at)}
                  </span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}

/** The most characters a title may have (the rename field's limit). */
const TITLE_CHARS = 200;

/**
 * What the rename field starts with: a title cut from its first question ("…") is given back whole
 * (the question, when the thread is open; else the words before the cut), so renaming edits words, not an ellipsis.
 */
function renameStart(title: string, firstQuestion: string | undefined): string {
  if (!title.endsWith('…')) return title;
  const q = firstQuestion?.replace(/\s+/g, ' ').trim();
  if (q && q.startsWith(title.slice(0, -1).trimEnd())) {
    if (q.length <= TITLE_CHARS) return q;
    const cut = q.slice(0, TITLE_CHARS);
    return cut.slice(0, cut.lastIndexOf(' ') > TITLE_CHARS / 2 ? cut.lastIndexOf(' ') : TITLE_CHARS);
  }
  return title.slice(0, -1).trimEnd();
}

function RenameField({ id, title, done }: { id: string; title: string; done: () => void }) {
  const renameThread = useApp((s) => s.renameThread);
  const firstQuestion = useApp((s) => (s.thread?.id === id ? s.thread.turns_list[0]?.question : undefined));
  const [value, setValue] = useState(() => renameStart(title, firstQuestion));
  const save = () => {
    if (value.trim() && value.trim() !== title) void renameThread(id, value);
    done();
  };
  return (
    <input
      className="thread-rename"
      aria-label="Conversation title"
      value={value}
      autoFocus
      maxLength={TITLE_CHARS}
      onChange={(e) => setValue(e.target.value)}
      onBlur={save}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          save();
        } else if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          done();
        }
      }}
      data-testid="thread-rename"
    />
  );
}

/** The open thread's title and what can be done with it. */
export function ThreadHeader() {
  const { thread, exportThread, deleteThread } = useAppFields('thread', 'exportThread', 'deleteThread');
  const busy = useApp((s) => s.asking !== null);
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState(false);
  if (!thread) return null;
  return (
    <div className="thread-head" data-testid="thread-head">
      {renaming ? (
        <RenameField id={thread.id} title={thread.title} done={() => setRenaming(false)} />
      ) : (
        <h2 className="thread-head__title" title={thread.title} dir="auto">
          <span className="muted">Conversation · </span>
          {thread.title}
        </h2>
      )}
      <div className="thread-head__actions">
        {confirming ? (
          <>
            <span className="small">Delete this conversation?</span>
            <button type="button" className="btn btn--danger btn--small" onClick={() => void deleteThread(thread.id).then(() => setConfirming(false))} autoFocus data-testid="thread-delete-confirm">
              Delete
            </button>
            <button type="button" className="btn btn--ghost btn--small" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <>
            <button type="button" className="btn btn--ghost btn--small" onClick={() => setRenaming(true)} disabled={renaming}>
              Rename
            </button>
            <button type="button" className="btn btn--ghost btn--small" onClick={() => void exportThread(thread.id)} disabled={busy} data-testid="thread-export" title="Save the conversation as a markdown file, with its sources">
              Export .md
            </button>
            <button type="button" className="btn btn--ghost btn--small" onClick={() => setConfirming(true)} data-testid="thread-delete">
              Delete
            </button>
          </>
        )}
      </div>
    </div>
  );
}

/** "Searched as: …" under a follow-up's question: the thread's terms it carried. */
export function SearchedAs({ searchedAs, carried }: { searchedAs: string | null; carried: readonly string[] }) {
  if (!searchedAs) return null;
  return (
    <p className="searched-as small" data-testid="searched-as" title={`A follow-up is searched with the terms of the conversation before it${carried.length > 0 ? `: ${carried.join(', ')}` : ''}`}>
      Searched as: <q>{searchedAs}</q>
    </p>
  );
}

/** An earlier turn of the open thread: its question, what it was searched as, the answer and its sources. */
export function TurnCard({ turn }: { turn: ThreadTurn }) {
  const { openPreview, copyTurn, ask } = useAppFields('openPreview', 'copyTurn', 'ask');
  const busy = useApp((s) => s.asking !== null);
  if (turn.interrupted && !turn.hidden) {
    // Saved when asked, never finished (a reload, a closed window, Stop): the reader's quote, and Resume.
    const { quote, sources } = turn.interrupted;
    return (
      <article className="answer answer--turn answer--interrupted" data-testid="thread-turn">
        <h3 className="answer__question" dir="auto">
          <LongText text={turn.question} />
        </h3>
        <SearchedAs searchedAs={turn.searched_as} carried={turn.carried} />
        <p className="answer__stage" data-testid="turn-interrupted">
          <span className="badge badge--warn">Interrupted</span> The answer was not finished.{quote ? ' The quote read before it stopped, not yet checked:' : ''}
        </p>
        {quote && (
          <blockquote className="answer__quote" dir="auto" data-testid="turn-interrupted-quote">
            {quote}
          </blockquote>
        )}
        {sources.length > 0 && (
          <ol className="sources sources--compact" aria-label="Sources">
            {sources.map((s, i) => (
              <li key={`${i}:${s.locator}`}>
                <button type="button" className="source-link" onClick={() => void openPreview(s.locator)}>
                  <span className="cite-chip">{i + 1}</span>
                  <span className="source-link__title">{s.title}</span>
                  <span className="source-link__loc">{s.locator.replace(/#L(\d+)-L(\d+)$/, ':$1–$2')}</span>
                </button>
              </li>
            ))}
          </ol>
        )}
        <div className="answer__actions">
          <button type="button" className="btn btn--primary btn--small" disabled={busy} onClick={() => void ask(turn.question)} data-testid="turn-resume">
            Resume
          </button>
        </div>
      </article>
    );
  }
  const a = turn.answer;
  const numbers = a ? citationNumbers(a.answer, a.snippets.map((s) => s.n)) : new Map<number, number>();
  const label = (n: number) => numbers.get(n) ?? n;
  return (
    <article className="answer answer--turn" data-testid="thread-turn">
      <h3 className="answer__question" dir="auto">
        <LongText text={turn.question} />
      </h3>
      <SearchedAs searchedAs={turn.searched_as} carried={turn.carried} />
      {turn.hidden || !a ? (
        <p className="muted" data-testid="turn-hidden">
          This answer uses restricted notes. Show restricted notes in Settings to see it.
        </p>
      ) : (
        <>
          {turn.restricted && <span className="badge badge--restricted">Uses restricted notes</span>}
          <AnswerBody answer={a} label={label} />
          {a.citations.length > 0 && (
            <ol className="sources sources--compact" aria-label="Sources">
              {[...a.citations]
                .sort((x, y) => label(x.n) - label(y.n))
                .map((c) => (
                  <li key={c.n}>
                    <button type="button" className="source-link" onClick={() => void openPreview(c.locator)} data-testid="turn-citation">
                      <span className="cite-chip">{label(c.n)}</span>
                      <span className="source-link__title">{a.snippets.find((x) => x.n === c.n)?.title ?? c.path}</span>
                      <span className="source-link__loc">
                        {c.path}:{c.start_line}–{c.end_line}
                      </span>
                    </button>
                  </li>
                ))}
            </ol>
          )}
          <div className="answer__actions">
            <button type="button" className="btn btn--ghost btn--small" onClick={() => void copyTurn(turn.ordinal)}>
              Copy as markdown
            </button>
          </div>
        </>
      )}
    </article>
  );
}
