/** What the answer reader knows of German (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const de: ReaderPack = {
  code: 'de',
  codeAsked: ['befehl\\p{L}*', 'einstellung\\p{L}*', 'option\\p{L}*', 'tastenk\\p{L}*', 'tastatur\\p{L}*', 'syntax', 'eigenschaft\\p{L}*', 'parameter\\p{L}*', 'argument\\p{L}*', 'variable\\p{L}*', 'funktion\\p{L}*', 'formel\\p{L}*', 'code', 'skript\\p{L}*', 'abfrage\\p{L}*', 'feld\\p{L}*', 'ausdr\\p{L}*'],
  questionWords: (
    'wie wann wo woher wohin warum weshalb wieso weswegen wozu wer wen wem wessen was welche welcher welches welchen welchem ' +
    'womit wofür woraus worauf wodurch worin wovon lange oft häufig viele viel wieviel wieviele gibt'
  ).split(' '),
  stepsHeadings: ['schritte', 'anleitung', 'vorgehen', 'einrichtung'],
  listAnnouncers: ['folgende[nrs]?'],
  listEndings: ['wie folgt', 'unten'],
  // "Wenn du 2 Geräte hast, …"
  conditions: ['wenn', 'falls', 'sofern'],
  namingWords: 'heißt heißen genannt nennt nennen bezeichnet namens'.split(' '),
  asksWhich: ['welche[rsmn]?'],
  demonstratives: 'dieser diese dieses diesen diesem'.split(' '),
  defining: ['ist (?:ein|eine)', 'bezeichnet'],
  // How a question joins a second part to its first, and opens a relative clause (answer-type.ts).
  partJoiners: ['und', 'sowie'],
  compareWords: ['zwischen', 'unterschied\\p{L}*', 'vergleich\\p{L}*'],
  partPrepositions: ['für', 'in', 'im', 'auf', 'bei', 'unter', 'mit'],
  partOpeners: ['ob', 'wie', 'wann', 'wo', 'wer', 'wen', 'wem', 'warum', 'weshalb', 'wieso', 'was', 'welche[rsmn]?', 'womit', 'wofür', 'wohin', 'woher', '(?:in|an|auf|aus|bei|mit|nach|von|vor|zu|für|seit|bis|um|über|unter) (?:welche[rsmn]?|wem|wen|was)'],
  relativeAfterComma: ['der', 'die', 'das', 'dem', 'den', 'deren', 'dessen', 'denen', 'welche[rsmn]?'],
  // What a question asks of its subject, and what it counts (answer-type.ts askedAttribute, countedUnit).
  // German names its nouns with a capital: "Was ist der Preis von …", "Wer ist die Geschäftsführerin
  // der …", "Wie viele Wochen Elternzeit bekommen …" ask for Preis, Geschäftsführerin, Elternzeit.
  attributeNouns: [
    /^(?:was|wer|welche[rsmn]?|wie hoch|wie groß|wie lang)\s+(?:ist|sind|war|waren)\s+(?:der|die|das|den|dem|des|ein|eine|einer|eines)\s+((?:\p{Ll}[\p{L}-]*\s+)?\p{Lu}[\p{L}-]*)(?=\s+(?:von|für|bei|des|der|im|in|am|auf|zu|zum|zur|unter)\s|\s*\?|$)/iu,
    /^wie viele?\s+\p{Lu}[\p{L}-]*\s+(\p{Lu}[\p{L}-]*)\s/u,
  ],
  formNouns: ['namen?', String.raw`begriff\p{L}*`, String.raw`bezeichnung\p{L}*`, 'prozent', 'anzahl', 'zahl'],
  countedAfter: [String.raw`(?<![\p{L}])(?:wie viele|wie viel|wieviele?)\s+([\p{L}-]+)`],
  notCounted: 'mal prozent davon es gibt gab sind ist hat haben kann können darf dürfen muss müssen soll werden wird mehr noch insgesamt ich man wir sie du der die das den dem'.split(' '),
  // How a question asks for each kind of value (src/engine/answer/answer-type.ts): pieces of regular
  // expressions, each with its own word boundaries, matched against the lower-cased question.
  asks: {
    namedPlace: [String.raw`(?<![\p{L}])(?:in welcher stadt|in welchem land)(?![\p{L}])`],
    namedDate: [String.raw`(?<![\p{L}])(?:in welchem jahr|welches datum|an welchem datum)(?![\p{L}])`],
    version: [String.raw`(?<![\p{L}])(?:welche[rnms]? version|in welcher version|seit welcher version|ab welcher version)(?![\p{L}])`],
    size: [String.raw`(?<![\p{L}])(?:größe|grösse|wie groß|länge|gewicht)(?![\p{L}])`],
    duration: [String.raw`(?<![\p{L}])(?:wie lange|wie viel zeit|für wie lange|wie viele (?:sekunden|minuten|stunden|tage|werktage|wochen|monate|jahre)|wie lang(?:e)? (?:dauert|dauern|hält|halten|braucht|brauchen))(?![\p{L}])`],
    frequency: [String.raw`(?<![\p{L}])(?:wie oft|wie häufig|in welchen abständen|in welchem abstand|in welchem rhythmus)(?![\p{L}])`],
    money: [String.raw`(?<![\p{L}])(?:wie viel (?:kostet|kosten|kostete|zahl\p{L}*|bezahl\p{L}*)|was kostet|was kosten|wie teuer|was zahl\p{L}*|welchen preis|welcher preis|wie hoch (?:ist|sind|war|waren) (?:der|die|das) (?:preis|kosten|gebühr\p{L}*|betrag))(?![\p{L}])`],
    number: [String.raw`(?<![\p{L}])(?:wie viele|wie viel|wieviele?|wie hoch|wie groß|wie alt|wie weit|welcher anteil|wie viel prozent|wie viele prozent|welche anzahl)(?![\p{L}])`],
    date: [String.raw`(?<![\p{L}])(?:wann|an welchem (?:tag|datum)|welches datum|in welchem jahr|in welchem monat|seit wann|bis wann|ab wann|um wie viel uhr|zu welcher zeit|bis zu welchem)(?![\p{L}])`],
    person: [String.raw`(?<![\p{L}])(?:wer|wen|wem|wessen)(?![\p{L}])`],
    reason: [String.raw`(?<![\p{L}])(?:warum|weshalb|wieso|weswegen|aus welchem grund|was ist der grund|was war der grund|wozu)(?![\p{L}])`],
    place: [String.raw`(?<![\p{L}])(?:wo|wohin|woher|an welchem ort|in welcher stadt|in welchem land|in welchem ordner|an welcher stelle)(?![\p{L}])`],
    procedure: [
      String.raw`(?<![\p{L}])(?:wie kann ich|wie können wir|wie kann man|wie mache ich|wie gehe ich vor|was muss ich tun)(?![\p{L}])`,
      String.raw`(?<![\p{L}])wie (?!(?:viele|lange|alte|große|hohe|weite)(?![\p{L}]))\p{L}+e ich(?![\p{L}])`,
    ],
    definition: [String.raw`(?<![\p{L}])(?:was (?:bedeutet|bedeuten|heißt|meint)|was versteht man unter|was (?:ist|sind) (?:ein|eine|der|die|das)? ?[\p{L}-]+\??$)(?![\p{L}])`],
    entity: [String.raw`(?<![\p{L}])(?:welche|welcher|welches|welchen|welchem|was|womit|wofür|woraus|worauf|wodurch|worin|wovon)(?![\p{L}])`],
  },
  // How German sentences state values, and its questions name measures and bounds (answer-type.ts).
  values: {
    frequency: ['täglich', 'wöchentlich', 'monatlich', 'jährlich', 'stündlich', 'nächtlich'],
    every: ['alle', 'jede[nrs]?', 'pro'],
    within: [String.raw`(?:innerhalb(?: von)?|binnen|nach|vor|in|bis zu|spätestens nach|ab)\s+(?:(?:den|dem|der|die)\s+)?(?:(?:ersten|nächsten|letzten)\s+)?`],
    days: [String.raw`(?<![\p{L}])(?:heute|morgen|gestern|übermorgen)(?![\p{L}])`],
    currency: ['franken', 'chf'],
    free: ['kostenlos', 'kostenfrei', 'gratis', 'umsonst'],
    perUnit: [String.raw`pro\s+(?:jahr|monat|woche|tag|nutzer|platz)`],
    reason: [String.raw`(?<![\p{L}])(?:weil|denn|wegen|aufgrund|auf grund|deshalb|deswegen|daher|darum|damit|sodass|so dass|um zu|grund|ursache|verhindert|verhindern|blockiert)(?![\p{L}])`],
    placeBefore: ['im', 'aus', 'bei', 'nach', 'unter', 'auf der', 'in der', 'im ordner'],
    placeArticle: ['dem', 'der', 'den'],
    placeField: ['[Ss]tadt', '[Ll]and', '[Bb]üro', '[Oo]rt'],
    located: ['im', 'am', 'auf', 'unter', 'bei', 'aus', 'neben'],
    imperative: ['führe', 'gib', 'drücke'],
    settings: ['einstellungen'],
    purpose: ['um'],
    zero: ['kein', 'keine', 'keinen', 'null'],
    upper: ['größte[nrms]?', 'grösste[nrms]?', String.raw`maximal\p{L}*`, 'höchste[nrms]?', 'höchstens', 'längste[nrms]?'],
    lower: ['kleinste[nrms]?', String.raw`mindest\p{L}*`, String.raw`minimal\p{L}*`, 'niedrigste[nrms]?', 'älteste[nrms]?', 'früheste[nrms]?'],
    atMost: ['bis zu', 'höchstens', 'maximal', 'obergrenze', 'limit'],
    atLeast: ['mindestens', 'minimal', 'ab'],
    orMore: ['und höher', 'oder höher', 'und neuer', 'oder neuer', 'oder später', 'und mehr', 'oder mehr'],
    may: [String.raw`(?:kann|darf|können|dürfen)\s+(?:ich|man|wir)`, String.raw`(?:ich|man|wir)\s+(?:\p{L}+\s+)?(?:kann|darf|können|dürfen)`],
    percent: ['prozent', 'prozentsatz'],
    howMeasure: [String.raw`wie\s+(groß|gross|klein|teuer)`],
    timeClause: [String.raw`wann(?!\s+(?:ist|sind|war|waren|wird|werden|hat|haben)(?![\p{L}]))[^,?]{3,}?,\s*(?=(?:und\s+)?(?:(?:in|an|auf|mit|von|zu|bei|nach|für|aus|über|unter)\s+)?(?:was|welche[rsmn]?|wer|wo|warum|wie)(?![\p{L}]))`],
  },
};

// What the asked-type rules (src/engine/answer/answer-type.ts) read as German values.

/** Number words; alternatives. */
export const NUMBER_WORDS = 'zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwanzig|dreißig|vierzig|fünfzig|hundert|tausend|million(?:en)?|milliarde(?:n)?|dutzend|halbe[nr]?|einige|mehrere|einmal|zweimal|dreimal';
/** Units of time after a number: Sekunde(n), Minute(n), Stunde(n), Tag(e/en), Werktag(e/en), Woche(n), Monat(e/en), Jahr(e/en), Quartal(e); alternatives. */
export const TIME_UNITS = String.raw`sekunden?|sek|minuten?|stunden?|std|(?:werk|arbeits|kalender)?tag(?:e|en|es)?|wochen?|monat(?:e|en|s)?|jahr(?:e|en|es)?|jahrzehnt(?:e|en)?|quartal(?:e|en)?|nächte|nächten`;
/** The months English does not spell alike. */
export const MONTHS = 'januar|jänner|februar|märz|mai|juni|juli|oktober|dezember';
export const WEEKDAYS = 'montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonnabend|sonntag';
