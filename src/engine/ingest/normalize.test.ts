import { describe, expect, it } from 'vitest';
import { looksBinary } from './file-types.ts';
import { decodeText, detectUtf16, normalizeLines } from './normalize.ts';

const TEXT = 'Quarterly notes\r\nthe relay moved to port 9000\r\nпривет, ünïcödé ✓ 👋\r\n';
const utf16le = (s: string) => Buffer.from(s, 'utf16le');
const utf16be = (s: string) => {
  const b = Buffer.from(s, 'utf16le');
  return b.swap16();
};

describe('decodeText', () => {
  it('reads UTF-16LE and UTF-16BE with a byte order mark, dropping the mark, with the same lines as UTF-8', () => {
    const expected = normalizeLines(TEXT);
    for (const [bytes, encoding] of [
      [utf16le(`\ufeff${TEXT}`), 'utf-16le'],
      [utf16be(`\ufeff${TEXT}`), 'utf-16be'],
      [Buffer.from(`\ufeff${TEXT}`, 'utf8'), 'utf-8'],
      [Buffer.from(TEXT, 'utf8'), 'utf-8'],
    ] as const) {
      const decoded = decodeText(bytes);
      expect(decoded.encoding).toBe(encoding);
      expect(decoded.warning).toBeNull();
      expect(normalizeLines(decoded.text)).toEqual(expected);
    }
  });

  it('reads mostly-ASCII UTF-16LE without a byte order mark from its NUL pattern', () => {
    expect(detectUtf16(utf16le(TEXT))).toBe('utf-16le');
    expect(detectUtf16(utf16be(TEXT))).toBe('utf-16be');
    expect(normalizeLines(decodeText(utf16le(TEXT)).text)).toEqual(normalizeLines(TEXT));
    expect(detectUtf16(Buffer.from(TEXT, 'utf8'))).toBeNull();
    expect(detectUtf16(Buffer.from([0x41, 0x00]))).toBeNull();
  });

  it('warns, naming the encoding, when it had to replace invalid sequences', () => {
    expect(decodeText(Buffer.from([0x61, 0xc3, 0x28, 0x62])).warning).toBe('invalid UTF-8 replaced with U+FFFD');
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), utf16le('a'), Buffer.from([0x00, 0xd8]), utf16le('b')])).warning).toBe('invalid UTF-16LE replaced with U+FFFD');
  });
});

describe('looksBinary', () => {
  it('takes UTF-16 text, with or without a byte order mark, as text', () => {
    expect(looksBinary(utf16le(`\ufeff${TEXT}`))).toBe(false);
    expect(looksBinary(utf16be(`\ufeff${TEXT}`))).toBe(false);
    expect(looksBinary(utf16le(TEXT.repeat(200)).subarray(0, 8191))).toBe(false);
  });

  it('still takes NUL bytes, and UTF-16 full of controls or NUL units, as binary', () => {
    expect(looksBinary(Buffer.from('text\u0000more', 'utf8'))).toBe(true);
    expect(looksBinary(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]))).toBe(true);
    expect(looksBinary(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.alloc(64)]))).toBe(true);
    expect(looksBinary(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(Array.from({ length: 64 }, (_, i) => (i % 2 ? 0 : 1 + (i % 5))))]))).toBe(true);
  });
});
