/**
 * A walk over a GGUF file's header (metadata and tensor descriptions) that reads no value, only the
 * lengths, and bounds every length by the bytes left in the file. node-llama-cpp's reader trusts
 * them: a 68-byte file whose one metadata value is an array of 2^40 strings kept it reading past the
 * end for ever, growing memory by the gigabyte. A file this walk accepts holds every byte its header
 * claims, so the reader that runs after it ends.
 */
import fs from 'node:fs';

/** Bytes of one value of each fixed-size GGUF type (8: string and 9: array are walked). */
const FIXED_SIZE: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;
/** Arrays of arrays are allowed, this many deep (llama.cpp writes none). */
const MAX_ARRAY_DEPTH = 4;
/** GGML_MAX_DIMS. */
const MAX_TENSOR_DIMS = 4;
const WINDOW = 1 << 20;

/** Why the header is not sound: read by the caller into its own error. */
export class GgufHeaderError extends Error {}

class Cursor {
  pos: number;
  private readonly buf = Buffer.alloc(WINDOW);
  private start = 0;
  private end = 0;

  constructor(
    private readonly fd: number,
    readonly size: number,
    pos: number,
  ) {
    this.pos = pos;
  }

  get left(): number {
    return this.size - this.pos;
  }

  private window(n: number, what: string): Buffer {
    if (n > this.left) throw new GgufHeaderError(`${what} at byte ${this.pos} needs ${n} bytes, and the file ends ${this.left} bytes later`);
    if (this.pos < this.start || this.pos + n > this.end) {
      this.start = this.pos;
      this.end = this.pos + fs.readSync(this.fd, this.buf, 0, Math.min(WINDOW, this.size - this.pos), this.pos);
      if (this.pos + n > this.end) throw new GgufHeaderError(`the file could not be read at byte ${this.pos}`);
    }
    return this.buf;
  }

  u32(what: string): number {
    const value = this.window(4, what).readUInt32LE(this.pos - this.start);
    this.pos += 4;
    return value;
  }

  u64(what: string): number {
    const value = this.window(8, what).readBigUInt64LE(this.pos - this.start);
    this.pos += 8;
    // Nothing in a file this size is longer than the file: a larger count is refused by the caller's bound.
    return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
  }

  /** Skips `n` bytes, which must be in the file. */
  skip(n: number, what: string): void {
    if (n > this.left) throw new GgufHeaderError(`${what} at byte ${this.pos} claims ${n} bytes, and the file ends ${this.left} bytes later`);
    this.pos += n;
  }

  /** A count of items each at least `min` bytes long, bounded by what is left. */
  count(min: number, what: string): number {
    const at = this.pos;
    const n = this.u64(what);
    if (n * min > this.left) throw new GgufHeaderError(`${what} at byte ${at} claims ${n} items, more than the ${this.left} bytes left can hold`);
    return n;
  }

  string(what: string): void {
    const at = this.pos;
    const n = this.u64(what);
    if (n > this.left) throw new GgufHeaderError(`${what} at byte ${at} claims ${n} bytes, and the file ends ${this.left} bytes later`);
    this.pos += n;
  }
}

function value(c: Cursor, type: number, what: string, depth: number): void {
  const fixed = FIXED_SIZE[type];
  if (fixed !== undefined) return c.skip(fixed, what);
  if (type === STRING) return c.string(what);
  if (type !== ARRAY) throw new GgufHeaderError(`${what} has an unknown value type ${type}`);
  if (depth >= MAX_ARRAY_DEPTH) throw new GgufHeaderError(`${what} nests arrays more than ${MAX_ARRAY_DEPTH} deep`);
  const element = c.u32(what);
  const size = FIXED_SIZE[element];
  // A string is at least its 8-byte length; an array at least its type and count (12 bytes).
  const min = size ?? (element === STRING ? 8 : element === ARRAY ? 12 : 0);
  if (min === 0) throw new GgufHeaderError(`${what} is an array of an unknown value type ${element}`);
  const n = c.count(min, `the array in ${what}`);
  if (size !== undefined) return c.skip(n * size, what);
  for (let i = 0; i < n; i++) value(c, element, what, depth + 1);
}

/**
 * Walks the metadata and tensor descriptions of a GGUF file (version 2 or 3, whose counts and lengths
 * are 64-bit) that starts with a sane fixed header; throws GgufHeaderError naming the first length
 * that reaches past the end of the file. Reads the header only, in 1 MB windows.
 */
export function checkGgufLengths(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const c = new Cursor(fd, size, 0);
    c.skip(4, 'the magic bytes');
    const version = c.u32('the version');
    if (version < 2) throw new GgufHeaderError(`format version ${version} is not read (GGUF 2 and 3 are)`);
    // A tensor description is at least 8 (name length) + 4 (dims) + 4 (type) + 8 (offset) bytes; a metadata entry 8 + 4 + 1.
    const tensors = c.count(24, 'the tensor count');
    const entries = c.count(13, 'the metadata count');
    for (let i = 0; i < entries; i++) {
      c.string(`the key of metadata entry ${i}`);
      value(c, c.u32(`metadata entry ${i}`), `metadata entry ${i}`, 0);
    }
    for (let i = 0; i < tensors; i++) {
      c.string(`the name of tensor ${i}`);
      const dims = c.u32(`tensor ${i}`);
      if (dims > MAX_TENSOR_DIMS) throw new GgufHeaderError(`tensor ${i} claims ${dims} dimensions (at most ${MAX_TENSOR_DIMS})`);
      c.skip(dims * 8 + 4 + 8, `tensor ${i}`);
    }
  } finally {
    fs.closeSync(fd);
  }
}
