/** The answer reader's candidates: each quotable unit of the retrieved passages with the words it holds, its neighbours', its note's and the names it is about. */
import { isStopword } from '../../search/analyzer.ts';
import { holdsType } from '../answer-type.ts';
import { fieldTerms } from '../properties.ts';
import { relationTerms } from '../relations.ts';
import type { Snippet } from '../types.ts';
import type { Candidate, PassageUnit } from './types.ts';
import { matchForm, nameKey, phraseKey, plainText, termSet } from './text.ts';
import { boundedMemo } from '../memo.ts';
import { codeUnits, proseUnits } from './units.ts';
import { QUESTION_WORDS } from './question.ts';
import { packAlternation, packWords } from '../../lang/reader-packs.ts';

const matchKey = (s: string) => plainText(s).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/**
 * Looks up a candidate's cosine among the stored sentences of its passages. The index splits
 * sentences its own way (markup kept, a list item or a field line whole), so a candidate matches a
 * stored sentence that holds its words in order, or that it holds; the best cosine of those counts.
 */
export function sentenceSimilarity(stored: readonly { text: string; score: number }[]): (text: string) => number | undefined {
  const keyed = stored.map((s) => ({ key: matchKey(s.text), score: s.score })).filter((s) => s.key.length >= 8);
  return (text) => {
    const key = matchKey(text);
    if (key.length < 8) return undefined;
    let best: number | undefined;
    for (const s of keyed) if ((s.key.includes(key) || key.includes(s.key)) && (best === undefined || s.score > best)) best = s.score;
    return best;
  };
}

const PROSE_LANGUAGES = new Set(['markdown', 'text', null, undefined]);
/** A longer "sentence" is usually code or a table that lost its line breaks: unreadable as an answer. */
const MAX_SENTENCE_CHARS = 600;

/** The words a line of a shell block answers to besides its own: it is a command ("which make command", «какой командой»). */
const COMMAND_TERMS = packWords('commandWords');

/** A passage's units, kept by its text: each hop's reading reads the passages already read again. */
const unitMemo = boundedMemo<readonly PassageUnit[]>(2_000);
const unitsOf = (text: string, prose: boolean): readonly PassageUnit[] => unitMemo(`${prose ? 'p' : 'c'}\u0000${text}`, () => (prose ? proseUnits(text) : codeUnits(text)));

/** Every candidate sentence of the snippets, in snippet order, each once. */
export function readerCandidates(snippets: readonly Snippet[], lang?: string): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const docs = new Map<string, Set<string>>();
  /** The words only the titles a candidate's links point at hold: near it, not its own. */
  const linkedTitleWords = new Map<Candidate, string[]>();
  snippets.forEach((snippet, snippetIndex) => {
    const context = termSet(`${snippet.title}\n${snippet.heading ?? ''}`, lang);
    const steps = STEPS_HEADING.test(snippet.heading ?? '');
    const read = unitsOf(snippet.text, PROSE_LANGUAGES.has(snippet.language));
    // A sentence too long to quote whole is often a list of clauses ("Politics: …; American political
    // leaders …; Chilean President …"): each clause is read on its own.
    const units = read.flatMap((u) => (!u.code && u.text.length > MAX_SENTENCE_CHARS && /;\s/.test(u.text) ? u.text.split(/;\s+/).map((t) => ({ ...u, text: t.trim() })) : [u]));
    for (const { text, code, command, listing, described, field, row, links, item, numbered, pointers: linked, heading, answers } of units) {
      if (text.length > MAX_SENTENCE_CHARS || seen.has(text)) continue;
      seen.add(text);
      let doc = docs.get(snippet.doc_id);
      if (!doc) docs.set(snippet.doc_id, (doc = new Set()));
      // What introduces a line of code says what it is: its words are the line's own. The title a
      // link points at is near the sentence, not in it.
      const pointers = linked?.filter((p) => text.includes(p));
      const ownText = pointers ? pointers.reduce((t, p) => t.split(p).join(' '), text) : text;
      const terms = termSet([described, answers, ownText].filter(Boolean).join('\n'), lang);
      const linkedWords = pointers && pointers.length > 0 ? [...termSet(pointers.join('\n'), lang)].filter((t) => !terms.has(t)) : [];
      // "Decider: Maya Chen" answers "who picked", "Reports to:" "who manages".
      const relationWords = relationTerms(text).map(matchForm).filter((t) => !terms.has(t));
      for (const t of relationWords) terms.add(t);
      // "location: Valencia" answers "where is she based", "due: 2026-05-01" "when is it due".
      const asked = fieldAsked(field === true, text, terms);
      if (command) for (const t of COMMAND_TERMS) terms.add(t);
      const subject = field && snippet.title.trim() ? snippet.title.trim() : undefined;
      // A callout's title heads the callout's sentences as a heading heads its section.
      const candidate: Candidate = { text, n: snippet.n, snippetIndex, terms, context: heading ? new Set([...context, ...termSet(heading, lang)]) : context, near: new Set(), doc, ...lineShape(code, listing, command, field && relationWords.length > 0 ? relationWords : undefined, row), ...(described ? { described } : {}), ...(subject ? { subject } : {}), ...asked, ...(links ? { links } : {}), ...(item || field ? { item: true } : {}), ...((steps && (item || code)) || numbered ? { steps: true } : {}) };
      if (linkedWords.length > 0) linkedTitleWords.set(candidate, linkedWords);
      out.push(candidate);
    }
    // A reason or a figure is often stated in the sentence after the one that names the subject.
    const own = out.filter((c) => c.snippetIndex === snippetIndex);
    own.forEach((c, i) => {
      for (const o of [own[i - 1], own[i + 1]]) if (o) for (const t of o.terms) c.near.add(t);
      for (const t of linkedTitleWords.get(c) ?? []) c.near.add(t);
      if (own[i - 1] && leansOnPrevious(c.text)) c.antecedent = own[i - 1]!.terms;
      for (const t of c.terms) c.doc.add(t);
    });
  });
  nameCandidates(snippets, out, lang);
  return out;
}

/** A field line's label asked with words ("location" with "where", "based"): they are the line's terms too. */
function fieldAsked(field: boolean, text: string, terms: Set<string>): { fieldAsks?: ReadonlySet<string> } {
  const asks = field ? fieldTerms(text) : [];
  for (const t of asks) terms.add(matchForm(t));
  return asks.length > 0 ? { fieldAsks: new Set(asks) } : {};
}

/** A title names a note when it is this long at least: "Aurora" does, "Q4" or "API" do not. */
const MIN_LINK_TITLE = 5;

/** What a line is beside its words: code, a command of a shell block, a listing of files, a field whose relation a question asks by words the line does not say, a table row. */
function lineShape(code: boolean | undefined, listing: boolean | undefined, command: boolean | undefined, relationWords: readonly string[] | undefined, row: boolean | undefined): Pick<Candidate, 'code' | 'listing' | 'command' | 'relationWords' | 'row'> {
  return { ...(code ? { code } : {}), ...(command ? { command } : {}), ...(listing ? { listing } : {}), ...(relationWords ? { relationWords: new Set(relationWords) } : {}), ...(row ? { row } : {}) };
}

/** A capitalised word of mixed case ("Kestrel", "Tomás", "Северный"); not an acronym (TLS) or a code. */
export const NAME_PHRASE = /[\p{Lu}][\p{Ll}][\p{L}'’]+(?:\s+[\p{Lu}][\p{Ll}][\p{L}'’]+)*/gu;
export const NAME_WORD = /(?<![\p{L}\p{N}_-])[\p{Lu}][\p{Ll}][\p{L}'’]+(?![\p{L}\p{N}_-])/gu;

/** The word starts the sentence or a field's label ("Role on Aurora:", "; Owner:"): capitalised as a label, not as a name. */
export function isLabel(text: string, at: number, word: string): boolean {
  if (at === 0 || /[;|•]\s*$/.test(text.slice(0, at))) return true;
  return /^\s*(?:[\p{L}-]+\s+){0,2}?:/u.test(text.slice(at + word.length)) && !/:\s*$/.test(text.slice(0, at));
}

/**
 * The names each candidate is about (see Candidate.names). A word counts as a name when the
 * passages write it capitalised more often than not ("Relay server" is a title, but "relay" is
 * a word), and it is not a month or a weekday.
 */
function nameCandidates(snippets: readonly Snippet[], candidates: Candidate[], lang?: string): void {
  const capital = new Map<string, number>();
  const lower = new Map<string, number>();
  for (const c of candidates) {
    for (const m of c.text.matchAll(/[\p{L}'’]+/gu)) {
      const w = m[0];
      const key = w.toLowerCase();
      if (/^[\p{Lu}][\p{Ll}]/u.test(w)) capital.set(key, (capital.get(key) ?? 0) + 1);
      else if (w === key) lower.set(key, (lower.get(key) ?? 0) + 1);
    }
  }
  const isName = (w: string) => w.length >= 3 && (lower.get(w) ?? 0) < (capital.get(w) ?? 1) && !isStopword(w, lang) && !QUESTION_WORDS.has(w) && !holdsType(w, { type: 'date' });
  const titleNames = new Map<string, string[]>();
  const noteNames = new Map<string, Set<string>>();
  for (const c of candidates) {
    const snippet = snippets[c.snippetIndex]!;
    const title = snippet.title.trim();
    if (title) c.title = title;
    if (title.length >= MIN_LINK_TITLE) c.titleKey = phraseKey(title);
    let fromTitle = titleNames.get(snippet.doc_id);
    if (!fromTitle) {
      // A title that is a name (a person, a project): two to four words, each capitalised, no digits.
      const words = title.split(/\s+/);
      fromTitle = words.length >= 2 && words.length <= 4 && words.every((w) => /^\p{Lu}/u.test(w)) ? [...title.matchAll(NAME_WORD)].map((m) => m[0].toLowerCase()).filter(isName).map((w) => nameKey(w, lang)) : [];
      titleNames.set(snippet.doc_id, fromTitle);
    }
    if (fromTitle.length > 0) c.titleNames = new Set(fromTitle);
    const names = new Set(fromTitle);
    const order: string[] = [];
    for (const m of c.text.matchAll(NAME_WORD)) {
      const w = m[0].toLowerCase();
      // A sentence's first word is a name only when the passages never write it in lower case ("Maya leads…").
      const ok = m.index === 0 ? !lower.has(w) && (capital.get(w) ?? 0) >= 2 && isName(w) : !isLabel(c.text, m.index!, m[0]) && isName(w);
      if (!ok) continue;
      names.add(nameKey(w, lang));
      order.push(nameKey(w, lang));
    }
    if (names.size > 0) c.names = names;
    if (order.length > 0) c.nameOrder = order;
    let shared = noteNames.get(snippet.doc_id);
    if (!shared) noteNames.set(snippet.doc_id, (shared = new Set()));
    for (const w of order) shared.add(w);
    c.noteNames = shared;
  }
  // A sentence that points to a note ("the choice and the reasoning are in [[2026-03-14 Storage
  // decision]]") says what that note is about: its words count for the note's sentences.
  const pointed = new Map<string, Set<string>>();
  const byTitle = new Map<string, string[]>();
  for (const s of snippets) {
    const key = phraseKey(s.title);
    if (key.trim().length >= MIN_LINK_TITLE && !(byTitle.get(key) ?? []).includes(s.doc_id)) byTitle.set(key, [...(byTitle.get(key) ?? []), s.doc_id]);
  }
  for (const c of candidates) {
    const own = snippets[c.snippetIndex]!.doc_id;
    for (const link of c.links ?? []) {
      for (const id of byTitle.get(phraseKey(link)) ?? []) {
        if (id === own) continue;
        let set = pointed.get(id);
        if (!set) pointed.set(id, (set = new Set()));
        for (const t of c.terms) set.add(t);
      }
    }
  }
  for (const c of candidates) {
    const set = pointed.get(snippets[c.snippetIndex]!.doc_id);
    if (set) c.pointed = set;
  }
}

/** A sentence that opens with a pronoun is about what the sentence before it names. */
export const PRONOUN_START = new RegExp(`^(?:${packAlternation('pronouns')})(?![\\p{L}])`, 'iu');
/** A pronoun or demonstrative inside a sentence's opening phrase. */
const PRONOUN_WORD = new RegExp(`(?<![\\p{L}])(?:${packAlternation('openingPronouns')})(?![\\p{L}])`, 'iu');
/** An opening word set off by a comma ("However, …", «Однако, …»). */
export const OPENING_WORD = /^[\p{L}]+,\s+/u;
/**
 * A sentence leans on the one before it when it opens with a pronoun (after an opening word set off
 * by a comma or not), or when its opening phrase (up to the first comma, six words at most) holds one:
 * "However, this is not the case", "At the time of his death, the empire…", «После его смерти, …».
 */
export function leansOnPrevious(text: string): boolean {
  if (PRONOUN_START.test(text.replace(OPENING_WORD, ''))) return true;
  const opening = /^([^,;:]{1,60}),\s/u.exec(text)?.[1];
  return opening !== undefined && opening.split(/\s+/).length <= 6 && PRONOUN_WORD.test(opening);
}

/** A heading over the steps of a how-to. */
export const STEPS_HEADING = new RegExp(`(?<![\\p{L}])(?:${packAlternation('stepsHeadings')})(?![\\p{L}])`, 'iu');
