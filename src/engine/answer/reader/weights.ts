/** How much each of the question's words weighs, and the parts the question asks: the reader's first stage. */
import { isStopword, tokenize } from '../../search/analyzer.ts';
import { askedAttribute, askedType, asksLimit, boundSaid, boundStatement, likelyVerbs, measureWords, processWords, questionParts } from '../answer-type.ts';
import { contentTerms } from '../checks.ts';
import type { Candidate, Part, ReaderOptions, Weighted } from './types.ts';
import { matchForm } from './text.ts';
import { readerPack } from '../../lang/reader-packs.ts';
import { borrowedWord, compoundSplits, derivedWords, directForm, misspelling, NAMING_WORDS, namingForms, questionStems, taskVerb } from './question.ts';
import { INHERITED_CAP, INHERITED_SHARE, LOCAL_SPECIFICITY, UNKNOWN_WEIGHT_SHARE, withAbbreviations } from './selection.ts';

type TermStats = ReturnType<ReaderOptions['termStats']>;

/** What the reader knows of the question's words once weighed; the later stages read it. */
export interface QuestionWeights {
  lang: string | undefined;
  /** The candidates, with the abbreviations of the question's words they spell out. */
  candidates: readonly Candidate[];
  /** The question's own words (stems) and the index's statistics of them. */
  qTerms: string[];
  stats: TermStats;
  /** Each retrieved passage's words, by its rank. */
  passages: Map<number, Set<string>>;
  /** The question's words, weighed, and their total weight. */
  all: Weighted[];
  allTotal: number;
  /** The question's words no file holds, as written; the misspelt ones, with the passages' spelling. */
  unknown: string[];
  spelled: Record<string, string>;
  /** The asked attribute holds a word no file uses: nothing can state it. */
  unknownAttribute: boolean;
  parts: Part[];
}

/**
 * The candidates as a question reads them: a line that states a relation ("Decider: Maya Chen")
 * holds the words that ask it ("chose", "picked") only for a question that asks who. "Which storage
 * engine was chosen…" asks for a thing: the record's decider line does not say "chosen" to it.
 */
function withRelationWords(candidates: readonly Candidate[], question: string): readonly Candidate[] {
  if (!candidates.some((c) => c.relationWords)) return candidates;
  if ([question, ...questionParts(question)].some((q) => askedType(q).type === 'person')) return candidates;
  return candidates.map((c) => {
    if (!c.relationWords) return c;
    // Set aside whole: the line neither holds the words nor makes them known ("your files never mention").
    const { relationWords, ...rest } = c;
    return { ...rest, terms: new Set([...c.terms].filter((t) => !relationWords.has(t))) };
  });
}

/**
 * Weighs the question's words: rare in the vault and in few retrieved passages weighs most; a word no
 * file holds weighs as a missing subject unless it is a verb; a German compound no file holds whole is
 * read as its parts. Then splits the question into its parts, each with its asked type and words.
 */
export function weighQuestion(question: string, given: readonly Candidate[], options: ReaderOptions): QuestionWeights {
  // The question's own words: content words that do not merely frame the question.
  const written = new Map<string, string>();
  const lang = options.language;
  for (const t of tokenize(question, lang)) if (!written.has(t.term)) written.set(t.term, t.raw);
  const qStems = questionStems(lang);
  const measure = new Set([...measureWords(question), ...processWords(question)].flatMap((w) => contentTerms(w, lang)));
  const whole = [...new Set(contentTerms(question, lang))].filter((t) => !qStems.has(t) && !measure.has(t));
  // A German compound no file holds whole is read as its parts ("Bildungsrabatt": Bildung, Rabatt).
  const split = compoundSplits(whole, written, lang, options.termStats);
  const expand = (terms: readonly string[]) => (split.size === 0 ? terms : terms.flatMap((t) => split.get(t) ?? [t]));
  const qTerms = [...new Set(expand(whole))];
  const candidates = withRelationWords(withAbbreviations(given, qTerms, lang), question);
  const stats = options.termStats(qTerms);
  const known = qTerms.filter((t) => (stats.get(t)?.df ?? 0) > 0);
  // Relative to the vault's own scale: in a vault of a few files every idf is near zero.
  const maxIdf = known.length > 0 ? Math.max(...known.map((t) => Math.max(stats.get(t)!.idf, 0.05))) : 1;
  // A word every retrieved passage holds names the topic; one that few or none hold names what is
  // specifically asked, and its absence from the quote says most about whether the notes answer.
  const passages = new Map<number, Set<string>>();
  for (const c of candidates) {
    let set = passages.get(c.snippetIndex);
    if (!set) passages.set(c.snippetIndex, (set = new Set(c.context)));
    for (const t of c.terms) set.add(t);
  }
  // Two passages say little about what is topic; from three on, a word in all of them is.
  const localShare = (t: string) => (passages.size < 3 ? 0 : [...passages.values()].filter((p) => p.has(matchForm(t))).length / passages.size);
  // A verb no file uses is a paraphrase ("postpone" for "deferred"), not a missing subject: it does not count.
  const verbs = new Set([...likelyVerbs(question, lang)].flatMap((w) => contentTerms(w, lang)));
  const weightOf = (t: string) => {
    const s = stats.get(t);
    const base = s && s.df > 0 ? Math.max(s.idf, 0.05) : verbs.has(t) ? 0 : maxIdf * UNKNOWN_WEIGHT_SHARE;
    return base * (1 - LOCAL_SPECIFICITY * localShare(t));
  };
  const { derivedOf, spelled, spelledAs } = derivedForms(qTerms, written, candidates, stats, lang);
  const boundOf = (word: string) => {
    const bound = boundStatement(word, question);
    return bound ? { bound } : {};
  };
  // The superlative of a limit ("the largest file I can email") is what the question asks, however
  // common the word: it weighs as the question's rarest word.
  const limit = asksLimit(question);
  const weightOfWord = (t: string) => (limit && boundSaid(written.get(t) ?? t) ? Math.max(weightOf(t), maxIdf) : weightOf(t));
  const weighted = (terms: readonly string[]): Weighted[] =>
    [...new Set(terms)].filter((t) => qTerms.includes(t)).map((t) => ({ term: matchForm(t), stem: t, raw: written.get(t) ?? t, w: weightOfWord(t), ...(derivedOf.has(matchForm(t)) ? { derived: derivedOf.get(matchForm(t))! } : {}), ...(spelledAs.has(matchForm(t)) ? { spelledAs: spelledAs.get(matchForm(t))! } : {}), ...boundOf(written.get(t) ?? t) }));
  const all = weighted(qTerms);
  const allTotal = all.reduce((s, t) => s + t.w, 0);
  // A word no file uses, unless a line holds it as the words its relation is asked by ("boss" for "Reports to: Maya Chen").
  const relationHeld = new Set(candidates.flatMap((c) => (c.relationWords ? [...c.relationWords] : [])));
  const unused = (stem: string) => (stats.get(stem)?.df ?? 0) === 0 && !relationHeld.has(matchForm(stem));
  const unknown = all.filter((t) => unused(t.stem)).map((t) => t.raw);
  // The asked attribute ("per-seat price") holds a word no file uses: nothing can state it.
  const attribute = new Set(askedAttribute(question).flatMap((w) => expand(contentTerms(w, lang))));
  const unknownAttribute = [...attribute].some((t) => qTerms.includes(t) && unused(t));
  const parts = weighParts(question, (text) => weighted(expand(contentTerms(text, lang))), all, allTotal, options);
  return { lang, candidates, qTerms, stats, passages, all, allTotal, unknown, spelled, unknownAttribute, parts };
}

/**
 * The candidates' words derived from each question word or it from them; for a word no file holds,
 * the passages' word it misspells (and how the passages spell it).
 */
function derivedForms(qTerms: readonly string[], written: ReadonlyMap<string, string>, candidates: readonly Candidate[], stats: TermStats, lang: string | undefined) {
  const vocabulary = new Set(candidates.flatMap((c) => [...c.terms]));
  const derivedOf = new Map<string, Set<string>>();
  for (const t of qTerms) {
    const form = matchForm(t);
    const found = new Set([...vocabulary].filter((w) => derivedWords(w, form)));
    if (found.size > 0) derivedOf.set(form, found);
  }
  // Naming verbs stand for each other: "What is the configuration folder called?" is answered by "…is named `.obsidian`".
  const naming = namingForms(lang);
  for (const t of qTerms) {
    const form = matchForm(t);
    // The verb as the question writes it: "the name of…" asks for a name, which "known as" does not give.
    if (!naming.has(form) || !NAMING_WORDS.includes((written.get(t) ?? t).toLowerCase())) continue;
    const found = [...vocabulary].filter((w) => w !== form && naming.has(w));
    if (found.length > 0) derivedOf.set(form, new Set([...(derivedOf.get(form) ?? []), ...found]));
  }
  const spelled: Record<string, string> = {};
  /** Each misspelled or borrowed word's form as the passages write it: the same word, held as fully as the word itself. */
  const spelledAs = new Map<string, string>();
  const typos = qTerms.filter((t) => (stats.get(t)?.df ?? 0) === 0 && /^\p{L}+$/u.test(written.get(t) ?? t));
  if (typos.length > 0) {
    // The passages' words (lower case), each as first written, with its matched form and how often it occurs.
    const seen = new Map<string, { as: string; form: string; count: number }>();
    for (const c of candidates) for (const tok of tokenize(c.text, lang)) {
      const w = tok.raw.toLowerCase();
      const entry = seen.get(w);
      if (entry) entry.count++;
      else if (!isStopword(tok.raw, lang)) seen.set(w, { as: tok.raw, form: matchForm(tok.term), count: 1 });
    }
    // A word of the question's script its speakers borrow from English, in their letters: «кафку» for Kafka.
    const toLatin = readerPack(lang ?? 'en')?.toLatin;
    for (const t of typos) {
      const typed = (written.get(t) ?? t).toLowerCase();
      const latin = toLatin && /\P{Script=Latin}/u.test(typed) ? [toLatin(typed), toLatin(matchForm(t))] : null;
      const borrowed = (entry: [string, { form: string }]) => latin !== null && (borrowedWord(latin[0]!, entry[0]) || borrowedWord(latin[1]!, entry[1].form));
      let best: [string, { as: string; form: string; count: number }] | undefined;
      // As written, or (an inflected language ends its words otherwise) as stems: «курьров», «курьерах».
      for (const entry of seen) if ((misspelling(typed, entry[0]) || misspelling(matchForm(t), entry[1].form) || borrowed(entry)) && (!best || entry[1].count > best[1].count)) best = entry;
      if (!best) continue;
      spelled[written.get(t) ?? t] = best[1].as;
      const form = matchForm(t);
      derivedOf.set(form, new Set([...(derivedOf.get(form) ?? []), best[1].form]));
      spelledAs.set(form, best[1].form);
    }
  }
  return { derivedOf, spelled, spelledAs };
}

/** The question's parts ("…, and when does it start?"), each with its asked type, its words and those it inherits from the first. */
function weighParts(question: string, wordsOf: (text: string) => Weighted[], all: Weighted[], allTotal: number, options: ReaderOptions): Part[] {
  const lang = options.language;
  const texts = questionParts(question);
  const first = wordsOf(texts[0]!);
  const parts: Part[] = texts.map((text, i) => {
    const own = wordsOf(text);
    // A later part is about the first part's subject ("and what was *its* root cause", "и когда *он* начнётся"):
    // the first part's words count a quarter in it.
    // In a part that asks something of its own (two words or more), together they weigh at most half
    // its own words: a first part full of rare values ("at 09:45 on Jan 1st 2024") would otherwise make
    // its own sentence the answer to "and what happens when a note with that name exists?". A part of
    // one word ("…, and what other characteristic?") is about the first part's subject.
    const ownWeight = own.reduce((sum, t) => sum + t.w, 0);
    const lent = first.filter((f) => !own.some((o) => o.term === f.term));
    const lentWeight = lent.reduce((sum, f) => sum + f.w * INHERITED_SHARE, 0);
    const capped = own.filter((t) => t.w > 0).length >= 2 && lentWeight > INHERITED_CAP * ownWeight;
    const share = capped ? (INHERITED_SHARE * INHERITED_CAP * ownWeight) / lentWeight : INHERITED_SHARE;
    const inherited = i === 0 ? [] : lent.map((f) => ({ ...f, w: f.w * share }));
    const terms = [...own, ...inherited];
    const asked = askedType(text);
    const direct = options.directForms && (lang === undefined || lang === 'en') ? directForm(text, asked.type) : undefined;
    const verb = asked.type === 'procedure' ? taskVerb(text, lang) : undefined;
    const task = verb === undefined ? undefined : own.find((t) => t.term === verb.form);
    return { text, asked, terms, total: terms.reduce((s, t) => s + t.w, 0), own, ownTotal: ownWeight, ...(direct ? { direct } : {}), ...(task ? { task, taskRequired: verb!.required } : {}) };
  });
  // A part with no word of its own ("and when?") is about the rest of the question.
  for (const p of parts) if (p.total === 0) Object.assign(p, { terms: all, total: allTotal });
  return parts;
}
