/**
 * Turns user input into a safe FTS5 MATCH expression over analyzed terms. It never throws and
 * never passes FTS5 syntax through: every term is a quoted string, so quotes, operators, parentheses,
 * colons and stars in the input are plain text. "double-quoted phrases" stay phrases; a trailing *
 * on a word makes a prefix query. Stopwords are dropped unless the query has nothing else.
 *
 * Each word is analyzed in every language of `languages` (lexical.ts queryLanguages: the question's
 * own, or English and the vault's other languages when the question's is unsure); its distinct index
 * terms are OR-ed, so "Dateien" finds German text (datei) as well as English (dateien).
 */
import { foldText, hasUnspacedScript, isStopword, stemWord, tokenize, unspacedWords } from './analyzer.ts';

export interface FtsQuery {
  /** The MATCH expression over the stemmed columns, or null when nothing is searchable. */
  match: string | null;
  /** Index terms (and prefix* terms) searched for, in query order. */
  terms: string[];
  /** The terms of each word of the query, phrases' words too, one per language it was analyzed in (the word's first): a word is matched when any of them is. */
  words: string[][];
  /** What a result shows as matched (highlights, the match explanation, the searched terms): `terms` and the words of the phrases. */
  shown: string[];
  /** Phrases as space-joined index terms. */
  phrases: string[];
  /** Literal fragments for the trigram index (identifiers, numbers, substrings; 3+ characters). */
  literals: string[];
  /** Words outside phrases (3+ characters, stopwords dropped) for the trigram fallback's substring search. */
  fragments: string[];
  /** The OR-ed clauses of `match`; `term` is set for a plain single term (not a phrase or prefix). */
  clauses: { expr: string; term: string | null }[];
  /** The analysis languages the words were stemmed in ('en' alone for English, Russian and unknown text). */
  languages: string[];
}

function quote(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

export function buildFtsQuery(input: string, languages: readonly string[] = ['en']): FtsQuery {
  const langs = languages.length > 0 ? [...new Set(languages)] : ['en'];
  const stop = (raw: string) => langs.some((l) => isStopword(raw, l));
  const terms: string[] = [];
  const words: string[][] = [];
  const phrases: string[] = [];
  const parts: { expr: string; term: string | null }[] = [];
  const literals = new Set<string>();
  const seen = new Set<string>();
  const text = foldText(input);

  const push = (key: string, expr: string, term: string | null = null) => {
    if (seen.has(key)) return;
    seen.add(key);
    parts.push({ expr, term });
  };

  // Complete "phrases" first; an unbalanced quote is treated as plain text.
  const rest = text.replace(/"([^"]*)"/g, (_m, inner: string) => {
    const inPhrase = tokenize(inner).filter((t) => !stop(t.raw));
    if (inPhrase.length > 1) {
      const variants = langs.map((l) => tokenize(inner, l).filter((t) => !stop(t.raw)).map((w) => w.term));
      for (const v of variants) {
        const phrase = v.join(' ');
        if (!seen.has(`"${phrase}`)) phrases.push(phrase);
        push(`"${phrase}`, quote(phrase));
      }
      // Each word of the phrase, with its terms in every language, for what a result shows as matched.
      inPhrase.forEach((_, i) => words.push([...new Set(variants.flatMap((v) => (v[i] === undefined ? [] : [v[i]!])))]));
    } else if (inPhrase.length === 1) {
      addWord(inPhrase[0]!.raw, false);
    }
    if (inner.trim().length >= 3) literals.add(inner.trim());
    return ' ';
  });

  const pending: { raw: string; prefix: boolean }[] = [];
  for (const m of rest.matchAll(/([\p{L}\p{M}\p{N}_]+)(\*)?/gu)) {
    // Chinese or Japanese: the run is a phrase of several words, each searched on its own.
    if (hasUnspacedScript(m[1]!)) for (const { word } of unspacedWords(m[1]!)) pending.push({ raw: word, prefix: false });
    else pending.push({ raw: m[1]!, prefix: m[2] === '*' });
  }
  const content = pending.filter((w) => !stop(w.raw));
  for (const w of content.length > 0 ? content : pending) addWord(w.raw, w.prefix);
  const fragments = [...new Set((content.length > 0 ? content : pending).map((w) => w.raw).filter((w) => w.length >= 3))];
  // Identifier-like chunks of the raw input (AUR-1102, retry_sync, v2.3.1) also go to the trigram index.
  for (const m of rest.matchAll(/[\p{L}\p{N}_][\p{L}\p{N}_.\-/:]*[\p{L}\p{N}_]/gu)) {
    if (m[0].length >= 3 && /[\d_.\-/:]|[a-z][A-Z]/u.test(m[0])) literals.add(m[0]);
  }

  function addWord(raw: string, prefix: boolean) {
    const lower = raw.toLowerCase();
    if (prefix) {
      terms.push(`${lower}*`);
      words.push([`${lower}*`]);
      push(`${lower}*`, `${quote(lower)}*`);
      return;
    }
    const variants: string[] = [];
    words.push(variants);
    for (const l of langs) {
      const [token] = tokenize(raw, l);
      const term = token?.term ?? stemWord(lower, l);
      terms.push(term);
      if (!variants.includes(term)) variants.push(term);
      push(term, quote(term), term);
      for (const p of token?.parts ?? []) {
        terms.push(p);
        push(p, quote(p), p);
      }
    }
  }

  return {
    match: parts.length > 0 ? parts.map((p) => p.expr).join(' OR ') : null,
    clauses: parts,
    terms: [...new Set(terms)],
    words: words.filter((w, i) => w.length > 0 && words.findIndex((o) => o.join(' ') === w.join(' ')) === i),
    shown: [...new Set([...terms, ...words.flat()])],
    phrases,
    literals: [...literals],
    fragments,
    languages: langs,
  };
}

/** The query with more plain terms OR-ed in (the parts of a compound no chunk holds whole). */
export function withTerms(fts: FtsQuery, more: readonly string[]): FtsQuery {
  const have = new Set(fts.clauses.map((c) => c.term));
  const added = [...new Set(more)].filter((t) => t.length > 0 && !have.has(t));
  if (added.length === 0) return fts;
  const clauses = [...fts.clauses, ...added.map((t) => ({ expr: quote(t), term: t }))];
  return { ...fts, clauses, terms: [...new Set([...fts.terms, ...added])], words: [...fts.words, ...added.map((t) => [t])], shown: [...new Set([...fts.shown, ...added])], match: clauses.map((c) => c.expr).join(' OR ') };
}
