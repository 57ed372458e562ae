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
};

// What the asked-type rules (src/engine/answer/answer-type.ts) read as German values.

/** Number words; alternatives. */
export const NUMBER_WORDS = 'zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwanzig|dreißig|vierzig|fünfzig|hundert|tausend|million(?:en)?|milliarde(?:n)?|dutzend|halbe[nr]?|einige|mehrere|einmal|zweimal|dreimal';
/** Units of time after a number: Sekunde(n), Minute(n), Stunde(n), Tag(e/en), Werktag(e/en), Woche(n), Monat(e/en), Jahr(e/en), Quartal(e); alternatives. */
export const TIME_UNITS = String.raw`sekunden?|sek|minuten?|stunden?|std|(?:werk|arbeits|kalender)?tag(?:e|en|es)?|wochen?|monat(?:e|en|s)?|jahr(?:e|en|es)?|jahrzehnt(?:e|en)?|quartal(?:e|en)?|nächte|nächten`;
/** The months English does not spell alike. */
export const MONTHS = 'januar|jänner|februar|märz|mai|juni|juli|oktober|dezember';
export const WEEKDAYS = 'montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonnabend|sonntag';
