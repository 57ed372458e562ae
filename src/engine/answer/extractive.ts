/**
 * The answer when no chat model is present (DESIGN.md §5): the snippet sentences that share the
 * most words with the question, each followed by its citation. It says only what the files say,
 * so it can be wrong only by being beside the point, and the critic then judges it like any other.
 */
import { splitSentences, stripCitationMarkers } from './citations.ts';
import { contentTerms } from './checks.ts';
import type { Snippet } from './types.ts';

export interface ExtractiveOptions {
  /** Weight of a matched question word (e.g. its idf); default 1 each. */
  termWeight?: (term: string) => number;
  /** Most sentences in the answer. Default 3. */
  maxSentences?: number;
  /**
   * A sentence must match at least this share of the question's total word weight. Default 0;
   * the engine asks for more, so a sentence that shares one common word is not an answer and the
   * question is answered "not found" instead.
   */
  minShare?: number;
}

const PROSE_LANGUAGES = new Set(['markdown', 'text', null, undefined]);

/** A code file's candidate "sentences" are its lines: a statement or a comment reads on its own. */
function codeLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l.length >= 8 && !/^[{}()[\];,]*$/.test(l));
}

/** A longer "sentence" is usually code or a table that lost its line breaks: unreadable as an answer. */
const MAX_SENTENCE_CHARS = 600;
const FENCE = /^(?:```|~~~)/;
const LIST_ITEM = /^(?:[-*+•]|\d{1,3}[.)])\s/;
/**
 * Lines that carry no prose: horizontal rules, table rows, HTML, and lines of links or tags only.
 * The URL alternative is atomic (a lookahead captures the whole non-space run, \1 consumes it): a
 * plain \S+ inside the repetition could split "http://http://..." every possible way, and a token
 * of 40 such prefixes took 11 s, so a note holding one stalled every answer that quoted it.
 */
const NOISE_LINE =
  /^(?:#|[-*_=]{3,}\s*$|\||<[^>]*>\s*$|<!--)|^(?:(?:tags?|links?|see also|related|aliases)\s*:)?(?:[\s,;|·•-]|\[\[[^\]]*\]\]|!?\[[^\]]*\]\([^)]*\)|(?=(<?https?:\/\/\S+))\1|#[\p{L}\p{N}_/-]+)+$/iu;

/**
 * The prose sentences of a snippet: front matter, code blocks, headings and link or tag lines
 * skipped; wrapped lines of one paragraph joined, so a sentence broken over two lines stays whole.
 */
function proseSentences(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  let i = 0;
  if (lines[0]?.trim() === '---') {
    const close = lines.findIndex((l, j) => j > 0 && /^(?:---|\.\.\.)\s*$/.test(l));
    if (close > 0) i = close + 1;
  }
  const paragraphs: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) paragraphs.push(current.join(' '));
    current = [];
  };
  let inFence = false;
  for (; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (FENCE.test(line)) {
      inFence = !inFence;
      flush();
      continue;
    }
    if (inFence) continue;
    if (line === '' || NOISE_LINE.test(line)) {
      flush();
      continue;
    }
    if (LIST_ITEM.test(line)) flush();
    current.push(line);
  }
  flush();
  // Markers in a note ("as shown in [3]") would read as citations of our snippets: drop them.
  return paragraphs.flatMap((p) => splitSentences(p)).map((s) => stripCitationMarkers(s).trim());
}

interface Candidate {
  sentence: string;
  n: number;
  matched: number;
  score: number;
  snippetIndex: number;
  sentenceIndex: number;
}

/** Best first: more question words, then the better snippet, then the earlier snippet and sentence. */
function compareCandidates(a: Candidate, b: Candidate): number {
  return b.matched - a.matched || b.score - a.score || a.snippetIndex - b.snippetIndex || a.sentenceIndex - b.sentenceIndex;
}

/**
 * Picks up to `maxSentences` snippet sentences that share stemmed content words with the question,
 * from different snippets where possible, and writes them best first, each followed by " [n]".
 * Returns an empty answer when no sentence shares a word with the question: the caller abstains.
 */
export function extractiveAnswer(question: string, snippets: readonly Snippet[], options: ExtractiveOptions = {}): { answer: string; cited: number[] } {
  const maxSentences = Math.max(0, Math.floor(options.maxSentences ?? 3));
  const asked = new Set(contentTerms(question));
  const minShare = options.minShare ?? 0;
  // Rare words say more about what is asked than common ones ("make" over "relay" in a relay vault).
  const weight = options.termWeight ?? (() => 1);
  const totalWeight = [...asked].reduce((sum, t) => sum + weight(t), 0);
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  snippets.forEach((snippet, snippetIndex) => {
    const sentences = PROSE_LANGUAGES.has(snippet.language) ? proseSentences(snippet.text) : codeLines(snippet.text);
    sentences.forEach((sentence, sentenceIndex) => {
      if (sentence.length > MAX_SENTENCE_CHARS || seen.has(sentence)) return;
      const matched = [...new Set(contentTerms(sentence).filter((t) => asked.has(t)))].reduce((sum, t) => sum + weight(t), 0);
      if (matched === 0 || (totalWeight > 0 && matched / totalWeight < minShare)) return;
      seen.add(sentence);
      candidates.push({ sentence, n: snippet.n, matched, score: snippet.score, snippetIndex, sentenceIndex });
    });
  });
  candidates.sort(compareCandidates);

  // First the best sentence of each snippet, so three snippets are heard before one is heard twice.
  const picked: Candidate[] = [];
  const usedSnippets = new Set<number>();
  for (const c of candidates) {
    if (picked.length >= maxSentences) break;
    if (usedSnippets.has(c.snippetIndex)) continue;
    usedSnippets.add(c.snippetIndex);
    picked.push(c);
  }
  for (const c of candidates) {
    if (picked.length >= maxSentences) break;
    if (!picked.includes(c)) picked.push(c);
  }
  picked.sort(compareCandidates);

  const answer = picked.map((c) => `${/[.!?…]["'”’»)]*$/.test(c.sentence) ? c.sentence : `${c.sentence}.`} [${c.n}]`).join(' ');
  return { answer, cited: [...new Set(picked.map((c) => c.n))] };
}
