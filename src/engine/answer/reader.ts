/**
 * The answer reader (docs/design.md §7): finds the sentence of the retrieved passages that states the
 * asked fact, quotes it with its citation, and decides from the evidence whether the notes answer
 * the question at all. It is the answer when there is no chat model, and the yardstick a chat
 * model's answer must meet.
 *
 * Each candidate sentence is scored with signals the engine already has (reader/selection.ts). The
 * best sentence leads; a second or third is added only when it answers a part of the question
 * the first leaves open, or brings question words the first lacks (a multi-hop question: who leads
 * the team, then what she decided), never to fill space.
 *
 * Multi-hop: two sentences of different notes are one chain when they are about the same name —
 * "Version: 1.0; Codename: Kestrel" and "Kestrel beta go date: 2026-05-18" — or when one is in the
 * note of a person the other's note names ("Decider: Maya Chen" above a decision, "Maya leads the
 * sync team" in hers). A lead is ranked with the question's word weight its best such companion
 * adds, and the companion is quoted after it, with its note's name when the sentence lacks it. A
 * sentence that links to a note ("the reasoning is in [[2026-03-14 Storage decision]]") lends its
 * words to that note's sentences, and a date inside the link is the record's, not a stated fact.
 * `hops` names what the best sentences point to, for a second search (answer.ts).
 *
 * Answerability: every part of the question needs a sentence that covers its words and holds a
 * value of its type; the question's rare words must appear in what is quoted. The outcome is
 * `answered`, `partial` (some part found, what is missing named) or `not_found` (the closest
 * sentences are offered for reading, not as an answer). A question word that no file of the vault
 * holds at all ("parental" in a vault without HR notes) counts fully against coverage.
 *
 * Pure: no store, no model, no I/O.
 *
 * readAnswer is the pipeline's spine; each stage is a module of answer/reader/: a passage's quotable
 * units (units.ts) become candidates (candidates.ts: readerCandidates, nameCandidates); the question
 * is read (question.ts: its own words, task verb, stated values, asked nouns); sentences are ranked
 * (selection.ts: SELECTION_FEATURES, coverage), the outcome judged (outcome.ts) and the quote laid out
 * (render.ts). Shapes are in types.ts, text helpers in text.ts, and each language's words in its pack,
 * src/engine/lang/<code>/reader.ts.
 */
import { tokenize } from '../search/analyzer.ts';
import { asksLimit, boundSaid, hasRelativeClause, holdsType } from './answer-type.ts';
import { endsSentence } from './citations.ts';
import { contentTerms } from './checks.ts';
import type { Candidate, CandidateRow, Outcome, Part, PartReading, ReaderOptions, Reading, ReadingSignals, Weighted } from './reader/types.ts';
import { matchForm, nameKey, phraseKey } from './reader/text.ts';
import { askedNouns, describesSubject } from './reader/question.ts';
import { isLabel, NAME_PHRASE, NAME_WORD } from './reader/candidates.ts';
import { CONTEXT_SHARE, coverage, holdsDerived, HOP_LEADS, isMarkupFragment, MULTI_HOP_GAIN, NOTE_LINK_SHARE, opensWithLeadWord, pointsAt, referredNeighbour, RUNNER_UP_SHARE, SELECTION_FEATURES, W_HOP } from './reader/selection.ts';
import { heldInSentence, heldInSentences, NOT_FOUND_BELOW, NOT_FOUND_PART, PART_ANSWERED, quotedSims0, round3, SIMILARITY_GAP_MID, SIMILARITY_GAP_WEIGHT, SIMILARITY_VETO_MAX, togetherNeeded } from './reader/outcome.ts';
import { ANNOUNCES_LIST, HOP_FROM, MAX_HOPS, MAX_LISTED, MAX_STEPS } from './reader/render.ts';
import { otherScript, readByMeaning } from './reader/meaning.ts';
import { weighQuestion } from './reader/weights.ts';
import { questionVectors, scoreTable } from './reader/table.ts';
export type { Candidate, CandidateRow, Outcome, PartReading, PassageUnit, ReaderOptions, Reading, ReadingSignals } from './reader/types.ts';
export { matchForm, plainText } from './reader/text.ts';
export { codeSentences, codeUnits, proseSentences, proseUnits } from './reader/units.ts';
export { askedNouns, derivedWords, describesSubject, directForm, misspelling, QUESTION_WORDS } from './reader/question.ts';
export { leansOnPrevious, readerCandidates, sentenceSimilarity } from './reader/candidates.ts';
export { DEFAULT_SELECTION, isMarkupFragment, SELECTION_FEATURES } from './reader/selection.ts';
export { togetherNeeded } from './reader/outcome.ts';

export function readAnswer(question: string, given: readonly Candidate[], options: ReaderOptions): Reading {
  const maxSentences = Math.max(1, Math.floor(options.maxSentences ?? 3));
  const weighed = weighQuestion(question, given, options);
  const { lang, candidates, stats, passages, all, allTotal, unknown, spelled, unknownAttribute, parts } = weighed;

  const vectors = questionVectors(candidates, options);
  const { sims, withVector } = vectors;
  // A question in another script than its notes shares no word with them: read by meaning, if vectors can.
  if (withVector.length >= 2 && otherScript(question, candidates)) {
    const meant = readByMeaning(candidates, sims);
    if (meant) return meant;
  }
  const { table, order, typedOf, namesTask } = scoreTable(question, weighed, vectors, options);

  // Multi-hop: a sentence and one of another note about the same name ("Kestrel beta go date:
  // 2026-05-18" and "Version: 1.0; Codename: Kestrel"), or one that names the other's note, answer
  // together what neither states alone. A lead is ranked with what its best such companion adds:
  // the question's word weight the companion holds and the lead lacks.
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
  const named = new Set((question.slice(1).match(NAME_WORD) ?? []).flatMap((w) => contentTerms(w, lang).map(matchForm)));
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
  // Each part still open: its best sentence, if it answers that part. In a question of several parts
  // a part is open until a sentence holds its own kind of value: "How many couriers…, and when does
  // it start?" is not answered by the sentence that holds only the date, however well it covers both.
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
  // A single question that two sentences answer about equally well: the runner-up holds a value of the
  // asked kind too, and the reader cannot tell which one the question means, so both are quoted.
  if (picked.length === 1 && parts.length === 1 && parts[0]!.asked.type !== 'any') {
    // A line of code and the comment that describes it state one fact, not two.
    const described = (a: number, b: number) => candidates[a]!.described?.includes(candidates[b]!.text) === true;
    const runnerUp = order.find((i) => !picked.includes(i) && !described(i, picked[0]!) && !described(picked[0]!, i));
    if (runnerUp !== undefined && total(runnerUp) >= RUNNER_UP_SHARE * total(picked[0]!) && table[runnerUp]![0]!.answers >= PART_ANSWERED && typedOf(runnerUp) && table[runnerUp]![0]!.doesTask) picked.push(runnerUp);
  }
  // Question words no quoted sentence holds yet (a multi-hop question's other half): the sentence that brings most of them.
  // The other half is in a passage retrieval ranks next to or above the quoted ones: far below them, a
  // sentence that shares a word or two with the question is from a passage on another topic.
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
  // A lead that refers to the sentence next to it, or that the next one goes on about, is quoted with it.
  // It follows the lead, which stays first: it is the sentence that reads best against the question.
  // A sentence that goes on about the lead's subject may point back at it ("…the most powerful of *these drugs*").
  const heads = askedNouns(question, lang);
  const neighbour = picked.length > 0 && picked.length < maxSentences && parts.length === 1 ? referredNeighbour(candidates, picked[0]!, (i) => all.some((t) => t.w > 0 && candidates[i]!.terms.has(t.term)) || (parts[0]!.asked.type !== 'any' && parts[0]!.asked.type !== 'entity' && typedOf(i) && !typedOf(picked[0]!)), (i) => opensWithLeadWord(candidates[i]!, candidates[picked[0]!]!, all, lang) || pointsAt(candidates[i]!.text, (w) => candidates[picked[0]!]!.terms.has(w) && all.some((t) => t.w > 0 && t.term === w), false, lang), (text) => heads.size > 0 && pointsAt(text, (w) => heads.has(w), true, lang)) : undefined;
  if (neighbour !== undefined && !picked.includes(neighbour)) picked.splice(1, 0, neighbour);
  // A quoted sentence that ends in ":" announces what follows it in its passage (a list, fields): the
  // items are quoted after it, so that "hosted in the following regions:" does not end the answer.
  // So does one that ends on "the following methods." or "as follows." when a list comes right after it.
  // "How do I…" led by a step of a list (or a line of its commands) is answered by the steps: from the
  // first one, after the sentence that introduces them when one does ("To invite a user:").
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
  const listed = new Set<number>();
  for (let k = 0; k < picked.length; k++) {
    const i = picked[k]!;
    const steps = hasSteps && k === 0;
    if (candidates[i]!.code && !steps) continue;
    const colon = /[:：]\s*$/.test(candidates[i]!.text);
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
    for (const j of items) {
      const at = picked.indexOf(j);
      if (at > k) picked.splice(at, 1);
    }
    picked.splice(k + 1, 0, ...items);
    for (const j of items) listed.add(j);
    k += items.length;
  }

  // The how-to of the asked task, when its steps are not what the answer quotes.
  let task: number | undefined;
  if (howTo && parts[0]!.total > 0) {
    const p = parts[0]!;
    const howto = candidates.find((c) => namesTask(c, p));
    if (howto && !picked.some((i) => candidates[i]!.doc === howto.doc && candidates[i]!.steps)) task = howto.n;
  }

  // A part that asks a limit ("the largest attachment I can email") is answered only by a quote that
  // states a bound or says the superlative: "Attach the log file to your support email" is not.
  // A limit is a quantity: "Максимальный размер файла зависит от вашего плана" says the superlative and states no limit.
  const boundUnstated = (p: Part) =>
    asksLimit(p.text) &&
    (!picked.some((i) => holdsType(candidates[i]!.text, { type: 'number' })) ||
      p.terms.some((t) => {
        const said = t.w > 0 ? boundSaid(t.raw) : undefined;
        return said !== undefined && !picked.some((i) => candidates[i]!.terms.has(t.term) || holdsDerived(candidates[i]!, t) || said.test(candidates[i]!.text));
      }));
  // A part that names the form of its value ("How much does it cost", "In what year…") is answered only
  // by a quote holding such a value: "Sync Standard: 1 Monat" states no price, "Das Jahr des Datums" no year.
  const valueUnstated = (p: Part, pi: number) => p.asked.strict === true && !picked.some((i) => table[i]![pi]!.typed);
  const unstated = (p: Part, pi: number) => boundUnstated(p) || valueUnstated(p, pi);
  const partReadings: PartReading[] = parts.map((p, pi) => {
    const score = Math.max(0, ...picked.map((i) => table[i]![pi]!.answers));
    const rounded = Math.round(score * 1000) / 1000;
    // "How do I…" is answered only by steps or an instruction, and only of the asked task: its verb
    // ("export" in "How can I export a note to PDF?") is in the quote or its title or heading.
    // (Where the verb only ranks, a Russian infinitive, a quote without it may still answer.)
    const stated = (p.asked.type !== 'procedure' || (picked.some((i) => table[i]![pi]!.typed) && (!p.taskRequired || picked.some((i) => table[i]![pi]!.doesTask)))) && !unstated(p, pi);
    return { part: p.text, type: p.asked.type, score: rounded, answered: rounded >= PART_ANSWERED && stated };
  });
  // What the quoted sentences and their notes' titles hold of the question's words.
  const held = new Set<string>();
  for (const i of picked) for (const t of [...candidates[i]!.terms, ...candidates[i]!.context]) held.add(t);
  const missingTerms = all.filter((t) => !held.has(t.term)).sort((a, b) => b.w - a.w);
  const heldShare = allTotal > 0 ? 1 - missingTerms.reduce((s, t) => s + t.w, 0) / allTotal : 1;
  const partScore = partReadings.length > 0 ? partReadings.reduce((s, p) => s + p.score, 0) / partReadings.length : 0;
  const bestPart = partReadings.length > 0 ? Math.max(...partReadings.map((p) => p.score)) : 0;
  // How well the quote reads as an answer: its parts, and the question's words it holds.
  const quoteEvidence = Math.min(1, 0.5 * partScore + 0.5 * heldShare);

  // The subjects a second hop would read about: what the quoted (or closest) sentences name beyond the question.
  const hops: string[] = [];
  const seenHop = new Set<string>();
  const addHop = (name: string) => {
    const key = phraseKey(name);
    const words = key.trim().split(' ');
    if (hops.length >= MAX_HOPS || seenHop.has(key) || words.every((w) => asked.has(nameKey(w, lang)))) return;
    seenHop.add(key);
    hops.push(name);
  };
  const top = [...new Set([...picked, ...order.slice(0, HOP_FROM)])].filter((i) => table[i]!.some((r) => r.cov > 0));
  // The names the best sentences hold (a name of two words, or one the passages always capitalise),
  // best sentence first; then the notes they link to.
  const topTitles = new Set(top.flatMap((i) => (candidates[i]!.titleKey ? [candidates[i]!.titleKey!] : [])));
  for (const key of topTitles) seenHop.add(key);
  for (const i of top) {
    const c = candidates[i]!;
    for (const m of c.text.matchAll(NAME_PHRASE)) {
      const words = m[0].split(/\s+/);
      if (!isLabel(c.text, m.index!, m[0]) && words.some((w) => c.names?.has(nameKey(w, lang))) && (words.length > 1 || c.nameOrder?.includes(nameKey(m[0], lang)))) addHop(m[0]);
    }
  }
  for (const i of top) for (const l of candidates[i]!.links ?? []) addHop(l);

  // Does one sentence hold the question's words together, or are they only scattered over the passages?
  // A question of two parts or hops ("the library that Nadia maintains", "…и сколько длится пилот") is
  // answered by a sentence per part or hop: the quoted sentences count together.
  const twoFacts = parts.length > 1 || hasRelativeClause(question);
  const together = Math.max(
    candidates.reduce((best, c) => Math.max(best, heldInSentence(c, all, allTotal)), 0),
    twoFacts && picked.length > 1 ? heldInSentences(picked.map((i) => candidates[i]!), all, allTotal) : 0,
  );
  const meanSim = withVector.length > 0 ? withVector.reduce((sum, v) => sum + v, 0) / withVector.length : 0;
  const quoteSims = picked.map((i) => sims[i]).filter((v): v is number => v !== undefined);
  const gapLift = withVector.length >= 2 && quoteSims.length > 0 ? SIMILARITY_GAP_WEIGHT * (Math.max(...quoteSims) - meanSim - SIMILARITY_GAP_MID) : 0;
  // A sentence of one hop answers only part of the question, and a line of code reads unlike any
  // question: a low cosine is expected of them, so there the vectors may lift the bar, never raise it.
  const vectorLift = Math.max(twoFacts || picked.some((i) => candidates[i]!.code) ? 0 : -SIMILARITY_VETO_MAX, gapLift);
  const togetherMargin = together + vectorLift - togetherNeeded(all.filter((t) => t.w > 0).length);
  const scattered = options.together !== false && togetherMargin < 0;
  // The evidence that the notes state the fact: the quote's, and (on the notes themselves) how
  // clearly one sentence holds the question together, 0.5 at the bar.
  const answerability =
    Math.round((options.together === false ? quoteEvidence : 0.5 * quoteEvidence + 0.5 * Math.min(1, Math.max(0, 0.5 + togetherMargin))) * 1000) / 1000;

  let outcome: Outcome;
  if (picked.length === 0 || unknownAttribute || scattered || quoteEvidence < NOT_FOUND_BELOW || bestPart < NOT_FOUND_PART || (parts.length === 1 && unstated(parts[0]!, 0))) outcome = 'not_found';
  else if (partReadings.every((p) => p.answered)) outcome = 'answered';
  else outcome = 'partial';

  const quotedSims = (picked.length > 0 ? picked : order).map((i) => sims[i]).filter((v): v is number => v !== undefined);
  const similarity = quotedSims.length > 0 ? Math.round(Math.max(...quotedSims) * 1000) / 1000 : null;
  const closest = order.slice(0, 3).filter((i) => table[i]!.some((r) => r.cov > 0)).map((i) => ({ text: candidates[i]!.text, n: candidates[i]!.n }));
  // The best sentences after the quote's, wherever they are: on the training and dev sets the second
  // and third best hold the fact more often than the best sentence of another passage.
  const runnersUp = order.filter((i) => !picked.includes(i) && !candidates[i]!.code && !isMarkupFragment(candidates[i]!.text) && table[i]!.some((r) => r.cov > 0)).slice(0, 3).map((i) => ({ text: candidates[i]!.text, n: candidates[i]!.n }));
  const passageBest: { text: string; n: number }[] = [];
  for (const i of order) {
    if (passageBest.length >= 3) break;
    const c = candidates[i]!;
    if (!c.code && table[i]!.some((r) => r.cov > 0) && !passageBest.some((b) => b.n === c.n)) passageBest.push({ text: c.text, n: c.n });
  }
  // What the reading measured, for the calibrated scorer: the quote's lead, or the best candidate when nothing is quoted.
  const leadAt = picked[0] ?? order[0];
  const leadC = leadAt === undefined ? undefined : candidates[leadAt];
  const totalOf = (i: number | undefined) => (i === undefined ? 0 : table[i]!.reduce((sum, r) => sum + r.score, 0));
  const runnerAt = order.find((i) => i !== leadAt && candidates[i]!.doc !== leadC?.doc);
  const leadTotal = totalOf(leadAt);
  const signals: ReadingSignals = {
    held: round3(heldShare),
    partMean: round3(partScore),
    partMin: round3(partReadings.length > 0 ? Math.min(...partReadings.map((p) => p.score)) : 0),
    partBest: round3(bestPart),
    parts: parts.length,
    partsAnswered: partReadings.filter((p) => p.answered).length,
    togetherMargin: round3(togetherMargin),
    leadCoverage: round3(leadAt === undefined ? 0 : table[leadAt]![0]!.cov),
    leadWhole: round3(leadC ? coverage(leadC, all, allTotal) : 0),
    leadTyped: leadAt !== undefined && table[leadAt]![0]!.typed ? 1 : 0,
    leadRank: leadC?.snippetIndex ?? 0,
    runnerUp: round3(leadTotal > 0 ? Math.min(1.5, totalOf(runnerAt) / leadTotal) : 0),
    leadCode: leadC?.code ? 1 : 0,
    leadItem: leadC?.item || leadC?.steps ? 1 : 0,
    leadField: leadC?.subject !== undefined ? 1 : 0,
    leadColon: leadC && /[:：]\s*$/.test(leadC.text) ? 1 : 0,
    leadQuestion: leadC && /[?？]\s*$/.test(leadC.text) ? 1 : 0,
    leadMarkup: leadC && isMarkupFragment(leadC.text) ? 1 : 0,
    leadWords: leadC ? leadC.text.split(/\s+/).filter(Boolean).length : 0,
    quoted: picked.length,
    candidates: candidates.length,
    passages: passages.size,
    unknownShare: round3(all.length > 0 ? unknown.length / all.length : 0),
    questionWords: all.filter((t) => t.w > 0).length,
    askedType: parts[0]?.asked.type ?? 'any',
    strict: parts[0]?.asked.strict ? 1 : 0,
    simGap: round3(withVector.length >= 2 && quoteSims.length > 0 ? Math.max(...quoteSims) - meanSim : 0),
    simBest: round3(quotedSims0(picked.length > 0 ? picked : order, sims)),
    hasVectors: withVector.length >= 2 ? 1 : 0,
  };
  // Written in reading order of relevance: the lead first, then what completes it.
  const askedPerson = parts.some((p) => p.asked.type === 'person');
  const quoted = picked.map((i) => {
    const c = candidates[i]!;
    // A field line quoted alone loses whom it is about: "Анна Соколова — Город: Казань".
    // So is the other hop of a chain: "Maya Chen — Maya leads the sync team", and a sentence that
    // names the person of its note by a first name only, when a person is asked: "Анна Соколова — Анна руководит…".
    const byFirstName = askedPerson && c.titleNames !== undefined && (c.nameOrder ?? []).some((n) => c.titleNames!.has(n));
    // An item quoted after the sentence that announces it reads with that sentence, not with its note's name.
    const about = listed.has(i) ? undefined : (c.subject ?? (hopped.has(i) || byFirstName ? c.title : undefined));
    const subject = about && about.split(/\s+/).length <= 4 && !/\d/.test(about) && !c.text.toLowerCase().includes(about.toLowerCase()) ? about : null;
    const s = subject ? `${subject} — ${c.text}` : c.text;
    // A line of code is quoted as written: "make dev-up." would not run. Thai and Lao end a sentence without a stop.
    return `${c.code || endsSentence(s) || /[{;,(:：]$/.test(s) ? s : `${s}.`} [${candidates[i]!.n}]`;
  });
  // The items of a list and the lines of a command go on lines of their own: steps read as steps.
  const answer = quoted.map((q, k) => (k === 0 ? q : `${listed.has(picked[k]!) || candidates[picked[k]!]!.code ? '\n' : ' '}${q}`)).join('');
  const candidateRows = options.collectCandidates ? { candidateRows: candidates.map((c, i): CandidateRow => ({ text: c.text, snippetIndex: c.snippetIndex, features: SELECTION_FEATURES.map((_, k) => round3(table[i]!.reduce((sum, r) => sum + r.f[k]!, 0))) })) } : {};
  if (outcome === 'not_found') {
    // No sentence is quoted, so the words the best candidate lacks would name words the passages hold.
    const anywhere = new Set(candidates.flatMap((c) => [...c.terms, ...c.context]));
    const absent = missingTerms.filter((t) => !anywhere.has(t.term));
    return { outcome, answer: '', cited: [], answerability, parts: partReadings, missing: absent.map((t) => t.raw), unknown, ...(Object.keys(spelled).length > 0 ? { spelled } : {}), unknownAttribute, closest, passageBest, runnersUp, similarity, hops, ...(task !== undefined ? { task } : {}), signals, ...candidateRows };
  }
  return { outcome, answer, cited: [...new Set(picked.map((i) => candidates[i]!.n))], answerability, parts: partReadings, missing: missingTerms.map((t) => t.raw), unknown, ...(Object.keys(spelled).length > 0 ? { spelled } : {}), unknownAttribute, closest, passageBest, runnersUp, similarity, hops, ...(task !== undefined ? { task } : {}), signals, ...candidateRows };
}
