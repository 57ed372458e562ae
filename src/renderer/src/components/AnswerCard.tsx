/**
 * The answer in the Ask view: while it is written (the stage, the reader's quote), then the checked
 * answer with its verdict, the limits that change what it means, its sources, what was limited and
 * its actions, and the passages it was written from.
 */
import { changesMeaning, outcomeLabel } from '../../../shared/answer-view.ts';
import type { AnswerEnvelope } from '../../../shared/contract.ts';
import type { Asking } from '../slices/ask.ts';
import { useAppFields } from '../store.ts';
import { AnswerBody } from './AnswerBody.tsx';
import { SearchedAs } from './ThreadPanel.tsx';
import { citationNumbers, formatMs, Highlighted, LongText, plural } from './text.tsx';

const STAGE_LABEL: Record<string, string> = {
  retrieve: 'Searching your notes…',
  context: 'Reading the best passages…',
  synthesize: 'Writing the answer…',
  critic: 'Checking every sentence against its source…',
  revise: 'Revising unsupported sentences…',
  done: 'Done',
};

/** The numbers an answer's sources are shown under, and a list of them in that order. */
function useLabels(answer: AnswerEnvelope) {
  const numbers = citationNumbers(answer.answer, answer.snippets.map((s) => s.n));
  const label = (n: number) => numbers.get(n) ?? n;
  const byLabel = <T extends { n: number }>(list: readonly T[]) => [...list].sort((a, b) => label(a.n) - label(b.n));
  return { label, byLabel };
}

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

/** The answer being written: its stage, how far the chat model got, and the reader's quote once read. */
export function StreamingAnswer({ asking }: { asking: Asking }) {
  const hasQuote = asking.quote !== undefined && asking.quote.outcome !== 'not_found' && asking.quote.answer !== '';
  return (
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
  );
}

/** The verdict, the confidence and the badges of an answer. */
function AnswerMeta({ answer }: { answer: AnswerEnvelope }) {
  const { restrictedDocs, thread } = useAppFields('restrictedDocs', 'thread');
  const usesRestricted =
    answer.snippets.some((s) => restrictedDocs.includes(s.doc_id)) || (thread?.turns_list.find((t) => t.ordinal === answer.thread?.turn && answer.thread?.id === thread.id)?.restricted ?? false);
  return (
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
  );
}

/** Limits that change what the answer means are read with it, not folded away (decided by their code). */
function MeaningLimits({ answer }: { answer: AnswerEnvelope }) {
  const meaning = answer.limits.filter((l) => changesMeaning(l, answer.outcome));
  if (meaning.length === 0) return null;
  return (
    <ul className="answer__missing" data-testid="meaning-limits">
      {meaning.map((l) => (
        <li key={l.detail}>{l.detail.charAt(0).toUpperCase() + l.detail.slice(1)}</li>
      ))}
    </ul>
  );
}

/** The rest of the limits, folded under "What was limited". */
function FoldedLimits({ answer }: { answer: AnswerEnvelope }) {
  const folded = answer.limits.filter((l) => !changesMeaning(l, answer.outcome));
  if (folded.length === 0) return null;
  return (
    <details className="limits">
      <summary>What was limited ({folded.length})</summary>
      <ul>
        {folded.map((l) => (
          <li key={l.detail}>{l.detail}</li>
        ))}
      </ul>
    </details>
  );
}

/** Not in your notes: what was searched, and the closest sentences to read. */
function Abstention({ answer }: { answer: AnswerEnvelope }) {
  const { openPreview } = useAppFields('openPreview');
  return (
    <div className="abstain" data-testid="abstention">
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
  );
}

/** The answer's text in the Ask view. */
function AnswerText({ answer }: { answer: AnswerEnvelope }) {
  const { label } = useLabels(answer);
  return <AnswerBody answer={answer} label={label} />;
}

/** The sources the answer cites, each opening its exact lines. */
function AnswerSources({ answer }: { answer: AnswerEnvelope }) {
  const { openPreview, restrictedDocs } = useAppFields('openPreview', 'restrictedDocs');
  const { label, byLabel } = useLabels(answer);
  if (answer.citations.length === 0) return null;
  return (
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
              {restrictedDocs.includes(c.doc_id) && <span className="badge badge--restricted">restricted</span>}
              {c.stale && <span className="badge badge--warn">changed since indexing</span>}
            </button>
          </li>
        );
      })}
    </ol>
  );
}

/** The demo tour's hop, the graph of the sources, copying the turn, and the tokens and time it took. */
function AnswerActions({ answer }: { answer: AnswerEnvelope }) {
  const { showAnswerGraph, showGraph, demo, tourStep, thread, copyTurn } = useAppFields('showAnswerGraph', 'showGraph', 'demo', 'tourStep', 'thread', 'copyTurn');
  const step = demo?.active ? demo.tour.find((t) => t.id === tourStep && t.question === answer.query) : undefined;
  return (
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
  );
}

/** The checked answer (or the abstention), with its verdict, limits, sources and actions. */
export function AnswerCard({ answer }: { answer: AnswerEnvelope }) {
  return (
    <article className={`answer answer--${answer.answer_mode}`} data-testid="answer">
      <h2 className="answer__question" data-testid="answer-question" dir="auto">
        <LongText key={answer.trace_id} text={answer.query} />
      </h2>
      {answer.thread && <SearchedAs searchedAs={answer.thread.searched_as} carried={answer.thread.carried} />}
      <AnswerMeta answer={answer} />
      <MeaningLimits answer={answer} />
      {answer.answer_mode === 'abstained' ? (
        // Keyed by the answer: each turn's closest sentences are its own.
        <Abstention answer={answer} key={answer.trace_id} />
      ) : (
        <AnswerText answer={answer} />
      )}
      <AnswerSources answer={answer} />
      <FoldedLimits answer={answer} />
      <AnswerActions answer={answer} />
    </article>
  );
}

/** How many passages a partly answered question shows open: the notes may state it there. */
export const CLOSEST_SHOWN = 3;

/**
 * Every passage the answer was written from, under the numbers its sources are shown with, each by
 * the words around the question's (marked). A partly answered question shows the closest ones open
 * (those its quote comes from, then the best retrieved): the passages hold the asked fact more often
 * than the quote does.
 */
export function AnswerPassages({ answer }: { answer: AnswerEnvelope }) {
  const { openPreview, restrictedDocs } = useAppFields('openPreview', 'restrictedDocs');
  const { label, byLabel } = useLabels(answer);
  const partial = answer.outcome === 'partial';
  // The passages the quote comes from first, then the others as retrieval ranked them.
  const ordered = byLabel(answer.snippets);
  const item = (s: AnswerEnvelope['snippets'][number]) => (
    <li key={s.n} data-testid="answer-passage">
      <button type="button" className="link" onClick={() => void openPreview(s.locator)}>
        [{label(s.n)}] {s.locator}
      </button>
      {restrictedDocs.includes(s.doc_id) && <span className="badge badge--restricted">restricted</span>}
      <p className="snippet">
        {s.excerpt !== undefined ? (
          <Highlighted text={s.excerpt} />
        ) : (
          <>
            {s.text.slice(0, 280)}
            {s.text.length > 280 && '…'}
          </>
        )}
      </p>
    </li>
  );
  if (partial) {
    const closest = ordered.slice(0, CLOSEST_SHOWN);
    const rest = ordered.slice(CLOSEST_SHOWN);
    return (
      <section className="passages passages--closest" data-testid="closest-passages">
        <h3>{closest.length === 1 ? 'The closest passage: the notes may say it here' : `The ${closest.length} closest passages: the notes may say it here`}</h3>
        <ol>{closest.map(item)}</ol>
        {rest.length > 0 && (
          <details className="passages">
            <summary>{`The other ${plural(rest.length, 'passage')} the answer was read from`}</summary>
            <ol>{rest.map(item)}</ol>
          </details>
        )}
      </section>
    );
  }
  return (
    <details className="passages">
      <summary>{answer.snippets.length === 1 ? 'The passage the answer was written from' : `All ${plural(answer.snippets.length, 'passage')} the answer was written from`}</summary>
      <ol>{ordered.map(item)}</ol>
    </details>
  );
}
