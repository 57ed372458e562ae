/** The answer reader's shapes: a passage's quotable units, the candidates built of them, the options, and the reading it returns (reader.ts). */
import type { AskedType } from '../answer-type.ts';
import type { NotFoundCauses } from './outcome.ts';

export type Outcome = 'answered' | 'partial' | 'not_found';

export interface Candidate {
  /** The sentence as quoted (markup removed, wrapped lines joined). */
  text: string;
  /** Snippet number it comes from. */
  n: number;
  snippetIndex: number;
  /** Stemmed words of the sentence, identifier parts included. */
  terms: Set<string>;
  /** Stemmed words of its note's title and heading. */
  context: Set<string>;
  /** Stemmed words of the sentences just before and after it in its passage. */
  near: Set<string>;
  /** A sentence that opens with a pronoun ("It was re-established in 1991"): the words of the sentence before it, which name its subject. */
  antecedent?: Set<string>;
  /** Stemmed words of every retrieved passage of its note (shared by the note's candidates). */
  doc: Set<string>;
  /**
   * The names it is about, lower-cased: the capitalised words of the sentence (not its first word)
   * that the passages never write in lower case ("Kestrel", "Tomás"), and those of its note's title
   * when the title is a name ("Tomás Herrera"). Two sentences of different notes that share a name
   * are two hops of one chain: "Version 1.0: Kestrel" and "Kestrel beta go date: 2026-05-18".
   */
  names?: Set<string>;
  /** The names of its note's title, when the title is a name ("Tomás Herrera"): what its note is about. */
  titleNames?: Set<string>;
  /** The names its text holds, in order: the first is what the sentence is about ("Анна руководит…, в неё входят Павел Ким"). */
  nameOrder?: string[];
  /** The names every retrieved passage of its note holds (shared by the note's candidates). */
  noteNames?: Set<string>;
  /** Its note's title as a phrase key (" 2026 03 14 storage decision "): a sentence that names it links to the note. */
  titleKey?: string;
  /** Its note's title, as written. */
  title?: string;
  /** The notes its [[wikilinks]] name. */
  links?: string[];
  /** Stemmed words of the sentences of other notes that link to its note: they say what the note is about. */
  pointed?: Set<string>;
  /**
   * A line of code (a statement, or a line of a code block in a note): a command or a setting, a
   * named thing in itself.
   */
  code?: boolean;
  /** A line of a code block that lists files and folders (what a program creates, a project's layout): read, not typed. */
  listing?: boolean;
  /** A line of a shell code block in a note: a command a person types. */
  command?: boolean;
  /**
   * The words a question asks this field line's relation by that the line does not say itself
   * ("chose", "picked" for "Decider: Maya Chen"): among its terms only where the question asks who.
   * A sentence that states it by a verb ("Decided on 2026-03-14 to use SQLite…") keeps them: it
   * also says what was chosen.
   */
  relationWords?: ReadonlySet<string>;
  /**
   * The text that says what this line is: the comment right above a statement ("// Сколько раз
   * повторяем отправку": `MaxPushRetries = 4`), or the sentence ending in ":" that introduces a
   * code block ("Поднимите окружение одной командой:" `make dev-stack`). Its words count as the
   * line's own; its counted noun names the line's number.
   */
  described?: string;
  /** For a "Field: value" line, its note's title: the subject the field is about ("Город: Казань" in "Анна Соколова"). */
  subject?: string;
  /** For a field line whose label a language pack knows ("location:"), the terms of the words a question asks it with ("where", "based"): the asked form. */
  fieldAsks?: ReadonlySet<string>;
  /** An item of a list or a field line: what a sentence ending in ":" before it announces. */
  item?: boolean;
  /** A step: an item of a numbered list, or an item or command under a heading that names steps ("Steps", "Checklist", "How to apply", «Шаги», "Anleitung"). */
  steps?: boolean;
  /** A row of a table, read with its header: the rows of one table are records side by side. */
  row?: boolean;
}

/** A quotable piece of a passage: a sentence or a line of code, and what introduces it. */
export interface PassageUnit {
  text: string;
  /** The first sentence of a list item. */
  item?: boolean;
  /** The first sentence of an item of a numbered list ("1. Open Settings."): a step. */
  numbered?: boolean;
  /** A "Field: value" line: it states something of its note's subject. */
  field?: boolean;
  /** A row of a table, read with its header ("Code: AUR-1102; Meaning: …"). */
  row?: boolean;
  code?: boolean;
  /** The notes its [[wikilinks]] name. */
  links?: string[];
  /** A line of a shell code block (```sh, ```bash, …): a command a person types. */
  command?: boolean;
  /** A line of a code block that lists files and folders ("Airtable/", "Tasks.base"). */
  listing?: boolean;
  described?: string;
  /** The text of its links that read as a title of their own (four words or more): what another note is about. */
  pointers?: string[];
  /** The title of the callout it is in ("> [!note] The .canvas file extension"): a heading of its own. */
  heading?: string;
  /** The FAQ question (a bold question alone on the line before) the sentence's paragraph answers: its words are the sentence's own. */
  answers?: string;
}

export interface ReaderOptions {
  /** idf and document frequency (in the whole vault) of stemmed question words. */
  termStats: (terms: readonly string[]) => Map<string, { idf: number; df: number }>;
  /** Most sentences quoted. Default 3. */
  maxSentences?: number;
  /**
   * The question's cosine to a candidate's sentence, from stored sentence vectors (undefined: no
   * vector for it, e.g. a line of code). Absent without an embedding model.
   */
  similarity?: (text: string) => number | undefined;
  /**
   * Whether one sentence (or one per part or hop) must hold the question's words together. Default
   * true; false for a chat model's answer, which paraphrases the notes: whether they state the fact
   * was read on the notes themselves.
   */
  together?: boolean;
  /**
   * The analysis language of the question and its passages (analyzer.ts: 'de', 'fr', ...; default
   * English), the one its stemmed words are looked up in `termStats` with.
   */
  language?: string;
  /**
   * Rank a sentence that states the value in the form the question's wording shows (directForm)
   * above one that only shares its words. For a question about a known subject. Default false.
   */
  directForms?: boolean;
  /**
   * The weights of a sentence's selection features (SELECTION_FEATURES, in order), fitted by
   * `synapsis tune --answers`; absent: DEFAULT_SELECTION.
   */
  selection?: readonly number[];
  /** Return each candidate's selection features with the reading (what `synapsis tune --answers` fits on). */
  collectCandidates?: boolean;
  /**
   * Only the quote and its outcome are wanted, not what the fitted scorer weighs: the lead's
   * stability (stability.ts, up to seven more scorings) is not measured and reads 1. For a reading
   * whose signals nobody scores (the bridge's reading of each part, the clause's subject).
   */
  quoteOnly?: boolean;
}

/** One candidate's selection features (summed over the question's parts) and its text, for fitting. */
export interface CandidateRow {
  text: string;
  snippetIndex: number;
  features: number[];
}

export interface PartReading {
  /** The part of the question as written. */
  part: string;
  type: AskedType['type'];
  /** 0..1: how well the best quoted sentence answers this part. */
  score: number;
  answered: boolean;
}

export interface Reading {
  outcome: Outcome;
  /** The quoted sentences, best first, each followed by " [n]"; empty when not found. */
  answer: string;
  /** With a not_found outcome: the sentences the reader would have quoted, each followed by " [n]". */
  withheld?: string;
  /** The passages the withheld sentences come from (with `withheld`). */
  withheldCited?: number[];
  cited: number[];
  /** 0..1: the evidence that the quoted text answers the question (the confidence's main input). */
  answerability: number;
  parts: PartReading[];
  /**
   * Question words (as written) that no quoted sentence or its note's title holds, rarest first; when
   * nothing is quoted (not found), those that no retrieved passage holds: what the search lacked.
   */
  missing: string[];
  /** Question words no file of the vault holds at all. */
  unknown: string[];
  /** Of those, the ones that misspell a word of the passages (misspelling), with that word as written: { recovry: 'recovery' }. */
  spelled?: Record<string, string>;
  /** The attribute the question asks ("per-seat price") has a word no file uses: no answer can be in the notes. */
  unknownAttribute: boolean;
  /** Best candidates (with a not_found outcome: the closest sentences to read), best first. */
  closest: { text: string; n: number }[];
  /** The best sentence of each of the best passages (at most three), best first: what an unsure answer shows beside its quote. */
  passageBest: { text: string; n: number }[];
  /** The best sentences not quoted (no code, no markup fragment), best first, at most three: what an unsure answer shows after its quote. */
  runnersUp?: { text: string; n: number }[];
  /** The question's best cosine to a quoted sentence (or, not found, to any candidate); null without sentence vectors. */
  similarity: number | null;
  /**
   * What the best sentences name that the question does not — notes they link to, names they hold
   * ("Tomás Herrera", "Kestrel") — best first, at most three: the subjects a second hop reads about.
   */
  hops: string[];
  /**
   * For "How do I…": the snippet number of the note whose title or heading names the asked task,
   * when no step of that note is quoted: its steps may be in a passage retrieval did not bring.
   */
  task?: number;
  /** What the reading measured on its way to the outcome: the calibrated scorer's inputs (answer/reader/features.ts). */
  signals: ReadingSignals;
  /** Every candidate's selection features, with ReaderOptions.collectCandidates. */
  candidateRows?: CandidateRow[];
  /**
   * The question is written in another script than its notes and was read by meaning (sentence
   * vectors, answer/reader/meaning.ts): the quote is the closest sentences, never Answered.
   */
  byMeaning?: true;
}

/** The reader's own measurements of its best quote (or, not found, its best candidate), all plain numbers. */
export interface ReadingSignals {
  /** Share of the question's word weight the quote and its notes' titles hold. */
  held: number;
  /** Mean and lowest of the parts' scores; the best part's. */
  partMean: number;
  partMin: number;
  partBest: number;
  /** Parts of the question, and how many of them the quote answers. */
  parts: number;
  partsAnswered: number;
  /** How clearly one sentence holds the question's words together, minus the bar it must clear. */
  togetherMargin: number;
  /** The lead's coverage of the first part, and of the whole question. */
  leadCoverage: number;
  leadWhole: number;
  /** The lead holds a value of the first part's asked type (1 when any value will do). */
  leadTyped: number;
  /** Passage rank (0 = first) of the lead. */
  leadRank: number;
  /** The runner-up's ranking score over the lead's: near 1, the reader cannot tell them apart. */
  runnerUp: number;
  /** The lead is a line of code, a list item, a field line or a step; it ends in ":"; it asks a question. */
  leadCode: number;
  leadItem: number;
  leadField: number;
  leadColon: number;
  leadQuestion: number;
  /** The lead reads as markup, not prose: a YAML-like "key: value" fragment of a few words, or a table row. */
  leadMarkup: number;
  /** Words of the first quoted sentence. */
  leadWords: number;
  /** Sentences quoted; candidates read; passages read. */
  quoted: number;
  candidates: number;
  passages: number;
  /** Share of the question's words no file holds. */
  unknownShare: number;
  /** Question words with weight. */
  questionWords: number;
  /** The asked type of the first part, and whether it names its value's form. */
  askedType: string;
  strict: number;
  /** Sentence vectors: the quote's cosine above the candidates' mean; the best cosine (0 without vectors). */
  simGap: number;
  simBest: number;
  hasVectors: number;
  /** The share of readings without one of the question's heaviest words that choose the same lead (stability.ts); absent in readings stored before it was measured. */
  leadStable?: number;
  /** Why the outcome is not found, each 0 or 1 (outcome.ts NotFoundCauses); absent in readings stored before they were recorded. */
  causes?: NotFoundCauses;
  /** Retrieval's side of answerability (retrieval-signals.ts RetrievalSignals); absent in readings stored before they were measured. */
  topShare?: number;
  top3Share?: number;
  rankGap?: number;
  missingRare?: number;
  topNotes?: number;
  leadFirstNote?: number;
  /** The best coverage of the first part by a candidate that holds a value of its asked type. */
  typedCover?: number;
  /** The share of the first three passages' candidates that hold a value of the first part's asked type. */
  typedShare?: number;
  /** A name is asked and the lead names nothing the question does not (sentence-signals.ts namesNewTerm); absent in readings stored before it was measured. */
  leadUnnamed?: number;
}

export interface Weighted {
  /** The form a sentence's words are matched by (matchForm). */
  term: string;
  /** The stem as the index counts it (term statistics). */
  stem: string;
  raw: string;
  w: number;
  /** The candidates' words derived from it or it from them (derivedWords), or that it misspells, when there are any. */
  derived?: ReadonlySet<string>;
  /** The passages' form of a word no file holds that it misspells or borrows ("recovry": recovery, «кафку»: kafka): held as the word itself. */
  spelledAs?: string;
  /** For a word that asks for a bound ("biggest"), how a sentence states one ("up to 5 MB"): it holds the word as a derived word. */
  bound?: RegExp;
}

export interface Part {
  text: string;
  asked: AskedType;
  terms: Weighted[];
  total: number;
  /** What a sentence that states the value directly holds (directForm). */
  direct?: RegExp;
  /** Its own words (without the first part's it inherits), and their weight. */
  own: Weighted[];
  ownTotal: number;
  /** For "How do I…": the asked task's verb among the part's words, and whether the quote must hold it (see taskVerb). */
  task?: Weighted;
  taskRequired?: boolean;
}
