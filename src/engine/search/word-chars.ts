/**
 * The analyzer's word characters (`[\p{L}\p{M}\p{N}_]`, by code point) as tables, for the scanners that
 * read every word of many texts (the rescoring of pruned candidates, snippets) without a regular
 * expression or a string per word. Property tests hold them to the analyzer's WORD pattern.
 */

/** ASCII code units by kind; 0: not a word character. */
export const ASCII_KIND = new Uint8Array(128);
export const LOWER = 1;
export const UPPER = 2;
export const DIGIT = 3;
export const UNDERSCORE = 4;
/** A word character above ASCII (a letter or digit of another script). */
export const OTHER_WORD = 5;
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  ASCII_KIND[c] = /[a-z]/.test(ch) ? LOWER : /[A-Z]/.test(ch) ? UPPER : /\d/.test(ch) ? DIGIT : ch === '_' ? UNDERSCORE : 0;
}

const NON_ASCII_WORD = /^[\p{L}\p{M}\p{N}]$/u;
/** Whether each BMP code unit above ASCII is a word character (0: not asked yet, 1: yes, 2: no). */
const bmpWord = new Uint8Array(65536);

/** Is this code point (above ASCII) a letter, a combining mark or a digit? A lone surrogate is not. */
export function isNonAsciiWord(cp: number): boolean {
  if (cp < 65536) {
    let v = bmpWord[cp]!;
    if (v === 0) bmpWord[cp] = v = NON_ASCII_WORD.test(String.fromCharCode(cp)) && (cp < 0xd800 || cp > 0xdfff) ? 1 : 2;
    return v === 1;
  }
  return NON_ASCII_WORD.test(String.fromCodePoint(cp));
}

/**
 * Where the word starting at `i` ends (`i` itself when the code point there is not a word
 * character): the end of the match of `[\p{L}\p{M}\p{N}_]+` at `i`.
 */
export function wordEnd(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (ASCII_KIND[c] === 0) break;
      i++;
      continue;
    }
    const cp = text.codePointAt(i)!;
    if (!isNonAsciiWord(cp)) break;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

/** The code units a non-word code point at `i` takes (both halves of a surrogate pair at once). */
export const stepOver = (text: string, i: number): number => (text.codePointAt(i)! > 0xffff ? 2 : 1);
