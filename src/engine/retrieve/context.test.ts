import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildContext,
  contextBlockHeader,
  DEFAULT_CONTEXT_BUDGET_TOKENS,
  estimateTokens,
  type BuiltContext,
  type ContextChunk,
} from './context.ts';

// Unit tests count words, so budgets can be worked out by hand: a header ("a.md:1-3") is one word.
const countWords = (text: string): number => text.match(/\S+/g)?.length ?? 0;

/** The text of line `line` of document `doc`: distinct per line, so duplicated lines are visible. */
const lineText = (doc: string, line: number): string => `${doc}${line}` + ' w'.repeat((line * 7 + doc.length) % 4);

const linesText = (doc: string, start: number, end: number): string =>
  Array.from({ length: end - start + 1 }, (_, i) => lineText(doc, start + i)).join('\n');

/** A chunk of `doc` whose text is exactly its lines (so overlaps can be deduplicated). */
function chunk(doc: string, start: number, end: number, score: number, locator = `${doc}#${start}-${end}`): ContextChunk {
  return {
    doc_id: doc,
    locator,
    path: `${doc}.md`,
    title: doc.toUpperCase(),
    heading: `${doc} from ${start}`,
    start_line: start,
    end_line: end,
    text: linesText(doc, start, end),
    score,
  };
}

/** Tokens of a chunk placed alone, header included. */
const aloneCost = (c: ContextChunk, count: (text: string) => number): number => count(contextBlockHeader(c)) + count(c.text);

const summary = (ctx: BuiltContext) => ctx.blocks.map((b) => `${b.doc_id}:${b.start_line}-${b.end_line}`);

describe('estimateTokens', () => {
  it('is ceil(characters / 4) with a floor of one token per word, and 0 for empty text', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('a b c 1 2 3')).toBe(6); // 11 chars would say 3; six words say 6
    expect(estimateTokens('   ')).toBe(1);
  });

  it('is subadditive over concatenation and monotone over prefixes', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), (a, b) => {
        expect(estimateTokens(a + b)).toBeLessThanOrEqual(estimateTokens(a) + estimateTokens(b));
        expect(estimateTokens(a)).toBeLessThanOrEqual(estimateTokens(a + b));
      }),
    );
  });
});

describe('buildContext', () => {
  it('returns nothing for empty input', () => {
    expect(buildContext([])).toEqual({ blocks: [], tokens: 0, budget: DEFAULT_CONTEXT_BUDGET_TOKENS, dropped: [], trimmed: false });
  });

  it('rejects a budget that is not a positive finite number of tokens', () => {
    const chunks = [chunk('a', 1, 2, 1)];
    for (const budgetTokens of [0, -5, 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => buildContext(chunks, { budgetTokens })).toThrow(RangeError);
    }
    expect(() => buildContext(chunks, { budgetTokens: 0 })).toThrow(/context budget must be a positive number of tokens, got 0/);
  });

  it('rejects a bad maxChunksPerDocBeforeDiversity, a bad token count, and non-integer lines', () => {
    const chunks = [chunk('a', 1, 2, 1)];
    expect(() => buildContext(chunks, { maxChunksPerDocBeforeDiversity: 0 })).toThrow(RangeError);
    expect(() => buildContext(chunks, { maxChunksPerDocBeforeDiversity: 1.5 })).toThrow(RangeError);
    expect(() => buildContext(chunks, { countTokens: (t) => t.length / 4 })).toThrow(/non-negative integer/);
    expect(() => buildContext(chunks, { countTokens: () => -1 })).toThrow(RangeError);
    expect(() => buildContext([{ ...chunks[0]!, start_line: Number.NaN }])).toThrow(/non-integer lines/);
  });

  it('merges overlapping and touching chunks of one file into one block without repeating lines', () => {
    // 1-4 and 3-6 overlap on lines 3-4; 7-8 touches 6. All three become one block of lines 1-8.
    const ctx = buildContext([chunk('a', 3, 6, 0.9), chunk('a', 1, 4, 0.8), chunk('a', 7, 8, 0.7)], { budgetTokens: 1000 });
    expect(ctx.blocks).toHaveLength(1);
    const [block] = ctx.blocks;
    expect(block).toMatchObject({ start_line: 1, end_line: 8, score: 0.9, trimmed: false, heading: 'a from 1' });
    expect(block!.text).toBe(linesText('a', 1, 8));
    expect(block!.locators).toEqual(['a#1-4', 'a#3-6', 'a#7-8']);
    expect(block!.tokens).toBe(estimateTokens('a.md:1-8') + estimateTokens(linesText('a', 1, 8)));
    expect(ctx.tokens).toBe(block!.tokens);
    expect(ctx.dropped).toEqual([]);
  });

  it('keeps chunks separated by a gap of one line as separate blocks', () => {
    const ctx = buildContext([chunk('a', 1, 3, 0.9), chunk('a', 5, 6, 0.8)], { budgetTokens: 1000 });
    expect(summary(ctx)).toEqual(['a:1-3', 'a:5-6']);
  });

  it('falls back to concatenation when a chunk text does not match its line range or disagrees on a shared line', () => {
    const misaligned = { ...chunk('a', 3, 5, 0.8), text: 'only one line' };
    const ctx = buildContext([chunk('a', 1, 4, 0.9), misaligned], { budgetTokens: 1000 });
    expect(ctx.blocks).toHaveLength(1);
    expect(ctx.blocks[0]).toMatchObject({ start_line: 1, end_line: 5, text: `${linesText('a', 1, 4)}\nonly one line` });

    // Two pieces of one over-long line share a line number but not a text: both are kept.
    const piece = (text: string, locator: string): ContextChunk => ({ ...chunk('b', 2, 2, 0.5, locator), text });
    const pieces = buildContext([piece('first half of a long', 'p1'), piece('long line, second half', 'p2')], { budgetTokens: 1000 });
    expect(pieces.blocks[0]!.text).toBe('first half of a long\nlong line, second half');
  });

  it('orders blocks by document best score, and within a document by line, whatever the chunk scores', () => {
    const ctx = buildContext(
      [chunk('b', 20, 22, 0.95), chunk('a', 40, 41, 0.9), chunk('b', 1, 2, 0.6), chunk('a', 5, 6, 0.5), chunk('b', 10, 11, 0.4)],
      { budgetTokens: 1000 },
    );
    expect(summary(ctx)).toEqual(['b:1-2', 'b:10-11', 'b:20-22', 'a:5-6', 'a:40-41']);
  });

  it('prefers diverse documents: the best chunk of B comes before the second chunk of A', () => {
    const chunks = [chunk('a', 1, 2, 0.9), chunk('a', 10, 11, 0.85), chunk('a', 20, 21, 0.8), chunk('b', 1, 2, 0.3)];
    // Each chunk costs 1 header word + its words; room for two separate chunks, not three.
    const twoChunks = aloneCost(chunks[0]!, countWords) + aloneCost(chunks[3]!, countWords);
    const ctx = buildContext(chunks, { budgetTokens: twoChunks, countTokens: countWords });
    expect(summary(ctx)).toEqual(['a:1-2', 'b:1-2']);
    expect(ctx.dropped).toEqual(['a#10-11', 'a#20-21']);

    // Without diversity the same budget goes to A's first two chunks.
    const plain = buildContext(chunks, {
      budgetTokens: aloneCost(chunks[0]!, countWords) + aloneCost(chunks[1]!, countWords),
      countTokens: countWords,
      maxChunksPerDocBeforeDiversity: Number.POSITIVE_INFINITY,
    });
    expect(summary(plain)).toEqual(['a:1-2', 'a:10-11']);
  });

  it('lets a document place maxChunksPerDocBeforeDiversity chunks per round', () => {
    const chunks = [chunk('a', 1, 1, 0.9), chunk('a', 10, 10, 0.85), chunk('a', 20, 20, 0.8), chunk('b', 1, 1, 0.3)];
    const ctx = buildContext(chunks, { budgetTokens: 1000, countTokens: countWords, maxChunksPerDocBeforeDiversity: 2 });
    expect(summary(ctx)).toHaveLength(4);
    // Room for A's first two chunks: two per round spends it on them; one per round lets B in first.
    const options = { budgetTokens: aloneCost(chunks[0]!, countWords) + aloneCost(chunks[1]!, countWords), countTokens: countWords };
    expect(summary(buildContext(chunks, { ...options, maxChunksPerDocBeforeDiversity: 2 }))).toEqual(['a:1-1', 'a:10-10']);
    expect(summary(buildContext(chunks, options))).toEqual(['a:1-1', 'a:20-20', 'b:1-1']);
  });

  it('skips a chunk that does not fit and still takes a smaller one after it', () => {
    const small = chunk('a', 1, 1, 0.9);
    const big = chunk('b', 1, 30, 0.8);
    const smaller = chunk('c', 1, 2, 0.7);
    const budgetTokens = aloneCost(small, countWords) + aloneCost(smaller, countWords);
    const ctx = buildContext([small, big, smaller], { budgetTokens, countTokens: countWords });
    expect(summary(ctx)).toEqual(['a:1-1', 'c:1-2']);
    expect(ctx.dropped).toEqual([big.locator]);
    expect(ctx.trimmed).toBe(false);
  });

  it('does not trim the best chunk when a smaller chunk fits whole', () => {
    const best = chunk('a', 1, 40, 0.9);
    const small = chunk('b', 1, 1, 0.5);
    const ctx = buildContext([best, small], { budgetTokens: aloneCost(small, countWords), countTokens: countWords });
    expect(summary(ctx)).toEqual(['b:1-1']);
    expect(ctx.trimmed).toBe(false);
    expect(ctx.dropped).toEqual([best.locator]);
  });

  it('trims the best chunk at a line boundary only when no chunk fits whole', () => {
    const best = chunk('a', 5, 14, 0.9);
    const other = chunk('b', 1, 10, 0.5);
    const firstThree = linesText('a', 5, 7);
    const budgetTokens = countWords('a.md:5-7') + countWords(firstThree); // room for exactly three lines
    const ctx = buildContext([best, other], { budgetTokens, countTokens: countWords });
    expect(ctx.trimmed).toBe(true);
    expect(ctx.blocks).toHaveLength(1);
    expect(ctx.blocks[0]).toMatchObject({ start_line: 5, end_line: 7, text: firstThree, trimmed: true, locators: [best.locator] });
    expect(ctx.tokens).toBeLessThanOrEqual(budgetTokens);
    expect(ctx.dropped).toEqual([other.locator]);
  });

  it('trims by characters when not even the first line fits, and gives up when the header alone does not fit', () => {
    const long: ContextChunk = { ...chunk('a', 1, 1, 0.9), text: 'x'.repeat(400) };
    const ctx = buildContext([long], { budgetTokens: 20 });
    expect(ctx.trimmed).toBe(true);
    expect(ctx.blocks[0]!.text).toBe('x'.repeat(Math.floor((20 - estimateTokens('a.md:1-1')) * 4)));
    expect(ctx.tokens).toBe(20);

    const none = buildContext([long], { budgetTokens: 1, countTokens: (t) => t.length });
    expect(none).toEqual({ blocks: [], tokens: 0, budget: 1, dropped: [long.locator], trimmed: false });
  });

  it('counts a locator given twice once', () => {
    const ctx = buildContext([chunk('a', 1, 2, 0.9), chunk('a', 1, 2, 0.1), chunk('b', 1, 2, 0.5)], { budgetTokens: 1000 });
    expect(ctx.blocks.flatMap((b) => b.locators)).toEqual(['a#1-2', 'b#1-2']);
    expect(ctx.dropped).toEqual([]);
  });

  describe('properties', () => {
    const DOCS = ['alpha', 'beta', 'gamma', 'delta'];
    const counters: [string, (text: string) => number][] = [
      ['estimateTokens', estimateTokens],
      ['words', countWords],
      ['chars', (text) => text.length],
    ];

    /** Random best-first chunk lists over 1-4 documents, texts exactly matching their line ranges. */
    const chunksArb: fc.Arbitrary<ContextChunk[]> = fc
      .record({
        docCount: fc.integer({ min: 1, max: 4 }),
        specs: fc.array(
          fc.record({ doc: fc.nat(3), start: fc.integer({ min: 1, max: 40 }), length: fc.integer({ min: 1, max: 8 }) }),
          { maxLength: 14 },
        ),
      })
      .chain(({ docCount, specs }) =>
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: specs.length, maxLength: specs.length }).map((scores) => {
          const sorted = [...scores].sort((a, b) => b - a);
          return specs.map((spec, i) => chunk(DOCS[spec.doc % docCount]!, spec.start, spec.start + spec.length - 1, sorted[i]!, `c${i}`));
        }),
      );
    const caseArb = fc.record({
      chunks: chunksArb,
      budget: fc.integer({ min: 1, max: 300 }),
      counter: fc.constantFrom(...counters),
    });
    const run = ({ chunks, budget, counter }: { chunks: ContextChunk[]; budget: number; counter: [string, (t: string) => number] }) =>
      buildContext(chunks, { budgetTokens: budget, countTokens: counter[1] });

    it('never exceeds the budget, and every block reports the tokens it really costs', () => {
      fc.assert(
        fc.property(caseArb, (input) => {
          const ctx = run(input);
          const count = input.counter[1];
          expect(ctx.budget).toBe(input.budget);
          expect(ctx.tokens).toBeLessThanOrEqual(input.budget);
          expect(ctx.tokens).toBe(ctx.blocks.reduce((sum, b) => sum + b.tokens, 0));
          for (const block of ctx.blocks) {
            expect(block.tokens).toBe(count(contextBlockHeader(block)) + count(block.text));
          }
        }),
      );
    });

    it('puts every input locator in exactly one of the blocks and the dropped list', () => {
      fc.assert(
        fc.property(caseArb, (input) => {
          const ctx = run(input);
          const placed = ctx.blocks.flatMap((b) => b.locators);
          expect(new Set(placed).size).toBe(placed.length);
          expect(placed.filter((l) => ctx.dropped.includes(l))).toEqual([]);
          expect([...placed, ...ctx.dropped].sort()).toEqual(input.chunks.map((c) => c.locator).sort());
        }),
      );
    });

    it('never lets blocks of one document overlap or touch, and never repeats a line in a merged block', () => {
      fc.assert(
        fc.property(caseArb, (input) => {
          const ctx = run(input);
          for (const block of ctx.blocks) {
            if (block.trimmed) {
              const source = input.chunks.find((c) => c.locator === block.locators[0])!;
              expect(source.text.startsWith(block.text)).toBe(true);
            } else {
              expect(block.text).toBe(linesText(block.doc_id, block.start_line, block.end_line));
            }
          }
          for (const doc of DOCS) {
            const own = ctx.blocks.filter((b) => b.doc_id === doc);
            for (let i = 1; i < own.length; i++) expect(own[i]!.start_line).toBeGreaterThan(own[i - 1]!.end_line + 1);
          }
        }),
      );
    });

    it('groups blocks by document in best-score order, in line order within a document', () => {
      fc.assert(
        fc.property(caseArb, (input) => {
          const ctx = run(input);
          const rankOf = new Map(input.chunks.map((c, i) => [c.locator, i]));
          const docBestRank = (doc: string) =>
            Math.min(...ctx.blocks.filter((b) => b.doc_id === doc).flatMap((b) => b.locators.map((l) => rankOf.get(l)!)));
          for (let i = 1; i < ctx.blocks.length; i++) {
            const [prev, next] = [ctx.blocks[i - 1]!, ctx.blocks[i]!];
            if (prev.doc_id === next.doc_id) expect(next.start_line).toBeGreaterThan(prev.end_line);
            else expect(docBestRank(prev.doc_id)).toBeLessThan(docBestRank(next.doc_id));
          }
          const docs = ctx.blocks.map((b) => b.doc_id).filter((d, i, all) => i === 0 || all[i - 1] !== d);
          expect(new Set(docs).size).toBe(docs.length);
        }),
      );
    });

    it('is deterministic: the same input gives the same output', () => {
      fc.assert(
        fc.property(caseArb, (input) => {
          expect(run({ ...input, chunks: structuredClone(input.chunks) })).toEqual(run(input));
        }),
      );
    });

    it('includes the best chunk whenever it fits alone, and trims only when no chunk fits whole', () => {
      fc.assert(
        fc.property(caseArb, (input) => {
          const ctx = run(input);
          const count = input.counter[1];
          const best = input.chunks[0];
          if (best && aloneCost(best, count) <= input.budget) {
            expect(ctx.blocks.flatMap((b) => b.locators)).toContain(best.locator);
          }
          const anyFits = input.chunks.some((c) => aloneCost(c, count) <= input.budget);
          if (anyFits) expect(ctx.trimmed).toBe(false);
          if (ctx.trimmed) {
            expect(ctx.blocks).toHaveLength(1);
            expect(ctx.blocks[0]!.locators).toEqual([best!.locator]);
          }
          expect(ctx.trimmed).toBe(ctx.blocks.some((b) => b.trimmed));
        }),
      );
    });
  });
});
