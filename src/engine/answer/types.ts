/**
 * The plain data that the pieces of a cited answer pass between them: the numbered snippets the
 * model reads, the citations it makes, and the critic's verdict. The shapes the envelope carries are
 * the contract's (z.infer of its schemas); what only the pipeline needs is added here.
 */

import type { AnswerEnvelope, AnswerSnippet, Citation as EnvelopeCitation } from '../../shared/contract.ts';

/** One numbered source passage given to the model; [n] in the answer refers to it (the envelope's snippet). */
export type Snippet = AnswerSnippet & {
  /** The code fence's language in the prompt (from the file's extension); prose and code are read apart. Not sent. */
  language?: string | null;
};

/**
 * A snippet the answer actually cites, with what is needed to open the exact lines: the envelope's
 * citation before its `stale` flag, which is set when the envelope is built (the files are checked then).
 */
export type Citation = Omit<EnvelopeCitation, 'stale'>;

export type Verdict = NonNullable<AnswerEnvelope['verdict']>;

/**
 * What the critic found for one sentence of the answer: the envelope's sentence (its valid snippet
 * numbers in order of first appearance; `supported` is always true when `claim` is false, as there is
 * nothing to check), plus what the checks measured.
 */
export type SentenceSupport = AnswerEnvelope['critic']['sentences'][number] & {
  /** False for abstentions, meta sentences and fragments too short to state anything. */
  claim: boolean;
  /** Share of the sentence's content words found in the cited snippets, 0..1. */
  overlap: number;
};

export interface CriticResult {
  verdict: Verdict;
  sentences: SentenceSupport[];
  /** Instruction for a retry: empty when the verdict is APPROVE. */
  feedback: string;
  decidedBy: 'deterministic' | 'model';
}
