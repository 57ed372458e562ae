import { useEffect, useRef } from 'react';
import { changesMeaning, outcomeLabel } from '../../../shared/answer-view.ts';
import { useAppFields } from '../store.ts';
import { TourList } from './DemoBanner.tsx';
import { SearchedAs, ThreadHeader, ThreadList, TurnCard } from './ThreadPanel.tsx';
import { citationNumbers, CitedText, clipText, formatMs, Highlighted, LongText, plural } from './text.tsx';

const STAGE_LABEL: Record<string, string> = {
  retrieve: 'Searching your notes…',
  context: 'Reading the best passages…',
  synthesize: 'Writing the answer…',
  critic: 'Checking every sentence against its source…',
  revise: 'Revising unsupported sentences…',
  done: 'Done',
};


/** Does the answer answer? One of three outcomes a person tells apart at a glance; the critic's verdict is in the tooltip. */
function VerdictBadge({ verdict, outcome, decidedBy }: { verdict: string | null; outcome: string; decidedBy: string }) {
  const label = outcomeLabel(verdict, outcome);
  const tone = verdict === null ? 'none' : outcome === 'not_found' || verdict === 'REJECT' ? 'reject' : outcome === 'partial' || verdict !== 'APPROVE' ? 'revise' : 'approve';
  return (
    <span className={`badge badge--${tone}`} title={`Every sentence is checked against its source. Critic verdict: ${verdict ?? 'none'} (decided by ${decidedBy})`} data-testid="verdict">
      {label}
    </span>
  );
}

export function AskView() {
  const { asking, answer, history, ask, cancelAsk, openPreview, showAnswerGraph, showGraph, health, demo, tourStep, draft: question, setDraft: setQuestion, restrictedDocs, status } = useAppFields(
    'asking',
    'answer',
    'history',
    'ask',
    'cancelAsk',
    'openPreview',
    'showAnswerGraph',
    'showGraph',
    'health',
    'demo',
    'tourStep',
    'draft',
    'setDraft',
    'restrictedDocs',
    'status',
  );
  const { thread, newThread, copyTurn } = useAppFields('thread', 'newThread', 'copyTurn');
  // The turns before the answer shown in full: the whole open thread while a follow-up is being answered.
  const shownTurn = !asking && answer?.thread && answer.thread.id === thread?.id ? answer.thread.turn : Infinity;
  // A turn being resumed shows as the answer being written, not also as interrupted above it.
  const resuming = (t: { interrupted: unknown; question: string }) => asking !== null && t.interrupted !== null && t.question === asking.question;
  const earlier = thread ? thread.turns_list.filter((t) => t.ordinal < shownTurn && !resuming(t)) : [];
  const step = demo?.active ? demo.tour.find((t) => t.id === tourStep && t.question === answer?.query) : undefined;
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => input.current?.focus(), []);
  const hasQuote = asking?.quote !== undefined && asking.quote.outcome !== 'not_found' && asking.quote.answer !== '';
  const submit = () => {
    if (question.trim()) void ask(question);
  };
  const empty = health !== null && health.documents.indexed === 0;
  const numbers = answer ? citationNumbers(answer.answer, answer.snippets.map((s) => s.n)) : new Map<number, number>();
  const label = (n: number) => numbers.get(n) ?? n;
  const restricted = (docId: string) => restrictedDocs.includes(docId);
  const usesRestricted = answer !== null && (answer.snippets.some((s) => restricted(s.doc_id)) || (thread?.turns_list.find((t) => t.ordinal === answer.thread?.turn && answer.thread?.id === thread.id)?.restricted ?? false));
  const byLabel = <T extends { n: number }>(list: readonly T[]) => [...list].sort((a, b) => label(a.n) - label(b.n));

  return (
    <section className="view view--ask" aria-label="Ask">
      <header className="view__header">
        <h1>Ask your notes</h1>
        <p className="muted">Answers cite the exact lines they come from; a critic checks each sentence, and Synapsis says so when your notes do not hold the answer.</p>
      </header>
      <div className="ask-layout">
        <ThreadList />
        <div className="ask-main">
          <form
            className="ask-box"
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            <textarea
              dir="auto"
              id="ask-input"
              ref={input}
              value={question}
              rows={2}
              placeholder={
                empty && demo?.active
                  ? 'Preparing the demo… ask as soon as its notes are indexed'
                  : empty && status?.running
                    ? 'Indexing your folders… ask as soon as the first files are in'
                    : empty
                      ? 'Add a folder in Library first, then ask anything about it'
                      : thread
                        ? 'Ask a follow-up… it keeps the context (Alt+N for a new conversation)'
                        : 'Ask a question… (Enter to ask, Shift+Enter for a new line)'
              }
              aria-label="Question"
              onChange={(e) => setQuestion(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  submit();
                }
              }}
            />
            {asking ? (
              <button type="button" className="btn btn--ghost" onClick={cancelAsk}>
                Stop
              </button>
            ) : (
              <button type="submit" className="btn btn--primary" disabled={!question.trim()}>
                Ask
              </button>
            )}
          </form>

          <ThreadHeader />
          {earlier.map((t) => (
            <TurnCard key={t.id} turn={t} />
          ))}

          {asking && (
            <article className="answer answer--streaming" aria-live="polite" data-testid="answer-streaming">
              <h2 className="answer__question" data-testid="answer-question" dir="auto">
                <LongText text={asking.question} />
              </h2>
              <div className="answer__stage">
                <span className="spinner" aria-hidden /> {asking.text && asking.stage === 'synthesize' ? (hasQuote ? 'Writing a fuller answer…' : 'Writing the answer…') : STAGE_LABEL[asking.stage ?? 'retrieve']}
                {asking.text && (
                  // The model's text is never shown before it is checked: a small model's draft can be nonsense. Only how far it got.
                  <span className="muted small" data-testid="answer-writing" title="The chat model's answer shows once every sentence is checked against your notes">
                    {' '}
                    · {plural(asking.text.split(/\s+/).filter(Boolean).length, 'word')} written, not yet checked
                  </span>
                )}
              </div>
              {hasQuote && (
                <p className="answer__text" data-testid="answer-quote" dir="auto">
                  {asking.quote!.answer.replace(/\s\[\d+\]/g, '')}
                </p>
              )}
            </article>
          )}

          {!asking && answer && (
            <article className={`answer answer--${answer.answer_mode}`} data-testid="answer">
              <h2 className="answer__question" data-testid="answer-question" dir="auto">
                <LongText key={answer.trace_id} text={answer.query} />
              </h2>
              {answer.thread && <SearchedAs searchedAs={answer.thread.searched_as} carried={answer.thread.carried} />}
              <div className="answer__meta">
                <VerdictBadge verdict={answer.verdict} outcome={answer.outcome} decidedBy={answer.critic.decided_by} />
                <span className="confidence" title="How sure Synapsis is that the quoted sources answer your question">
                  <span className="confidence__bar">
                    <span style={{ width: `${Math.round(answer.confidence * 100)}%` }} />
                  </span>
                  {Math.round(answer.confidence * 100)}% confidence
                </span>
                {answer.answer_mode === 'extractive' && <span className="badge badge--info" title="The sentences of your notes that state the answer, quoted">Quoted from sources</span>}
                {answer.cancelled && <span className="badge badge--warn">Stopped</span>}
                {usesRestricted && (
                  <span className="badge badge--restricted" data-testid="answer-restricted" title="Written from notes marked restricted, shown because you allowed them in Settings">
                    Uses restricted notes
                  </span>
                )}
              </div>
              {answer.limits.some((l) => changesMeaning(l, answer.outcome)) && (
                // Limits that change what the answer means are read with it, not folded away.
                <ul className="answer__missing" data-testid="meaning-limits">
                  {answer.limits.filter((l) => changesMeaning(l, answer.outcome)).map((l) => (
                    <li key={l.detail}>{l.detail.charAt(0).toUpperCase() + l.detail.slice(1)}</li>
                  ))}
                </ul>
              )}
              {answer.answer_mode === 'abstained' ? (
                <div className="abstain" data-testid="abstention" key={answer.trace_id}>
                  <p className="answer__text" dir="auto">{answer.answer}</p>
                  <h3>What was searched</h3>
                  <p>
                    Your notes were searched for <q title={answer.searched.terms.length > 0 ? `matched as: ${answer.searched.terms.join(' ')}` : undefined}>{answer.searched.query}</q> — {plural(answer.searched.results, 'passage')} found
                    {answer.searched.top.length > 0 && <>, closest: {answer.searched.top.slice(0, 3).join(', ')}</>}
                  </p>
                  {answer.searched.closest.length > 0 && (
                    <ul className="closest">
                      {answer.searched.closest.map((c, i) => (
                        // Two quotes may come from one passage (one locator): keyed by place, each turn shows only its own.
                        <li key={`${i}:${c.locator}`}>
                          <blockquote dir="auto">{c.text}</blockquote>
                          <button type="button" className="link" onClick={() => void openPreview(c.locator)}>
                            {c.locator}
                          </button>
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              ) : (
                <>
                <p className="answer__text" dir="auto">
                  <CitedText
                    text={answer.answer}
                    known={(n) => answer.snippets.some((s) => s.n === n)}
                    label={label}
                    onLink={(name) => void showGraph(name)}
                    onCite={(n) => {
                      const s = answer.snippets.find((x) => x.n === n);
                      if (s) void openPreview(s.locator);
                    }}
                  />
                </p>
                </>
              )}
              {answer.citations.length > 0 && (
                <ol className="sources" aria-label="Sources">
                  {byLabel(answer.citations).map((c) => {
                    const s = answer.snippets.find((x) => x.n === c.n);
                    return (
                      <li key={c.n}>
                        <button type="button" className="source-link" onClick={() => void openPreview(c.locator)} data-testid="citation">
                          <span className="cite-chip">{label(c.n)}</span>
                          <span className="source-link__title">{s?.title ?? c.path}</span>
                          <span className="source-link__loc">
                            {c.path}:{c.start_line}–{c.end_line}
                          </span>
                          {restricted(c.doc_id) && <span className="badge badge--restricted">restricted</span>}
                          {c.stale && <span className="badge badge--warn">changed since indexing</span>}
                        </button>
                      </li>
                    );
                  })}
                </ol>
              )}
              {answer.limits.some((l) => !changesMeaning(l, answer.outcome)) && (
                <details className="limits">
                  <summary>What was limited ({answer.limits.filter((l) => !changesMeaning(l, answer.outcome)).length})</summary>
                  <ul>
                    {answer.limits.filter((l) => !changesMeaning(l, answer.outcome)).map((l) => (
                      <li key={l.detail}>{l.detail}</li>
                    ))}
                  </ul>
                </details>
              )}
              <div className="answer__actions">
                {step?.graph && (
                  <button type="button" className="btn btn--primary" onClick={() => void showGraph(step.graph!)} data-testid="tour-graph">
                    Follow the hop: {step.graph} in the graph
                  </button>
                )}
                {answer.citations.length + answer.snippets.length > 0 && (
                  <button type="button" className="btn btn--ghost" onClick={() => void showAnswerGraph()}>
                    Show sources in the graph
                  </button>
                )}
                {answer.thread && answer.thread.id === thread?.id && (
                  <button type="button" className="btn btn--ghost" onClick={() => void copyTurn(answer.thread!.turn)} data-testid="copy-markdown">
                    Copy as markdown
                  </button>
                )}
                <span className="muted small">
                  {answer.tokens.out > 0 && `${answer.tokens.out} tokens · `}
                  {formatMs(Object.values(answer.timings).reduce((a, b) => a + b, 0))}
                </span>
              </div>
            </article>
          )}

          <TourList />
          {!asking && !answer && !thread && history.length > 0 && !demo?.active && (
            <section className="history" aria-label="Recent questions">
              <h2>Recent questions</h2>
              <ul>
                {history.slice(0, 8).map((h) => (
                  <li key={h}>
                    <button
                      type="button"
                      className="link"
                      onClick={() => {
                        newThread();
                        void ask(h);
                      }}
                      title={h.length > 120 ? clipText(h, 1000) : undefined}
                      data-testid="recent-question"
                    >
                      {clipText(h, 120)}
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {answer && answer.snippets.length > 0 && !asking && (
            <details className="passages">
              <summary>{answer.snippets.length === 1 ? 'The passage the answer was written from' : `All ${plural(answer.snippets.length, 'passage')} the answer was written from`}</summary>
              <ol>
                {byLabel(answer.snippets).map((s) => (
                  <li key={s.n}>
                    <button type="button" className="link" onClick={() => void openPreview(s.locator)}>
                      [{label(s.n)}] {s.locator}
                    </button>
                    {restricted(s.doc_id) && <span className="badge badge--restricted">restricted</span>}
                    <p className="snippet">
                      <Highlighted text={s.text.slice(0, 280)} />
                      {s.text.length > 280 && '…'}
                    </p>
                  </li>
                ))}
              </ol>
            </details>
          )}
        </div>
      </div>
    </section>
  );
}
