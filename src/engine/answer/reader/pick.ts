/** Which sentences the answer quotes: the lead (with the other hop of a chain), a sentence for each part still open, an equal runner-up, the other half of a multi-hop question, the neighbour the lead refers to, and the steps or list items a quoted sentence announces. */
import { tokenize } from '../../search/analyzer.ts';
import { contentTerms } from '../checks.ts';
import type { Candidate, Weighted } from './types.ts';
import { matchForm } from './text.ts';
import { askedNouns, describesSubject } from './question.ts';
import { NAME_WORD } from './candidates.ts';
import { CONTEXT_SHARE, coverage, HOP_LEADS, isMarkupFragment, MULTI_HOP_GAIN, NOTE_LINK_SHARE, opensWithLeadWord, pointsAt, referredNeighbour, RUNNER_UP_SHARE, W_HOP } from './selection.ts';
import { PART_ANSWERED } from './outcome.ts';
import { ANNOUNCES_LIST, FOLLOWS_WORDS, MAX_LISTED, MAX_STEPS } from './render.ts';
import type { Scores, Vectors } from './table.ts';
import type { QuestionWeights } from './weights.ts';

/** What the picking stages read: the question, its weighed words and parts, the score table, and how many sentences may be quoted. */
export interface PickContext {
  question: string;
  weighed: QuestionWeights;
  scores: Scores;
  maxSentences: number;
}

/** The best sentence to lead the quote, and for each likely lead its best companion of another note (the other hop of a chain) and the share of the question's word weight it adds. */
export interface Lead {
  lead: number | undefined;
  companions: Map<number, { b: number; gain: number }>;
}

/**
 * Chooses the lead among the best-scored sentences, each ranked with what its best companion adds.
 * Multi-hop: a sentence and one of another note about the same name ("Kestrel beta go date:
 * 2026-05-18" and "Version: 1.0; Codename: Kestrel"), or one that names the other's note, answer
 * together what neither states alone. A lead is ranked with what its best such companion adds:
 * the question's word weight the companion holds and the lead lacks.
 */
export function chooseLead(ctx: PickContext): Lead {
  const { question } = ctx;
  const { lang, candidates, all, allTotal } = ctx.weighed;
  const { table, order } = ctx.scores;
  const asked = new Set(tokenize(question, lang).map((t) => matchForm(t.term)));
  const holds = (c: Candidate, t: Weighted) => c.terms.has(t.term) || c.context.has(t.term);
  const bridged = describesSubject(question);
  const linked = (a: number, b: number): number => {
    const ca = candidates[a]!;
    const cb = candidates[b]!;
    if (ca.doc === cb.doc || (ca.titleKey !== undefined && ca.titleKey === cb.titleKey)) return 0;
    // b is about a name (its first one the question does not give); a is about it too: a's note is
    // that name's own note, or a (a record, a meeting) names it. "Анна руководит…, Павел Ким…" is
    // about Анна, so it is no hop to Павел's note.
    const about = cb.nameOrder?.find((n) => !asked.has(n));
    if (about !== undefined && (ca.titleNames ? ca.titleNames.has(about) : ca.names?.has(about))) return 1;
    // A record that names the other's subject elsewhere ("Decider: Maya Chen" above the decision):
    // a weaker link, followed only when the question describes its subject instead of naming it.
    if (!bridged) return 0;
    if (about !== undefined && !ca.titleNames && ca.noteNames?.has(about)) return NOTE_LINK_SHARE;
    if (ca.titleNames && !cb.titleNames && [...ca.titleNames].some((n) => !asked.has(n) && cb.noteNames?.has(n))) return NOTE_LINK_SHARE;
    return 0;
  };
  // The names the question gives its subject ("Павел Ким", "Lukas Becker") are what the lead must be about itself:
  // a companion about another subject cannot lend them.
  const named = questionNames(question, lang);
  const companions = new Map<number, { b: number; gain: number }>();
  if (allTotal > 0) {
    for (const a of order.slice(0, HOP_LEADS)) {
      if (!table[a]!.some((r) => r.cov > 0)) continue;
      let best: { b: number; gain: number } | null = null;
      for (const b of order) {
        const link = b === a ? 0 : linked(a, b);
        if (link === 0) continue;
        // A lead whose every word the other sentence holds too adds nothing to it: that one answers alone.
        if (!all.some((t) => t.w > 0 && holds(candidates[a]!, t) && !holds(candidates[b]!, t))) continue;
        let gain = 0;
        for (const t of all) if (!named.has(t.term) && !holds(candidates[a]!, t) && holds(candidates[b]!, t)) gain += t.w;
        gain = (gain / allTotal) * link;
        if (gain >= MULTI_HOP_GAIN && (!best || gain > best.gain)) best = { b, gain };
      }
      if (best) companions.set(a, best);
    }
  }
  const total = (i: number) => table[i]!.reduce((sum, r) => sum + r.score, 0);
  const withHop = (i: number) => total(i) + W_HOP * (companions.get(i)?.gain ?? 0);
  const lead = order.slice(0, HOP_LEADS).reduce<number | undefined>((best, i) => (best === undefined || withHop(i) > withHop(best) ? i : best), undefined);
  return { lead, companions };
}

/** The sentences quoted, lead first, and those quoted as the other hop of a chain (quoted with the name of their note's subject). */
export function pickSentences(ctx: PickContext, { lead, companions }: Lead): { picked: number[]; hopped: Set<number> } {
  const { question, maxSentences } = ctx;
  const { lang, candidates, all, parts } = ctx.weighed;
  const { table, typedOf } = ctx.scores;
  const picked: number[] = [];
  /** Sentences quoted as the other hop of a chain: they are quoted with the name of their note's subject. */
  const hopped = new Set<number>();
  if (lead !== undefined && table[lead]!.some((r) => r.cov > 0)) {
    picked.push(lead);
    const companion = companions.get(lead);
    if (companion && maxSentences > 1) {
      picked.push(companion.b);
      hopped.add(companion.b);
    }
  }
  openParts(ctx, picked);
  addRunnerUp(ctx, picked);
  addOtherHalf(ctx, picked);
  // A lead that refers to the sentence next to it, or that the next one goes on about, is quoted with it.
  // It follows the lead, which stays first: it is the sentence that reads best against the question.
  // A sentence that goes on about the lead's subject may point back at it ("…the most powerful of *these drugs*").
  const heads = askedNouns(question, lang);
  const neighbour = picked.length > 0 && picked.length < maxSentences && parts.length === 1 ? referredNeighbour(candidates, picked[0]!, (i) => all.some((t) => t.w > 0 && candidates[i]!.terms.has(t.term)) || (parts[0]!.asked.type !== 'any' && parts[0]!.asked.type !== 'entity' && typedOf(i) && !typedOf(picked[0]!)), (i) => opensWithLeadWord(candidates[i]!, candidates[picked[0]!]!, all, lang) || pointsAt(candidates[i]!.text, (w) => candidates[picked[0]!]!.terms.has(w) && all.some((t) => t.w > 0 && t.term === w), false, lang), (text) => heads.size > 0 && pointsAt(text, (w) => heads.has(w), true, lang)) : undefined;
  if (neighbour !== undefined && !picked.includes(neighbour)) picked.splice(1, 0, neighbour);
  return { picked, hopped };
}

/**
 * Each part still open: its best sentence, if it answers that part. In a question of several parts
 * a part is open until a sentence holds its own kind of value: "How many couriers…, and when does
 * it start?" is not answered by the sentence that holds only the date, however well it covers both.
 */
function openParts(ctx: PickContext, picked: number[]): void {
  const { maxSentences } = ctx;
  const { candidates, parts } = ctx.weighed;
  const { table, order } = ctx.scores;
  const answersPart = (i: number, pi: number) => table[i]![pi]!.answers >= PART_ANSWERED && (parts.length === 1 || table[i]![pi]!.typed);
  parts.forEach((_, pi) => {
    if (picked.length === 0 || picked.length >= maxSentences) return;
    const holders = picked.filter((i) => answersPart(i, pi));
    if (holders.length > 0 && parts.length === 1) return;
    let best = -1;
    for (const i of order) if (!picked.includes(i) && answersPart(i, pi) && (best < 0 || table[i]![pi]!.score > table[best]![pi]!.score)) best = i;
    // A quoted sentence answers a later part when it does so nearly as well as the best one: a question
    // of two parts whose lead holds a word of the second ("encryption key") is still told "Key
    // derivation function: scrypt" for "which key derivation function…". Judged on the part's own
    // words: the first part's, which it inherits, are what the lead holds anyway ("…and what happens
    // when a note with that name already exists?").
    const p = parts[pi]!;
    const own = (i: number) => (p.ownTotal > 0 ? coverage(candidates[i]!, p.own, p.ownTotal) : table[i]![pi]!.answers);
    if (holders.length > 0 && (best < 0 || Math.max(...holders.map(own)) >= RUNNER_UP_SHARE * own(best))) return;
    if (best >= 0) picked.push(best);
  });
}

/** The terms of the names a question says past its first word ("Tomás", "Kestrel"). */
function questionNames(question: string, lang: string | undefined): Set<string> {
  return new Set((question.slice(1).match(NAME_WORD) ?? []).flatMap((w) => contentTerms(w, lang).map(matchForm)));
}

/**
 * A single question that two sentences answer about equally well: the runner-up holds a value of the
 * asked kind too, and the reader cannot tell which one the question means, so both are quoted. It can
 * when the question names what it asks about by a code or a name ("MR-401", "Kestrel") that the lead
 * holds and the runner-up does not: that is another record ("Code: MR-400; …" beside "Code: MR-401; …");
 * and when the lead is a field whose label the question asks by.
 */
function addRunnerUp(ctx: PickContext, picked: number[]): void {
  const { candidates, parts, all, lang } = ctx.weighed;
  const { table, order, typedOf } = ctx.scores;
  if (picked.length !== 1 || parts.length !== 1 || parts[0]!.asked.type === 'any') return;
  const lead = candidates[picked[0]!]!;
  // A lead that is a field whose label the question asks by ("location: Valencia" for "Where is Tomás
  // based?") states the asked attribute itself: nothing is left to tell apart.
  const asked = lead.fieldAsks;
  if (asked && tokenize(ctx.question, lang).some((t) => asked.has(t.term))) return;
  // A line of code and the comment that describes it state one fact, not two.
  const described = (a: number, b: number) => candidates[a]!.described?.includes(candidates[b]!.text) === true;
  const runnerUp = order.find((i) => !picked.includes(i) && !described(i, picked[0]!) && !described(picked[0]!, i));
  if (runnerUp === undefined) return;
  const named = questionNames(ctx.question, lang);
  const holds = (c: Candidate, term: string) => c.terms.has(term) || c.context.has(term);
  const otherRecord = all.some((t) => t.w > 0 && (/\p{N}/u.test(t.term) || named.has(t.term)) && holds(lead, t.term) && !holds(candidates[runnerUp]!, t.term));
  // Judged on the hand-set scale the share was set on (PartScore.hand), whatever weights ordered them.
  const total = (i: number) => table[i]!.reduce((sum, r) => sum + r.hand, 0);
  if (!otherRecord && total(runnerUp) >= RUNNER_UP_SHARE * total(picked[0]!) && table[runnerUp]![0]!.answers >= PART_ANSWERED && typedOf(runnerUp) && table[runnerUp]![0]!.doesTask) picked.push(runnerUp);
}

/**
 * Question words no quoted sentence holds yet (a multi-hop question's other half): the sentence that brings most of them.
 * The other half is in a passage retrieval ranks next to or above the quoted ones: far below them, a
 * sentence that shares a word or two with the question is from a passage on another topic.
 */
function addOtherHalf(ctx: PickContext, picked: number[]): void {
  const { maxSentences } = ctx;
  const { candidates, stats, all, allTotal } = ctx.weighed;
  const { table, order } = ctx.scores;
  while (picked.length > 0 && picked.length < maxSentences) {
    const lowest = Math.max(...picked.map((i) => candidates[i]!.snippetIndex));
    const held = new Set(picked.flatMap((i) => [...candidates[i]!.terms, ...candidates[i]!.context]));
    const open = all.filter((t) => !held.has(t.term) && (stats.get(t.stem)?.df ?? 0) > 0);
    const openWeight = open.reduce((s, t) => s + t.w, 0);
    if (openWeight < MULTI_HOP_GAIN * allTotal) break;
    let best = -1;
    let bestGain = 0;
    for (const i of order) {
      if (picked.includes(i)) continue;
      const c = candidates[i]!;
      if (c.snippetIndex > lowest + 1) continue;
      // A how-to is completed by what does its task, not by steps of another one that share its topic.
      if (table[i]!.some((r) => !r.doesTask)) continue;
      const gain = open.reduce((s, t) => s + (c.terms.has(t.term) ? t.w : c.context.has(t.term) ? t.w * CONTEXT_SHARE : 0), 0);
      if (gain > bestGain) {
        best = i;
        bestGain = gain;
      }
    }
    if (best < 0 || bestGain < MULTI_HOP_GAIN * allTotal) break;
    picked.push(best);
  }
}

/**
 * "How do I…" led by a step of a list (or a line of its commands) is answered by the steps: from the
 * first one, after the sentence that introduces them when one does ("To invite a user:"). Replaces
 * the quote with where the steps start; says whether the quote is steps.
 */
export function stepsStart(ctx: PickContext, picked: number[]): boolean {
  const { candidates, parts } = ctx.weighed;
  const howTo = parts.length === 1 && parts[0]!.asked.type === 'procedure';
  const procedure = howTo && picked.length > 0 && (candidates[picked[0]!]!.item === true || candidates[picked[0]!]!.code === true);
  let hasSteps = false;
  if (procedure) {
    const lead = picked[0]!;
    const inSteps = (j: number) => j >= 0 && candidates[j]!.snippetIndex === candidates[lead]!.snippetIndex && (candidates[j]!.item === true || candidates[j]!.code === true);
    // Back to the first step, past the paragraph or two a step may go on with ("`make relay-dev` starts… To use another port:").
    const sameSnippet = (j: number) => j >= 0 && candidates[j]!.snippetIndex === candidates[lead]!.snippetIndex;
    // A command that a sentence of prose introduces ("To use another port:") is that sentence's answer, not a step's.
    const described = candidates[lead]!.code ? candidates[lead]!.described : undefined;
    const intro = described === undefined ? -1 : candidates.findIndex((c, j) => j < lead && sameSnippet(j) && !c.code && c.text === described);
    let start = lead;
    if (intro >= 0 && candidates[intro]!.item !== true) start = intro;
    else {
      for (;;) {
        let j = start - 1;
        for (let prose = 0; prose < 3 && sameSnippet(j) && !inSteps(j); prose++) j--;
        if (!inSteps(j)) break;
        start = j;
      }
      // Commands alone after the sentence that introduces them are that sentence's, not steps.
      hasSteps = candidates.slice(start, lead + 1).some((c) => c.item === true);
      const before = start - 1;
      if (sameSnippet(before) && (/[:：]\s*$/.test(candidates[before]!.text) || ANNOUNCES_LIST.test(candidates[before]!.text))) start = before;
    }
    picked.splice(0, picked.length, start);
  }
  return hasSteps;
}

/**
 * A colon announces what follows it even when that is neither an item nor a code line (a command in
 * a component block, `<TerminalBlock>npm ls react</TerminalBlock>`; a line of prose): the next unit
 * of the same passage, when it is short and not quoted already, so the quote never ends on a bare colon.
 */
function followsColon(candidates: readonly Candidate[], i: number, quoted: readonly number[]): boolean {
  const next = candidates[i + 1];
  return /[:：]\s*$/.test(candidates[i]!.text) && next !== undefined && next.snippetIndex === candidates[i]!.snippetIndex && !quoted.includes(i + 1) && next.text.split(/\s+/).length <= FOLLOWS_WORDS;
}

/** A sentence that ends in ":", or runs straight into the commands it introduces (units.ts: `described`). */
function introduces(candidates: readonly Candidate[], i: number): boolean {
  const next = candidates[i + 1];
  return /[:：]\s*$/.test(candidates[i]!.text) || (next?.command === true && next.snippetIndex === candidates[i]!.snippetIndex && next.described === candidates[i]!.text);
}

/**
 * A quoted sentence that ends in ":" announces what follows it in its passage (a list, fields): the
 * items are quoted after it, so that "hosted in the following regions:" does not end the answer.
 * So does one that ends on "the following methods." or "as follows." when a list comes right after it,
 * and the first of steps. Inserts the items after their sentence; returns them.
 */
export function listItems(ctx: PickContext, picked: number[], hasSteps: boolean): Set<number> {
  const { candidates } = ctx.weighed;
  const listed = new Set<number>();
  for (let k = 0; k < picked.length; k++) {
    const i = picked[k]!;
    const steps = hasSteps && k === 0;
    if (candidates[i]!.code && !steps) continue;
    const colon = introduces(candidates, i);
    const listNext = [i + 1, i + 2].some((j) => candidates[j]?.item === true && candidates[j]!.snippetIndex === candidates[i]!.snippetIndex);
    if (!steps && !colon && !(listNext && ANNOUNCES_LIST.test(candidates[i]!.text))) continue;
    const items: number[] = [];
    // The items of a list, or the lines of the code block the sentence (or a step) introduces ("Run this: `make dev-up`").
    const introducing = new Set([candidates[i]!.text]);
    const most = steps ? MAX_STEPS : MAX_LISTED;
    for (let j = i + 1; j < candidates.length && items.length < most && candidates[j]!.snippetIndex === candidates[i]!.snippetIndex; j++) {
      const c = candidates[j]!;
      const ownCode = c.code && c.described !== undefined && introducing.has(c.described);
      // A sentence that introduces a code block ("To use another port:") announces its lines, not the list after them.
      if (!steps && items.length > 0 && candidates[items[0]!]!.code && !ownCode) break;
      // An item quoted already before this sentence stays where it is; one quoted after it moves into the list's order.
      if (picked.slice(0, k + 1).includes(j) || !(c.item || ownCode)) continue;
      items.push(j);
      if (steps && c.item) introducing.add(c.text);
    }
    if (items.length === 0 && !steps && followsColon(candidates, i, picked.slice(0, k + 1))) items.push(i + 1);
    for (const j of items) {
      const at = picked.indexOf(j);
      if (at > k) picked.splice(at, 1);
    }
    picked.splice(k + 1, 0, ...items);
    for (const j of items) listed.add(j);
    k += items.length;
  }
  return listed;
}

/** For "How do I…": the citation number of the asked task's how-to, when its steps are not what the answer quotes. */
export function howToTask(ctx: PickContext, picked: readonly number[]): number | undefined {
  const { candidates, parts } = ctx.weighed;
  const { namesTask } = ctx.scores;
  const howTo = parts.length === 1 && parts[0]!.asked.type === 'procedure';
  let task: number | undefined;
  if (howTo && parts[0]!.total > 0) {
    const p = parts[0]!;
    const howto = candidates.find((c) => namesTask(c, p));
    if (howto && !picked.some((i) => candidates[i]!.doc === howto.doc && candidates[i]!.steps)) task = howto.n;
  }
  return task;
}

/** A sentence offered for reading beside the answer, with its citation number. */
export interface Offered {
  text: string;
  n: number;
}

/**
 * What is offered besides the quote: the quote's best cosine to the question (of the best candidates
 * when nothing is quoted), the three best sentences that hold a question word, the best after the
 * quote's, and the best of each of three passages.
 */
export function offeredSentences(ctx: PickContext, vectors: Vectors, picked: readonly number[], open: readonly number[] = []): { similarity: number | null; closest: Offered[]; runnersUp: Offered[]; passageBest: Offered[] } {
  const { candidates } = ctx.weighed;
  const { table, order } = ctx.scores;
  const { sims } = vectors;
  const quotedSims = (picked.length > 0 ? picked : order).map((i) => sims[i]).filter((v): v is number => v !== undefined);
  const similarity = quotedSims.length > 0 ? Math.round(Math.max(...quotedSims) * 1000) / 1000 : null;
  const closest = order.slice(0, 3).filter((i) => table[i]!.some((r) => r.cov > 0)).map((i) => ({ text: candidates[i]!.text, n: candidates[i]!.n }));
  // The best sentences after the quote's, wherever they are: on the training and dev sets the second
  // and third best hold the fact more often than the best sentence of another passage. Each says one
  // of the question's words itself: a sentence that only shares its note's title or neighbours with
  // the question ("Some intro." under "Launch") is offered as reading, not beside an answer.
  const saysAsked = (c: Candidate) => ctx.weighed.all.some((t) => c.terms.has(t.term));
  const offered = order.filter((i) => !picked.includes(i) && !candidates[i]!.code && !isMarkupFragment(candidates[i]!.text) && table[i]!.some((r) => r.cov > 0) && saysAsked(candidates[i]!));
  // A part the quote leaves open ("…, and when was it fixed?") is what the person still looks for:
  // the sentences that read best for it come first (the sort keeps the order among equals).
  const forOpen = (i: number) => Math.max(...open.map((pi) => table[i]![pi]?.answers ?? 0));
  const ranked = open.length > 0 && ctx.weighed.parts.length > 1 ? offered.map((i) => ({ i, read: forOpen(i) })).sort((a, b) => b.read - a.read).map((x) => x.i) : offered;
  const runnersUp = ranked.slice(0, 3).map((i) => ({ text: candidates[i]!.text, n: candidates[i]!.n }));
  const passageBest: Offered[] = [];
  for (const i of order) {
    if (passageBest.length >= 3) break;
    const c = candidates[i]!;
    if (!c.code && table[i]!.some((r) => r.cov > 0) && !passageBest.some((b) => b.n === c.n)) passageBest.push({ text: c.text, n: c.n });
  }
  return { similarity, closest, runnersUp, passageBest };
}
