/**
 * Normalisation of DESIGN/spec 001: LF line endings, trailing whitespace stripped, BOM and NUL removed.
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
