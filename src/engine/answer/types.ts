/**
 * The plain data that the pieces of a cited answer pass between them: the numbered snippets the
 * model reads, the citations it makes, and the critic's verdict. Kept apart from the code so the
 * contract, the answer pipeline and its tests can share the shapes without importing behaviour.
 */

/** One numbered source passage given to the model; [n] in the answer refers to it. */
export interface Snippet {
  n: number;
  /** e.g. "notes/a.md#L3-L9". */
  locator: string;
  path: string;
  start_line: number;
  end_line: number;
  doc_id: string;
  title: string;
  heading: string | null;
  text: string;
  score: number;
  language?: string | null;
}

/** A snippet the answer actually cites, with what is needed to open the exact lines. */
export interface Citation {
  n: number;
  locator: string;
  path: string;
  start_line: number;
  end_line: number;
  doc_id: string;
  /** True when the file changed after the snippet was read, so the lines may have moved. */
  stale?: boolean;
}

export type Verdict = 'APPROVE' | 'REVISE' | 'REJECT';

/** What the critic found for one sentence of the answer. */
export interface SentenceSupport {
  sentence: string;
  /** Valid snippet numbers cited in the sentence, in order of first appearance. */
  citations: number[];
  /** False for abstentions, meta sentences and fragments too short to state anything. */
  claim: boolean;
  /** Always true when `claim` is false: there is nothing to check. */
  supported: boolean;
  /** Share of the sentence's content words found in the cited snippets, 0..1. */
  overlap: number;
  reason: string | null;
}

export interface CriticResult {
  verdict: Verdict;
  sentences: SentenceSupport[];
  /** Instruction for a retry: empty when the verdict is APPROVE. */
  feedback: string;
  decidedBy: 'deterministic' | 'model';
}
