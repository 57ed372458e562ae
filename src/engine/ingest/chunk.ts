/**
 * Deterministic line-based chunking (spec 001): chunks of at most `size` characters made of whole
 * lines, consecutive chunks sharing up to `overlap` characters of whole lines, never crossing a hard
 * break (a markdown heading), preferring to end before a soft break (a function or class). A line
 * longer than `size` is cut into pieces that keep that line's number.
 */
export interface ChunkParams {
  size: number;
  overlap: number;
  maxChunks: number;
}

export interface LineChunk {
  /** 1-based, inclusive line numbers of the original file. */
  startLine: number;
  endLine: number;
  text: string;
}

export interface ChunkInput {
  lines: string[];
  /** 0-based first line to chunk (e.g. after frontmatter). */
  from?: number;
  /** 0-based line indexes where a new chunk must start. */
  hardBreaks?: Iterable<number>;
  /** 0-based line indexes where a new chunk should preferably start. */
  softBreaks?: Iterable<number>;
}

export interface ChunkOutput {
  chunks: LineChunk[];
  truncated: boolean;
  /**
   * Where a truncated file stops being searchable: the 1-based line and the 1-based character of
   * that line from which nothing was chunked (1 when the whole line was left out).
   */
  cut?: { line: number; char: number };
}

export function chunkLines(input: ChunkInput, params: ChunkParams): ChunkOutput {
  const { lines } = input;
  const { size, overlap, maxChunks } = params;
  if (size <= 0 || overlap < 0 || overlap >= size) throw new RangeError(`invalid chunk params size=${size} overlap=${overlap}`);
  const from = Math.max(0, input.from ?? 0);
  const hard = [...new Set(input.hardBreaks ?? [])].filter((i) => i > from && i < lines.length).sort((a, b) => a - b);
  const soft = new Set(input.softBreaks ?? []);
  const chunks: LineChunk[] = [];
  let truncated = false;
  /** How far the chunks emitted so far reach: 0-based line, and characters of it covered (Infinity: all). */
  let reach = { line: -1, chars: Infinity };

  const emit = (chunk: LineChunk): boolean => {
    if (chunks.length >= maxChunks) {
      truncated = true;
      return false;
    }
    chunks.push(chunk);
    return true;
  };

  const bounds = joinBodiless(lines, [from, ...hard, lines.length]);
  outer: for (let s = 0; s < bounds.length - 1; s++) {
    const segEnd = bounds[s + 1]!;
    let a = bounds[s]!;
    while (a < segEnd) {
      while (a < segEnd && lines[a] === '') a++;
      if (a >= segEnd) break;
      const first = lines[a]!;
      if (first.length > size) {
        for (const piece of splitLongLine(first, size, overlap)) {
          if (!emit({ startLine: a + 1, endLine: a + 1, text: piece.text })) break outer;
          reach = { line: a, chars: piece.start + piece.text.length >= first.length ? Infinity : piece.start + piece.text.length };
        }
        a++;
        continue;
      }
      let b = a;
      let length = 0;
      let lastSoft = -1;
      while (b < segEnd) {
        const add = lines[b]!.length + (b > a ? 1 : 0);
        if (length + add > size) break;
        length += add;
        b++;
        if (b < segEnd && soft.has(b)) lastSoft = b;
      }
      if (b < segEnd && lastSoft > a && lastSoft - a >= (b - a) / 2) b = lastSoft;
      let end = b;
      while (end > a && lines[end - 1] === '') end--;
      if (!emit({ startLine: a + 1, endLine: end, text: lines.slice(a, end).join('\n') })) break outer;
      reach = { line: end - 1, chars: Infinity };
      if (b >= segEnd) break;
      let c = b;
      let shared = 0;
      while (c - 1 > a && shared + lines[c - 1]!.length + 1 <= overlap && lines[c - 1]!.length <= size) {
        c--;
        shared += lines[c]!.length + 1;
      }
      a = c;
    }
  }
  if (!truncated) return { chunks, truncated };
  const cut = reach.chars === Infinity ? { line: reach.line + 2, char: 1 } : { line: reach.line + 1, char: reach.chars + 1 };
  return { chunks, truncated, cut };
}

/**
 * A heading with no body of its own (`## Group cards` straight above `### Group selected cards`) is
 * part of the passage under it, not a passage: a segment whose only text is its break line is joined
 * to the next one (the last such segment of a file, to the one before it). A file of one heading
 * alone stays one passage.
 */
function joinBodiless(lines: readonly string[], bounds: number[]): number[] {
  // A segment after a break starts with it; the first one only when it opens with a markdown heading.
  const bodiless = (s: number, e: number, first: boolean) => {
    let text = 0;
    for (let i = s; i < e; i++) {
      if (lines[i] === '') continue;
      if (++text > 1 || (first && !/^#{1,6}\s/.test(lines[i]!))) return false;
    }
    return true;
  };
  const out = [bounds[0]!];
  for (let s = 0; s < bounds.length - 1; s++) {
    const start = bounds[s]!;
    const end = bounds[s + 1]!;
    // The next segment starts here unless this one is a bare heading with a segment after it.
    if (s + 1 < bounds.length - 1 && bodiless(start, end, s === 0)) continue;
    out.push(end);
  }
  // A bare heading closing the file joins the passage before it.
  if (out.length > 2 && bodiless(out[out.length - 2]!, out[out.length - 1]!, false)) out.splice(out.length - 2, 1);
  return out;
}

function splitLongLine(line: string, size: number, overlap: number): { start: number; text: string }[] {
  const pieces: { start: number; text: string }[] = [];
  const step = size - overlap;
  for (let start = 0; start < line.length; start += step) {
    pieces.push({ start, text: line.slice(start, start + size) });
    if (start + size >= line.length) break;
  }
  return pieces;
}

/** A rough token estimate (about four characters a token) until a model's tokenizer is loaded. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
