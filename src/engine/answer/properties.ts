/**
 * A retrieved note's front matter properties as passages of their own: "location: Valencia (remote)",
 * "due: 2026-05-01". The index keeps front matter out of every chunk (ingest/markdown.ts), so without
 * these the reader never sees what a note states only there. Each scalar property becomes a one-line
 * snippet that cites its own line of the file; the reader reads it as a field line, as it reads
 * "**Role:** Backend Engineer" in a note's body. Only notes already retrieved are read: no search is added.
 */
import { READER_PACKS } from '../lang/reader-packs.ts';
import { tokenize } from '../search/analyzer.ts';
import type { Snippet } from './types.ts';

/** Keys that say how a note is filed or shown, or when the file was written, not a fact of its subject. */
const NOT_A_FACT = new Set(['title', 'aliases', 'alias', 'tags', 'tag', 'cssclasses', 'cssclass', 'sensitivity', 'publish', 'permalink', 'layout', 'draft', 'id', 'uid', 'banner', 'cover', 'image', 'icon', 'created', 'updated', 'modified', 'date created', 'date modified', 'last modified', 'created at', 'updated at']);
/**
 * Notes up to this size are read for their properties at question time (read and hashed whole, to
 * cite lines of the file as indexed: about a millisecond for ten notes of 20 KB); a larger file is a
 * document, a log or an export rather than a note with properties.
 */
export const PROPERTY_FILE_MAX_BYTES = 256 * 1024;
/** A value longer than this is prose or a list that lost its form: the note's body says it better. */
const MAX_VALUE_CHARS = 80;
/** A top-level "key: value" line; the key as Obsidian's property names are written. */
const PROPERTY_LINE = /^([\p{L}][\p{L}\p{N} _-]{0,30}):[ \t]+(\S.*?)\s*$/u;

export interface NoteProperty {
  /** The key as the note writes it ("reports_to"). */
  key: string;
  /** The value, unquoted ("Valencia (remote)"). */
  value: string;
  /** The 1-based line of the file that states it. */
  line: number;
}

/**
 * The scalar properties of a note's front matter (the file's lines, from the first): each top-level
 * "key: value" whose value is one plain value. Lists, maps, block text, links, empty and long
 * values, and keys that file or show the note (tags, aliases, title, sensitivity…) are left out.
 */
export function noteProperties(lines: readonly string[]): NoteProperty[] {
  if (lines[0]?.trim() !== '---') return [];
  const close = lines.findIndex((l, j) => j > 0 && /^(?:---|\.\.\.)\s*$/.test(l));
  if (close < 0) return [];
  const out: NoteProperty[] = [];
  for (let i = 1; i < close; i++) {
    const m = PROPERTY_LINE.exec(lines[i]!);
    if (!m) continue;
    const key = m[1]!.trim();
    let value = m[2]!.replace(/\s+#.*$/, '');
    if (NOT_A_FACT.has(key.toLowerCase().replace(/[_-]+/g, ' '))) continue;
    // A flow list or map, a block scalar, an anchor or alias, a tag: not one plain value.
    if (/^[[{|>&*!]/.test(value)) continue;
    const quoted = /^(["'])(.*)\1$/.exec(value);
    if (quoted) value = quoted[2]!.trim();
    // A link names another note: the graph's relations read those (decided_by, reports_to…).
    if (value === '' || value.length > MAX_VALUE_CHARS || /\[\[|\]\(|^https?:\/\//.test(value)) continue;
    if (/^(?:true|false|yes|no|null|~)$/i.test(value)) continue;
    out.push({ key, value, line: i + 1 });
  }
  return out;
}

/** A line as compared for a value it states: lower case, without emphasis or link brackets. */
const comparable = (text: string) => text.toLowerCase().replace(/\*+|\[\[|\]\]/g, '').replace(/[ \t]+/g, ' ').trim();

/**
 * Whether a field line states the value, whole or at the head of a longer one: "role: senior
 * software engineer, merge and conflict logic" states "senior software engineer".
 */
function statesValue(line: string, value: string): boolean {
  for (let at = line.indexOf(`: ${value}`); at >= 0; at = line.indexOf(`: ${value}`, at + 1)) {
    const next = line[at + 2 + value.length];
    if (next === undefined || ',;.( '.includes(next)) return true;
  }
  return false;
}

/** A property as the reader reads it: a field line with its key as the label ("due date: 2026-05-01"). */
export const propertyText = (p: NoteProperty) => `${p.key.replace(/[_-]+/g, ' ').trim()}: ${p.value}`;

/**
 * The properties of the notes the snippets come from, as snippets numbered after them: one per
 * property the question asks (`asked`), citing its line, in the order the notes were retrieved.
 * `linesOf` gives a note's lines as indexed (null when the file changed since, or is gone: nothing
 * is cited then); `keysOf`, its front matter's keys as indexed: a note none of whose keys is asked
 * is not read.
 */
export function propertySnippets(
  snippets: readonly Snippet[],
  linesOf: (docId: string) => readonly string[] | null,
  asked: (p: Pick<NoteProperty, 'key'>) => boolean = () => true,
  keysOf?: (docId: string) => readonly string[],
): Snippet[] {
  const out: Snippet[] = [];
  const seen = new Set<string>();
  for (const s of snippets) {
    if (seen.has(s.doc_id) || s.language !== 'markdown') continue;
    seen.add(s.doc_id);
    if (keysOf && !keysOf(s.doc_id).some((key) => asked({ key }))) continue;
    const lines = linesOf(s.doc_id);
    if (!lines) continue;
    // A value the note's retrieved text states on a field line as well ("**Role:** Backend Engineer",
    // "**Decider:** [[Tomás Herrera]]" for `decided_by`) is read there.
    const body = snippets.filter((o) => o.doc_id === s.doc_id).flatMap((o) => o.text.split(/\r?\n/).map(comparable));
    for (const p of noteProperties(lines)) {
      if (!asked(p)) continue;
      const value = comparable(p.value);
      if (body.some((l) => statesValue(l, value))) continue;
      out.push({ n: snippets.length + out.length + 1, locator: `${s.path}#L${p.line}-L${p.line}`, path: s.path, start_line: p.line, end_line: p.line, doc_id: s.doc_id, title: s.title, heading: null, text: propertyText(p), score: s.score, language: 'markdown' });
    }
  }
  return out;
}

const labelKey = (label: string) => label.toLowerCase().replace(/[*_-]+/g, ' ').replace(/\s+/g, ' ').trim();

/** Each field label every language's pack knows, with the index terms of the words a question asks it with. */
const FIELD_ASKED: ReadonlyMap<string, readonly string[]> = (() => {
  const words = new Map<string, string[]>();
  for (const p of READER_PACKS) for (const [label, asked] of Object.entries(p.fieldAsked ?? {})) words.set(labelKey(label), [...(words.get(labelKey(label)) ?? []), asked]);
  return new Map([...words].map(([label, asked]) => [label, [...new Set(tokenize(asked.join(' ')).map((t) => t.term))]]));
})();

/** The index terms of the words a question asks a field line's label with ("location: Valencia" → where, based, live…); none for another line. */
export function fieldTerms(text: string): readonly string[] {
  const label = /^([^:]{1,40}):/u.exec(text)?.[1];
  return label === undefined ? [] : (FIELD_ASKED.get(labelKey(label)) ?? []);
}

/**
 * Whether a question asks a property: it holds every word of the property's key ("What is the
 * *status* of…", "the *end date*") or a word its key is asked with ("*Where* is Tomás *based*?" for
 * `location`, "*When* is it *due*?" for `due`). Another property of a retrieved note is not read: it
 * would only stand in a quote's way.
 */
export function asksProperty(question: string, lang?: string): (p: Pick<NoteProperty, 'key'>) => boolean {
  const words = new Set(tokenize(question, lang).map((t) => t.term));
  return (p) => {
    const key = tokenize(p.key.replace(/[_-]+/g, ' '), lang).map((t) => t.term);
    return (key.length > 0 && key.every((t) => words.has(t))) || fieldTerms(`${p.key}:`).some((t) => words.has(t));
  };
}
