/**
 * What the answer reader (src/engine/answer/reader/) knows of one language: the words that frame a
 * question, the pronouns a sentence leans on the one before with, the words that open a condition,
 * name a thing or announce a list, and how a how-to question names its task. Each language is one
 * folder, `src/engine/lang/<code>/reader.ts` with its table test beside it; reader-packs.ts lists
 * them. Entries marked "alternatives" are pieces of a regular expression (case-insensitive, Unicode),
 * the rest plain words.
 */
/**
 * The kinds of value a question may ask for, as the asked-type rules read them
 * (src/engine/answer/answer-type.ts): the form of the value ("which version", "which city":
 * namedPlace, "what year": namedDate, "the … period", "what is the size of", «какая зарплата»:
 * amount; "what size", «какой вес», "wie groß": size) or the question word ("how long", "how often", "how
 * much does … cost", "how many", "when", "who", "why", "where", "how do I", "what does … mean", "which").
 * `inTimeUnits` and `inUnits` name the unit the value is asked in ("…, in minutes?", «в байтах»): a
 * question that opens with "what"/«какой», or with no question word, is then asked for a number.
 */
export type AskedCue = 'version' | 'size' | 'namedPlace' | 'namedDate' | 'period' | 'duration' | 'frequency' | 'money' | 'amount' | 'measure' | 'number' | 'date' | 'person' | 'reason' | 'place' | 'procedure' | 'definition' | 'entity' | 'inTimeUnits' | 'inUnits';

/**
 * How this language's sentences state a value, and its questions name a measure or a bound, as the
 * asked-type rules read them (src/engine/answer/answer-type.ts). Each entry is a list of alternatives
 * of a regular expression (case-insensitive, Unicode, unless said otherwise), joined over the packs in
 * pack order and put between the rule's own word boundaries; a "piece" brings its own.
 */
export interface ValueWords {
  /** Adverbs of frequency: "daily", «ежедневно», "täglich". */
  frequency?: readonly string[];
  /** Before a unit of time: "every (2) weeks", «каждые», "alle". */
  every?: readonly string[];
  /** Pieces: what stands before a span of time from now, the spaces and articles after it included: "within (the first) 5 days", «через», "innerhalb von (den ersten)". */
  within?: readonly string[];
  /** Pieces: a day named relative to today: "tomorrow", «завтра», "übermorgen". */
  days?: readonly string[];
  /** After an amount: currency words and codes ("usd", "dollars", «руб…», "chf"). */
  currency?: readonly string[];
  /** What costs nothing: "free of charge", «бесплатно», "kostenlos". */
  free?: readonly string[];
  /** A price's unit: "per month", «в месяц», "pro Monat". */
  perUnit?: readonly string[];
  /** Pieces: a reason stated: "because", «потому что», "weil", "因为". */
  reason?: readonly string[];
  /** A person named by a role: "the vault owner", «руководитель». */
  role?: readonly string[];
  /** Before a capitalised place name (case-sensitive): "based in", «в», "im". */
  placeBefore?: readonly string[];
  /** An article between such a word and the name (case-sensitive): "the", "dem". */
  placeArticle?: readonly string[];
  /** The label of a line that names a place (case-sensitive, so both cases of its first letter): "[Cc]ity", «[Гг]ород». */
  placeField?: readonly string[];
  /** Prepositions of place before any word: "under", «под», "neben". */
  located?: readonly string[];
  /** Pieces: an instruction in a sentence's own words: "you can … using …". */
  instructs?: readonly string[];
  /** Imperatives before a `command`: "run", «запустите», "führe". */
  imperative?: readonly string[];
  /** The settings a path through them opens with: "Settings >", «Настройки >». */
  settings?: readonly string[];
  /** What opens the purpose clause an instruction starts with: "To …, …", «Чтобы …, …». */
  purpose?: readonly string[];
  /** Words that count none: "no", «ни», "kein". */
  zero?: readonly string[];
  /** Pieces: what says what a thing means: "stands for", «означает». */
  means?: readonly string[];
  /** Superlatives that ask an upper bound: "largest", «максимальн…», "höchste". */
  upper?: readonly string[];
  /** Superlatives that ask a lower bound: "oldest", «минимальн…», "älteste". */
  lower?: readonly string[];
  /** An upper bound stated before its number: "up to", «не более», "bis zu". */
  atMost?: readonly string[];
  /** A lower bound stated before its number: "at least", «не менее», "mindestens". */
  atLeast?: readonly string[];
  /** A lower bound stated after its number: "or later", «и выше», "oder höher". */
  orMore?: readonly string[];
  /** That someone may do a thing: "I can", «можно», "kann ich". */
  may?: readonly string[];
  /** Words for "percent", which notes write as a sign. */
  percent?: readonly string[];
  /** Pieces, each with one group, the adjective: "how (big)", "wie (teuer)" name the measure asked, not a word of the answer. */
  howMeasure?: readonly string[];
  /** Pieces, tried at the question's start: a leading clause of time that is not itself asked, up to the comma after which the question opens ("When I create a daily note, which…"). */
  timeClause?: readonly string[];
  /** Pieces: a question that asks a capacity ("how much … can"). */
  capacity?: readonly string[];
  /** The verbs of such a question: "hold", "store". */
  holds?: readonly string[];
}

/** The relations a note's front matter or a field line states of a record or a person (graph/extract.ts). */
export type RelationType = 'decided_by' | 'reports_to' | 'authored_by';

export interface ReaderPack {
  /** The analysis language's code (analyzer.ts: 'en', 'ru', 'de', …). */
  code: string;
  /** Words that frame a question rather than say what it is about ("what", «когда», "wann"). */
  questionWords: readonly string[];
  /**
   * Words the stopword list keeps but no question's asked content rests on, for a question in this
   * language only ("else", "will"; «нужно»).
   */
  functionWords?: readonly string[];
  /**
   * Phrases that open a question as a person asks it, before what is asked ("remind me, …", "I forgot
   * which…", «Напомни, …»): left out of the question the reader reads, so that their words are not
   * words "your files never mention". Matched whole at the start only: "…send a reminder" is asked.
   */
  framing?: readonly string[];
  /** The words (stems) a line of a shell code block answers to besides its own: it is a command. */
  commandWords?: readonly string[];
  /**
   * Alternatives: words by which a question asks for a command, setting or piece of syntax ("which
   * command", "what shortcut", «какой параметр»): only such a question is answered by a line of code.
   */
  codeAsked?: readonly string[];
  /** Alternatives: a heading over the steps of a how-to ("Steps", «Шаги», "Anleitung"). */
  stepsHeadings?: readonly string[];
  /** Alternatives: a pronoun a sentence opens with when it is about what the sentence before names. */
  pronouns?: readonly string[];
  /** Alternatives: a pronoun or demonstrative inside a sentence's opening phrase. */
  openingPronouns?: readonly string[];
  /** Alternatives: other openings that lean on the sentence before ("for example", «например»). */
  anaphors?: readonly string[];
  /** Alternatives: what a sentence that announces a list ends on, a word or two after it ("the following methods."). */
  listAnnouncers?: readonly string[];
  /** Alternatives: what a sentence that announces a list ends with ("as follows."). */
  listEndings?: readonly string[];
  /** Alternatives: a word that opens a condition ("if"): a value in the condition is supposed, not stated. */
  conditions?: readonly string[];
  /** Verbs that give a thing its name ("called", «называется», "heißt"): one stands for another. */
  namingWords?: readonly string[];
  /** Alternatives: "what/which" before the noun it asks for ("what device", «какой файл»). */
  asksWhich?: readonly string[];
  /** Alternatives: a word after "what/which" that is no noun of it ("is", "the"). */
  notAHead?: readonly string[];
  /** Alternatives: demonstratives ("this", «этот», "dieser"). */
  demonstratives?: readonly string[];
  /** Alternatives: the definite article (and "that") before the asked noun. */
  articles?: readonly string[];
  /** Alternatives: what defines the words before it ("is a", "refers to", «— это»): a sentence that introduces its topic. */
  defining?: readonly string[];
  /**
   * How a question in this language asks for each kind of value: pieces of regular expressions, each
   * with its own word boundaries (a script without spaces has none), matched against the lower-cased
   * question. The pieces of every pack are joined in pack order; the first match in the question decides.
   */
  asks?: Partial<Record<AskedCue, readonly string[]>>;
  /** Alternatives: the words that join a question's second part to its first ("and", «а также», "sowie"). */
  partJoiners?: readonly string[];
  /**
   * Alternatives: how a question's second part opens after such a word, with a question word of its
   * own or asking yes or no ("…and what was its root cause", "…and is it stored", «…и хранятся ли»).
   */
  partOpeners?: readonly string[];
  /**
   * Alternatives: prepositions that, repeated after a joining word, ask the same of a second thing
   * ("…for the dev profile and for the release profile", «…для dev и для release»).
   */
  partPrepositions?: readonly string[];
  /** Alternatives: words of a comparison ("difference between", «чем отличается»): it asks of its two things together, never as two parts. */
  compareWords?: readonly string[];
  /** Alternatives: the words that open a relative clause after a question's first word ("that", «который»). */
  relativeWords?: readonly string[];
  /** Alternatives: the words that open a relative clause after a comma only (German's articles: "…das Plugin, das Anna pflegt"). */
  relativeAfterComma?: readonly string[];
  /**
   * The relations between people and records notes state by a label and questions ask by a verb
   * (src/engine/answer/relations.ts), by the graph's relation type: `stated`, alternatives a note
   * states it with ("decider", «решение принимал\p{L}*»); `label`, the words a note labels it
   * with (searched for its line); `asked`, the words a question asks it with.
   */
  relations?: Partial<Record<RelationType, { stated: readonly string[]; label: string; asked: string }>>;
  /**
   * The words a question asks a field with, by the field's label as notes write it (a front matter
   * property's key or a body's "Label:"; lower case, "_" and "-" read as spaces): "where … based"
   * asks a `location`, "when … due" a `due` date. A field line with such a label holds those words.
   */
  fieldAsked?: Readonly<Record<string, string>>;
  /**
   * What a question asks of its subject ("What is Aurora's *per-seat price*", «Каков *бюджет*
   * проекта»): patterns tried on the question in pack order, group 1 the words (verbs, prepositions
   * and form nouns left out).
   */
  attributeOf?: readonly RegExp[];
  /** The same for a language that capitalises its nouns, tried first on the question with its first letter lowered: group 1's capitalised words. */
  attributeNouns?: readonly RegExp[];
  /** Alternatives: nouns that name the form of an answer, not an attribute of the subject ("the *nickname* for", "the *percentage* of"). */
  formNouns?: readonly string[];
  /** How a question names what it counts ("how many *retries*", «сколько *планшетов*»): patterns, group 1 the counted word. */
  countedAfter?: readonly string[];
  /** Words after "how many" that count nothing ("of", «раз», "mal"). */
  notCounted?: readonly string[];
  /**
   * A question that only names a process ("release process?", "deploy checklist"): a how-to, whose
   * process word (group 1) frames it as "how do I" does. A source of a pattern, matched whole.
   */
  processQuestion?: string;
  /** How a how-to question names its task's verb (group 1), and whether the quote must hold that verb (else it only ranks). */
  taskVerb?: { pattern: RegExp; required: boolean };
  /** How its sentences state values and its questions name measures and bounds (answer-type.ts). */
  values?: ValueWords;
  /**
   * The question names its subject by a description rather than a name (a relative clause, a
   * possessive): its answer may take a second hop. `question` has its apostrophes made plain.
   */
  describesSubject?: (question: string) => boolean;
  /**
   * A word of this language's script in Latin letters, for the words its speakers borrow and write
   * in their own letters («кафку», «батча», «пуш» for Kafka, batch, push): a question word no file
   * holds is read as the passages' Latin word it spells so (question.ts borrowedWord).
   */
  toLatin?: (word: string) => string;
}
