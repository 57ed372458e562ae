/**
 * The reader's stage of an answer: the answer reader (../reader.ts) quotes the sentences that state
 * the asked fact, following a second search where the question describes its subject (the bridge,
 * ../described-subject.ts), names it through the best sentences (a second hop) or asks how to do a
 * task whose note was retrieved without its steps (a task hop). The fitted scorer then says how
 * likely the quote states the fact, and the outcome that probability earns. The quote is sent at
 * once, before any chat model writes; the chat model's answer must do at least as well.
 */
import { limit, type RetrievalResult } from '../../../shared/contract.ts';
import { asksAboutSubject, describedSubject, relationQuestion } from '../described-subject.ts';
import { bridgeHop, type BridgeSearch, OUTCOME_RANK, relationHop, searchBridge, secondHop, taskHop } from '../hop-search.ts';
import { asksProperty, PROPERTY_FILE_MAX_BYTES, propertySnippets } from '../properties.ts';
import { asksRelationBy } from '../relations.ts';
import { describesSubject, type Reading, type ReaderOptions, readAnswer, readByMeaningInstead, readerCandidates, sentenceSimilarity } from '../reader.ts';
import { readingFeatures, type Features } from '../reader/features.ts';
import { answerableProbability, answerProbability, answeredBar, calibratedOutcome, defaultReaderProfile, type ReaderProfile } from '../reader/scorer.ts';
import type { Snippet } from '../types.ts';
import type { Packed } from './retrieve-stage.ts';
import { type AskRun, ms } from './run.ts';

type TermStats = ReaderOptions['termStats'];

/** How this question is read: its language, the reader's options, and the fitted scorer's profile. */
interface ReaderSetup {
  language: string;
  /** Term rarity as far as this caller may see. */
  visibleTermStats: TermStats;
  readerOptions: ReaderOptions;
  /** Null: the reader's own outcome, uncalibrated. */
  profile: ReaderProfile | null;
  /** Sentences of the retrieved passages still waiting for their vectors, when the reading has none. */
  sentencesWaiting: number;
  /** The retrieved passages have sentence vectors: the question's cosine to them is known. */
  sentenceVectors: boolean;
}

/** The quote and what the scorer makes of it. */
export interface Calibrated {
  /** The selection features of the reading (null without snippets). */
  features: Features | null;
  /** The fitted probability that the quote states the asked fact (null without features or profile). */
  probability: number | null;
  /** The reader's quote; empty when its own outcome is not found. */
  quote: string;
  /** The outcome the probability earns for the quote. */
  quoteOutcome: Reading['outcome'];
  /** The scorer is not sure enough to say Answered: the quote stands as a partial answer, with the closest passages. */
  unsure: boolean;
  /** The reader said not found, and its withheld quote is shown as a partial answer (the notes most likely answer: the profile's answerable model). */
  rescued: boolean;
  /** The answerable model's probability that the notes answer the question at all (null without the model, features or words to read). */
  answerable: number | null;
  /**
   * The probability from which this kind of reading (with or without sentence vectors) is Answered;
   * 1 when the profile has no such bar; null without a profile. `vectorsBar`: the bar with vectors.
   */
  bar: number | null;
  vectorsBar: number | null;
}

export interface Read extends Calibrated {
  /** The packed snippets and those the hops added. */
  snippets: Snippet[];
  reading: Reading;
  language: string;
  visibleTermStats: TermStats;
  /** Sentences of the retrieved passages still waiting for their vectors, when the reading has none (the unsure note says so). */
  sentencesWaiting: number;
  /**
   * The retrieved passages have sentence vectors, though the reading may still be one without them:
   * fewer than two of the sentences it read have one (lines of code; a record's line whose sentence has no vector yet).
   */
  sentenceVectors: boolean;
}

/**
 * The bridge's searches for a question that describes its subject ("the engineer who chose
 * WebSockets…"), run beside the question's own search and first reading: they need only the
 * question, and their queries' vectors are made on the embedder's other context meanwhile. Null for
 * a question that names its subject.
 */
export type Bridging = Promise<BridgeSearch | null> | null;

/** Starts the bridge's searches (hop-search.ts searchBridge) of a question that describes its subject and asks about it. */
export function startBridge(run: AskRun): Bridging {
  const described = describedSubject(run.query);
  if (!described) return null;
  const { language, readerOptions } = wordReading(run);
  return asksAboutSubject(described, language) ? searchBridge(run.deps, described, hopContext(run), readerOptions, run.lines, run.k).catch(() => null) : null;
}

/** Reads the question's answer in its snippets (and those its hops add), scores the quote and sends it. */
export async function readStage(run: AskRun, result: RetrievalResult | null, packed: Packed, bridging: Bridging = null): Promise<Read> {
  const tread = performance.now();
  const setup = await readerSetup(run, result, packed.snippets);
  const { snippets, reading: read } = await readWithHops(run, result, packed, setup, bridging);
  let reading = read;
  let calibrated = calibrate(reading, snippets, setup.profile);
  // Words of another script's notes judged not found by the scorer: read by meaning, as the reader
  // itself does when it finds nothing (reader.ts readByMeaningInstead).
  if (calibrated.quoteOutcome === 'not_found' && reading.outcome !== 'not_found' && snippets.length > 0) {
    const meant = readByMeaningInstead(run.query, readerCandidates(snippets, setup.language), setup.readerOptions);
    if (meant) {
      reading = meant;
      calibrated = calibrate(reading, snippets, setup.profile);
    }
  }
  run.timings.read_ms = ms(tread);
  if (snippets.length > 0) sendQuote(run, snippets, reading, calibrated);
  unreadLimits(run, reading);
  return { ...calibrated, snippets, reading, language: setup.language, visibleTermStats: setup.visibleTermStats, sentencesWaiting: setup.sentencesWaiting, sentenceVectors: setup.sentenceVectors };
}

/**
 * The reader's options for this question: term rarity as far as this caller may see (a word only
 * restricted notes hold is one "your files never mention"), the question's cosine to the stored
 * sentence vectors when there are some, its language, and the fitted scorer's selection weights.
 */
async function readerSetup(run: AskRun, result: RetrievalResult | null, snippets: readonly Snippet[]): Promise<ReaderSetup> {
  const { deps, query } = run;
  let sentenceScores: readonly { text: string; score: number }[] | null = null;
  const chunkIds = result?.chunks.flatMap((c) => (c.chunk_id === undefined ? [] : [c.chunk_id])) ?? [];
  if (deps.sentenceSimilarities && snippets.length > 0 && chunkIds.length > 0) {
    try {
      sentenceScores = await deps.sentenceSimilarities(query, chunkIds);
    } catch {
      // A missing vector or model costs the reader one signal, never the answer.
      sentenceScores = null;
    }
  }
  const similarity = sentenceScores && sentenceScores.length > 0 ? sentenceSimilarity(sentenceScores) : undefined;
  const { language, visibleTermStats, profile, readerOptions: words } = wordReading(run);
  const readerOptions: ReaderOptions = { ...words, ...(similarity ? { similarity } : {}) };
  // No cosine for these passages where sentence vectors are made: how many of their sentences still wait (the note says so).
  const sentencesWaiting = !similarity && deps.sentencesPending && chunkIds.length > 0 ? deps.sentencesPending(chunkIds) : 0;
  return { language, visibleTermStats, readerOptions, profile, sentencesWaiting, sentenceVectors: similarity !== undefined };
}

type WordReading = Pick<ReaderSetup, 'language' | 'visibleTermStats' | 'profile' | 'readerOptions'>;
const wordReadings = new WeakMap<AskRun, WordReading>();

/**
 * The reader's options without the question's cosines (they wait for the passages), its language and
 * the fitted scorer's profile: made once per question (the bridge asks for them before the reader).
 */
function wordReading(run: AskRun): WordReading {
  let known = wordReadings.get(run);
  if (!known) wordReadings.set(run, (known = wordReadingOnce(run)));
  return known;
}

function wordReadingOnce(run: AskRun): WordReading {
  const { deps, query, options } = run;
  const visibleTermStats: TermStats = (terms) => deps.termStats(terms, options.context?.allow_sensitivity ?? []);
  const language = deps.questionLanguage?.(query) ?? 'en';
  // The fitted scorer's profile: its selection weights rank the sentences, its weights score the quote.
  const profile = deps.readerProfile === undefined ? defaultReaderProfile() : deps.readerProfile;
  const readerOptions: ReaderOptions = { termStats: visibleTermStats, language, ...(deps.readerSelection ? { selection: deps.readerSelection } : profile?.selection ? { selection: profile.selection.weights } : {}), ...(deps.collectCandidates ? { collectCandidates: true } : {}) };
  return { language, visibleTermStats, profile, readerOptions };
}

/** What a hop searches within: the caller's context and the question's search mode. */
const hopContext = (run: AskRun) => ({ ...(run.options.context ?? {}), ...(run.options.mode ? { mode: run.options.mode } : {}) });

/** The reading of the snippets, after the bridge, a second hop or a task hop added passages to them. */
async function readWithHops(run: AskRun, result: RetrievalResult | null, packed: Packed, setup: ReaderSetup, bridging: Bridging): Promise<{ snippets: Snippet[]; reading: Reading }> {
  const { deps, query, options, limits } = run;
  const { language, readerOptions } = setup;
  // A question that describes its subject ("the engineer who chose WebSockets…") is answered through
  // the bridge: the description resolved to a name (its search started with the question's own,
  // startBridge), the rest asked about that name.
  const described = result ? describedSubject(query) : null;
  // The retrieved notes' front matter properties the question asks are read as field lines, each citing its own line.
  // What the question asks is outside the clause that describes its subject: "Where is the engineer who
  // *owns* the relay based?" asks a location, not an owner. A note past PROPERTY_FILE_MAX_BYTES is not
  // read again for them (every question would hash it whole).
  const asking = described ? `${described.before} ${described.after}` : query;
  // A note is read only when its indexed front matter holds a key the question asks.
  let snippets = [...packed.snippets, ...propertySnippets(packed.snippets, (doc) => run.lines(doc, PROPERTY_FILE_MAX_BYTES), asksProperty(asking, language), deps.propertyKeys)];
  const context = hopContext(run);
  let reading: Reading = readAnswer(query, readerCandidates(snippets, language), readerOptions);
  const bridged = described && bridging ? await bridgeHop(deps, described, bridging, { chunks: result!.chunks, reading }, context, packed.contextTokens, readerOptions, language, run.lines) : null;
  if (bridged) {
    snippets = bridged.snippets;
    reading = bridged.reading;
    limits.push(bridged.limit);
  }
  // "Who decided to use WebSockets for the relay?": the record the clause finds names its decider on a line of its own.
  // A word no file mentions ("Who decided to use Zeromq…") is asked of no record: none is resolved for
  // it. The relation's own verb may be one ("chose": the record's label says "Decider").
  const relation = !described && result && reading.unknown.every(asksRelationBy) ? relationQuestion(query) : null;
  let related = false;
  if (relation) {
    const hop = await relationHop(deps, relation, snippets, context, readerOptions, language, run.lines).catch(() => null);
    if (hop && relationReadingWins(calibrate(reading, snippets, setup.profile), calibrate(hop.reading, hop.snippets, setup.profile), hop.name)) {
      snippets = hop.snippets;
      reading = hop.reading;
      related = true;
    }
  }
  // A second hop: the question describes its subject ("the engineer who chose WebSockets") and the
  // best sentences name it (Tomás Herrera); that subject's own passages hold the rest of the answer.
  // Not after the record's relation line answered it: a new reading of all passages would drop it.
  if (!bridged && !related && result && reading.hops.length > 0 && describesSubject(query)) {
    const hop = await secondHop(deps, query, reading, snippets, { ...(options.context ?? {}) }, limits);
    if (hop.length > 0) {
      snippets = [...snippets, ...hop];
      reading = readAnswer(query, readerCandidates(snippets, language), readerOptions);
    }
  }
  // "How do I…": the note whose title names the task was retrieved, but not its steps: its own passages are read.
  if (result && reading.task !== undefined) {
    const hop = await taskHop(deps, query, reading.task, snippets, { ...(options.context ?? {}) }, limits);
    if (hop.length > 0) {
      snippets = [...snippets, ...hop];
      reading = readAnswer(query, readerCandidates(snippets, language), readerOptions);
    }
  }
  return { snippets, reading };
}

/**
 * Whether the reading of a relation's record line ("Decider: Maya Chen") replaces the first reading
 * of "Who chose SQLite?": it reads as an answer, and the first does not name that person ("Decided
 * on 2026-03-14 to use SQLite…" says what was chosen, not who chose it) or earns a worse outcome.
 */
export function relationReadingWins(first: Calibrated, hop: Calibrated, name: string): boolean {
  if (hop.quoteOutcome === 'not_found') return false;
  if (!first.quote.toLowerCase().includes(name.toLowerCase())) return true;
  return OUTCOME_RANK[hop.quoteOutcome] > OUTCOME_RANK[first.quoteOutcome];
}

/**
 * The fitted scorer: the probability that the quote states the asked fact, and the outcome it earns.
 * Whether the notes answer at all (the profile's answerable model) decides between a doubtful quote
 * shown as Partly answered and Not in your notes; a not-found reading's withheld quote is weighed the
 * same way, and shown as Partly answered when the notes most likely answer.
 */
export function calibrate(reading: Reading, snippets: readonly Snippet[], profile: ReaderProfile | null): Calibrated {
  const features: Features | null = snippets.length > 0 ? readingFeatures(reading) : null;
  const probability = features && profile ? answerProbability(profile, features) : null;
  const answerable = features && profile && !reading.byMeaning ? answerableProbability(profile, features) : null;
  // A reading by meaning (a question in another script than its notes) has no words to score: it stays
  // partial. A not-found reading with no quote to withhold stays not found.
  const nothing = reading.outcome === 'not_found' && !reading.withheld;
  const quoteOutcome: Reading['outcome'] = reading.byMeaning ? 'partial' : nothing ? 'not_found' : probability !== null && profile ? calibratedOutcome(profile, reading.outcome, probability, reading.signals.hasVectors === 1, answerable) : reading.outcome;
  const rescued = reading.outcome === 'not_found' && quoteOutcome === 'partial';
  const quote = rescued ? (reading.withheld ?? '') : reading.outcome === 'not_found' ? '' : reading.answer;
  const unsure = quoteOutcome === 'partial' && reading.outcome !== 'partial';
  const bar = profile ? answeredBar(profile, reading.signals.hasVectors === 1) : null;
  const vectorsBar = profile ? answeredBar(profile, true) : null;
  return { features, probability, quote, quoteOutcome, unsure, rescued, bar, vectorsBar, answerable };
}

/** The quote as soon as it is read: to every window (`deps.onQuote`) and to this question's caller, with the passages it quotes. */
function sendQuote(run: AskRun, snippets: readonly Snippet[], reading: Reading, { quote, quoteOutcome, rescued }: Calibrated): void {
  const shown = { answer: quoteOutcome === 'not_found' ? '' : quote, outcome: quoteOutcome };
  run.deps.onQuote?.(run.traceId, shown);
  const cited = rescued ? (reading.withheldCited ?? []) : reading.cited;
  run.options.onQuote?.({ ...shown, sources: quoteOutcome === 'not_found' ? [] : snippets.filter((s) => cited.includes(s.n)) });
}

/** Limits of what the reader could not read: a question read by meaning, words no searched text mentions. */
function unreadLimits(run: AskRun, reading: Reading): void {
  const { limits } = run;
  if (reading.byMeaning) limits.push(limit('read_by_meaning', 'the question is in another language than these notes: the sentences closest in meaning are shown, not checked word by word'));
  if (reading.unknown.length > 0) {
    const words = reading.unknown.map((w) => (reading.spelled?.[w] ? `${w} (read as “${reading.spelled[w]}”)` : w)).join(', ');
    // Part of a file was never indexed: what the index lacks may be there, so absence is not claimed.
    const partly = run.deps.partlySearchable?.(run.options.context?.allow_sensitivity ?? []) ?? [];
    if (partly.length === 0) limits.push(limit('terms_never_mentioned', `your files never mention: ${words}`));
    else {
      const named = partly.slice(0, 3).join(', ') + (partly.length > 3 ? ` and ${partly.length - 3} more` : '');
      limits.push(limit('terms_maybe_unsearched', `the searched text never mentions: ${words}; part of ${named} is not searchable (cut at SYN_MAX_CHUNKS_PER_FILE chunks), so it may be there`));
    }
  }
}
