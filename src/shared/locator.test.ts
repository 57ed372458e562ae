import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatLocator, parseLocator } from './locator.ts';

describe('parseLocator', () => {
  it('reads the forms results and editors print', () => {
    expect(parseLocator('notes/a.md#L3-L9')).toEqual({ path: 'notes/a.md', page: null, startLine: 3, endLine: 9 });
    expect(parseLocator('x.md#L4')).toEqual({ path: 'x.md', page: null, startLine: 4, endLine: 4 });
    expect(parseLocator('a b/c #1.md#L5')).toEqual({ path: 'a b/c #1.md', page: null, startLine: 5, endLine: 5 });
    expect(parseLocator('src/x.ts:10-12')).toEqual({ path: 'src/x.ts', page: null, startLine: 10, endLine: 12 });
    expect(parseLocator('src/x.ts:7')).toEqual({ path: 'src/x.ts', page: null, startLine: 7, endLine: 7 });
    expect(parseLocator('notes/a.md')).toEqual({ path: 'notes/a.md', page: null, startLine: null, endLine: null });
  });

  it('keeps the page of a PDF locator', () => {
    expect(parseLocator('docs/x.pdf#page=2&L1-L4')).toEqual({ path: 'docs/x.pdf', page: 2, startLine: 1, endLine: 4 });
    expect(parseLocator('docs/x.pdf#page=12&L7')).toEqual({ path: 'docs/x.pdf', page: 12, startLine: 7, endLine: 7 });
  });

  it('reads a root-prefixed locator (two roots hold the same relative path) as an absolute path', () => {
    expect(parseLocator('/home/me/work/notes/x.md#L1-L3')).toEqual({ path: '/home/me/work/notes/x.md', page: null, startLine: 1, endLine: 3 });
  });

  it('names what is wrong with a bad locator', () => {
    expect(() => parseLocator('')).toThrow(/empty/);
    expect(() => parseLocator('a.md#L9-L3')).toThrow(/not a range/);
    expect(() => parseLocator('a.md#L0-L3')).toThrow(/not a range/);
    expect(() => parseLocator('a.md#section')).toThrow(/"#section" is not a line range/);
    expect(() => parseLocator('doc.pdf#page=2')).toThrow(/"#page=2" is not a line range/);
    expect(() => parseLocator('#L1-L2')).toThrow(/names no file/);
    expect(() => parseLocator('a\u0000.md#L1')).toThrow(/NUL/);
    expect(() => parseLocator('x'.repeat(4097))).toThrow(/longer than 4096/);
    expect(() => parseLocator('a.md#x')).toThrow(expect.objectContaining({ code: 'E_SYN_BAD_REQUEST' }));
  });
});

describe('formatLocator', () => {
  it('writes lines, a page and lines, or the bare path', () => {
    expect(formatLocator({ path: 'notes/a.md', startLine: 3, endLine: 9 })).toBe('notes/a.md#L3-L9');
    expect(formatLocator({ path: 'x.pdf', page: 2, startLine: 1, endLine: 4 })).toBe('x.pdf#page=2&L1-L4');
    expect(formatLocator({ path: 'x.md', startLine: 4 })).toBe('x.md#L4-L4');
    expect(formatLocator({ path: 'x.md' })).toBe('x.md');
  });

  it('is read back as it was written', () => {
    const path = fc.string({ minLength: 1 }).filter((p) => !p.includes('\u0000') && p.trim() !== '');
    fc.assert(
      fc.property(path, fc.option(fc.integer({ min: 1, max: 999 })), fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 100 }), (p, page, start, span) => {
        const written = { path: p, page, startLine: start, endLine: start + span };
        expect(parseLocator(formatLocator(written))).toEqual(written);
      }),
    );
  });
});
