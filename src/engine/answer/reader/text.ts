/** Text as the answer reader reads it: Markdown markup removed, words stemmed and matched (matchForm), phrases and names keyed. */
import { foldText, isStopword, stemWord, tokenize } from '../../search/analyzer.ts';
import { boundedMemo } from '../memo.ts';
import { IRREGULAR_VERBS } from '../../lang/en/reader.ts';
import { FLEETING_VOWEL } from '../../lang/ru/reader.ts';

/** A wikilink without an alias as Obsidian shows it: "Note > Heading" for [[Note#Heading]], the note alone for a block ([[Note#^id]]) or a PDF page ([[Doc.pdf#page=3]]). */
function linkText(target: string): string {
  const at = target.indexOf('#');
  if (at < 0) return target;
  const note = target.slice(0, at).trim();
  const sub = target.slice(at + 1).trim();
  if (sub === '' || sub.startsWith('^') || /^[a-z]+=/.test(sub)) return note || sub.replace(/^\^/, '');
  return note ? `${note} > ${sub}` : sub;
}

/** Markdown emphasis and link syntax removed, the words kept: what a person reads. */
export function plainText(text: string): string {
  return text
    .replace(/!?\[\[([^\]|]+)\|([^\]]+)\]\]/g, '$2')
    .replace(/!?\[\[([^\]]+)\]\]/g, (_, target: string) => linkText(target))
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(?=\S)([^*_]*?\S)\1/g, '$2')
    .replace(/(?<![\w*])\*(?=\S)([^*]*?\S)\*(?![\w*])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The form the reader matches a stem by (the index's statistics keep the stem). An English irregular
 * past or participle is its verb: a question asks "When did the war begin?", "Who led…", "What did
 * she write?" of notes that say "began", "led", "wrote" (Snowball stems only regular endings);
 * forms that are also common nouns or names (left, found, saw, rose, felt, drew, sung) are left as
 * they are. A Russian stem with its fleeting vowel dropped: Павел / Павла, день / дня, конец / конца
 * stem to "павел" / "павл", "ден" / "дн", "конец" / "конц", so a name or noun asked in another case
 * meets its note.
 */
export function matchForm(term: string): string {
  const base = IRREGULAR.get(term);
  if (base !== undefined) return base;
  return FLEETING_VOWEL.test(term) ? `${term.slice(0, -2)}${term.slice(-1)}` : term;
}

/** Each English irregular past or participle's stem, and its verb's (lang/en/reader.ts). */
const IRREGULAR: ReadonlyMap<string, string> = new Map(
  IRREGULAR_VERBS.split('|').flatMap((entry) => {
    const [base, ...forms] = entry.split(' ');
    const to = stemWord(base!, 'en');
    return forms.map((f) => [stemWord(f, 'en'), to] as [string, string]).filter(([from]) => from !== to);
  }),
);

export function termSet(text: string, lang?: string): Set<string> {
  // A hop reads the same passages again: their words are stemmed once (a copy is handed out, as callers add to it).
  const kept = termMemo(`${lang ?? ''}\u0000${text}`, () => {
    const out = new Set<string>();
    for (const t of tokenize(text, lang)) {
      if (isStopword(t.raw, lang)) continue;
      out.add(matchForm(t.term));
      for (const p of t.parts) out.add(matchForm(p));
    }
    return out;
  });
  return new Set(kept);
}
const termMemo = boundedMemo<ReadonlySet<string>>(20_000);

export const phraseKey = (s: string) => ` ${plainText(s).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
/** A name as it is matched: stemmed, so "Цапля" meets "Цапли" and "Tomás" meets "Tomás's". */
export const nameKey = (word: string, lang?: string) => matchForm(stemWord(foldText(word).toLowerCase(), lang));
