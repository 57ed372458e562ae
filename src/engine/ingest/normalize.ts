/**
 * Normalisation of spec 001 (docs/design.md §3): LF line endings, trailing whitespace stripped, BOM and NUL removed.
 * The number of lines never changes, so line numbers stay those of the original file.
 */
export function normalizeLines(raw: string): string[] {
  // trimEnd, not replace(/\s+$/): the regex retried from every space of a run that does not end the
  // line, so a line of 40,000 spaces and a word took 0.6 s and one of a million would hang indexing.
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\u0000/g, '').trimEnd());
}

/** Decodes bytes as UTF-8; invalid sequences become U+FFFD instead of failing the file. */
export function decodeUtf8(bytes: Uint8Array): { text: string; invalid: boolean } {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return { text, invalid: text.includes('\uFFFD') };
}

type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/**
 * UTF-16 (Windows PowerShell's `>` and regedit exports write UTF-16LE) from its byte order mark, or
 * without one from the NUL pattern of mostly-ASCII text: in at least 3 of 4 of the first 512 code
 * units the high byte is 0 and the low byte is not. UTF-8 text has no NUL bytes, and looksBinary
 * still judges the decoded code units.
 */
export function detectUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const units = Math.min(Math.floor(bytes.length / 2), 512);
  if (units < 2) return null;
  let le = 0;
  let be = 0;
  for (let i = 0; i < units; i++) {
    const a = bytes[2 * i]!;
    const b = bytes[2 * i + 1]!;
    if (a !== 0 && b === 0) le++;
    else if (a === 0 && b !== 0) be++;
  }
  if (le >= units * 0.75) return 'utf-16le';
  if (be >= units * 0.75) return 'utf-16be';
  return null;
}

/**
 * Decodes a text file: UTF-16 (LE or BE, detectUtf16) when it is, else UTF-8. A byte order mark is
 * dropped; invalid sequences become U+FFFD instead of failing the file, with a warning that says so.
 */
export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncoding; warning: string | null } {
  const encoding = detectUtf16(bytes) ?? 'utf-8';
  const text = new TextDecoder(encoding, { fatal: false }).decode(bytes);
  const warning = !text.includes('\uFFFD') ? null : encoding === 'utf-8' ? 'invalid UTF-8 replaced with U+FFFD' : `invalid ${encoding.toUpperCase()} replaced with U+FFFD`;
  return { text, encoding, warning };
}
