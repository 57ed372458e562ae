/**
 * Text from the user's files (names, titles, lines, answers quoting them) made safe to print on a
 * terminal. A file named `\x1b]0;pwned\x07.md` or a line holding `\x1b[2J` would otherwise retitle or
 * clear the reader's terminal, a U+202E in a name would print `gpj.exe` as `exe.jpg`, and a newline
 * in a name would forge an output line. Every such character is shown instead of obeyed:
 * C0 controls and DEL as their Unicode control pictures (ESC -> ␛), C1 controls, bidirectional
 * overrides and line/paragraph separators as `<U+XXXX>`. Tabs stay as they are.
 */

/** C0 and DEL (tab and newline handled by the callers), C1, bidi embeddings/overrides/isolates/marks, U+2028/U+2029. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
const UNSAFE_OR_NEWLINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
/** What JSON.stringify leaves raw but a terminal may obey: DEL, C1, bidi controls, U+2028/U+2029. */
const JSON_RAW_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

const hex4 = (c: string) => c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');

function visible(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `<U+${hex4(c)}>`;
}

/** Multi-line text (an answer, a file's lines): controls shown, newlines and tabs kept. */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** One output line (a path, a locator, a title): as terminalText, and a newline shown as ␊. */
export function terminalLine(text: string): string {
  return text.replace(UNSAFE_OR_NEWLINE, visible);
}

/**
 * Serialised JSON made safe for a terminal without changing what it parses to: JSON.stringify
 * already escapes C0 controls, and the few characters it leaves raw become `\uXXXX` escapes.
 * Those characters can only stand inside JSON strings, so the text stays valid JSON.
 */
export function terminalJson(json: string): string {
  return json.replace(JSON_RAW_UNSAFE, (c) => `\\u${hex4(c).toLowerCase()}`);
}

/**
 * The reverse of terminalLine, so that a path printed with a control picture or `<U+XXXX>` can be
 * pasted back (what search prints, source accepts). Used only after the literal name was not found.
 */
export function fromTerminalLine(text: string): string {
  return text
    .replace(/[\u2400-\u241f\u2421]/g, (c) => (c === '\u2421' ? '\u007f' : String.fromCharCode(c.charCodeAt(0) - 0x2400)))
    .replace(/<U\+([0-9A-F]{4})>/g, (whole, hex: string) => {
      const c = String.fromCharCode(parseInt(hex, 16));
      return c.replace(UNSAFE_OR_NEWLINE, '') === '' ? c : whole;
    });
}
