/**
 * The chat model's stage of an answer: a cited draft within the synthesis timeout (streamed,
 * cancellable), tidied and judged (./critic.ts), one revision with the judge's feedback, and what
 * the checks still find unsupported cut. The draft replaces the reader's quote only when it passed
 * the checks, was not cut short and answers as many parts of the question as the quote; without a
 * chat model, or one too slow on this machine, the quote is the answer.
 */
import { type AnswerEnvelope, limit, type LimitCode } from '../../../shared/contract.ts';
import type { Generation } from '../../llm/chat.ts';
import { checkAnswer, tidyAnswer } from '../checks.ts';
import { extractCitations, splitSentences, stripCitationMarkers } from '../citations.ts';
import { withClosest } from '../partial.ts';
import { answerPrompt } from '../prompt.ts';
import { type Reading, readAnswer, readerCandidates } from '../reader.ts';
import type { Snippet } from '../types.ts';
import { judge, type Judged } from './critic.ts';
import type { Read } from './read-stage.ts';
import { type AskRun, ms } from './run.ts';

/**
 * Below this many tokens per second (the median of recent answers) the chat model is not asked:
 * a 512-token answer would take over two minutes, longer than the synthesis timeout.
 */
const MIN_CHAT_TOKENS_PER_S = 4;

/** A small model that starts writing the prompt's own scaffolding has finished its answer. */
const ECHO_STOPS = ['Question:', 'Snippets:', 'A reviewer found', '```', 'Answer (cite'];

interface Attempt {
  text: string;
  generation: Generation | null;
}

/** What the drafts of one answer share. */
interface Drafting {
  readonly run: AskRun;
  /** The snippets, fewer once a prompt overflowed the chat model's window. */
  snippets: Snippet[];
  /** The chat model's answer stopped at its timeout, not at its end. */
  generationCut: boolean;
}

/** The answer chosen: the chat model's, the reader's quote, or none yet (abstained). */
interface Drafted {
  answerMode: AnswerEnvelope['answer_mode'];
  text: string;
  /** Citations to snippets that do not exist, removed from the drafts. */
  removed: number[];
  verdictInfo: Judged | null;
  /** A second draft was asked for. */
  retried: boolean;
}

export interface Synthesis extends Drafted {
  snippets: Snippet[];
  generationCut: boolean;
  /** The chat model was to be asked (it is there, fast enough, and loaded). */
  useChat: boolean;
  /** The model's answer read like the reader's own quote: which parts of the question it answers. */
  readModelAnswer: (answer: string) => Reading;
}

/** Writes (or keeps the quote as) the answer: draft, judge, revise once, then the better of draft and quote. */
export async function synthesisStage(run: AskRun, read: Read): Promise<Synthesis> {
  const useChat = chatUsable(run);
  const d: Drafting = { run, snippets: read.snippets, generationCut: false };
  const readModelAnswer = modelAnswerReader(d, read);
  let drafted: Drafted = { answerMode: 'abstained', text: '', removed: [], verdictInfo: null, retried: false };
  if (d.snippets.length > 0 && !run.cancelled()) {
    let attempt: Attempt | null = null;
    if (useChat) {
      run.stage('synthesize');
      const ts = performance.now();
      attempt = await synthesize(d, undefined, 1);
      run.timings.synthesize_ms = ms(ts);
    } else if (!run.deps.chat) {
      run.limits.push(limit('no_chat_model', 'no chat model: quoted answer (the sentences of your files that answer)'));
    }
    if (attempt && attempt.text.trim() && !run.cancelled()) {
      drafted = await judgeAndRevise(d, attempt.text.trim());
    } else if (!run.cancelled()) {
      if (useChat) run.limits.push(limit('synthesis_empty', 'synthesis produced no text: quoted answer'));
    }
    drafted = chooseAnswer(d, drafted, read, readModelAnswer);
  }
  return { ...drafted, snippets: d.snippets, generationCut: d.generationCut, useChat, readModelAnswer };
}

/** A chat model that loaded and writes fast enough on this machine; one too slow is named `chat_too_slow`. */
function chatUsable(run: AskRun): boolean {
  const { chat } = run.deps;
  // A machine on which the chat model writes too slowly to finish an answer in time answers with the reader.
  const speed = chat ? (run.deps.chatSpeed?.() ?? null) : null;
  const tooSlow = speed !== null && speed < MIN_CHAT_TOKENS_PER_S;
  if (tooSlow) run.limits.push(limit('chat_too_slow', `the chat model writes ${speed.toFixed(1)} tokens/s on this machine (an answer would take minutes): quoted answer instead`));
  return chat !== null && !tooSlow && !run.limits.some((l) => l.code === 'chat_model_unavailable');
}

/**
 * The first draft tidied and judged. A draft that fails the checks gets one retry with the feedback
 * (REJECT too, when it made claims: a small model often forgets to cite; a second REJECT abstains).
 */
async function judgeAndRevise(d: Drafting, draft: string): Promise<Drafted> {
  const { run } = d;
  const extracted = extractCitations(draft, d.snippets);
  let text = tidy(d, extracted.text);
  let removed = extracted.unknown;
  let verdictInfo = await judge(run, d.snippets, text);
  let retried = false;
  const claims = verdictInfo.critic.sentences.some((s) => s.claim);
  if (!run.cancelled() && (verdictInfo.critic.verdict === 'REVISE' || (verdictInfo.critic.verdict === 'REJECT' && claims))) {
    run.stage('revise');
    retried = true;
    const tv = performance.now();
    const second = await synthesize(d, verdictInfo.critic.feedback || 'Cite the snippet number after every sentence.', 2);
    run.timings.revise_ms = ms(tv);
    if (second && second.text.trim() && !run.cancelled()) {
      const again = extractCitations(second.text.trim(), d.snippets);
      text = tidy(d, again.text);
      removed = [...new Set([...removed, ...again.unknown])].sort((a, b) => a - b);
      verdictInfo = await judge(run, d.snippets, text);
    }
    // No second retry: what the checks still find unsupported is cut, and the rest stands (or, if
    // nothing is left, the answer abstains).
    if (verdictInfo.critic.verdict === 'REVISE' && !run.cancelled()) {
      const unsupported = verdictInfo.critic.sentences.filter((x) => !x.supported);
      const kept = verdictInfo.critic.sentences.filter((x) => x.supported && x.claim);
      if (unsupported.length > 0) {
        run.limits.push(limit('unsupported_removed', `removed ${unsupported.length} sentence${unsupported.length === 1 ? '' : 's'} the sources do not support`));
        text = kept.map((x) => x.sentence).join(' ');
        if (!text) verdictInfo = { ...verdictInfo, critic: { ...verdictInfo.critic, verdict: 'REJECT' } };
      }
    }
  }
  return { answerMode: 'generative', text, removed, verdictInfo, retried };
}

/**
 * The chat model's answer stands only when it passed the checks, was not cut short, and answers as
 * many parts of the question as the reader's quote; otherwise the quote is the answer (with the
 * closest passages when it is only a partial answer).
 */
function chooseAnswer(d: Drafting, drafted: Drafted, read: Read, readModelAnswer: (answer: string) => Reading): Drafted {
  const { run } = d;
  const { reading, quote, quoteOutcome } = read;
  const answeredParts = (r: Reading) => (r.outcome === 'not_found' ? 0 : r.parts.filter((p) => p.answered).length);
  // The quote as the answer, the same with or without a chat model: a partial one (the scorer unsure
  // of it, a part or value it does not state, a withheld quote shown) with the closest sentences after it.
  const quoted = (): Drafted => {
    const text = quoteOutcome === 'partial' ? withClosest(quote, reading.runnersUp ?? reading.passageBest, d.snippets) : reading.answer;
    return { ...drafted, answerMode: 'extractive', text, verdictInfo: { critic: checkAnswer(text, d.snippets), decidedBy: 'deterministic' } };
  };
  if (drafted.answerMode === 'generative' && !run.cancelled() && reading.outcome !== 'not_found') {
    const why: [LimitCode, string] | null = drafted.verdictInfo?.critic.verdict !== 'APPROVE' ? ['critic_rejected', 'did not pass the source checks']
      : d.generationCut ? ['chat_answer_cut', 'was cut short']
      : answeredParts(readModelAnswer(drafted.text)) < answeredParts(reading) ? ['chat_answer_less', 'answers less of the question than the quoted sentences'] : null;
    if (why) {
      run.limits.push(limit(why[0], `the chat model's answer ${why[1]}: the quoted answer is shown instead`));
      return quoted();
    }
  } else if (drafted.answerMode !== 'generative' && !run.cancelled() && quoteOutcome !== 'not_found') {
    return quoted();
  }
  return drafted;
}

/** Reads a chat model's answer as the reader reads its own quote (once per text). */
function modelAnswerReader(d: Drafting, read: Read): (answer: string) => Reading {
  const modelReadings = new Map<string, Reading>();
  return (answer: string): Reading => {
    const known = modelReadings.get(answer);
    if (known) return known;
    const { snippets } = d;
    const cited = new Set(extractCitations(answer, snippets).cited);
    const context = snippets.filter((s) => cited.has(s.n)).map((s) => `${s.title} ${s.heading ?? ''}`).join(' ');
    const own = readerCandidates(splitSentences(answer).map((sentence, i) => ({ ...snippets[0]!, n: i + 1, title: context, heading: null, text: stripCitationMarkers(sentence), language: 'text' })), read.language);
    const result = readAnswer(d.run.query, own, { termStats: read.visibleTermStats, together: false, language: read.language });
    modelReadings.set(answer, result);
    return result;
  };
}

/**
 * One draft of the chat model, streamed (`onToken`) and stopped at the synthesis timeout or the
 * caller's stop. Snippets that overflow the model's window are dropped, last first.
 */
async function synthesize(d: Drafting, feedback: string | undefined, attempt: number): Promise<Attempt | null> {
  const { run } = d;
  const { chat, settings } = run.deps;
  const { query, options, limits, tokens } = run;
  const signal = options.signal;
  if (!chat) return null;
  let user = answerPrompt(query, d.snippets, feedback);
  // The token estimate is approximate: if the real prompt overflows the window, drop the last snippets.
  const window = await chat.contextSize();
  let fit = d.snippets;
  while (fit.length > 1 && (await chat.countTokens(settings.systemPrompt + user)) + settings.synthTokens + 32 > window) {
    fit = fit.slice(0, -1);
    user = answerPrompt(query, fit, feedback);
  }
  if (fit.length < d.snippets.length) {
    limits.push(limit('context_overflow', `${d.snippets.length - fit.length} snippets did not fit the model's context`));
    d.snippets = fit;
  }
  options.onPrompt?.({ system: settings.systemPrompt, user, purpose: 'answer' });
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort);
  let written = '';
  const timer = setTimeout(() => controller.abort(), settings.synthTimeoutMs);
  try {
    const generation = await chat.generate({
      system: settings.systemPrompt,
      user,
      maxTokens: settings.synthTokens,
      signal: controller.signal,
      stop: ECHO_STOPS,
      onText: (text) => {
        written += text;
        options.onToken?.(text, attempt, run.traceId);
      },
    });
    tokens.in += generation.tokensIn;
    tokens.out += generation.tokensOut;
    tokens.firstTokenMs ??= generation.firstTokenMs;
    tokens.perS = generation.tokensPerS;
    if (generation.aborted && !signal?.aborted) d.generationCut = true;
    if (generation.aborted && !signal?.aborted) limits.push(limit('synthesis_timed_out', `synthesis timed out after ${settings.synthTimeoutMs} ms: the answer was cut short`));
    return { text: generation.text || written, generation };
  } catch (error) {
    limits.push(limit('synthesis_failed', `synthesis failed: ${(error as Error).message}`));
    return null;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Drops repeated sentences and cites uncited claims that a snippet clearly holds; names both in limits. */
function tidy(d: Drafting, draft: string): string {
  const t = tidyAnswer(draft, d.snippets);
  if (t.repeated > 0) d.run.limits.push(limit('repeated_removed', `removed ${t.repeated} repeated sentence${t.repeated === 1 ? '' : 's'} from the model's answer`));
  if (t.attributed.length > 0) {
    d.run.limits.push(limit('citations_attributed', `citations added where the model gave none, by matching sentences to snippets: ${t.attributed.map(([i, n]) => `sentence ${i} → [${n}]`).join(', ')}`));
  }
  return t.text;
}
