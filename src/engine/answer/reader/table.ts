/** The per-candidate score table: how each candidate sentence reads against each part of the question, and the candidates in order of their score. */
import { isStopword, tokenize } from '../../search/analyzer.ts';
import { askedAttribute, assignsUnit, describesUnit, holdsType, isUnit, likelyVerbs } from '../answer-type.ts';
import type { AskedType } from '../answer-type.ts';
import type { Candidate, Part, ReaderOptions } from './types.ts';
import { matchForm, phraseKey, plainText } from './text.ts';
import { askedNouns, questionValues } from './question.ts';
import { CONTEXT_SHARE, coverage, DEFAULT_SELECTION, holdsDerived, inSection, isMarkupFragment, MEASURED, SELECTION_FEATURES, SHARE_SCALE, statedPart, STEP_SECTION, W_TYPE } from './selection.ts';
import { PART_ANSWERED } from './outcome.ts';
import { definesAsked, holdsShare, opensPassage, type SentenceWord, sentenceWords, valueNear } from './sentence-signals.ts';
import type { QuestionWeights } from './weights.ts';

/** The question's cosine to each candidate (undefined without a vector), those there are, and each scaled among this question's candidates. */
export interface Vectors {
  sims: (number | undefined)[];
  withVector: number[];
  simOf: (i: number) => number;
}

/**
 * Cosines scaled to this question's candidates: e5's cosines crowd into a narrow band, so the
 * spread among the candidates says more than the value. A candidate without a vector gets the middle.
 */
export function questionVectors(candidates: readonly Candidate[], options: ReaderOptions): Vectors {
  const sims = candidates.map((c) => options.similarity?.(c.text));
  const withVector = sims.filter((v): v is number => v !== undefined);
  const simLo = withVector.length > 0 ? Math.min(...withVector) : 0;
  const simHi = withVector.length > 0 ? Math.max(...withVector) : 0;
  const simOf = (i: number) => {
    const v = sims[i];
    if (withVector.length < 2 || simHi - simLo < 1e-6) return 0;
    return v === undefined ? 0.5 : (v - simLo) / (simHi - simLo);
  };
  return { sims, withVector, simOf };
}

/** How one candidate reads against one part: whether it answers it (0..1), its ranking score, coverage, typed value, whether it does the asked task, and the selection features. */
export interface PartScore {
  answers: number;
  score: number;
  /**
   * The score on the scale the reader's share rules were set on (SHARE_SCALE: the hand-set weights
   * without the cosine alone; a runner-up within RUNNER_UP_SHARE of the lead). Fitted weights order the
   * candidates; a weight below zero lowers every score and would make those shares stricter.
   */
  hand: number;
  cov: number;
  typed: boolean;
  doesTask: boolean;
  f: number[];
}

/** The score table (candidate × part), the candidates best first, and the two readings later stages ask again. */
export interface Scores {
  table: PartScore[][];
  order: number[];
  /** Whether candidate i holds a value of the first part's asked type that the question does not state. */
  typedOf: (i: number) => boolean;
  /** For "How do I…": the sentence's title and heading name the asked task. */
  namesTask: (c: Candidate, p: Part) => boolean;
}

/**
 * What the score table reads of a question and its candidates that no word's weight changes: each
 * candidate's words, its words as sentence-signals.ts reads them and its shape, the question's asked
 * nouns and verbs, and whether a candidate holds a value of a part's asked type (not for a how-to,
 * whose steps depend on the words weighed). One reading scores the table up to seven times
 * (stability.ts leaves out each heavy word in turn), so it is read once per reading: kept with the
 * reading's vectors, for the same question and candidates.
 */
interface Unweighted {
  question: string;
  candidates: readonly Candidate[];
  words: string[][];
  said: SentenceWord[][];
  shapes: number[][];
  nouns: Set<string>;
  verbs: Set<string>;
  /** Per part, per candidate: 1 or 0 once read. */
  typed: (number | undefined)[][];
}
const UNWEIGHTED = new WeakMap<Vectors, Unweighted>();

function unweighted(question: string, weighed: QuestionWeights, vectors: Vectors): Unweighted {
  const { lang, candidates, parts } = weighed;
  const kept = UNWEIGHTED.get(vectors);
  if (kept && kept.question === question && kept.candidates === candidates && kept.typed.length === parts.length) return kept;
  const formsOf = (words: Iterable<string>) => new Set([...words].flatMap((w) => tokenize(w, lang).filter((t) => !isStopword(t.raw, lang)).map((t) => matchForm(t.term))));
  const made: Unweighted = {
    question,
    candidates,
    words: candidates.map((c) => tokenize(c.text, lang).map((t) => matchForm(t.term))),
    said: candidates.map((c) => sentenceWords(c.text, lang)),
    shapes: candidates.map((c) => [c.code ? 1 : 0, isMarkupFragment(c.text) ? 1 : 0, /[?？]\s*$/.test(c.text) ? 1 : 0, /[:：]\s*$/.test(c.text) ? 1 : 0]),
    nouns: new Set([...askedNouns(question, lang), ...formsOf(askedAttribute(question))]),
    verbs: formsOf(likelyVerbs(question, lang)),
    typed: parts.map(() => []),
  };
  UNWEIGHTED.set(vectors, made);
  return made;
}

/** Scores every candidate against every part of the question with the selection weights, and orders the candidates by their total. */
export function scoreTable(question: string, weighed: QuestionWeights, vectors: Vectors, options: ReaderOptions): Scores {
  const { lang, candidates, all, allTotal, parts } = weighed;
  const { simOf } = vectors;
  const values = questionValues(question, lang);
  // A sentence ending in ":" that introduces a code block announces the value; the line after it holds it.
  // A link to a note that is among the passages is a pointer, not a value: the date in "the reasoning
  // is in [[2026-03-14 Storage decision]]" is the record's date; the record itself states the fact.
  const readable = new Set(candidates.flatMap((c) => (c.titleKey ? [c.titleKey] : [])));
  const ownValues = (c: Candidate, asked: AskedType) => {
    const measured = MEASURED.has(asked.type);
    let text = measured && !c.code ? statedPart(c.text) : c.text;
    // The counted noun stays, even when the question capitalises it ("How many Grammys…" — "Six-time Grammy winner").
    if (values) text = text.replace(values, (v) => (asked.unit && isUnit(v, asked.unit) ? v : ' '));
    if (measured) for (const l of c.links ?? []) if (readable.has(phraseKey(l))) text = text.split(plainText(l)).join(' ');
    return text;
  };
  const intros = new Set(candidates.flatMap((c) => (c.described && c.code && /[:：]\s*$/.test(c.described) ? [c.described] : [])));


  // For "How do I…": the sentence's title and heading name the asked task.
  const namesTask = (c: Candidate, p: Part) => p.total > 0 && p.terms.reduce((sum, t) => sum + (inSection(c, t) ? t.w : 0), 0) >= STEP_SECTION * p.total;

  // Every word of each part, question words too: "where … based" asks a field labelled "location".
  const partWords = parts.map((p) => new Set(tokenize(p.text, lang).map((t) => matchForm(t.term))));
  const weights = options.selection && options.selection.length === SELECTION_FEATURES.length ? options.selection : DEFAULT_SELECTION;
  // The question's content words in order, as adjacent pairs: "relay outage" written together says more than both words apart.
  const qOrder = tokenize(question, lang).map((t) => matchForm(t.term)).filter((t) => all.some((a) => a.term === t && a.w > 0));
  const qPairs = new Set(qOrder.slice(1).map((t, i) => `${qOrder[i]} ${t}`));
  // The question's words a sentence may hold (with the words derived from them).
  const askedTerms = new Set(all.flatMap((t) => (t.w > 0 ? [t.term, ...(t.derived ?? [])] : [])));
  const asked = (term: string) => askedTerms.has(term);
  const fixed = unweighted(question, weighed, vectors);
  const { nouns, verbs } = fixed;
  const shape = candidates.map((c, i) => {
    const words = fixed.words[i]!;
    const said = fixed.said[i]!;
    const pairs = new Set(words.slice(1).map((t, j) => `${words[j]} ${t}`));
    const own = allTotal > 0 ? all.reduce((s, t) => s + (c.terms.has(t.term) ? t.w : 0), 0) / allTotal : 0;
    // Counted once per sentence (with the first part): its own share of the question's words, adjacent
    // pairs, length, and the signals of sentence-signals.ts.
    const once = [
      own,
      qPairs.size === 0 ? 0 : [...qPairs].filter((p) => pairs.has(p)).length / qPairs.size,
      Math.min(1, c.text.split(/\s+/).filter(Boolean).length / 40),
      valueNear(said, asked),
      valueNear(said, asked, true),
      holdsShare(said, nouns),
      holdsShare(said, verbs),
      opensPassage(c.snippetIndex, candidates[i - 1]?.snippetIndex) ? 1 : 0,
      definesAsked(c.text, asked, lang) ? 1 : 0,
    ];
    return { shapes: fixed.shapes[i]!, once };
  });
  /** How well candidate i answers part p, 0..1, and its ranking score. */
  const read = (i: number, p: Part, pi: number) => {
    const c = candidates[i]!;
    // A step of a how-to is about what its note's title and heading say ("Run the relay locally"):
    // for "How do I…", they are the step's own words, as a field line's are.
    // Not a step that does another task than the asked one: "Чтобы начать презентацию:" for «Как разделить слайды?».
    const doesTask = !p.task || c.terms.has(p.task.term) || holdsDerived(c, p.task) || inSection(c, p.task);
    // A field the part asks of the note's subject ("location:" for "Where is Tomás based?") says it of its title: the title's words are its own.
    const fieldAsked = asksField(c, p, partWords[pi]!, lang);
    const cov = coverage(c, p.terms, p.total, (p.asked.type === 'procedure' && stepLine(c) && doesTask) || fieldAsked ? 1 : CONTEXT_SHARE);
    const holds = (line: Candidate) => (!intros.has(c.text) && holdsType(ownValues(c, p.asked), p.asked, line) ? 1 : 0);
    // A how-to's step depends on the words weighed (namesTask): read each time; any other type once per reading.
    const typed =
      p.asked.type === 'any'
        ? 1
        : p.asked.type === 'procedure'
          ? holds({ ...c, item: c.steps === true || (c.item === true && namesTask(c, p)), code: c.code === true && !c.listing && (c.steps === true || c.described !== undefined || namesTask(c, p)) })
          : (fixed.typed[pi]![i] ??= holds(c));
    // A later part shares the first part's subject, so its own kind of value is what tells its
    // sentence apart: "…and when does it start?" is not answered by a sentence without a date.
    const answers = pi > 0 && typed === 0 ? Math.min((1 - W_TYPE) * cov, PART_ANSWERED - 0.01) : (1 - W_TYPE) * cov + W_TYPE * typed;
    const rank = 1 / (1 + c.snippetIndex);
    const whole = coverage(c, all, allTotal, fieldAsked ? 1 : CONTEXT_SHARE);
    const direct = statesDirectly(c, p, typed === 1, doesTask, cov) || (fieldAsked ? 1 : 0);
    const f = [cov, typed, whole, rank, direct, simOf(i) * cov, p.asked.type === 'procedure' && c.steps ? 1 : 0, p.task && doesTask ? 1 : 0, simOf(i), ...shape[i]!.shapes, ...(pi === 0 ? shape[i]!.once : shape[i]!.once.map(() => 0))];
    let score = 0;
    let hand = 0;
    for (let k = 0; k < f.length; k++) {
      score += weights[k]! * f[k]!;
      hand += SHARE_SCALE[k]! * f[k]!;
    }
    return { answers, score, hand, cov, typed: typed === 1, doesTask, f };
  };

  const table = candidates.map((_, i) => parts.map((p, pi) => read(i, p, pi)));
  const typedOf = (i: number) => holdsType(ownValues(candidates[i]!, parts[0]!.asked), parts[0]!.asked, candidates[i]!);
  const order = candidates.map((_, i) => i).sort((a, b) => {
    const sa = table[a]!.reduce((s, r) => s + r.score, 0);
    const sb = table[b]!.reduce((s, r) => s + r.score, 0);
    return sb - sa || a - b;
  });
  return { table, order, typedOf, namesTask };
}

/**
 * A field the part asks of the subject its note is about: "where … based" asks the `location` of
 * *Tomás Herrera* when the question names him ("Where is Tomás based?"), not of any note retrieved.
 * The question names the note when it holds at least half of the words of its title: "the status of
 * the relay" does not name the decision record "2026-04-02 Transport protocol" whose heading
 * mentions the relay, and its "Status: accepted" is read as any other line.
 */
function asksField(c: Candidate, p: Part, words: ReadonlySet<string>, lang?: string): boolean {
  return c.fieldAsks !== undefined && c.subject !== undefined && namesTitle(c.subject, words, lang) && p.terms.some((t) => c.context.has(t.term)) && [...c.fieldAsks].some((t) => words.has(matchForm(t)));
}

/** Whether the question's words hold at least half of a title's words, its numbers aside ("Tomás" of "Tomás Herrera", "Porto offsite" of "2026-04-22 Porto offsite"). */
function namesTitle(title: string, words: ReadonlySet<string>, lang?: string): boolean {
  const own = [...new Set(tokenize(title, lang).filter((t) => !isStopword(t.raw, lang) && !/^\p{N}+$/u.test(t.term)).map((t) => matchForm(t.term)))];
  return own.length > 0 && own.filter((t) => words.has(t)).length * 2 >= own.length;
}

/** A list item or a line of code other than a listing of files: what a how-to's step is written as ("How do I…" counts its section's words as its own). A listing is what a step makes, not a step. */
const stepLine = (c: Candidate): boolean => c.item === true || (c.code === true && !c.listing);

/**
 * Whether the sentence states the part's value in the asked form: the line that sets the counted
 * thing, the asked direct form, or a step that does the asked task.
 */
function statesDirectly(c: Candidate, p: Part, typed: boolean, doesTask: boolean, cov: number): 0 | 1 {
  // The line that sets the counted thing (`MAX_RETRIES = 5`) states the value; a loop that uses it does not.
  // So does an instruction that names the asked task, or a step of a how-to whose title or heading
  // names it ("How do I cut a release?": "Cut a release").
  const step = p.asked.type === 'procedure' && typed && doesTask && p.total > 0 && p.terms.reduce((sum, t) => sum + (c.terms.has(t.term) || holdsDerived(c, t) || ((c.item || c.code) && inSection(c, t)) ? t.w : 0), 0) >= STEP_SECTION * p.total;
  return (p.asked.unit && (assignsUnit(c.text, p.asked.unit) || (c.described && describesUnit(c.described, c.text, p.asked.unit)))) || (p.direct && cov > 0 && p.direct.test(c.text)) || step ? 1 : 0;
}
