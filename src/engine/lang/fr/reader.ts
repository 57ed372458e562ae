/** What the answer reader knows of French (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const fr: ReaderPack = {
  code: 'fr',
  questionWords: 'quand où pourquoi combien quel quelle quels quelles qui que quoi lequel laquelle'.split(' '),
  defining: ['est (?:un|une)', 'désigne'],
};

// What the asked-type rules (src/engine/answer/answer-type.ts) read as French values.

/** Units of time after a number (those English does not spell alike); alternatives. */
export const TIME_UNITS = 'secondes?|heures?|jours?(?: ouvrés| ouvrables)?|semaines?|mois|ans|années?';
/** Months, taken only after a day ("3 mars", "1er avril"): "Mars" is a name in English. */
export const MONTHS = 'janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre';
