/** What the answer reader knows of French (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const fr: ReaderPack = {
  code: 'fr',
  questionWords: 'quand où pourquoi combien quel quelle quels quelles qui que quoi lequel laquelle'.split(' '),
  defining: ['est (?:un|une)', 'désigne'],
  // How a question asks for each kind of value (src/engine/answer/answer-type.ts): pieces of regular
  // expressions, each with its own word boundaries, matched against the lower-cased question.
  asks: {
    namedDate: [String.raw`(?<![\p{L}])(?:quelle année|en quelle année|quelle date)(?![\p{L}])`],
    duration: [String.raw`(?<![\p{L}])(?:combien de temps|pendant combien de temps)(?![\p{L}])`],
    frequency: [String.raw`(?<![\p{L}])(?:à quelle fréquence|tous les combien)(?![\p{L}])`],
    money: [String.raw`(?<![\p{L}])(?:combien coûte|combien coûtent|combien co[uû]te|quel est le prix)(?![\p{L}])`],
    number: [String.raw`(?<![\p{L}])(?:combien)(?![\p{L}])`],
    date: [String.raw`(?<![\p{L}])(?:quand|à quelle date|en quelle année)(?![\p{L}])`],
    person: [String.raw`(?<![\p{L}])(?:qui)(?![\p{L}])`],
    reason: [String.raw`(?<![\p{L}])(?:pourquoi)(?![\p{L}])`],
    place: [String.raw`(?<![\p{L}])(?:où)(?![\p{L}])`],
    procedure: [String.raw`(?<![\p{L}])(?:comment (?:puis-je|faire|peut-on))(?![\p{L}])`, String.raw`^comment \p{L}+(?:er|ir|re)(?![\p{L}])`],
    definition: [String.raw`(?<![\p{L}])(?:que signifie|qu'est-ce que)(?![\p{L}])`],
    entity: [String.raw`(?<![\p{L}])(?:quel|quelle|quels|quelles|lequel|laquelle)(?![\p{L}])`],
  },
  // How French sentences state values (answer-type.ts).
  values: {
    free: [String.raw`gratuit\p{L}*`],
    reason: [String.raw`(?<![\p{L}])(?:parce que|à cause de|grâce à|afin de|pour que|c'est pourquoi)(?![\p{L}])`],
    percent: ['pourcentage'],
  },
};

// What the asked-type rules (src/engine/answer/answer-type.ts) read as French values.

/** Units of time after a number (those English does not spell alike); alternatives. */
export const TIME_UNITS = 'secondes?|heures?|jours?(?: ouvrés| ouvrables)?|semaines?|mois|ans|années?';
/** Months, taken only after a day ("3 mars", "1er avril"): "Mars" is a name in English. */
export const MONTHS = 'janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre';
