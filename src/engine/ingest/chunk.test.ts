import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkLines, type ChunkParams } from './chunk.ts';

const params: ChunkParams = { size: 100, overlap: 30, maxChunks: 10_000 };

/** Lines a chunk claims, read back from the original lines. */
function linesOf(lines: string[], c: { startLine: number; endLine: number }): string {
  return lines.slice(c.startLine - 1, c.endLine).join('\n');
}

describe('chunkLines', () => {
  it('keeps short text in one chunk with 1-based line numbers', () => {
    const lines = ['', 'alpha', 'beta', ''];
    expect(chunkLines({ lines }, params).chunks).toEqual([{ startLine: 2, endLine: 3, text: 'alpha\nbeta' }]);
  });

  it('starts a new chunk at every hard break (heading)', () => {
    const lines = ['# A', 'one', '# B', 'two'];
    const { chunks } = chunkLines({ lines, hardBreaks: [2] }, params);
    expect(chunks.map((c) => [c.startLine, c.endLine])).toEqual([[1, 2], [3, 4]]);
  });

  it('joins a heading with no body of its own to the passage under it (a bare last heading to the one before)', () => {
    // Obsidian's Canvas.md: "## Group cards" straight above "### Group selected cards".
    const lines = ['## Navigate', 'pan and zoom', '', '## Group cards', '', '### Group selected cards', '', 'Right-click the canvas.', '## Last', ''];
    const { chunks } = chunkLines({ lines, hardBreaks: [3, 5, 8] }, params);
    expect(chunks.map((c) => [c.startLine, c.endLine])).toEqual([[1, 2], [4, 9]]);
    expect(chunks[1]!.text).toBe('## Group cards\n\n### Group selected cards\n\nRight-click the canvas.\n## Last');
    // A title heading straight above the first section, and a note of one heading alone.
    expect(chunkLines({ lines: ['# Title', '', '## Part', 'text'], hardBreaks: [2] }, params).chunks.map((c) => [c.startLine, c.endLine])).toEqual([[1, 4]]);
    expect(chunkLines({ lines: ['# Only'], hardBreaks: [] }, params).chunks).toEqual([{ startLine: 1, endLine: 1, text: '# Only' }]);
    // A line of text before the first heading stays its own passage.
    expect(chunkLines({ lines: ['intro', '# A', 'body'], hardBreaks: [1] }, params).chunks.map((c) => [c.startLine, c.endLine])).toEqual([[1, 1], [2, 3]]);
  });

  it('prefers to end before a soft break (function) when one lies in the second half', () => {
    const lines = Array.from({ length: 12 }, (_, i) => (i === 7 ? 'def second():' : `line number ${i}`));
    const { chunks } = chunkLines({ lines, softBreaks: [7] }, { size: 120, overlap: 0, maxChunks: 100 });
    expect(chunks[0]!.endLine).toBe(7);
    expect(chunks[1]!.startLine).toBe(8);
  });

  it('cuts a line longer than the chunk size into pieces that keep its line number', () => {
    const long = 'x'.repeat(250);
    const { chunks } = chunkLines({ lines: ['short', long] }, params);
    const pieces = chunks.filter((c) => c.startLine === 2);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.every((p) => p.endLine === 2 && p.text.length <= params.size && long.includes(p.text))).toBe(true);
  });

  it('stops at the per-file cap and says so', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i} with some words in it`);
    const out = chunkLines({ lines }, { size: 100, overlap: 0, maxChunks: 5 });
    expect(out.chunks).toHaveLength(5);
    expect(out.truncated).toBe(true);
  });

  it('skips frontmatter lines before `from`', () => {
    const lines = ['---', 'title: x', '---', 'body'];
    expect(chunkLines({ lines, from: 3 }, params).chunks).toEqual([{ startLine: 4, endLine: 4, text: 'body' }]);
  });

  it('rejects nonsensical parameters', () => {
    expect(() => chunkLines({ lines: ['a'] }, { size: 10, overlap: 10, maxChunks: 1 })).toThrow(RangeError);
  });
});

const lineArb = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 60 }).map((s) => s.replace(/[\r\n]/g, ' ').trimEnd()),
  fc.string({ minLength: 90, maxLength: 260 }).map((s) => s.replace(/[\r\n]/g, ' ').trimEnd()),
);
const docArb = fc.record({
  lines: fc.array(lineArb, { maxLength: 80 }),
  breaks: fc.array(fc.nat(80), { maxLength: 6 }),
});

describe('chunkLines properties', () => {
  it('locators round-trip: each chunk is found in the lines it names', () => {
    fc.assert(
      fc.property(docArb, ({ lines, breaks }) => {
        for (const c of chunkLines({ lines, hardBreaks: breaks }, params).chunks) {
          expect(c.startLine).toBeGreaterThanOrEqual(1);
          expect(c.endLine).toBeLessThanOrEqual(lines.length);
          expect(linesOf(lines, c)).toContain(c.text);
        }
      }),
    );
  });

  it('chunks cover every non-blank line', () => {
    fc.assert(
      fc.property(docArb, ({ lines, breaks }) => {
        const covered = new Set<number>();
        for (const c of chunkLines({ lines, hardBreaks: breaks }, params).chunks) for (let l = c.startLine; l <= c.endLine; l++) covered.add(l);
        lines.forEach((line, i) => {
          if (line !== '') expect(covered.has(i + 1)).toBe(true);
        });
      }),
    );
  });

  it('respects the size, and consecutive multi-line chunks share at most `overlap` characters', () => {
    fc.assert(
      fc.property(docArb, ({ lines }) => {
        const { chunks } = chunkLines({ lines }, params);
        for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(params.size);
        for (let i = 1; i < chunks.length; i++) {
          const prev = chunks[i - 1]!;
          const cur = chunks[i]!;
          if (cur.startLine <= prev.endLine && cur.startLine !== cur.endLine && prev.startLine !== prev.endLine) {
            const shared = lines.slice(cur.startLine - 1, prev.endLine).join('\n');
            expect(shared.length).toBeLessThanOrEqual(params.overlap);
          }
        }
      }),
    );
  });

  it('is deterministic', () => {
    fc.assert(fc.property(docArb, ({ lines, breaks }) => {
      expect(chunkLines({ lines, hardBreaks: breaks }, params)).toEqual(chunkLines({ lines, hardBreaks: breaks }, params));
    }));
  });
});
