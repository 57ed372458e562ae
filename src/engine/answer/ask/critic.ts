/**
 * Judging a chat model's draft: deterministic checks always run first, because small local models
 * approve unsupported claims (../shared/models/README.md); then the model critic, within its
 * timeout. The verdict is the stricter of the two; a critic that times out, fails or gives no
 * verdict leaves the checks to decide, and says so in a limit.
 */
import { limit } from '../../../shared/contract.ts';
import { withTimeout } from '../../llm/reranker.ts';
import { checkAnswer } from '../checks.ts';
import { splitSentences } from '../citations.ts';
import { CRITIC_SCHEMA, CRITIC_SYSTEM_PROMPT, criticPrompt } from '../prompt.ts';
import type { CriticResult, Snippet, Verdict } from '../types.ts';
import { type AskRun, ms } from './run.ts';

const STRICTNESS: Record<Verdict, number> = { APPROVE: 0, REVISE: 1, REJECT: 2 };
const stricter = (a: Verdict, b: Verdict): Verdict => (STRICTNESS[a] >= STRICTNESS[b] ? a : b);

/** A verdict on an answer, and what decided it. */
export interface Judged {
  critic: CriticResult;
  decidedBy: 'deterministic' | 'model' | 'skipped';
}

/** Deterministic checks, then the model critic; the stricter verdict wins. */
export async function judge(run: AskRun, snippets: readonly Snippet[], text: string): Promise<Judged> {
  const tc = performance.now();
  run.stage('critic');
  const checks = checkAnswer(text, snippets);
  const model = await modelCritic(run, snippets, text);
  run.timings.critic_ms = (run.timings.critic_ms ?? 0) + ms(tc);
  if (!model) return { critic: checks, decidedBy: 'deterministic' };
  const verdict = stricter(checks.verdict, model.verdict);
  const modelNotes = model.unsupported.length > 0 ? `The reviewer model found sentences ${model.unsupported.join(', ')} unsupported. ${model.feedback}` : model.feedback;
  return {
    critic: { ...checks, verdict, feedback: [checks.feedback, verdict !== checks.verdict ? modelNotes : ''].filter(Boolean).join('\n') },
    decidedBy: verdict === checks.verdict ? 'deterministic' : 'model',
  };
}

/** The chat model's review of each sentence against the snippets; null when it was not asked or did not answer. */
async function modelCritic(run: AskRun, snippets: readonly Snippet[], text: string): Promise<{ verdict: Verdict; unsupported: number[]; feedback: string } | null> {
  const { deps, query, options, limits } = run;
  const { chat, settings } = deps;
  const signal = options.signal;
  if (!chat || options.critic === false || signal?.aborted) return null;
  const sentences = splitSentences(text);
  if (sentences.length === 0) return null;
  const user = criticPrompt(query, snippets, sentences);
  options.onPrompt?.({ system: CRITIC_SYSTEM_PROMPT, user, purpose: 'critic' });
  const controller = new AbortController();
  // Stop reaches the critic too: a small model's review on a slow machine takes tens of seconds.
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort);
  const outcome = await withTimeout(
    chat.generate({ system: CRITIC_SYSTEM_PROMPT, user, maxTokens: 200, jsonSchema: CRITIC_SCHEMA as unknown as Record<string, unknown>, signal: controller.signal }),
    settings.criticTimeoutMs,
  )
    .catch((error: unknown) => ({ error: error as Error }))
    .finally(() => signal?.removeEventListener('abort', onAbort));
  if (signal?.aborted) return null;
  if ('timedOut' in outcome) {
    controller.abort();
    limits.push(limit('critic_timed_out', `critic timed out after ${settings.criticTimeoutMs} ms: deterministic checks decided`));
    return null;
  }
  if ('error' in outcome) {
    limits.push(limit('critic_failed', `critic failed: ${outcome.error.message}: deterministic checks decided`));
    return null;
  }
  run.tokens.in += outcome.value.tokensIn;
  run.tokens.out += outcome.value.tokensOut;
  const json = outcome.value.json as { verdict?: Verdict; unsupported?: number[]; feedback?: string } | undefined;
  if (!json?.verdict) {
    limits.push(limit('critic_no_verdict', 'critic returned no verdict: deterministic checks decided'));
    return null;
  }
  return { verdict: json.verdict, unsupported: json.unsupported ?? [], feedback: json.feedback ?? '' };
}
