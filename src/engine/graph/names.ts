import path from 'node:path';
import { foldText, stemWord } from '../search/analyzer.ts';

/** How names compare in the graph: case, accents, ё/е and spacing folded ("Tomás  HERRERA" = "tomas herrera"). */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ё/g, 'е')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** A name reduced to its words: "2026-04-16 Release codenames" → "2026 04 16 release codenames". */
export function wordsKey(name: string): string {
  return normalizeName(name).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

function aliasesOf(json: string): string[] {
  try {
    const meta = JSON.parse(json) as { aliases?: unknown };
    return Array.isArray(meta.aliases) ? meta.aliases.map(String) : [];
  } catch {
    return [];
  }
}

/** The note's label in the graph: its title, else its file name without the extension. */
export function noteLabel(notePath: string, title: string | null): string {
  return title ?? path.basename(notePath, path.extname(notePath));
}

/**
 * The names a note answers to, in the order they claim a name: label, file name, path without the
 * extension, then its front-matter aliases. A [[link]] or a stored name resolves to a note by any of them.
 */
export function noteNames(notePath: string, title: string | null, metaJson: string): string[] {
  return [noteLabel(notePath, title), path.basename(notePath, path.extname(notePath)), notePath.replace(/\.[^.]+$/, ''), ...aliasesOf(metaJson)];
}

/** The second key a link to a path resolves by (`people/Maya Chen` also names the note "Maya Chen"). */
export function refBaseKey(type: string, name: string): string | null {
  return type === 'ref' ? normalizeName(path.posix.basename(name)) : null;
}

/** A note's names as stored (note_names): folded and as words, each folded name once, empty ones dropped. */
export function noteNameKeys(notePath: string, title: string | null, metaJson: string): { key: string; words: string }[] {
  const out: { key: string; words: string }[] = [];
  for (const name of noteNames(notePath, title, metaJson)) {
    const key = normalizeName(name);
    if (key && !out.some((n) => n.key === key)) out.push({ key, words: wordsKey(name) });
  }
  return out;
}

/** Documents a name's count is read up to: a name this many notes use is a name, whatever else they write. */
export const NAME_DOCS_CAP = 25;
/**
 * The word in lower case and its index term, to test a name found in running text against the
 * vault's other uses of the word; null where the test does not apply: names of several words,
 * acronyms ("QUIC"), and words with digits or punctuation ("Wi-Fi").
 */
export function lowerCaseForm(name: string): { word: string; term: string } | null {
  const word = lowerCaseWord(name);
  return word === null ? null : { word, term: stemWord(foldText(word)) };
}

/** lowerCaseForm's word alone (no index term): what the index counts the lower-case writings of. */
export function lowerCaseWord(name: string): string | null {
  if (!/^\p{L}+$/u.test(name) || name.toUpperCase() === name) return null;
  return name.toLowerCase();
}

/**
 * A word of prose as the vault's lower-case writing of a name is counted: a run of letters after a
 * space, an opening mark or the start of the text, before a space, a closing mark, a full stop that
 * ends a sentence or the end of the text; not inside an address or a path ("github.com", "/sync/").
 * queries/graph.ts wordGlobs says the same in SQL (name-words.test.ts holds the two together).
 */
const WRITTEN_WORD = /(?<=^|[ \t\n("'«“*_])\p{L}+(?=$|[ \t\n,;:!?)"'»”*_]|\.(?:$|[ \t\n]))/gu;

/** The words of `wanted` that `text` writes exactly so (case and all), as words of prose. */
export function writtenWordsOf(text: string, wanted: ReadonlySet<string>, into: Set<string> = new Set()): Set<string> {
  if (wanted.size === 0) return into;
  for (const m of text.matchAll(WRITTEN_WORD)) if (wanted.has(m[0])) into.add(m[0]);
  return into;
}

/**
 * Whether a name used by `namingDocs` visible notes is a common word of the vault: more notes write
 * it in lower case ("bold text", "the graph", "sync runs") than use it as a name, or as many ("the **Bold**
 * button", "Graph view"). `lowerDocs(word, cap)` counts the visible notes that write `word` exactly
 * so, up to cap, from the counts kept with the index (graph/name-words.ts); null where the word is
 * not counted yet. A name many notes use is a name whatever else they write.
 *
 * A word not counted yet is taken for a common word: its name joins nothing until the index run that
 * wrote it counts it at its end (a run stopped first leaves that to the next one). Counting it from
 * the chunks instead scans every chunk its index term matches, seconds per question on a big vault
 * while a first index run is under way.
 */
export function isCommonWord(name: string, namingDocs: number, lowerDocs: (word: string, cap: number) => number | null): boolean {
  if (namingDocs >= NAME_DOCS_CAP) return false;
  const word = lowerCaseWord(name);
  if (word === null) return false;
  const n = lowerDocs(word, namingDocs);
  return n === null || n >= namingDocs;
}
