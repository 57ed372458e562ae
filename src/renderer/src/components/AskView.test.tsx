// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnswerEnvelope, Limit, ThreadTurn } from '../../../shared/contract.ts';
import { useApp } from '../store.ts';
import { AskView } from './AskView.tsx';
import { TurnCard } from './ThreadPanel.tsx';

const initial = useApp.getState();
afterEach(() => {
  cleanup();
  useApp.setState(initial, true);
});

function envelope(limits: Limit[], outcome: AnswerEnvelope['outcome'] = 'partial'): AnswerEnvelope {
  return {
    trace_id: 't1',
    query: 'How long are snapshots kept?',
    answer: 'Snapshots are kept for a while [1].',
    answer_mode: 'extractive',
    outcome,
    missing_parts: [],
    missing_terms: [],
    snippets: [{ n: 1, locator: 'ops/Backups.md#L1-L3', path: 'ops/Backups.md', start_line: 1, end_line: 3, doc_id: 'd1', title: 'Backups', heading: null, text: 'Snapshots are kept for a while.', score: 1 }],
    citations: [{ n: 1, locator: 'ops/Backups.md#L1-L3', path: 'ops/Backups.md', start_line: 1, end_line: 3, doc_id: 'd1', stale: false }],
    plan: { mode: 'bm25', k_lexical: 10, k_dense: 0, rerank_k: 0, context_tokens: 1000, synth_tokens: 0 },
    limits,
    confidence: 0.5,
    low_confidence: false,
    verdict: 'REVISE',
    critic: { decided_by: 'deterministic', retried: false, feedback: '', sentences: [] },
    searched: { query: 'How long are snapshots kept?', terms: [], results: 1, top: [], closest: [] },
    removed_citations: [],
    cancelled: false,
    timings: {},
    tokens: { in: 0, out: 0, first_token_ms: null, per_s: 0 },
    reader: null,
    thread: null,
  };
}

/** The limits read with the answer, and those folded under "What was limited". */
function shown(): { meaning: string[]; folded: string[] } {
  const meaning = screen.queryByTestId('meaning-limits');
  const folded = document.querySelector('details.limits');
  const items = (el: Element | null) => (el ? within(el as HTMLElement).queryAllByRole('listitem').map((li) => li.textContent ?? '') : []);
  return { meaning: items(meaning), folded: items(folded) };
}

describe('the Ask view decides what a limit means from its code', () => {
  it('reads an unsure quote and an unanswered part with the answer, and folds the rest away', () => {
    useApp.setState({
      answer: envelope([
        { code: 'unsure_quote', detail: 'not sure the quote states how long (50%): the closest passages are quoted' },
        { code: 'no_chat_model', detail: 'no chat model: quoted answer (the sentences of your files that answer)' },
        { code: 'part_unanswered', detail: 'not found in your notes: "who approved it?"' },
      ]),
    });
    render(<AskView />);
    expect(shown()).toEqual({
      meaning: ['Not sure the quote states how long (50%): the closest passages are quoted', 'Not found in your notes: "who approved it?"'],
      folded: ['no chat model: quoted answer (the sentences of your files that answer)'],
    });
  });

  it('goes by the code, never by the words: a limit worded like one that changes the meaning folds away under its own code', () => {
    useApp.setState({
      answer: envelope([
        { code: 'other', detail: 'not found in your notes: worded like a missing part' },
        { code: 'cancelled', detail: 'stopped by you' },
      ]),
    });
    render(<AskView />);
    expect(shown()).toEqual({ meaning: ['Stopped by you'], folded: ['not found in your notes: worded like a missing part'] });
  });

  it('folds away a word no file uses when the question was answered, and reads it with a partial answer', () => {
    const never: Limit = { code: 'terms_never_mentioned', detail: 'your files never mention: cuase' };
    useApp.setState({ answer: envelope([never], 'answered') });
    const { unmount } = render(<AskView />);
    expect(shown()).toEqual({ meaning: [], folded: ['your files never mention: cuase'] });
    unmount();
    useApp.setState({ answer: envelope([never], 'partial') });
    render(<AskView />);
    expect(shown()).toEqual({ meaning: ['Your files never mention: cuase'], folded: [] });
  });
});

describe('the passages of an answer', () => {
  const snippet = (n: number, text: string, excerpt?: string): AnswerEnvelope['snippets'][number] => ({
    n,
    locator: `ops/Note ${n}.md#L1-L3`,
    path: `ops/Note ${n}.md`,
    start_line: 1,
    end_line: 3,
    doc_id: `d${n}`,
    title: `Note ${n}`,
    heading: null,
    text,
    score: 1 / n,
    ...(excerpt === undefined ? {} : { excerpt }),
  });
  const five = [
    snippet(1, 'Snapshots are kept for a while.', '«Snapshots» are «kept» for a while.'),
    snippet(2, 'Hourly snapshots are kept 30 days.', 'Hourly «snapshots» are «kept» 30 days.'),
    snippet(3, 'Backups go to the NAS.', 'Backups go to the NAS.'),
    snippet(4, 'The NAS is in the office.', 'The NAS is in the office.'),
    snippet(5, 'A note from before excerpts.'),
  ];

  it('of a partly answered question: the three closest shown open, their asked words marked, the rest folded', () => {
    // The quote comes from the fourth passage and the first: those lead, then the best others.
    useApp.setState({ answer: { ...envelope([], 'partial'), answer: 'The NAS is in the office [4]. Snapshots are kept for a while [1].', snippets: five } });
    render(<AskView />);
    const closest = screen.getByTestId('closest-passages');
    expect(within(closest).getByRole('heading').textContent).toBe('The 3 closest passages: the notes may say it here');
    const items = within(closest).getAllByTestId('answer-passage');
    // The three closest open, under the numbers the answer shows; the other two under a fold.
    const open = items.filter((li) => li.closest('details') === null);
    expect(open.map((li) => li.querySelector('button')?.textContent)).toEqual(['[1] ops/Note 4.md#L1-L3', '[2] ops/Note 1.md#L1-L3', '[3] ops/Note 2.md#L1-L3']);
    expect([...open[2]!.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['snapshots', 'kept']);
    const folded = closest.querySelector('details')!;
    expect(folded.open).toBe(false);
    expect(folded.querySelector('summary')?.textContent).toBe('The other 2 passages the answer was read from');
    // An answer saved before passages had excerpts shows the passage's start, unmarked.
    expect(within(folded).getAllByTestId('answer-passage')[1]!.querySelector('.snippet')?.textContent).toBe('A note from before excerpts.');
  });

  it('of an answered question: all of them folded away, each by its excerpt', () => {
    useApp.setState({ answer: { ...envelope([], 'answered'), snippets: five.slice(0, 2) } });
    render(<AskView />);
    expect(screen.queryByTestId('closest-passages')).toBeNull();
    const details = document.querySelector('details.passages') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')?.textContent).toBe('All 2 passages the answer was written from');
    expect([...details.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Snapshots', 'kept', 'snapshots', 'kept']);
  });
});

describe('an unsure quote and the closest sentences after it', () => {
  const reader = (quote: string) => ({ probability: 0.5, outcome: 'answered' as const, quote, features: {} });
  const two = {
    ...envelope([]),
    answer: 'Snapshots are kept for 30 days. [1]\nBackups run nightly. [2]',
    snippets: [
      { n: 1, locator: 'ops/Backups.md#L1-L3', path: 'ops/Backups.md', start_line: 1, end_line: 3, doc_id: 'd1', title: 'Backups', heading: null, text: 'Snapshots are kept for 30 days.', score: 1 },
      { n: 2, locator: 'ops/Jobs.md#L4-L4', path: 'ops/Jobs.md', start_line: 4, end_line: 4, doc_id: 'd2', title: 'Jobs', heading: null, text: 'Backups run nightly.', score: 0.5 },
    ],
  } as AnswerEnvelope;

  it('shows the quote as the answer and each closest sentence on its own line, apart from it', () => {
    useApp.setState({ answer: { ...two, reader: reader('Snapshots are kept for 30 days. [1]') } as AnswerEnvelope });
    render(<AskView />);
    const card = screen.getByTestId('answer');
    expect(card.querySelector('.answer__text')?.textContent).toMatch(/^Snapshots are kept for 30 days\.\s*1$/);
    const closest = within(screen.getByTestId('answer-closest')).getAllByRole('listitem');
    expect(closest.map((li) => li.textContent?.replace(/\s+/g, ' ').trim())).toEqual(['Backups run nightly. 2']);
  });

  it('shows an earlier turn of a conversation the same way', () => {
    const turn = { id: 1, ordinal: 1, question: 'How long are snapshots kept?', searched_as: null, carried: [], asked_at: '2026-11-30T00:00:00Z', answer: { ...two, reader: reader('Snapshots are kept for 30 days. [1]') }, hidden: false, restricted: false } as unknown as ThreadTurn;
    render(<TurnCard turn={turn} />);
    const card = screen.getByTestId('thread-turn');
    expect(card.querySelector('.answer__text')?.textContent).toMatch(/^Snapshots are kept for 30 days\.\s*1$/);
    expect(within(card).getByTestId('answer-closest').querySelectorAll('li')).toHaveLength(1);
  });

  it('keeps one text when the answer is not a quote with sentences after it', () => {
    for (const answer of [
      { ...two, reader: reader('Snapshots are kept for 30 days. [1]'), outcome: 'answered' },
      { ...two, reader: null },
      { ...two, reader: reader('Something else. [3]') },
      { ...two, reader: reader(two.answer) },
    ] as AnswerEnvelope[]) {
      useApp.setState({ answer });
      render(<AskView />);
      expect(screen.queryByTestId('answer-closest')).toBeNull();
      expect(screen.getByTestId('answer').querySelector('.answer__text')?.textContent).toContain('Backups run nightly.');
      cleanup();
    }
  });
});
