/** answer/ask: a cited answer, its tokens streamed as events and to the caller. */
import { createError } from '../../shared/errors.ts';
import { MAX_QUERY_CHARS, type AnswerEnvelope } from '../../shared/contract.ts';
import { answerQuestion, type AnswerDeps } from '../answer/answer.ts';
import { rewriteFollowUp } from '../answer/follow-up.ts';
import { DEFAULT_SYSTEM_PROMPT } from '../answer/prompt.ts';
import type { Config } from '../core/config.ts';
import type { EventBus } from '../core/events.ts';
import type { ChatModel } from '../llm/chat.ts';
import { readerLanguage, termStats } from '../search/lexical.ts';
import { readerPack } from '../lang/reader-packs.ts';
import { stripCitationMarkers } from '../answer/citations.ts';
import { loadReaderProfile } from '../answer/reader/scorer.ts';
import { partlySearchable } from '../store/queries/documents.ts';
import { appendTurn, createThread, isInterrupted, threadById, threadTurns, updateTurn, type InterruptedAnswer } from '../store/queries/threads.ts';
import type { Store } from '../store/store.ts';
import { noThreadError } from './threads.ts';
import type { Handlers } from './types.ts';

export interface AnswerServices {
  store: Store;
  config: Config;
  events: EventBus;
  chat: ChatModel | null;
  retrieve: AnswerDeps['retrieve'];
  /** The question's cosine to stored sentence vectors (an embedding model with sentence vectors). */
  sentenceSimilarities?: AnswerDeps['sentenceSimilarities'];
  /** Sentences still waiting for their vectors. */
  sentencesPending?: AnswerDeps['sentencesPending'];
  /** When this engine started: chat speeds are measured again on each start. */
  startedAt: string;
}

export function createAnswerHandlers({ store, config, events, chat, retrieve, startedAt, sentenceSimilarities, sentencesPending }: AnswerServices) {
  const deps: AnswerDeps = {
    retrieve,
    ...(sentenceSimilarities ? { sentenceSimilarities } : {}),
    ...(sentencesPending ? { sentencesPending } : {}),
    chat,
    // "none": the reader's own outcome (what training reads); a file: a profile fitted elsewhere; absent: the shipped one.
    ...(config.readerProfile === 'none' ? { readerProfile: null } : config.readerProfile ? { readerProfile: loadReaderProfile(config.readerProfile) } : {}),
    ...(config.readerCandidates ? { collectCandidates: true } : {}),
    ...(config.readerSelection ? { readerSelection: config.readerSelection } : {}),
    settings: {
      systemPrompt: config.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
      answerK: config.answerK,
      contextTokens: config.contextTokens,
      synthTokens: config.synthTokens,
      retrievalTimeoutMs: config.answerRetrievalTimeoutMs,
      synthTimeoutMs: config.synthTimeoutMs,
      criticTimeoutMs: config.criticTimeoutMs,
      rerankTopN: config.rerankTopN,
    },
    documentSource: (docId) => store.documentSource(docId),
    noteRelations: (docId) => store.documentRelations(docId),
    propertyKeys: (docId) => store.documentPropertyKeys(docId),
    termStats: (terms, allowSensitivity) => termStats(store.db, terms, { allowSensitivity, sensitivityEnable: config.sensitivityEnable }),
    partlySearchable: (allowSensitivity) => partlySearchable(store.db, { allowSensitivity, sensitivityEnable: config.sensitivityEnable }),
    questionLanguage: (query) => readerLanguage(store.db, query, (lang) => readerPack(lang) !== undefined),
    saveTrace: (trace) => store.insertTrace(trace),
    onStage: (trace_id, stage) => events.emit('answer/stage', { trace_id, stage }),
    onQuote: (trace_id, quote) => events.emit('answer/quote', { trace_id, ...quote }),
    chatSpeed: () => {
      // The median speed of the last five answers the chat model wrote since this engine started
      // (measured again on each start: another machine, a GPU or another model may be faster).
      const speeds = store.listTraces(20).flatMap((t) => (t.started_at >= startedAt && t.tokens_per_s && t.tokens_out >= 16 ? [t.tokens_per_s] : [])).slice(0, 5).sort((a, b) => a - b);
      return speeds.length >= 3 ? speeds[Math.floor(speeds.length / 2)]! : null;
    },
  };
  return {
    'answer/ask': async (req, { signal, onToken, onPrompt }) => {
      // The schema refuses an empty question; one of blanks only is empty too.
      if (!req.query.trim()) throw createError('E_SYN_BAD_REQUEST', 'The question is empty.');
      // In a thread, a follow-up that leans on it is searched with the previous answered question's terms carried.
      if (req.thread_id && !threadById(store.db, req.thread_id)) throw noThreadError(req.thread_id);
      const policy = { allowSensitivity: req.context?.allow_sensitivity ?? [], sensitivityEnable: config.sensitivityEnable };
      const turns = req.thread_id ? threadTurns(store.db, req.thread_id, policy) : [];
      const question = req.query.trim();
      // The same question again on an interrupted last turn resumes that turn instead of adding one.
      const last = turns.at(-1);
      const resumed = last && isInterrupted(last.envelope) && last.question === question ? last.ordinal : null;
      const previous = turns.filter((t) => !isInterrupted(t.envelope) && t.ordinal !== resumed).at(-1);
      const followUp = rewriteFollowUp(req.query, previous ? (previous.searched_as ?? previous.question) : null, MAX_QUERY_CHARS, citedTitles(previous?.envelope as AnswerEnvelope | null | undefined));
      const searchedAs = followUp.carried.length > 0 ? followUp.query : null;
      // A question in a thread is saved when asked: a reload, a closed window or a stopped engine
      // leaves it in the conversation as interrupted (with the reader's quote once read), to resume.
      let saved: { threadId: string; turn: number } | null = null;
      if (req.thread_id || req.new_thread) {
        const askedAt = new Date().toISOString();
        const pending: InterruptedAnswer = { state: 'interrupted', quote: null, sources: [] };
        store.transaction(() => {
          const threadId = req.thread_id ?? createThread(store.db, threadTitle(question), askedAt).id;
          const turn = { searched_as: searchedAs, carried: followUp.carried, envelope: () => pending, doc_ids: [], paths: [] };
          if (resumed !== null) updateTurn(store.db, threadId, resumed, turn);
          saved = { threadId, turn: resumed ?? appendTurn(store.db, threadId, { ...turn, question, asked_at: askedAt }) };
        });
      }
      const where = saved as { threadId: string; turn: number } | null;
      const envelope = await answerQuestion(deps, followUp.query, {
        ...(req.k ? { k: req.k } : {}),
        ...(req.mode ? { mode: req.mode } : {}),
        ...(req.context ? { context: req.context } : {}),
        critic: req.critic,
        traceQuery: question,
        ...(signal ? { signal } : {}),
        ...(onPrompt ? { onPrompt } : {}),
        onToken: (text, attempt, trace_id) => {
          events.emit('answer/token', { trace_id, text, attempt });
          onToken?.(text, attempt, trace_id);
        },
        ...(where
          ? {
              onQuote: (quote) => {
                const interrupted: InterruptedAnswer = {
                  state: 'interrupted',
                  quote: quote.answer ? stripCitationMarkers(quote.answer) : null,
                  sources: quote.sources.map((s) => ({ locator: s.locator, title: s.title })),
                };
                updateTurn(store.db, where.threadId, where.turn, {
                  searched_as: searchedAs,
                  carried: followUp.carried,
                  envelope: () => interrupted,
                  doc_ids: [...new Set(quote.sources.map((s) => s.doc_id))],
                  paths: [],
                  passages: quote.sources.map((s) => ({ doc_id: s.doc_id, start_line: s.start_line, end_line: s.end_line })),
                });
              },
            }
          : {}),
      });
      if (where && !envelope.cancelled) {
        const id = where.threadId;
        updateTurn(store.db, id, where.turn, {
          searched_as: searchedAs,
          carried: followUp.carried,
          envelope: (ordinal) => ({ ...envelope, query: question, thread: { id, turn: ordinal, searched_as: searchedAs, carried: followUp.carried } }),
          doc_ids: [...new Set(envelope.snippets.map((s) => s.doc_id))],
          paths: [...new Set(envelope.searched.top.map((l) => l.replace(/#.*$/, '')))],
          passages: envelope.snippets.map((s) => ({ doc_id: s.doc_id, start_line: s.start_line, end_line: s.end_line })),
        });
      }
      if (where) {
        // A stopped answer stays in its thread as interrupted: the envelope still names the turn.
        envelope.query = question;
        envelope.thread = { id: where.threadId, turn: where.turn, searched_as: searchedAs, carried: followUp.carried };
      }
      events.emit('syn.answer.completed', { trace_id: envelope.trace_id, verdict: envelope.verdict, confidence: envelope.confidence, latency_ms: envelope.timings.total_ms ?? 0 });
      return envelope;
    },
  } satisfies Handlers;
}

/** A new thread is named by its first question, cut at a word within 80 characters. */
export function threadTitle(question: string): string {
  const q = question.replace(/\s+/g, ' ').trim();
  if (q.length <= 80) return q;
  const cut = q.slice(0, 80);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 40 ? cut.lastIndexOf(' ') : 80)}…`;
}

/** The titles of the first notes an answer cited (a hidden answer gives none): what a follow-up may carry. */
function citedTitles(answer: AnswerEnvelope | null | undefined, max = 2): string[] {
  if (!answer) return [];
  const titles: string[] = [];
  for (const c of [...answer.citations].sort((a, b) => a.n - b.n)) {
    const title = answer.snippets.find((s) => s.n === c.n)?.title;
    if (title && !titles.includes(title)) titles.push(title);
    if (titles.length === max) break;
  }
  return titles;
}
