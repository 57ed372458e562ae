/**
 * How the answer reader ranks candidate sentences against a part of the question: the selection
 * features and their default weights, coverage of the question's word weight, and the neighbours a
 * lead is quoted with.
 *
 * Each candidate sentence is scored with signals the engine already has:
 *   - coverage: the idf-weighted share of the question's words the sentence holds (its note's title
 *     and heading count half: "It lasted 47 minutes" under "Relay outage" is about the outage);
 *   - answer type: the sentence holds a value of the kind asked for (a duration for "how long", a
 *     date for "when", a person for "who", a reason for "why", ...; answer-type.ts), and one the
 *     question did not already state;
 *   - the retrieval rank of its passage.
 */
import { isStopword, tokenize } from '../../search/analyzer.ts';
import { boundedMemo } from '../memo.ts';
import { statesBound } from '../answer-type.ts';
import type { AskedType } from '../answer-type.ts';
import type { Candidate, Weighted } from './types.ts';
import { matchForm, termSet } from './text.ts';
import { DERIVED_SHARE, POINTING, POINTING_OR_THE } from './question.ts';
import { OPENING_WORD, PRONOUN_START } from './candidates.ts';
import { packAlternation } from '../../lang/reader-packs.ts';

/**
 * What ranks one sentence against another as the answer to a part of the question, each 0..1: its
 * coverage of the part's word weight, whether it holds a value of the asked type, its coverage of the
 * whole question, its passage's rank 1/(1+rank), whether it states the value in the asked form, the
 * question's cosine to it (scaled among this question's candidates) times its coverage, a step under a
 * steps heading, a step that names the asked task, the cosine alone, its shape (a line of code, a
 * `key: value` or table-row fragment, a sentence that is itself a question, a sentence ending in a
 * colon), and, once per sentence, the share of the question's word weight in the sentence itself (not
 * its title or neighbours), the share of the question's adjacent word pairs it writes adjacent, its
 * length (words / 40, at most 1), how close a value (a number) stands to a question word in it, its share of the asked noun's words and
 * of the question's verbs, whether it opens its passage, and whether it defines a question word
 * ("File recovery is a core plugin…": sentence-signals.ts).
 */
export const SELECTION_FEATURES = ['coverage', 'typed', 'whole', 'rank', 'direct', 'sim_coverage', 'steps_heading', 'task_verb', 'sim', 'code', 'markup', 'question', 'colon', 'own_words', 'word_pairs', 'length', 'value_near', 'number_near', 'asked_noun', 'question_verb', 'passage_first', 'defines'] as const;
/**
 * The hand-set weights the fitted ones are measured against, tuned on the sample vault's questions and
 * XQuAD-en dev: coverage 0.55, type 0.25, whole 0.1, rank 0.05, direct 0.15; the cosine (with sentence
 * vectors only) times coverage 0.3, so that it hears a paraphrase the words miss but cannot lift a
 * sentence that shares no word with the question over one that does; for "How do I…", a step under a
 * heading that names steps 0.02 and an instruction that says the asked task's verb 0.1 ("Чтобы
 * разделить слайды, введите `---`…" over "Чтобы начать презентацию:"). The cosine alone 0.15: a
 * question worded as a person asks it shares few words with the sentence that states its fact ("make
 * new attachments get saved into a specific folder" — "change the default attachment location under
 * Settings…"), and the cosine times coverage hears that sentence only as far as its words do;
 * 0.15 was chosen on the dev sets with multilingual-e5-small (0.3 kept the fully correct share and
 * abstained on more unanswerable questions). The shape features weigh nothing by default.
 */
export const DEFAULT_SELECTION: readonly number[] = [0.55, 0.25, 0.1, 0.05, 0.15, 0.3, 0.02, 0.1, 0.15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/**
 * The scale the reader's share rules were set on (a runner-up within RUNNER_UP_SHARE of the lead): the
 * hand-set weights without the cosine alone, which orders the sentences but would lift an on-topic
 * runner-up ("Harvard was founded in 1636…" beside "The Charles River flows past the campus").
 */
export const SHARE_SCALE: readonly number[] = DEFAULT_SELECTION.map((w, k) => (SELECTION_FEATURES[k] === 'sim' ? 0 : w));
/**
 * A record of a settings or translation file, not prose: a line that opens (after an optional
 * `[section]`) with `key=value`, as INI, .properties and .env files and translation tables write
 * ("[heading.sync/Encryption] original=Encryption translation=Шифрование").
 */
const RECORD_LINE = /^(?:\[[^\]\s]+(?:[^\]]*)\]\s*)?[\p{L}_][\p{L}\p{N}_.-]*=(?!=)/u;
/** A sentence that is a fragment of markup: a short `key: value` line, a table row, or a `key=value` record. */
export const isMarkupFragment = (text: string) => (text.split(/\s+/).length <= 4 && /^[\p{L}\p{N}_.-]+:(?:\s|$)/u.test(text)) || /\s\|\s/.test(text) || RECORD_LINE.test(text);

/** The words of that sentence before count this much in it. */
export const ANTECEDENT_SHARE = 0.75;
/**
 * Other openings that lean on the sentence before: "All of this set the stage for…", "Most of these
 * schools are…", "For instance P ⊆ NP…", "As part of this merger…", "Today, this is known as…",
 * «Например…», «Всё это…», «Многие из них…».
 */
export const ANAPHOR_START = new RegExp(`^(?:${packAlternation('anaphors')})(?![\\p{L}])`, 'iu');

/** What a value of the asked type adds to a sentence's share of a part answered (the rest is its coverage). */
export const W_TYPE = 0.25;
/** A title or heading word counts this much of a word in the sentence itself. */
export const CONTEXT_SHARE = 0.5;
/** The second-best sentence is quoted too when it scores at least this share of the best one's (and holds the asked kind of value). */
export const RUNNER_UP_SHARE = 0.85;
/** A word of the neighbouring sentences counts this much. */
const NEAR_SHARE = 0.35;
/** A later part of a question holds the first part's words at this share of their weight. */
export const INHERITED_SHARE = 0.25;
/** …and all of them together at most this share of the part's own word weight. */
export const INHERITED_CAP = 0.5;
/** A word found elsewhere in the retrieved passages of the sentence's note counts this much. */
const DOC_SHARE = 0.2;

/** A further sentence must bring at least this share of the question's word weight that the quote lacks. */
export const MULTI_HOP_GAIN = 0.25;

/** For "How do I…": the share of the question's word weight an instruction must hold (a step: with its title and heading) to be the how-to of the asked task. */
export const STEP_SECTION = 0.6;

/** Kinds of value a link title may hold but does not state as a fact (a record's date in its title). */
export const MEASURED: ReadonlySet<AskedType['type']> = new Set(['date', 'duration', 'number', 'money']);
/**
 * A condition ("If your team is one person, …", «Если ваша команда состоит из одного человека — …»,
 * "Wenn du 2 Geräte hast, …") up to the comma or dash that closes it: a value in it is supposed, not stated.
 */
const CONDITION = new RegExp(`(?<![\\p{L}])(?:${packAlternation('conditions')})\\s[^,;:—–]*`, 'giu');
/** A sentence less its conditions, kept by sentence; a condition that sets a threshold states a requirement ("If your organization has purchased at least 25 licenses, …") and stays. */
export const statedPart = (text: string) => statedMemo(text, () => text.replace(CONDITION, (clause) => (statesBound(clause) ? clause : ' ')));
const statedMemo = boundedMemo<string>(20_000);

/** A lead's companion of another note (the other hop) adds this much per share of the question's word weight it brings. */
export const W_HOP = 0.4;
/** A link through a name the lead's note holds elsewhere counts this much of one the lead itself holds. */
export const NOTE_LINK_SHARE = 0.5;
/** The best-ranked sentences that are tried as the lead of a two-hop answer. */
export const HOP_LEADS = 20;
/** How much less a question word weighs when every retrieved passage holds it (the topic, not the question). */
export const LOCAL_SPECIFICITY = 0.5;
/** A word no file holds weighs half the rarest word of the vault: notes paraphrase questions' verbs freely. */
export const UNKNOWN_WEIGHT_SHARE = 0.5;

/** Does the sentence hold a word the question's word derives from or to, or misspells (`t.derived`), not the word itself? */
export function holdsDerived(c: Candidate, t: Weighted): boolean {
  if (t.bound?.test(c.text)) return true;
  if (!t.derived) return false;
  for (const w of t.derived) if (c.terms.has(w)) return true;
  return false;
}

/** Do these words hold the question's word itself, or as the passages spell a word it misspells or borrows (`spelledAs`)? */
export function holdsWord(words: ReadonlySet<string>, t: Weighted): boolean {
  return words.has(t.term) || (t.spelledAs !== undefined && words.has(t.spelledAs));
}

/** Does the sentence's note title or heading hold the question's word, or a word derived from it? */
export function inSection(c: Candidate, t: Weighted): boolean {
  if (c.context.has(t.term)) return true;
  if (t.derived) for (const w of t.derived) if (c.context.has(w)) return true;
  return false;
}

export function coverage(c: Candidate, terms: readonly Weighted[], total: number, contextShare = CONTEXT_SHARE): number {
  if (total <= 0) return 1;
  let got = 0;
  for (const t of terms) {
    got += c.terms.has(t.term) ? t.w : holdsDerived(c, t) ? t.w * DERIVED_SHARE : c.antecedent?.has(t.term) ? t.w * ANTECEDENT_SHARE : c.context.has(t.term) ? t.w * contextShare : c.near.has(t.term) ? t.w * NEAR_SHARE : c.pointed?.has(t.term) ? t.w * NEAR_SHARE : c.doc.has(t.term) ? t.w * DOC_SHARE : 0;
  }
  return got / total;
}

/**
 * Code abbreviates: "relay-dev" for "development", `cfg.env` for "environment". A word of a line of
 * code that begins a longer question word (at least 3 letters and 40% of it) counts as that word, in
 * that line only: prose abbreviates rarely, and there a short word is usually a word of its own.
 */
export function withAbbreviations(candidates: readonly Candidate[], qTerms: readonly string[], lang?: string): readonly Candidate[] {
  const long = qTerms.filter((t) => /^[a-z]{6,}$/.test(t));
  if (long.length === 0) return candidates;
  return candidates.map((c) => {
    if (!c.code) return c;
    const own = [...termSet(c.text, lang)].filter((a) => /^[a-z]{3,}$/.test(a));
    const more = long.filter((q) => !c.terms.has(q) && own.some((a) => a.length < q.length && a.length >= 0.4 * q.length && q.startsWith(a)));
    return more.length === 0 ? c : { ...c, terms: new Set([...c.terms, ...more]) };
  });
}

/**
 * The sentence next to the lead, in its passage, that the lead cannot be read without: the one
 * before a lead that opens with a pronoun ("These devices treat…" needs what "these devices" are),
 * or the one after it when that one opens with a pronoun or with a question word the lead holds
 * (`goesOn`) and goes on about the lead's subject with something the question asks ("It was
 * re-established in April 1991"), not with filler ("She likes hiking"). The one before, too, when
 * the lead names the very thing the question asks for by pointing back at it (`pointsAtAsked`:
 * "Which neighborhood lies west of the 41 freeway?" — "*The neighborhood* lies southwest of…": the
 * sentence before says which). On XQuAD-en a wrong answer's fact is often in the lead's neighbour.
 */
export function referredNeighbour(candidates: readonly Candidate[], lead: number, asks: (i: number) => boolean, goesOn: (i: number) => boolean, pointsAtAsked: (text: string) => boolean): number | undefined {
  const c = candidates[lead]!;
  // Two rows of one table are records side by side: the next row opens with the lead's column label, not on its subject.
  const same = (i: number) => i >= 0 && i < candidates.length && candidates[i]!.snippetIndex === c.snippetIndex && !candidates[i]!.code && !c.code && !(c.row && candidates[i]!.row);
  const refers = (t: string) => PRONOUN_START.test(t) || ANAPHOR_START.test(t);
  if (same(lead - 1) && (refers(c.text) || pointsAtAsked(c.text))) return lead - 1;
  if (same(lead + 1) && (refers(candidates[lead + 1]!.text) || goesOn(lead + 1)) && asks(lead + 1)) return lead + 1;
  return undefined;
}

/** Does the text point (a demonstrative, or `withThe` the definite article) at a noun `wanted` holds? */
export function pointsAt(text: string, wanted: (term: string) => boolean, withThe: boolean, lang?: string): boolean {
  for (const m of text.matchAll(withThe ? POINTING_OR_THE : POINTING)) {
    const t = tokenize(m[1]!, lang)[0];
    if (t && wanted(matchForm(t.term))) return true;
  }
  return false;
}

/**
 * The sentence opens (its first content word, after an opening word set off by a comma) with a
 * question word the lead holds: it goes on about the lead's subject ("…a problem instance is a string
 * over an alphabet." "Usually, the alphabet is taken to be the binary alphabet…"; «Трек хранится…»
 * after «…приложение пишет трек курьера»).
 */
export function opensWithLeadWord(next: Candidate, lead: Candidate, asked: readonly Weighted[], lang?: string): boolean {
  const first = tokenize(next.text.replace(OPENING_WORD, ''), lang).find((t) => !isStopword(t.raw, lang));
  const w = first && matchForm(first.term);
  return w !== undefined && lead.terms.has(w) && asked.some((t) => t.w > 0 && t.term === w);
}
