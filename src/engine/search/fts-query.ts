/**
 * Turns user input into a safe FTS5 MATCH expression. It never throws and never passes FTS5 syntax
 * through: every term is a quoted string, so quotes, operators, parentheses, colons and stars in the
 * input are plain text. "double-quoted phrases" stay phrases; a trailing * on a word makes a prefix.
 */
export interface FtsQuery {
  /** The MATCH expression, or null when the input holds no searchable term. */
  match: string | null;
  terms: string[];
  phrases: string[];
}

const TERM = /[\p{L}\p{N}_]+/gu;

function quote(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

export function buildFtsQuery(input: string): FtsQuery {
  const terms: string[] = [];
  const phrases: string[] = [];
  const parts: string[] = [];
  const seen = new Set<string>();
  const text = input.normalize('NFC').replace(/ё/g, 'е').replace(/Ё/g, 'Е');

  // Complete "phrases" first; an unbalanced quote is treated as plain text.
  const rest = text.replace(/"([^"]*)"/g, (_m, inner: string) => {
    const words = inner.match(TERM)?.map((w) => w.toLowerCase()) ?? [];
    if (words.length > 1) {
      const phrase = words.join(' ');
      if (!seen.has(`"${phrase}`)) {
        seen.add(`"${phrase}`);
        phrases.push(phrase);
        parts.push(quote(phrase));
      }
    } else if (words.length === 1) {
      pushTerm(words[0]!, false);
    }
    return ' ';
  });

  function pushTerm(word: string, prefix: boolean) {
    const key = prefix ? `${word}*` : word;
    if (seen.has(key)) return;
    seen.add(key);
    terms.push(key);
    parts.push(prefix ? `${quote(word)}*` : quote(word));
  }

  for (const m of rest.matchAll(/([\p{L}\p{N}_]+)(\*)?/gu)) {
    pushTerm(m[1]!.toLowerCase(), m[2] === '*');
  }
  return { match: parts.length > 0 ? parts.join(' OR ') : null, terms, phrases };
}
