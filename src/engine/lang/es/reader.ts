/** What the answer reader knows of Spanish (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const es: ReaderPack = {
  code: 'es',
  questionWords: 'cuándo cuando dónde donde por qué cómo cuánto cuánta cuántos cuántas quién quiénes cuál cuáles'.split(' '),
  defining: ['es (?:un|una)', 'se refiere a'],
};

// What the asked-type rules (src/engine/answer/answer-type.ts) read as Spanish values.

/** Units of time after a number; alternatives. */
export const TIME_UNITS = 'segundos?|minutos?|horas?|días?(?: hábiles| laborables)?|semanas?|meses|mes|años?';
/** Months, taken only after a day ("3 de marzo"): "Mayo" is a name in English. */
export const MONTHS = 'enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre';
