/** What the answer reader knows of Spanish (reader-pack.ts). */
import type { ReaderPack } from '../reader-pack.ts';

export const es: ReaderPack = {
  code: 'es',
  questionWords: 'cuándo cuando dónde donde por qué cómo cuánto cuánta cuántos cuántas quién quiénes cuál cuáles'.split(' '),
  defining: ['es (?:un|una)', 'se refiere a'],
  // How a question asks for each kind of value (src/engine/answer/answer-type.ts): pieces of regular
  // expressions, each with its own word boundaries, matched against the lower-cased question.
  asks: {
    namedDate: [String.raw`(?<![\p{L}])(?:en qué año|qué año|qué fecha)(?![\p{L}])`],
    duration: [String.raw`(?<![\p{L}])(?:cuánto tiempo|durante cuánto tiempo)(?![\p{L}])`],
    frequency: [String.raw`(?<![\p{L}])(?:con qué frecuencia|cada cuánto)(?![\p{L}])`],
    money: [String.raw`(?<![\p{L}])(?:cuánto cuesta|cuánto cuestan|cuál es el precio)(?![\p{L}])`],
    number: [String.raw`(?<![\p{L}])(?:cuántos|cuántas|cuánto|cuánta)(?![\p{L}])`],
    date: [String.raw`(?<![\p{L}])(?:cuándo|en qué fecha|en qué año)(?![\p{L}])`],
    person: [String.raw`(?<![\p{L}])(?:quién|quiénes)(?![\p{L}])`],
    reason: [String.raw`(?<![\p{L}])(?:por qué|para qué)(?![\p{L}])`],
    place: [String.raw`(?<![\p{L}])(?:dónde|adónde)(?![\p{L}])`],
    procedure: [String.raw`(?<![\p{L}])(?:cómo (?:puedo|se puede|hago))(?![\p{L}])`, String.raw`(?<![\p{L}])cómo \p{L}+(?:ar|er|ir)(?![\p{L}])`],
    definition: [String.raw`(?<![\p{L}])(?:qué significa|qué es)(?![\p{L}])`],
    entity: [String.raw`(?<![\p{L}])(?:cuál|cuáles|qué)(?![\p{L}])`],
  },
  // How Spanish sentences state values (answer-type.ts).
  values: {
    free: ['gratuitamente'],
    reason: [String.raw`(?<![\p{L}])(?:porque|debido a|a causa de|por eso|para que)(?![\p{L}])`],
    percent: ['porcentaje'],
  },
};

// What the asked-type rules (src/engine/answer/answer-type.ts) read as Spanish values.

/** Units of time after a number; alternatives. */
export const TIME_UNITS = 'segundos?|minutos?|horas?|días?(?: hábiles| laborables)?|semanas?|meses|mes|años?';
/** Months, taken only after a day ("3 de marzo"): "Mayo" is a name in English. */
export const MONTHS = 'enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre';
