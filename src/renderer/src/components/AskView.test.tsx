// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnswerEnvelope, Limit } from '../../../shared/contract.ts';
import { useApp } from '../store.ts';
import { AskView } from './AskView.tsx';

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
