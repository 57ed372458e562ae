/** What the answer reader knows of German (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const de: ReaderPack = {
  code: 'de',
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
};
