import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerConfidence, LOW_CONFIDENCE, type ConfidenceInput } from './confidence.ts';
import type { Verdict } from './types.ts';

const inputArb: fc.Arbitrary<ConfidenceInput> = fc.record({
  synthesized: fc.boolean(),
  degradations: fc.integer({ min: 0, max: 12 }),
  verdict: fc.constantFrom<Verdict | null>('APPROVE', 'REVISE', 'REJECT', null),
  topScore: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
  supportedShare: fc.double({ min: 0, max: 1, noNaN: true }),
  answerability: fc.double({ min: 0, max: 1, noNaN: true }),
});
/** Worst to best; a skipped critic sits between a REVISE and an APPROVE. */
const VERDICT_ORDER: (Verdict | null)[] = ['REJECT', 'REVISE', null, 'APPROVE'];

describe('answerConfidence', () => {
  it('follows the documented formula', () => {
    // 0.85 × (0.2 + 0.6 × 1 + 0.1 × 0.9 + 0.1 × 1) = 0.842 (answerability unknown counts as 1)
    expect(answerConfidence({ synthesized: true, degradations: 0, verdict: 'APPROVE', topScore: 0.9, supportedShare: 1 })).toEqual({ confidence: 0.842, low: false });
    // 0.85 × 0.9 × (0.2 + 0.6 × 0.5 + 0.05 + 0.1) − 0.1 = 0.397
    expect(answerConfidence({ synthesized: false, degradations: 1, verdict: 'APPROVE', topScore: null, supportedShare: 1, answerability: 0.5 })).toEqual({ confidence: 0.397, low: false });
    // 0.5 × (0.2 + 0.6 × 0.2 + 0.05 + 0.05) = 0.21
    expect(answerConfidence({ synthesized: true, degradations: 0, verdict: 'REVISE', topScore: 0.5, supportedShare: 0.5, answerability: 0.2 }).confidence).toBe(0.21);
  });

  it('marks a rejected answer low however good the retrieval was', () => {
    expect(answerConfidence({ synthesized: true, degradations: 0, verdict: 'REJECT', topScore: 1, supportedShare: 1 })).toEqual({ confidence: 0.1, low: true });
  });

  it('survives out-of-range and NaN input', () => {
    const r = answerConfidence({ synthesized: true, degradations: Number.NaN, verdict: null, topScore: 7, supportedShare: Number.NaN });
    expect(r.confidence).toBe(0.54); // 0.6 × (0.2 + 0.6 + 0.1 + 0)
    expect(answerConfidence({ synthesized: true, degradations: 99, verdict: 'APPROVE', topScore: 1, supportedShare: 1 }).confidence).toBe(0);
  });

  it('stays within [0, 1], rounded to 3 decimals, low exactly below the threshold', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const { confidence, low } = answerConfidence(input);
        expect(confidence).toBeGreaterThanOrEqual(0);
        expect(confidence).toBeLessThanOrEqual(1);
        expect(Math.round(confidence * 1000) / 1000).toBe(confidence);
        expect(low).toBe(confidence < LOW_CONFIDENCE);
      }),
    );
  });

  it('never rises with more degradations', () => {
    fc.assert(
      fc.property(inputArb, fc.integer({ min: 1, max: 5 }), (input, more) => {
        const worse = answerConfidence({ ...input, degradations: input.degradations + more });
        expect(worse.confidence).toBeLessThanOrEqual(answerConfidence(input).confidence);
      }),
    );
  });

  it('never falls with a better verdict, synthesis, top score or support', () => {
    fc.assert(
      fc.property(inputArb, fc.integer({ min: 0, max: 3 }), fc.double({ min: 0, max: 1, noNaN: true }), (input, better, delta) => {
        const base = answerConfidence(input).confidence;
        const rank = VERDICT_ORDER.indexOf(input.verdict);
        const upgraded = VERDICT_ORDER[Math.max(rank, better)]!;
        expect(answerConfidence({ ...input, verdict: upgraded }).confidence).toBeGreaterThanOrEqual(base);
        expect(answerConfidence({ ...input, synthesized: true }).confidence).toBeGreaterThanOrEqual(base);
        expect(answerConfidence({ ...input, supportedShare: Math.min(1, input.supportedShare + delta) }).confidence).toBeGreaterThanOrEqual(base);
        expect(answerConfidence({ ...input, answerability: Math.min(1, (input.answerability ?? 1) + delta) }).confidence).toBeGreaterThanOrEqual(base);
        if (input.topScore !== null)
          expect(answerConfidence({ ...input, topScore: Math.min(1, input.topScore + delta) }).confidence).toBeGreaterThanOrEqual(base);
      }),
    );
  });
});
