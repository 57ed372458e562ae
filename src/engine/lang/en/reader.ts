/** What the answer reader knows of English (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

/** "What date format", "which date field": a date question only in name, it asks for a named thing. */
export const DATE_COMPOUND = String.raw`(?! (?:formats?|fields?|pickers?|propert(?:y|ies)|ranges?|settings?|types?|strings?|columns?|syntax|templates?)\b)`;

/** After a unit the value is asked in ("…, in minutes?", "in MB for a page"): the clause ends, or goes on with a function word, not a noun ("in days view"). */
const UNIT_END = String.raw`(?=\s*(?:$|[?,.;:!)—–]|(?:for|of|that|which|per|to|by|before|after|and|or|is|are|was|were|does|do|did|can|will|should|would|when|if)\b))`;

/** "release process?", "what's the process for onboarding", "deploy checklist": group 1 the process word. */
const PROCESS_QUESTION = String.raw`^(?:what(?:'s| is| are)? (?:the |our |my )?)?(?:[\p{L}-]+ ){1,3}(process|procedure|workflow|steps|checklist)(?: for [\p{L} -]{1,40})?\s*\??$`;

export const en: ReaderPack = {
  code: 'en',
  questionWords: 'what which who whom whose when where why how does doe did do long often many much kind sort tell explain describe mean'.split(' '),
  /**
   * Function words the index's stopword list keeps ("its", "somewhere", "else", "anyone"): no
   * question's asked content rests on them, yet in a small vault their idf is high, and a quote without
   * "else" read as missing the question's most specific word ("…in my vault folder or somewhere
   * else?"), nor on "will" ("…the largest file Sync Plus will sync"). "own" stays a content word: "on their own" is what some questions ask.
   */
  functionWords: 'its itself she hers herself ours ourselves yours yourself yourselves myself theirs themselves else somewhere anywhere everywhere nowhere someone somebody anyone anybody everyone everybody something anything everything just will'.split(' '),
  framing: [String.raw`(?:can you |could you |please )?remind me`, String.raw`i (?:forgot|forget|can't remember|cannot remember|don't remember|do not remember)`, String.raw`(?:can|could) you tell me`, 'quick question'],
  commandWords: ['command'],
  codeAsked: ['commands?', 'settings?', 'options?', 'flags?', 'switch(?:es)?', '(?:keyboard )?shortcuts?', 'hotkeys?', 'keys?', 'syntax', 'cli', 'terminal', 'propert(?:y|ies)', 'parameters?', 'arguments?', 'variables?', 'config(?:uration)?s?', 'functions?', 'formulas?', 'code', 'scripts?', 'quer(?:y|ies)', 'fields?', 'snippets?', 'regex(?:es)?', 'expressions?', 'plugins? id'],
  stepsHeadings: ['steps?', 'checklist', 'how to', 'instructions?', 'procedure', 'setup', 'set up', 'installation', 'install', 'getting started'],
  pronouns: ['it', 'he', 'she', 'they', 'this', 'these', 'its', 'his', 'her', 'their'],
  openingPronouns: ['it', 'he', 'she', 'they', 'this', 'these', 'its', 'his', 'her', 'their'],
  // "All of this set the stage for…", "Most of these schools are…", "For instance P ⊆ NP…", "As part of this merger…", "Today, this is known as…".
  anaphors: ['those', 'such', 'the latter', 'the former', '(?:most|all|some|many|each|one|none|both|several|few) of (?:these|them|this|those)', 'for instance', 'for example', 'as a result', 'as part of (?:this|these|that)', 'today,? (?:this|these|it)', 'in (?:this|that) (?:way|case)'],
  listAnnouncers: ['the following', 'these'],
  listEndings: ['as follows', 'below', 'listed here'],
  conditions: ['if', 'unless'],
  namingWords: ['called', 'named', 'known', 'termed', 'dubbed', 'referred'],
  asksWhich: ['what', 'which'],
  notAHead: 'is are was were do does did has have had can could will would should may might must of in on at for to from by with the a an'.split(' '),
  demonstratives: ['this', 'these', 'those', 'such'],
  articles: ['the', 'that'],
  defining: ['is an?', 'refers? to', 'is (?:one|a kind|a type) of'],
  // "How can I *export* a note to PDF?": the quote must hold the verb.
  processQuestion: PROCESS_QUESTION,
  taskVerb: { pattern: /(?<![\p{L}])(?:how (?:do|can|could|should|would|will|must) (?:i|we|you|one)|how to)\s+([\p{L}-]+)/iu, required: true },
  // A relative clause ("the person who leads…", "the library that Nadia maintains") or a possessive ("Lukas Becker's manager").
  describesSubject: (q) => /\S\s+(?:who|whom|whose|that|which)\s/i.test(q) || /[\p{L}]'s\s/u.test(q),
  // How a question joins a second part to its first, and opens a relative clause (answer-type.ts).
  partJoiners: ['and'],
  compareWords: ['between', 'differ\\p{L}*', 'compar\\p{L}*', 'versus', 'vs'],
  partPrepositions: ['for', 'in', 'on', 'of', 'with', 'from', 'at', 'under', 'during', 'inside'],
  partOpeners: ['whether', '(?:is|are|was|were|does|do|did|can|will|should) (?:it|they|this|that|these|those|there|he|she)', 'what', 'when', 'who', 'whom', 'whose', 'where', 'why', 'how', 'which', '(?:on|in|at|from|for|by|to|with) (?:what|which|whom)', 'by when', 'for how'],
  relativeWords: ['that', 'which', 'who', 'whom', 'whose', 'where'],
  // How notes state and questions ask the relations of people and records (src/engine/answer/relations.ts).
  relations: {
    decided_by: { stated: ['decider', 'decided', 'decides', 'decide', 'decision maker', 'chose', 'chosen', 'choose', 'picked', 'selected'], label: 'decider decided decision', asked: 'decide decider choose chose chosen pick picked select selected' },
    reports_to: { stated: ['reports? to', 'reporting to', 'manager', 'manages', 'managed by', 'boss', 'supervisor'], label: 'reports manager supervisor', asked: 'manage manages manager managed report reports boss supervisor' },
    authored_by: { stated: ['author', 'authors', 'authored', 'wrote', 'written by'], label: 'author authored written', asked: 'author wrote write written' },
  },
  // How questions ask the fields notes label (front matter properties, "Location:" lines): answer/properties.ts.
  fieldAsked: {
    location: 'where based located live lives living city country place',
    city: 'where based located live lives living city',
    country: 'where based located live lives living country',
    office: 'where based located office',
    address: 'where address live lives located',
    timezone: 'timezone time zone where based',
    role: 'role job position title',
    'job title': 'role job position title',
    team: 'team',
    company: 'company employer',
    employer: 'company employer',
    owner: 'who owns own owner owned responsible',
    assignee: 'who assigned assignee responsible',
    lead: 'who leads lead leader',
    status: 'status state progress',
    priority: 'priority urgent important',
    due: 'when due deadline date',
    'due date': 'when due deadline date',
    deadline: 'when due deadline date',
    date: 'when date day',
    start: 'when started begin began',
    'start date': 'when started begin began',
    // Not "end" (nor "ended", the same stem): "end to end" asks no end date.
    end: 'when finish finished',
    'end date': 'when finish finished',
    birthday: 'when birthday born',
    email: 'email contact reach address',
    phone: 'phone contact reach call number',
    version: 'version',
    source: 'source where from',
    url: 'url link website address',
  },
  // What a question asks of its subject, and what it counts (answer-type.ts askedAttribute, countedUnit).
  attributeOf: [
    /^(?:what|who|which)\s+(?:is|are|was|were)\s+(?:the\s+|a\s+|an\s+)?(?:[\p{L}\p{N}-]+(?:\s[\p{L}\p{N}-]+)?'s?\s+)?([\p{L}\p{N}\s-]+?)(?:\s+(?:of|for|at|in|on|to|from|by)\s|\?|$)/iu,
    /^how (?:many|much) (?:[\p{L}-]+ )?of (?:the |a |an |their |our |his |her )?([\p{L}\p{N}\s-]+?)\s(?:do|does|did|is|are|was|were|can|will|would|has|have|had)\s/iu,
  ],
  formNouns: ['names?', 'nicknames?', 'terms?', 'synonyms?', 'words?', 'titles?', 'percentages?', 'percent', 'numbers?'],
  countedAfter: [String.raw`\bhow many\s+([\p{L}-]+)`],
  notCounted: 'of the times more people are were is was did do does have has will would'.split(' '),
  // How a question asks for each kind of value (src/engine/answer/answer-type.ts): pieces of regular
  // expressions, each with its own word boundaries, matched against the lower-cased question.
  asks: {
    namedPlace: [String.raw`\bwhich (?:city|country|office|town|region)\b`],
    namedDate: [String.raw`\b(?:what|which) (?:year|date${DATE_COMPOUND})\b`],
    version: [String.raw`\b(?:which|what) (?:\p{L}+ )?version\b`],
    // "What size", "how big", "length": a size, answered by a quantity in digits.
    size: [String.raw`(?<![\p{L}])(?:size|sizes|how (?:big|large|long is|heavy)|length|weight)(?![\p{L}])`],
    period: [String.raw`\b(?:what|which)(?:'s| is| was| are)? (?:the |a |an |its |their |my )?(?:[\p{L}-]+ ){0,3}(?:period|duration)\b`, String.raw`\bof what (?:duration|length of time)\b`],
    duration: [String.raw`\b(?:how long|how much (?:\w+ )?time|for how long|how many (?:days|weeks|months|years|hours|minutes|seconds)|how far (?:back|ahead|in advance))\b`],
    frequency: [String.raw`\b(?:how often|how frequently|how regularly|(?:at|in|on) what (?:interval|intervals|frequency|cadence)|what (?:is |was )?(?:the )?(?:interval|frequency|cadence))\b`],
    money: [String.raw`\b(?:how much (?:does|did|do|will|would|is|was|are|were)?\s*(?:[\w'-]+\s+){0,8}(?:cost|pay|paid|charge|spend|spent|earn|raise|budget|price|worth)|how much (?:money|funding|revenue|budget)|what (?:is |was )?(?:the )?(?:(?!(?:for|of|in|on|to|from|with|by|about|at)\b)[\w-]+ ){0,3}(?:price|cost|budget|salary|spend|spending|fee)s?|what (?:is|was|would be) the (?:least|most|minimum|maximum|lowest|highest) (?:[\w'-]+ ){0,4}(?:pay|paid|spend|spent|charge|charged|cost)|(?:what|the) amount of (?:money|funding|cash|capital))\b`],
    measure: [String.raw`\b(?:what|which)(?:'s| is| was| are| were)? (?:the |a |an |its |their |my |your )?(?:[\p{L}-]+ ){0,3}(?:size|length|limit|capacity|count|percentage|rate|speed|height|width|weight|depth|distance|quota|threshold)s?(?=\s*(?:$|[?,.;:!)]|(?:of|for|in|on|at|per|when|if|by|that|does|do|is|are|was|were|will|can|should|would)\b))`],
    number: [String.raw`\b(?:how many|how much|how old|what age|what number of|what amount of|what percentage|what percent|what share|how large|how big|what size)\b`],
    date: [
      String.raw`\b(?:when|(?:what|which) date${DATE_COMPOUND}|what day|which day|what time|what year|which year|by when|how soon|until when|since when|what month)\b`,
      // "What is the launch date?", "What's the deadline for the audit?": the noun names a day as "when" asks it.
      String.raw`\b(?:what|which)(?:'s| is| was| are| were| will be)? (?:the |a |an |its |their |my |your |our )?(?:[\p{L}-]+ ){0,3}(?:date|deadline|due day|day)s?(?=\s*(?:$|[?,.;:!)]|(?:of|for|in|on|at|when|if|by|that|does|do|is|are|was|were|will|can|should|would)\b))`,
    ],
    person: [String.raw`\b(?:who|whom|whose)\b`],
    reason: [String.raw`\b(?:why|for what reason|what (?:was|is|were|are) (?:the |its |their )?(?:root )?(?:cause|reason)s?|what caused)\b`],
    place: [String.raw`\b(?:where|which (?:city|country|office|place|town|region))\b`],
    // Asked without "how do I" too: "steps to run the relay", "walk me through…", "what do I need to do", "what's the way to…".
    procedure: [
      String.raw`\b(?:how (?:do|can|could|should|would|will|must) (?:i|we|you|one)|how (?:i|we) (?:can|should|could|would|need to|have to)|how to|what (?:are|were) the steps|what steps|which steps|steps? (?:to|for)|walk (?:me|us) through|step[- ]by[- ]step|what (?:do|should|must) (?:i|we) (?:need to |have to )?do|what(?:'s| is) the (?:best |right |easiest |quickest )?way to)\b`,
      PROCESS_QUESTION,
    ],
    definition: [String.raw`\b(?:what (?:does|do|did) .{1,60}\bmean|what is meant by|define|what (?:is|are) (?:an? |the )?[\w-]+\??$)`],
    entity: [String.raw`\b(?:which|what)\b`],
    inTimeUnits: [String.raw`\bin (?:milliseconds|ms|seconds|secs?|minutes|mins|hours|days|weeks|months|years)${UNIT_END}`],
    inUnits: [String.raw`\bin (?:bytes|kilobytes|megabytes|gigabytes|terabytes|kb|mb|gb|tb|kib|mib|gib|pixels|px|percent|characters|chars|words|lines|rows|items)${UNIT_END}`],
  },
  // How English sentences state values, and its questions name measures and bounds (answer-type.ts).
  values: {
    frequency: ['daily', 'weekly', 'monthly', 'yearly', 'annually', 'hourly', 'nightly', 'fortnightly'],
    every: ['every', 'each', 'per'],
    within: [String.raw`(?:within|after|before|in|by|no later than)\s+(?:the\s+(?:first|next)\s+)?`],
    days: [String.raw`\b(?:today|tomorrow|yesterday|next week|last week|end of (?:the )?(?:week|month|quarter|year))\b`],
    currency: [String.raw`k\b`, String.raw`m\b`, 'usd', 'eur', 'gbp', 'rub', 'dollars?', 'euros?', 'pounds?'],
    free: ['free(?: of charge)?', 'at no cost', 'no charge'],
    perUnit: [String.raw`(?:per|a|each|every)\s+(?:year|month|week|day|seat|user|person|member)`],
    reason: [
      String.raw`\b(?:because|since|due to|owing to|as a result|caused by|root cause|the reason|so that|in order to|therefore|thus|hence|which is why|that is why|led to|leads to|blocks?|blocked|prevents?|prevented|fails?|failed|too (?:slow|expensive|risky|complex|hard))\b`,
      String.raw`,\s*so\b`,
    ],
    role: [String.raw`(?:the|an?|your|their|its|only the|each|every)\s+(?:[\p{L}-]+\s+)?(?:owners?|admins?|administrators?|managers?|leads?|authors?|maintainers?|editors?|moderators?)`],
    placeBefore: ['in', 'at', 'from', 'near', 'based in', 'located in'],
    placeArticle: ['the'],
    placeField: ['[Cc]ity', '[Tt]own', '[Cc]ountry', '[Oo]ffice', '[Ll]ocation', '[Rr]egion'],
    located: ['in', 'at', 'on', 'under', 'inside', 'within', 'from', 'near', 'into', 'onto', 'below', 'above', 'beside', 'next to'],
    instructs: [String.raw`(?<![\p{L}])you can\s[^.,;]{3,60}\s(?:using|with|by|via)\s`],
    imperative: ['run', 'type', 'enter', 'press', 'execute'],
    settings: ['settings', 'preferences'],
    purpose: ['to'],
    zero: ['none', 'no', 'zero'],
    means: [String.raw`\b(?:means?|stands? for|refers? to|is (?:a|an|the)|are (?:a|an|the)|indicates?)\b`],
    upper: ['biggest', 'largest', 'maximum', 'maximal', 'highest', 'greatest', 'longest', 'heaviest'],
    lower: ['smallest', 'least', 'minimum', 'minimal', 'lowest', 'fewest', 'oldest', 'earliest'],
    atMost: ['up to', 'upto', 'at most', 'no more than', 'not more than', 'not to exceed', 'maximum', 'max', 'limit', 'limited to', 'capped at', 'cap of'],
    atLeast: ['at least', 'minimum', 'min', 'no less than', 'not less than', 'starting at', 'starting from', 'as low as'],
    orMore: ['and above', 'or above', 'and up', 'and later', 'or later', 'and newer', 'or newer', 'and higher', 'or higher', 'or greater', 'or more'],
    may: [String.raw`(?:i|you|we|one)\s+(?:can|could|may|am allowed to|are allowed to)`],
    percent: ['percent', 'percentage', 'per cent'],
    howMeasure: [String.raw`how\s+(big|large|small|soon|frequently|expensive|cheap)`],
    // "When I create a daily note, which…" or "…, on which line…" — not "When did…".
    timeClause: [String.raw`when(?!\s+(?:did|does|do|was|were|is|are|will|would|can|could|should|has|have|had|exactly|roughly)\b)[^,?]{3,}?,\s*(?=(?:and\s+)?(?:(?:on|in|at|to|from|for|with|by|of|into|onto|under|after|before|until)\s+)?(?:what|which|who|whom|whose|where|why|how)(?![\p{L}]))`],
    capacity: [String.raw`\bhow (?:much|many)\b.*\bcan\b`],
    holds: ['hold', 'holds', 'store', 'stores', 'contain', 'contains', 'fit', 'fits', 'take', 'takes', 'carry', 'carries', 'accommodate', 'accommodates', 'accept', 'accepts', 'handle', 'handles'],
  },
};

/**
 * Irregular verbs: the base, then its past and participle forms that differ from it. A question asks
 * "When did the war begin?", "Who led…", "What did she write?" of notes that say "began", "led",
 * "wrote" (Snowball stems only regular endings); forms that are also common nouns or names (left,
 * found, saw, rose, felt, drew, sung) are left out.
 */
export const IRREGULAR_VERBS = `arise arose arisen|awake awoke awoken|beat beaten|become became|begin began begun|bend bent|bite bitten|bleed bled|blow blew blown|break broke broken|breed bred|bring brought|build built|buy bought|catch caught|choose chose chosen|come came|creep crept|deal dealt|dig dug|draw drawn|drink drank drunk|drive drove driven|eat ate eaten|fall fell fallen|feed fed|fight fought|flee fled|fly flew flown|forbid forbade forbidden|foresee foresaw foreseen|forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|give gave given|go went gone|grow grew grown|hide hid hidden|hold held|keep kept|know knew known|lay laid|lead led|lose lost|make made|mean meant|meet met|mistake mistook mistaken|overcome overcame|overthrow overthrew overthrown|pay paid|rebuild rebuilt|ride rode ridden|ring rang rung|rise risen|run ran|see seen|seek sought|sell sold|send sent|shake shook shaken|shine shone|shoot shot|sing sang|sink sank sunk|sit sat|sleep slept|speak spoken|spend spent|spin spun|stand stood|steal stole stolen|stick stuck|strike struck|strive strove striven|swear swore sworn|swim swam swum|swing swung|take took taken|teach taught|tear tore torn|tell told|think thought|throw threw thrown|understand understood|undertake undertook undertaken|uphold upheld|wake woke woken|wear wore worn|weep wept|win won|withdraw withdrew withdrawn|withhold withheld|write wrote written`;

/** Prepositions a question may end on ("Where does she work *from*?", "Who does he report *to*?"). */
export const STRANDED = /(?<![\p{L}])(from|to|in|at|for|with|on|under|after)\s*[?,.!]*\s*$/iu;

// What the asked-type rules (src/engine/answer/answer-type.ts) read as English values and verbs.

/** Number words ("one of them", "one another" pick out a thing and count nothing); alternatives. */
export const NUMBER_WORDS = String.raw`one(?!\s+(?:of|another)\b)|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?|millions?|billions?|dozens?|half|a few|several|once|twice`;
/** Units of time after a number; alternatives. */
export const TIME_UNITS =
  String.raw`ms|milliseconds?|seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h|days?|d|weeks?|wks?|months?|years?|yrs?|decades?|centur(?:y|ies)|nights?|sprints?|quarters?|` +
  `engineer-days?|person-days?|man-days?|business days?|working days?|calendar days?`;
export const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec';
export const WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
/** Ordinals a century is written with ("nineteenth century"). */
export const ORDINALS = 'first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty-first';
/** A word shortly after one of these is probably a verb ("did the team *postpone*", "who *chose*"). */
export const AUXILIARY = /^(?:do|does|did|will|would|can|could|should|shall|may|might|must|to|who|which|that|not|never)$/;
/**
 * The word right after one of these is probably a verb: a subject pronoun ("I *want* to…", "we*'re
 * calling* it") or the "got" of a passive ("got *earmarked*").
 */
export const SUBJECT = /^(?:(?:i|we|you|they)(?:['’](?:re|ve|m|d|ll))?|got)$/;
/** …and not one right after one of these. */
export const DETERMINER = /^(?:the|a|an|this|that|these|those|its|their|his|her|our|your|my|of|for|in|on|at|by|with|from|per|about)$/;
