/**
 * Sentence spans of a chunk's prose, for sentence vectors (issue 14): a claim or a question usually
 * restates one finding, and a 300-token chunk vector averages it with everything around it. Each
 * span is embedded on its own (with the document title and heading), and the best of them scores
 * its chunk together with the chunk's own vector (the retrieval profile's chunk_share; semantic.ts).
 *
 * Rule-based and language-neutral: a sentence ends at . ! ? … (then whitespace and a capital, a
 * digit or an opening bracket or quote, in any script), at 。！？, the danda (।), ။ and ។, or at a
 * space between two Thai or Lao letters (they end a sentence with a space); blank lines, list items,
 * headings and table rows start new spans. Fragments too short to mean anything on their own join
 * their neighbour. Spans are [start, end) offsets into the text, trimmed.
 */

export interface SentenceSpan {
  start: number;
  end: number;
}

/** A span shorter than this (characters or words) joins the next one. */
const MIN_CHARS = 25;
const MIN_WORDS = 4;
/** More spans than this in one chunk are merged pairwise until they fit (keeps the index bounded). */
export const MAX_SENTENCES = 32;

const BOUNDARY =
  /(?<=[.!?…]["'”’»)\]]*)\s+(?=["'“‘«([]?[\p{Lu}\p{Lt}\p{N}])|(?<=[。！？।॥။។])\s*|(?<=[\u0E00-\u0EFF])\s+(?=[\u0E00-\u0EFF])|\n[ \t]*\n\s*|\n(?=[ \t]*(?:[-*+•]\s|\d{1,3}[.)]\s|#{1,6}\s|\|))/gu;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
/** Han, kana and Hangul put no spaces between words and say more per character: each counts as a word and as two characters. */
const cjk = (s: string) => s.match(CJK)?.length ?? 0;
/** Thai, Lao, Khmer and Burmese put no spaces between words either; their words run about four letters. */
const SOUTHEAST = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/gu;
const southeast = (s: string) => Math.floor((s.match(SOUTHEAST)?.length ?? 0) / 4);
const words = (s: string) => s.split(/\s+/).filter(Boolean).length + cjk(s) + southeast(s);
const tooShort = (s: string) => s.length + cjk(s) < MIN_CHARS || words(s) < MIN_WORDS;

/** Sentence spans of `text`; fewer than two means the chunk vector already stands for it ([]). */
export function splitSentences(text: string): SentenceSpan[] {
  const raw: SentenceSpan[] = [];
  let from = 0;
  for (const m of text.matchAll(BOUNDARY)) {
    const end = m.index!;
    if (end > from) raw.push({ start: from, end });
    from = end + m[0].length;
  }
  if (from < text.length) raw.push({ start: from, end: text.length });
  const trimmed = raw.map(({ start, end }) => {
    while (start < end && /\s/.test(text[start]!)) start++;
    while (end > start && /\s/.test(text[end - 1]!)) end--;
    return { start, end };
  }).filter((s) => s.end > s.start);

  // Short fragments ("Methods:", "(n = 12).", a heading) join the span after them; a short last one joins the one before.
  const merged: SentenceSpan[] = [];
  let pending: SentenceSpan | null = null;
  for (const s of trimmed) {
    const span: SentenceSpan = pending ? { start: pending.start, end: s.end } : s;
    const piece = text.slice(span.start, span.end);
    if (tooShort(piece)) {
      pending = span;
      continue;
    }
    merged.push(span);
    pending = null;
  }
  if (pending) {
    if (merged.length > 0) merged[merged.length - 1] = { start: merged[merged.length - 1]!.start, end: pending.end };
    else merged.push(pending);
  }
  let spans = merged;
  while (spans.length > MAX_SENTENCES) {
    const next: SentenceSpan[] = [];
    for (let i = 0; i < spans.length; i += 2) next.push(i + 1 < spans.length ? { start: spans[i]!.start, end: spans[i + 1]!.end } : spans[i]!);
    spans = next;
  }
  return spans.length >= 2 ? spans : [];
}
