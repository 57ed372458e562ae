import { useEffect, useRef } from 'react';
import type { AppState } from '../slices/kit.ts';
import { useAppFields } from '../store.ts';
import { AnswerCard, AnswerPassages, StreamingAnswer } from './AnswerCard.tsx';
import { TourList } from './DemoBanner.tsx';
import { ThreadHeader, ThreadList, TurnCard } from './ThreadPanel.tsx';
import { clipText } from './text.tsx';

/** What the question box invites: wait for the demo or the first files, add a folder, ask, or follow up. */
function askPlaceholder({ health, demo, status, thread }: Pick<AppState, 'health' | 'demo' | 'status' | 'thread'>): string {
  const empty = health !== null && health.documents.indexed === 0;
  if (empty && demo?.active) return 'Preparing the demo… ask as soon as its notes are indexed';
  if (empty && status?.running) return 'Indexing your folders… ask as soon as the first files are in';
  if (empty) return 'Add a folder in Library first, then ask anything about it';
  return thread ? 'Ask a follow-up… it keeps the context (Alt+N for a new conversation)' : 'Ask a question… (Enter to ask, Shift+Enter for a new line)';
}

/** The question box: Enter asks, Shift+Enter a new line; Stop while an answer is written. */
function AskBox() {
  const { asking, ask, cancelAsk, health, demo, draft: question, setDraft: setQuestion, status, thread } = useAppFields('asking', 'ask', 'cancelAsk', 'health', 'demo', 'draft', 'setDraft', 'status', 'thread');
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => input.current?.focus(), []);
  const submit = () => {
    if (question.trim()) void ask(question);
  };
  return (
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
        placeholder={askPlaceholder({ health, demo, status, thread })}
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
  );
}

/** The last questions asked, each asked again in a new conversation. */
function RecentQuestions({ history }: { history: readonly string[] }) {
  const { ask, newThread } = useAppFields('ask', 'newThread');
  return (
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
  );
}

export function AskView() {
  const { asking, answer, history, demo, thread } = useAppFields('asking', 'answer', 'history', 'demo', 'thread');
  // The turns before the answer shown in full: the whole open thread while a follow-up is being answered.
  const shownTurn = !asking && answer?.thread && answer.thread.id === thread?.id ? answer.thread.turn : Infinity;
  // A turn being resumed shows as the answer being written, not also as interrupted above it.
  const resuming = (t: { interrupted: unknown; question: string }) => asking !== null && t.interrupted !== null && t.question === asking.question;
  const earlier = thread ? thread.turns_list.filter((t) => t.ordinal < shownTurn && !resuming(t)) : [];

  return (
    <section className="view view--ask" aria-label="Ask">
      <header className="view__header">
        <h1>Ask your notes</h1>
        <p className="muted">Answers cite the exact lines they come from; a critic checks each sentence, and Synapsis says so when your notes do not hold the answer.</p>
      </header>
      <div className="ask-layout">
        <ThreadList />
        <div className="ask-main">
          <AskBox />
          <ThreadHeader />
          {earlier.map((t) => (
            <TurnCard key={t.id} turn={t} />
          ))}
          {asking && <StreamingAnswer asking={asking} />}
          {!asking && answer && <AnswerCard answer={answer} />}
          <TourList />
          {!asking && !answer && !thread && history.length > 0 && !demo?.active && <RecentQuestions history={history} />}
          {answer && answer.snippets.length > 0 && !asking && <AnswerPassages answer={answer} />}
        </div>
      </div>
    </section>
  );
}
