import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  aggregateScores,
  applyRetrievalMode,
  RETRIEVAL_MODES,
  sectionKeyOf,
  type ModeChunk,
  type RetrievalModeOptions,
} from './modes.ts';

const chunk = (doc_id: string, heading: string | null, line: number, score: number): ModeChunk => ({
  doc_id,
  heading,
  locator: `${doc_id}.md#L${line}-L${line + 9}`,
  score,
});

// Aggregates (best + 0.1 × next two): A = 0.9 + 0.1·(0.5 + 0.4) = 0.99, B = 0.96,
// C = 0.85 + 0.1·(0.8 + 0.8) = 1.01. Sections: A#intro 0.95, A#setup 0.4, B#x 0.96, C#y 0.93, C#z 0.8.
const a1 = chunk('A', 'intro', 1, 0.9);
const a2 = chunk('A', 'intro', 11, 0.5);
const a3 = chunk('A', 'setup', 21, 0.4);
const b1 = chunk('B', 'x', 1, 0.96);
const c1 = chunk('C', 'y', 1, 0.85);
const c2 = chunk('C', 'y', 11, 0.8);
const c3 = chunk('C', 'z', 21, 0.8);
const corpus = [a3, c2, b1, a1, c3, a2, c1];

const wide = { max_docs: 20, max_sections: 50, max_chunks: 40 };
const run = (options: Partial<RetrievalModeOptions> & Pick<RetrievalModeOptions, 'mode'>, chunks: ModeChunk[] = corpus) =>
  applyRetrievalMode(chunks, { ...wide, ...options });

describe('aggregateScores', () => {
  it('is the best score plus 0.1 of each of the next two', () => {
    expect(aggregateScores([0.5, 0.9, 0.4, 0.3])).toBeCloseTo(0.99, 12);
    expect(aggregateScores([0.7])).toBe(0.7);
    expect(aggregateScores([])).toBe(0);
  });

  it('lets several hits break a near tie but never outvote one clearly better hit', () => {
    expect(aggregateScores([0.85, 0.8, 0.8])).toBeGreaterThan(aggregateScores([0.9]));
    expect(aggregateScores([0.5, 0.5, 0.5, 0.5, 0.5])).toBeLessThan(aggregateScores([0.9]));
  });

  it('adds no support from negative scores', () => {
    expect(aggregateScores([-1, -2])).toBe(-1);
  });
});

describe('applyRetrievalMode: doc_first', () => {
  it('ranks documents by aggregate score, keeps the top max_docs, then their chunks best first', () => {
    const out = run({ mode: 'doc_first', max_docs: 2 });
    // B holds the single best chunk but C and A have more support.
    expect(out.chunks).toEqual([c1, c2, c3, a1, a2, a3]);
    expect(out.used_docs.map((d) => d.doc_id)).toEqual(['C', 'A']);
    expect(out.used_docs[0]!.score).toBeCloseTo(1.01, 12);
    expect(out.used_docs[1]!.score).toBeCloseTo(0.99, 12);
  });

  it('caps chunks, chunks per document and distinct sections', () => {
    expect(run({ mode: 'doc_first', max_chunks: 4 }).chunks).toEqual([c1, c2, c3, a1]);
    expect(run({ mode: 'doc_first', max_chunks_per_doc: 1 }).chunks).toEqual([c1, a1, b1]);
    const out = run({ mode: 'doc_first', max_sections: 2 });
    expect(out.chunks).toEqual([c1, c2, c3]);
    expect(out.used_sections.map((s) => s.section_id)).toEqual(['C#y', 'C#z']);
  });
});

describe('applyRetrievalMode: section_first', () => {
  it('ranks the sections of the top documents and keeps the chunks of the top max_sections', () => {
    const out = run({ mode: 'section_first', max_docs: 2, max_sections: 2 });
    expect(out.chunks).toEqual([a1, a2, c1, c2]);
    expect(out.used_sections).toEqual([
      { section_id: 'A#intro', doc_id: 'A', heading: 'intro', score: expect.closeTo(0.95, 12) },
      { section_id: 'C#y', doc_id: 'C', heading: 'y', score: expect.closeTo(0.93, 12) },
    ]);
    expect(out.used_docs.map((d) => d.doc_id)).toEqual(['C', 'A']);
  });

  it('looks at sections of every document when max_docs allows, and caps chunks', () => {
    expect(run({ mode: 'section_first', max_sections: 2 }).chunks).toEqual([b1, a1, a2]);
    expect(run({ mode: 'section_first', max_sections: 2, max_chunks: 2 }).chunks).toEqual([b1, a1]);
    expect(run({ mode: 'section_first', max_chunks_per_doc: 1 }).chunks).toEqual([b1, a1, c1]);
  });

  it('keys sections by the section id when given, else by heading, always within the document', () => {
    const x = { ...chunk('A', 'Setup', 1, 0.9), section_id: 'setup' };
    const y = { ...chunk('A', 'Setup', 30, 0.8), section_id: 'setup-1' };
    const z = chunk('B', 'Setup', 1, 0.7);
    expect([x, y, z].map(sectionKeyOf)).toEqual(['A#setup', 'A#setup-1', 'B#Setup']);
    expect(sectionKeyOf(chunk('A', null, 1, 1))).toBe('A#');
    expect(run({ mode: 'section_first', max_sections: 2 }, [x, y, z]).chunks).toEqual([x, y]);
  });
});

describe('applyRetrievalMode: chunk_priority', () => {
  it('ranks chunks directly, three per document by default', () => {
    const many = Array.from({ length: 5 }, (_, i) => chunk('A', null, i * 10 + 1, 1 - i / 100));
    const out = run({ mode: 'chunk_priority' }, [...many, b1]);
    expect(out.chunks).toEqual([many[0], many[1], many[2], b1]);
    expect(run({ mode: 'chunk_priority' }).chunks).toEqual([b1, a1, c1, c2, c3, a2, a3]);
  });

  it('caps chunks per document, documents, sections and chunks', () => {
    expect(run({ mode: 'chunk_priority', max_chunks_per_doc: 1 }).chunks).toEqual([b1, a1, c1]);
    expect(run({ mode: 'chunk_priority', max_docs: 2 }).chunks).toEqual([b1, a1, a2, a3]);
    expect(run({ mode: 'chunk_priority', max_sections: 2 }).chunks).toEqual([b1, a1, a2]);
    expect(run({ mode: 'chunk_priority', max_chunks: 2 }).chunks).toEqual([b1, a1]);
  });
});

describe('applyRetrievalMode: hybrid_only', () => {
  it('is the fused list cut to max_chunks, ignoring the other limits', () => {
    const out = run({ mode: 'hybrid_only', max_chunks: 3, max_docs: 1, max_sections: 1, max_chunks_per_doc: 1 });
    expect(out.chunks).toEqual([b1, a1, c1]);
    expect(out.used_docs.map((d) => d.doc_id)).toEqual(['C', 'A', 'B']);
    expect(out.used_sections.map((s) => s.section_id)).toEqual(['B#x', 'A#intro', 'C#y']);
  });
});

describe('applyRetrievalMode: input handling', () => {
  it('keeps the best score of a chunk listed twice', () => {
    const again = { ...a1, score: 0.1 };
    const out = run({ mode: 'hybrid_only' }, [again, a1, b1]);
    expect(out.chunks).toEqual([b1, a1]);
  });

  it('returns nothing for nothing or a zero cap, and rejects bad options', () => {
    expect(run({ mode: 'section_first' }, [])).toEqual({ chunks: [], used_docs: [], used_sections: [] });
    for (const mode of RETRIEVAL_MODES) expect(run({ mode, max_chunks: 0 }).chunks).toEqual([]);
    expect(() => run({ mode: 'doc_first', max_docs: -1 })).toThrow(RangeError);
    expect(() => run({ mode: 'doc_first', max_chunks: 1.5 })).toThrow(RangeError);
    expect(() => run({ mode: 'nope' as 'doc_first' })).toThrow(RangeError);
    expect(() => run({ mode: 'doc_first' }, [{ ...a1, score: Number.NaN }])).toThrow(RangeError);
  });

  const chunksArb = fc.array(
    fc.record({
      doc_id: fc.constantFrom('A', 'B', 'C', 'D'),
      heading: fc.constantFrom(null, 'h1', 'h2', 'h3'),
      line: fc.integer({ min: 1, max: 6 }),
      score: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    { maxLength: 30 },
  ).map((rows) => rows.map((r) => chunk(r.doc_id, r.heading, r.line, r.score)));
  const optionsArb = fc.record({
    mode: fc.constantFrom(...RETRIEVAL_MODES),
    max_docs: fc.integer({ min: 0, max: 5 }),
    max_sections: fc.integer({ min: 0, max: 8 }),
    max_chunks: fc.integer({ min: 0, max: 12 }),
    max_chunks_per_doc: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  });

  it('property: every mode honours its caps and returns distinct input chunks', () => {
    fc.assert(
      fc.property(chunksArb, optionsArb, (chunks, options) => {
        const out = applyRetrievalMode(chunks, options);
        expect(out.chunks.length).toBeLessThanOrEqual(options.max_chunks);
        expect(out.chunks.every((c) => chunks.includes(c))).toBe(true);
        expect(new Set(out.chunks.map((c) => `${c.doc_id} ${c.locator}`)).size).toBe(out.chunks.length);
        expect(new Set(out.used_docs.map((d) => d.doc_id))).toEqual(new Set(out.chunks.map((c) => c.doc_id)));
        expect(new Set(out.used_sections.map((s) => s.section_id))).toEqual(new Set(out.chunks.map(sectionKeyOf)));
        if (options.mode === 'hybrid_only') return;
        expect(out.used_docs.length).toBeLessThanOrEqual(options.max_docs);
        expect(out.used_sections.length).toBeLessThanOrEqual(options.max_sections);
        const cap = options.max_chunks_per_doc ?? (options.mode === 'chunk_priority' ? 3 : Infinity);
        for (const d of out.used_docs) expect(out.chunks.filter((c) => c.doc_id === d.doc_id).length).toBeLessThanOrEqual(cap);
      }),
    );
  });

  it('property: the input order does not matter', () => {
    fc.assert(
      fc.property(
        chunksArb.chain((chunks) => fc.tuple(fc.constant(chunks), fc.shuffledSubarray(chunks, { minLength: chunks.length }))),
        optionsArb,
        ([chunks, shuffled], options) => {
          expect(applyRetrievalMode(shuffled, options)).toEqual(applyRetrievalMode(chunks, options));
        },
      ),
    );
  });
});
