/**
 * One node for the forms of one name: names that differ only in number or case form ("WebSocket",
 * "WebSockets"; "Москва", "Москвы", "Москвой") share a merge key, computed when the entity is stored
 * (entities.node_key, migration 017) and used as its node's id. The rule is strict on purpose: it
 * reads each word of a name on its own and takes off only an ending of a closed list, so two names
 * merge only where their words differ by nothing but such endings. Derived words keep their own
 * node ("Организация", "Организатор"; "Release", "Released"), and so do words of languages the rule
 * does not know, words with digits ("Windows10") and words of two scripts ("Windowsных").
 *
 * Letter case was never part of a name's identity (entities are keyed by the folded name: "Windows"
 * and a link to [[windows]] are one node), so the rule reads words whatever their case; only the
 * case of an acronym's letters matters: a word all in capitals keeps its S ("HTTPS" is not "HTTP";
 * "PDFs" is "PDF"), and so does a word ending in a capital ("ReFS", "iOS").
 *
 * - English (ASCII letters, words of four letters or more): the regular plural and the possessive:
 *   -s, -es after s/x/z/ch/sh, -ies of a -y after a consonant, -'s. A singular ending in
 *   s/x/z/ch/sh takes an -e, so that "Class"/"Classes" meet in the middle while "Cache"/"Caches"
 *   still do. Not -s after s, u or i ("Status", "Redis" are singular); -ies is always -y's
 *   ("Movies" stays apart from "Movie" rather than "Marie" joining "Mary").
 * - Russian (Cyrillic letters of the Russian alphabet only): a noun's case and number endings,
 *   the longest of the list that leaves a stem of at least four letters. Endings that may belong
 *   to a stem are not in it: -ов/-ев (Петров is not Петр), -о (Марио is not Мария); a word with
 *   an ending only adjectives have (-ый, -ые, -ое, -ых, -ым, -ыми) is left as written.
 */
import { normalizeName } from './names.ts';

/** Entity types whose names are things with forms; tags, statuses, dates, modules and symbols keep their exact key. */
const FORMED_TYPES: ReadonlySet<string> = new Set(['ref', 'name', 'person', 'project', 'organization', 'technology', 'concept', 'decision']);

/** Russian noun endings, longest first (gen. pl. -ов/-ев and -о left out: see above). */
const RU_ENDINGS = ['ами', 'ями', 'ою', 'ею', 'ом', 'ем', 'ой', 'ей', 'ью', 'ам', 'ям', 'ах', 'ях', 'а', 'я', 'е', 'ы', 'и', 'у', 'ю', 'ь', 'й'];
/** Endings only adjectives have (hard stems): a word with one is left as written. */
const ADJECTIVE = /(?:ый|ые|ое|ых|ым|ыми)$/;
/** A Russian stem keeps at least this many letters. */
const RU_MIN_STEM = 4;
/** An English stem keeps at least this many letters. */
const EN_MIN_STEM = 3;

const LATIN = /^[A-Za-z]+$/;
const RUSSIAN = /^[А-ЯЁа-яё]+$/;

/** An English word's merge form: lower case, plural and singular brought to one spelling. */
function englishForm(word: string): string {
  // An acronym: only its lower-case plural "s" goes ("PDFs", "GPUs"; never "HTTPS" → "HTTP").
  if (/^[A-Z]{2,}s$/.test(word)) return word.slice(0, -1).toLowerCase();
  // All in capitals, or ending in a capital ("ReFS", "iOS"): no plural to take off.
  if ((word.length > 1 && word.toUpperCase() === word) || /[A-Z]$/.test(word)) return word.toLowerCase();
  const w = word.toLowerCase();
  // A short word has no stem to speak of ("Ops", "Gas", "Bus" keep their s).
  if (w.length <= EN_MIN_STEM) return w;
  const stem = (n: number) => w.length - n >= EN_MIN_STEM;
  // Plurals.
  if (/[^aeiou]ies$/.test(w) && stem(3)) return `${w.slice(0, -3)}y`; // libraries → library (movies stay: not Mary/Marie)
  if (/(?:s|x|z|ch|sh)es$/.test(w) && stem(2)) return w.slice(0, -1); // classes → classe (= class)
  if (/[^siu']s$/.test(w) && stem(1)) return w.slice(0, -1); // websockets → websocket
  // A singular ending in a hiss meets its -es plural's stem.
  if (/(?:s|x|z|ch|sh)$/.test(w)) return `${w}e`; // class → classe, status → statuse
  return w;
}

/** A Russian word's merge form: lower case (ё as е), without a noun ending of the list. */
function russianForm(word: string): string {
  const w = word.toLowerCase().replace(/ё/g, 'е');
  // An acronym ("МГУ", "ФНС") has no case endings written on it; an adjective's hard endings are
  // no noun's ("Данные" is not "Данный", "Неактивное" not "Неактивно").
  if (word.toUpperCase() === word || ADJECTIVE.test(w)) return w;
  for (const ending of RU_ENDINGS) if (w.endsWith(ending) && w.length - ending.length >= RU_MIN_STEM) return w.slice(0, -ending.length);
  return w;
}

/** One word's merge form; a word of neither alphabet is only folded. */
export function wordForm(word: string): string {
  if (LATIN.test(word)) return englishForm(word);
  if (RUSSIAN.test(word)) return russianForm(word);
  return word.toLowerCase();
}

/**
 * The key of the node a stored entity stands for: its folded name (names.ts normalizeName) with
 * each word in its merge form; for a tag, status, date, module or symbol, the folded
 * name alone. A name no rule applies to keeps its folded name, so most nodes keep their id.
 */
export function mergeKey(type: string, name: string): string {
  if (!FORMED_TYPES.has(type)) return normalizeName(name);
  // A possessive is its name ("Greenway's" is Greenway, "Users'" Users): not inside a word ("O'Brien").
  const plain = name.replace(/(\p{L})['’]s?(?![\p{L}\p{N}])/gu, '$1');
  // Words are runs of letters and digits; one with digits ("Windows10") or two scripts ("Windowsных") is left as it is.
  return normalizeName(plain.replace(/[\p{L}\p{N}]+/gu, (w) => (/\p{N}/u.test(w) ? w : wordForm(w))));
}
