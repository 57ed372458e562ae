/**
 * Reading by meaning: a question written in another script than its notes (a Russian question over
 * English notes, an English one over Russian notes) shares no word with them, so the word-based reader
 * finds nothing to quote. With sentence vectors from a multilingual embedder, the sentences closest in
 * meaning are what can be shown; never as Answered, since no word of the quote can be checked against
 * the question.
 */
import type { Candidate, Reading, ReadingSignals } from '../reader.ts';
import { isMarkupFragment } from './selection.ts';

export type Script = 'latin' | 'cyrillic' | 'greek' | 'cjk' | 'arabic' | 'hebrew' | 'other';

const SCRIPTS: readonly [Script, RegExp][] = [
  ['latin', /\p{Script=Latin}/u],
  ['cyrillic', /\p{Script=Cyrillic}/u],
  ['greek', /\p{Script=Greek}/u],
  ['cjk', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u],
  ['arabic', /\p{Script=Arabic}/u],
  ['hebrew', /\p{Script=Hebrew}/u],
];

/** Letters counted per script, outside inline code spans and links (`{{time}}`, `HH:mm`, URLs name things, they do not say them). */
function scriptCounts(text: string, counts = new Map<Script, number>()): Map<Script, number> {
  for (const ch of text.replace(/`[^`]*`|\b(?:https?|file):\/\/\S+/g, ' ')) {
    if (!/\p{L}/u.test(ch)) continue;
    const script = SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? 'other';
    counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  return counts;
}

/** The script most of a text's letters are written in; null for a text without letters. */
export function scriptOf(text: string): Script | null {
  const counts = scriptCounts(text);
  let best: Script | null = null;
  for (const [s, n] of counts) if (best === null || n > counts.get(best)!) best = s;
  return best;
}

/**
 * Whether the question is written in another script than the passages (most of their letters, with
 * fewer than 3 in 10 of the question's script: Russian notes name English products and code freely),
 * ignoring what the question quotes or names in the passages' own script ("Как открыть Obsidian?").
 * Records of settings and translation files (`original=Templates translation=Шаблоны`) are not the
 * notes' prose and are not counted.
 * `share` is that bound: 1 asks only whether most of the passages' letters are in another script.
 */
export function otherScript(question: string, candidates: readonly Pick<Candidate, 'text'>[], share = 0.3): boolean {
  const q = scriptOf(question);
  const counts = new Map<Script, number>();
  for (const c of candidates) if (!isMarkupFragment(c.text)) scriptCounts(c.text, counts);
  let notes: Script | null = null;
  for (const [s, n] of counts) if (notes === null || n > counts.get(notes)!) notes = s;
  return q !== null && notes !== null && q !== notes && (counts.get(q) ?? 0) < share * (counts.get(notes) ?? 0);
}

/** Sentences shown in a reading by meaning: the closest one and the closest of another passage. */
const MEANING_QUOTES = 2;

/**
 * The reading of a question in another script than its notes, from the question's cosine to each
 * candidate sentence (undefined: no vector). Null when fewer than two sentences have a vector: there
 * is nothing to tell apart. The closest sentence leads; the closest of one other passage follows.
 * Lines of code, markup fragments and sentences that are questions are not quoted.
 */
export function readByMeaning(candidates: readonly Candidate[], sims: readonly (number | undefined)[]): Reading | null {
  const scored = candidates.flatMap((c, i) => {
    const v = sims[i];
    return v === undefined || c.code || isMarkupFragment(c.text) || /[?？]\s*$/.test(c.text) || c.text.split(/\s+/).length < 4 ? [] : [{ c, i, v }];
  });
  if (scored.length < 2) return null;
  scored.sort((a, b) => b.v - a.v || a.i - b.i);
  const picked = [scored[0]!];
  const other = scored.find((s) => s.c.n !== scored[0]!.c.n);
  if (other && picked.length < MEANING_QUOTES) picked.push(other);
  const best = scored[0]!.v;
  const mean = scored.reduce((s, x) => s + x.v, 0) / scored.length;
  const lead = picked[0]!.c;
  const signals: ReadingSignals = {
    held: 0,
    partMean: 0,
    partMin: 0,
    partBest: 0,
    parts: 1,
    partsAnswered: 0,
    togetherMargin: 0,
    leadCoverage: 0,
    leadWhole: 0,
    leadTyped: 0,
    leadRank: lead.snippetIndex,
    runnerUp: 0,
    leadCode: 0,
    leadItem: lead.item || lead.steps ? 1 : 0,
    leadField: lead.subject !== undefined ? 1 : 0,
    leadColon: /[:：]\s*$/.test(lead.text) ? 1 : 0,
    leadQuestion: 0,
    leadMarkup: 0,
    leadWords: lead.text.split(/\s+/).filter(Boolean).length,
    quoted: picked.length,
    candidates: candidates.length,
    passages: new Set(candidates.map((c) => c.n)).size,
    unknownShare: 1,
    questionWords: 0,
    askedType: 'any',
    strict: 0,
    simGap: Math.round((best - mean) * 1000) / 1000,
    simBest: Math.round(best * 1000) / 1000,
    hasVectors: 1,
  };
  const quote = (c: Candidate) => `${/[.!?。！？…:;]$/.test(c.text) ? c.text : `${c.text}.`} [${c.n}]`;
  return {
    outcome: 'partial',
    answer: picked.map((p) => quote(p.c)).join(' '),
    cited: [...new Set(picked.map((p) => p.c.n))],
    answerability: 0,
    parts: [],
    missing: [],
    unknown: [],
    unknownAttribute: false,
    closest: picked.map((p) => ({ text: p.c.text, n: p.c.n })),
    passageBest: [],
    similarity: best,
    hops: [],
    signals,
    byMeaning: true,
  };
}
