/**
 * The second readings of an answer: a hop to the subjects the first reading's best sentences name,
 * the how-to note whose steps retrieval did not bring, and a question that describes its subject
 * ("the engineer who chose WebSockets") resolved to a name and asked again about it. Each is a
 * bounded search (HOP_TIMEOUT_MS, HOP_TOKENS) whose passages are numbered after the first hop's.
 */
import fs from 'node:fs';
import { type Limit, limit, type RetrievalResult, type RetrieveContext } from '../../shared/contract.ts';
import { sha256 } from '../core/hash.ts';
import { withTimeout } from '../llm/reranker.ts';
import { buildContext, estimateTokens } from '../retrieve/context.ts';
import { isStopword, tokenize } from '../search/analyzer.ts';
import type { AnswerDeps } from './answer.ts';
import { type BridgeResolution, bridgeQuery, clauseRelation, clauseSubject, type DescribedSubject, evidenceQuote, mainQuestion, notesAbout, relationLine, typedRelation } from './described-subject.ts';
import { type Candidate, matchForm, type Reading, type ReaderOptions, readAnswer, readerCandidates, sentenceSimilarity } from './reader.ts';
import { relationLabel } from './relations.ts';
import { fenceLanguage, snippetsFromBlocks } from './prompt.ts';
import { asksProperty, PROPERTY_FILE_MAX_BYTES, propertySnippets } from './properties.ts';
import type { Snippet } from './types.ts';
import { questionParts } from './answer-type.ts';
import { contentTerms } from './checks.ts';
import { questionStems } from './reader/question.ts';

/** The share of a relation question's clause (its words weighed by rarity) that the record it resolves to must say. */
const RELATION_CLAUSE_SHARE = 0.6;
/** Passages a second hop adds at most. */
const HOP_PASSAGES = 4;
/** Passages each second-hop search returns, before those of the subject's own note are kept. */
const HOP_SEARCH_K = 10;
/** Tokens the passages of a second hop take at most. */
const HOP_TOKENS = 1200;
/** A second-hop search that takes longer is skipped: the first reading stands. */
const HOP_TIMEOUT_MS = 5000;

/** A search of a hop: its result, or null when it failed or ran past HOP_TIMEOUT_MS. */
const search = async (deps: AnswerDeps, query: string, context: RetrieveContext, k: number): Promise<RetrievalResult | null> => {
  const r = await withTimeout(deps.retrieve(query, context, k), HOP_TIMEOUT_MS).catch(() => null);
  return r && 'value' in r ? r.value : null;
};

/**
 * Retrieves the passages about the subjects the first reading's best sentences name, searched with
 * the question's words the quote still lacks; returns the new ones as snippets numbered after the
 * first hop's. Lexical search: the subject is a name, and a name is matched by its words.
 */
export async function secondHop(deps: AnswerDeps, query: string, reading: Reading, snippets: readonly Snippet[], context: RetrieveContext, limits: Limit[]): Promise<Snippet[]> {
  const open = reading.missing.slice(0, 6).join(' ');
  const unread = notRead(snippets);
  const found: { subject: string; hits: RetrievalResult['chunks'] }[] = [];
  for (const subject of reading.hops) {
    const searched = await search(deps, `${subject} ${open}`.trim(), { ...context, mode: 'bm25', enable_rerank: false }, HOP_SEARCH_K);
    if (!searched) continue;
    const subjectKey = subject.toLowerCase();
    // The subject's own note: its title is the name ("Tomás" in "Tomás Herrera"), or the name is its title.
    const hits = searched.chunks.filter((c) => {
      const title = c.title.toLowerCase();
      return unread(c) && title.length > 0 && (title.includes(subjectKey) || subjectKey.includes(title));
    });
    if (hits.length > 0) found.push({ subject, hits });
  }
  // Each subject's best passage first, then each one's next: one subject does not crowd out the others.
  const chunks: RetrievalResult['chunks'] = [];
  for (let round = 0; chunks.length < HOP_PASSAGES && found.some((f) => f.hits.length > round); round++) {
    for (const f of found) {
      const c = f.hits[round];
      if (c && chunks.length < HOP_PASSAGES && !chunks.some((x) => x.locator === c.locator)) chunks.push(c);
    }
  }
  if (chunks.length === 0) return [];
  const added = hopSnippets(chunks, snippets);
  const subjects = found.filter((f) => f.hits.some((h) => chunks.includes(h))).map((f) => f.subject);
  limits.push(limit('second_hop', `second hop: read ${added.length} passage${added.length === 1 ? '' : 's'} about ${subjects.join(', ')}`));
  return added;
}

/** Is a chunk one the snippets do not hold yet, nor overlap? */
const notRead = (snippets: readonly Snippet[]) => {
  const have = new Set(snippets.map((s) => s.locator));
  return (c: { locator: string; doc_id: string; start_line: number; end_line: number }) => !have.has(c.locator) && !snippets.some((s) => s.doc_id === c.doc_id && s.start_line <= c.end_line && c.start_line <= s.end_line);
};

/** The chunks a hop found, best first, packed into snippets numbered after the first hop's. */
function hopSnippets(chunks: RetrievalResult['chunks'], snippets: readonly Snippet[]): Snippet[] {
  // Scores from different searches do not compare: the order given is the ranking.
  const ranked = chunks.map((c, i) => ({ ...c, score: chunks.length - i }));
  const blocks = buildContext(ranked, { budgetTokens: HOP_TOKENS, countTokens: estimateTokens }).blocks;
  return snippetsFromBlocks(blocks).map((s, i) => ({ ...s, n: snippets.length + i + 1 }));
}

/**
 * The passages of the note whose title names the asked task ("How do I renew the relay TLS
 * certificates?": "Renew relay TLS certificates") that the first search did not bring: its steps
 * are often in a passage that shares few words with the question.
 */
export async function taskHop(deps: AnswerDeps, query: string, n: number, snippets: readonly Snippet[], context: RetrieveContext, limits: Limit[]): Promise<Snippet[]> {
  const note = snippets.find((s) => s.n === n);
  if (!note) return [];
  const searched = await search(deps, query, inNote(context, note.path), HOP_SEARCH_K);
  if (!searched) return [];
  const unread = notRead(snippets);
  const chunks = searched.chunks.filter((c) => c.doc_id === note.doc_id && unread(c)).slice(0, HOP_PASSAGES);
  if (chunks.length === 0) return [];
  const added = hopSnippets(chunks, snippets);
  limits.push(limit('task_hop', `how-to: read ${added.length} more passage${added.length === 1 ? '' : 's'} of ${note.title || note.path}`));
  return added;
}

/** Passages the bridge's own search returns (the clause of a described subject). */
const BRIDGE_K = 8;
/** The notes of the bridge's best passages whose relation lines are read. */
const BRIDGE_NOTES = 2;
/** Passages of the resolved name's own note read at most. */
const BRIDGE_OWN = 3;
/** Passages read further in each of the notes the question about the name finds first. */
const BRIDGE_RECORD_K = 3;

const toSnippets = (chunks: RetrievalResult['chunks']): Snippet[] =>
  chunks.map((c, i) => ({ n: i + 1, locator: c.locator, path: c.path, start_line: c.start_line, end_line: c.end_line, doc_id: c.doc_id, title: c.title, heading: c.heading, text: c.text, score: c.score, language: fenceLanguage(c.path) }));
/** A path as a glob that matches it alone (picomatch escapes). */
const literalGlob = (path: string) => path.replace(/[*?[\](){}!+@\\]/g, '\\$&');
/**
 * A lexical search within one note: the notes linked to it (the graph list) are outside the glob,
 * so the graph is not asked for them.
 */
const inNote = (context: RetrieveContext, path: string): RetrieveContext => ({ ...context, mode: 'bm25', enable_rerank: false, use_graph: false, include_globs: [literalGlob(path)] });

/** A document's lines as indexed, read once per question (AskRun.lines over sourceLines). */
export type LinesOf = (docId: string, maxBytes?: number) => readonly string[] | null;

/** The resolution with the chunk its evidence line is in, among the chunks a search returned. */
function inChunk(found: BridgeResolution, chunks: RetrievalResult['chunks']): BridgeResolution {
  const at = found.evidence.snippet;
  const chunk = chunks.find((c) => c.doc_id === at.doc_id && c.start_line <= at.start_line && at.end_line <= c.end_line && c.chunk_id !== undefined);
  return chunk ? { ...found, chunkId: chunk.chunk_id } : found;
}

/**
 * Resolves a described subject ("the engineer who chose WebSockets as the relay transport") to a
 * name: the clause is searched alone; the record its best passages are in states the asked relation
 * on a field line ("Decider: Tomás Herrera", read from the record's passages, or from a search in that
 * record when retrieval ranked its header low), else the best sentence for the clause is about a
 * person ("Maya leads the sync team"). Null when neither resolves.
 */
export async function resolveBridge(deps: AnswerDeps, d: DescribedSubject, context: RetrieveContext, readerOptions: ReaderOptions, linesOf: LinesOf): Promise<BridgeResolution | null> {
  const bridge = await search(deps, bridgeQuery(d), context, BRIDGE_K);
  if (!bridge || bridge.chunks.length === 0) return null;
  const passages = toSnippets(bridge.chunks);
  const relation = clauseRelation(d);
  if (relation !== null) {
    const notes = [...new Set(bridge.chunks.map((c) => c.doc_id))].slice(0, BRIDGE_NOTES);
    for (const doc of notes) {
      const own = passages.filter((s) => s.doc_id === doc);
      const found = relationLine(own, relation, d.clause);
      if (found) return inChunk(found, bridge.chunks);
      const first = own[0]!;
      const scoped = await search(deps, `${first.title} ${relationLabel(relation)}`, inNote(context, first.path), BRIDGE_K);
      const more = toSnippets((scoped?.chunks ?? []).filter((c) => c.doc_id === doc && !own.some((s) => s.locator === c.locator)));
      const line = relationLine(more, relation, d.clause);
      if (line) return inChunk(line, scoped?.chunks ?? []);
      const lineOf = (n: number) => linesOf(doc)?.[n - 1] ?? null;
      const typed = deps.noteRelations ? typedRelation(deps.noteRelations(doc), relation, d.clause, first, lineOf) : null;
      if (typed) return typed;
    }
  }
  // The sentence reading uses the words alone: the stored cosines are the whole question's, not the clause's.
  const { similarity: _similarity, ...words } = readerOptions;
  return clauseSubject(d, passages, words);
}

/**
 * Answers a question that asks only for the person of a relation ("Who decided to use WebSockets for
 * the relay?"): the record the clause finds states it on a field line ("**Decider:** Tomás Herrera")
 * or in its front matter, away from the words the question names the record by. That line is read
 * alone, holding the clause's words the record says as its own (the record is what they describe).
 * Null when no record the clause finds states the relation, the record does not say most of the
 * clause (RELATION_CLAUSE_SHARE) or every name and number in it, or the reading does not quote the
 * person the line names; the caller decides which reading stands (relationReadingWins).
 */
export async function relationHop(
  deps: AnswerDeps,
  d: DescribedSubject,
  read: readonly Snippet[],
  context: RetrieveContext,
  readerOptions: ReaderOptions,
  language: string,
  linesOf: LinesOf,
): Promise<{ snippets: Snippet[]; reading: Reading; name: string } | null> {
  const resolved = await resolveBridge(deps, d, context, readerOptions, linesOf);
  if (!resolved || resolved.by !== 'relation') return null;
  const at = resolved.evidence.snippet.locator;
  const held = read.find((s) => s.locator === at);
  const evidence = held ?? { ...resolved.evidence.snippet, n: read.length + 1 };
  const snippets = held ? [...read] : [...read, evidence];
  // The record must say the clause: most of its words' weight ("Who decided to move the relay to
  // Kubernetes?" finds a record with a decider that never mentions Kubernetes: not that record).
  const lines = linesOf(resolved.evidence.snippet.doc_id, PROPERTY_FILE_MAX_BYTES);
  if (!lines) return null;
  const line = readerCandidates([evidence], language);
  // The line's own words count as said: "Decider:" holds "chose", "picked".
  const said = new Set([...tokenize(lines.join('\n'), language).map((t) => matchForm(t.term)), ...line.flatMap((c) => [...c.terms])]);
  const clause = tokenize(d.clause, language).filter((t) => !isStopword(t.raw, language));
  const stats = readerOptions.termStats(clause.map((t) => t.term));
  const weight = (term: string) => Math.max(stats.get(term)?.idf ?? 0, 0.05);
  const total = clause.reduce((sum, t) => sum + weight(t.term), 0);
  const saidWeight = clause.filter((t) => said.has(matchForm(t.term))).reduce((sum, t) => sum + weight(t.term), 0);
  // A name or number of the clause ("Kubernetes", "2026") the record never says: the clause is about something else.
  const named = tokenize((d.clause.match(/(?<![\p{L}\p{N}])(?:\p{Lu}|\p{N})[\p{L}\p{N}.-]*/gu) ?? []).join(' '), language).map((t) => matchForm(t.term));
  if (total === 0 || saidWeight < RELATION_CLAUSE_SHARE * total || named.some((t) => !said.has(t))) return null;
  // The line is read alone, holding the clause's words the record says: the question asks only for the person it names.
  const clauseTerms = clause.map((t) => matchForm(t.term)).filter((t) => said.has(t));
  const candidates = line.map((c) => ({ ...c, terms: new Set([...c.terms, ...clauseTerms]) }));
  const reading = readAnswer(d.phrase, candidates, readerOptions);
  // The line must have been read as the answer: a reading that quotes other sentences only is the first's to give.
  if (reading.outcome === 'not_found' || !reading.answer.toLowerCase().includes(resolved.name.toLowerCase())) return null;
  return { snippets, reading: await withLineCosine(deps, d.phrase, reading, candidates, resolved.chunkId, readerOptions), name: resolved.name };
}

/**
 * The line read alone has no other sentence to compare its cosine with, so its reading would count
 * as one without sentence vectors (and, with the shipped profile, never be badged Answered). Where
 * the question's passages have sentence vectors (`readerOptions.similarity`) and the record's chunk
 * has them too, the reading carries the question's cosine to the line's sentence, with no gap over
 * others: there are none. The record's chunk is asked only when the first search did not bring it.
 */
async function withLineCosine(deps: AnswerDeps, question: string, reading: Reading, candidates: readonly Candidate[], chunkId: number | undefined, readerOptions: ReaderOptions): Promise<Reading> {
  const known = readerOptions.similarity;
  if (!known || reading.signals.hasVectors === 1) return reading;
  const cosinesOf = (cosine: (text: string) => number | undefined) => candidates.flatMap((c) => {
    const v = cosine(c.text);
    return v === undefined ? [] : [v];
  });
  let sims = cosinesOf(known);
  if (sims.length === 0 && chunkId !== undefined && deps.sentenceSimilarities) {
    const scores = await deps.sentenceSimilarities(question, [chunkId]).catch(() => null);
    if (scores && scores.length > 0) sims = cosinesOf(sentenceSimilarity(scores));
  }
  if (sims.length === 0) return reading;
  return { ...reading, signals: { ...reading.signals, hasVectors: 1, simBest: Math.round(Math.max(...sims) * 1000) / 1000, simGap: 0 } };
}

/**
 * The lines of a document as the file holds them now, or null when the file changed since it was
 * indexed (or is gone), or holds more than `maxBytes`: read once per document.
 */
export function sourceLines(deps: AnswerDeps, docId: string, maxBytes = Infinity): string[] | null {
  const source = deps.documentSource(docId);
  if (!source?.contentHash) return null;
  try {
    if (Number.isFinite(maxBytes) && fs.statSync(source.absPath).size > maxBytes) return null;
    const bytes = fs.readFileSync(source.absPath);
    if (sha256(bytes) !== source.contentHash) return null;
    return bytes.toString('utf8').split(/\r?\n/);
  } catch {
    return null;
  }
}

/** The quoted sentences of a reader's answer, each with its citation ("… [2]"). */
const quotedPieces = (answer: string): string[] => answer.split(/(?<=\[\d+\])\s+/).filter((p) => p.trim().length > 0);

/** The share of a later part's own word weight its lead must hold to answer that part. */
const OWN_SHARE = 0.5;

/**
 * Whether a sentence's words (a field line's relation words among them: "Reports to" holds
 * "manager") hold at least half the idf weight of the question part's own words, the resolved
 * name's words and the question's framing aside. "Priya did her PhD… replicated data types" holds
 * "type" of "which type of clock did that decision settle on", not "clock" or "decision".
 */
export function holdsOwnWords(held: ReadonlySet<string>, part: string, nameTerms: readonly string[], language: string, termStats: ReaderOptions['termStats']): boolean {
  const framing = questionStems(language);
  const own = [...new Set(contentTerms(part, language))].filter((t) => !framing.has(t) && !nameTerms.includes(matchForm(t)));
  const stats = termStats(own);
  // A word no file says cannot be held: it weighs nothing either way.
  const weight = (t: string) => ((stats.get(t)?.df ?? 0) > 0 ? Math.max(stats.get(t)!.idf, 0.05) : 0);
  const total = own.reduce((n, t) => n + weight(t), 0);
  return total === 0 || own.reduce((n, t) => n + (held.has(matchForm(t)) ? weight(t) : 0), 0) >= OWN_SHARE * total;
}

/** The outcomes in order of how much they answer: a later reading replaces an earlier one only upwards. */
export const OUTCOME_RANK: Record<Reading['outcome'], number> = { not_found: 0, partial: 1, answered: 2 };

/** The bridge's searches: the name the description resolves to, then the question asked about that name. */
export interface BridgeSearch {
  resolved: BridgeResolution;
  /** The question with the name in place of the description. */
  asked: string;
  /** The question's words outside the description ("Where does … work from, and who is their manager"). */
  rest: string;
  /** The search of the question about the name. */
  main: RetrievalResult | null;
  /** The lexical search of the name with the rest of the question: the name's own note. */
  ownSearch: RetrievalResult | null;
}

/**
 * Resolves a described subject (resolveBridge) and searches the rest of the question about the name
 * as soon as it resolves: the question with the name in place of the description, and the name's
 * own note. Null when the bridge does not resolve.
 */
export async function searchBridge(deps: AnswerDeps, d: DescribedSubject, context: RetrieveContext, readerOptions: ReaderOptions, linesOf: LinesOf, k: number): Promise<BridgeSearch | null> {
  const resolved = await resolveBridge(deps, d, context, readerOptions, linesOf);
  if (!resolved) return null;
  const asked = mainQuestion(d, resolved.name);
  const rest = `${d.before} ${d.after}`.replace(/[?!.,;]/g, ' ');
  // The name's own note is searched while the question about the name waits for its vector.
  const [main, ownSearch] = await Promise.all([
    search(deps, asked, context, k),
    search(deps, `${resolved.name} ${rest}`, { ...context, mode: 'bm25', enable_rerank: false }, HOP_SEARCH_K),
  ]);
  return { resolved, asked, rest, main, ownSearch };
}

/**
 * Answers a question that describes its subject through the bridge: the rest of the question is
 * asked about the resolved name (searchBridge: searched as the question with the name in place of
 * the description, and in the name's own note), and the answer quotes the bridge's evidence first,
 * then the facts asked. Null when the bridge does not resolve, or when the question reads no better about the name.
 */
export async function bridgeHop(
  deps: AnswerDeps,
  d: DescribedSubject,
  searching: Promise<BridgeSearch | null>,
  first: { chunks: RetrievalResult['chunks']; reading: Reading },
  context: RetrieveContext,
  contextTokens: number,
  readerOptions: ReaderOptions,
  language: string,
  linesOf: LinesOf,
): Promise<{ snippets: Snippet[]; reading: Reading; limit: Limit } | null> {
  const searched = await searching;
  if (!searched) return null;
  const { resolved, asked, rest, main, ownSearch } = searched;
  const nameKey = resolved.name.toLowerCase();
  const own = (ownSearch?.chunks ?? []).filter((c) => c.title.toLowerCase() === nameKey || c.title.toLowerCase().includes(nameKey)).slice(0, BRIDGE_OWN);
  // The notes the question about the name finds first (the record "Decider: Maya Chen" heads) are
  // read further: the fact asked is often in another of their passages than the one that names her.
  // So is the record the bridge was found in: a later part may ask about it ("what kind of clocks did that record adopt").
  const paths = new Map((main?.chunks ?? []).map((c) => [c.doc_id, c.path] as const));
  const records = [...new Set((main?.chunks ?? []).map((c) => c.doc_id))].filter((doc) => !own.some((o) => o.doc_id === doc)).slice(0, BRIDGE_NOTES);
  if (resolved.by === 'relation' && !records.includes(resolved.evidence.snippet.doc_id)) {
    records.unshift(resolved.evidence.snippet.doc_id);
    paths.set(resolved.evidence.snippet.doc_id, resolved.evidence.snippet.path);
  }
  const further: RetrievalResult['chunks'] = [];
  for (const doc of records) {
    const path = paths.get(doc)!;
    // The record the question is built on is read as far as the search finds the question's words in it.
    const scoped = await search(deps, asked, inNote(context, path), doc === resolved.evidence.snippet.doc_id ? BRIDGE_K : BRIDGE_RECORD_K);
    further.push(...(scoped?.chunks ?? []).filter((c) => c.doc_id === doc));
  }
  // The name's own note first, then what the question about the name finds, then the first search's passages.
  const ranked: RetrievalResult['chunks'] = [];
  const evidenceAt = resolved.evidence.snippet.locator;
  for (const c of [...own, ...(main?.chunks ?? []), ...further, ...first.chunks]) if (c.locator !== evidenceAt && !ranked.some((x) => x.locator === c.locator)) ranked.push(c);
  const packed = snippetsFromBlocks(buildContext(ranked.map((c, i) => ({ ...c, score: ranked.length - i })), { budgetTokens: contextTokens, countTokens: estimateTokens }).blocks);
  const evidence: Snippet = { ...resolved.evidence.snippet, n: 1 };
  const found = [evidence, ...packed.map((s, i) => ({ ...s, n: i + 2 }))];
  // The name's own note's front matter properties the rest of the question asks ("Where is the
  // engineer who owns the relay based?": Tomás Herrera's `location`), as on the first reading.
  const ownDocs = new Set(own.map((c) => c.doc_id));
  const properties = propertySnippets(found.filter((s) => ownDocs.has(s.doc_id)), (doc) => linesOf(doc, PROPERTY_FILE_MAX_BYTES), asksProperty(rest, language), deps.propertyKeys).map((p, i) => ({ ...p, n: found.length + i + 1 }));
  const snippets = [...found, ...properties];
  let similarity: ReaderOptions['similarity'];
  const chunkIds = ranked.flatMap((c) => (c.chunk_id === undefined ? [] : [c.chunk_id]));
  if (deps.sentenceSimilarities && chunkIds.length > 0) {
    const scores = await deps.sentenceSimilarities(asked, chunkIds).catch(() => null);
    if (scores && scores.length > 0) similarity = sentenceSimilarity(scores);
  }
  const { similarity: _old, ...words } = readerOptions;
  const options = { ...words, directForms: true, ...(similarity ? { similarity } : {}) };
  // Every sentence of a note about the resolved person (hers, or a record that is her work) is about
  // her as much as the line that names her: the record Maya Chen decided states its fact without
  // repeating "Decider: Maya Chen". A colleague's note that says "Reports to: Maya Chen" is not hers.
  // So is every sentence of the note the clause describes: "that record" in "…the engineer who wrote
  // the conflict resolution strategy record, and what kind of clocks did that record adopt?" is the
  // record the bridge was found in, not a sentence that happens to say "record".
  const nameTerms = tokenize(resolved.name, language).map((t) => matchForm(t.term));
  const clauseTerms = resolved.by === 'relation' ? tokenize(d.clause, language).filter((t) => !isStopword(t.raw, language)).map((t) => matchForm(t.term)) : [];
  const described = resolved.evidence.snippet.doc_id;
  const about = notesAbout(snippets, resolved.name);
  const candidates = readerCandidates(snippets, language).map((c) => {
    const doc = snippets[c.snippetIndex]!.doc_id;
    const more = [...(about.has(doc) ? nameTerms : []), ...(doc === described ? clauseTerms : [])];
    return more.length > 0 ? { ...c, terms: new Set([...c.terms, ...more]) } : c;
  });
  const reading = readAnswer(asked, candidates, options);
  if (reading.outcome === 'not_found' || OUTCOME_RANK[reading.outcome] < OUTCOME_RANK[first.reading.outcome]) return null;
  // A question of several parts about the name is quoted part by part: each part's best sentence
  // about the name ("Where does Tomás Herrera work from" / "who is their manager"), so that a
  // sentence that touches both parts a little does not stand for either.
  const parts = questionParts(asked);
  let quote = quotedPieces(reading.answer).filter((piece) => !piece.includes(resolved.evidence.text))[0] ?? '';
  let outcome = reading.outcome;
  if (parts.length > 1) {
    // By the words alone: the stored cosines are the whole question's, which do not say what part a sentence answers.
    const byPart = parts.map((part, i) => readAnswer(i === 0 ? part : `${part.replace(/[?!.]+$/, '')} ${resolved.name}`, candidates, { ...words, directForms: true, maxSentences: 1, quoteOnly: true }));
    // A later part is asked with the name added, and every sentence of her notes holds the name's
    // words: a lead that holds none of the part's own words ("which type of clock did that decision
    // settle on" — "Priya did her PhD at TU Delft…") answers the name, not the part.
    const leadTerms = (r: Reading) => {
      const lead = quotedPieces(r.answer)[0] ?? '';
      return new Set(candidates.filter((c) => lead.includes(c.text)).flatMap((c) => [...c.terms]));
    };
    const answers = (r: Reading, i: number) => r.outcome !== 'not_found' && (i === 0 || holdsOwnWords(leadTerms(r), parts[i]!, nameTerms, language, words.termStats));
    // Each answered part's lead only: the sentences a reading adds after it answer the part's own
    // gaps. A part none answers leaves the answer partial.
    const leads = byPart.flatMap((r, i) => (answers(r, i) ? [quotedPieces(r.answer)[0]!] : []));
    if (leads.length > 0) quote = [...new Set(leads)].join(' ');
    if (leads.length < parts.length && outcome === 'answered') outcome = 'partial';
  }
  // The chain is cited: the bridge's evidence leads, then the facts asked (without the evidence again).
  const facts = quotedPieces(quote).filter((piece) => !piece.includes(resolved.evidence.text));
  const answer = [`${evidenceQuote(resolved)} [1]`, ...facts].join(' ');
  const cited = [...new Set([...answer.matchAll(/\[(\d+)\](?=\s|$)/g)].map((m) => Number(m[1])))];
  return {
    snippets,
    reading: { ...reading, outcome, answer, cited },
    limit: limit('described_subject', `described subject: "${d.phrase}" is ${resolved.name} (${resolved.evidence.snippet.locator}); searched "${asked}"`),
  };
}
