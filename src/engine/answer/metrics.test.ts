import { describe, expect, it } from 'vitest';
import type { TraceRow } from '../store/store.ts';
import { metricsFromTraces } from './metrics.ts';

function trace(overrides: Partial<TraceRow>): TraceRow {
  return {
    trace_id: 't',
    started_at: '2026-01-01T00:00:00Z',
    finished_at: '2026-01-01T00:00:01Z',
    query: 'q',
    answer_mode: 'generative',
    verdict: 'APPROVE',
    confidence: 0.8,
    latencies_ms: { retrieve_ms: 20, synthesize_ms: 800 },
    retrieved: [],
    reranked: [],
    tokens_in: 100,
    tokens_out: 40,
    first_token_ms: 300,
    tokens_per_s: 20,
    limits: [],
    ...overrides,
  };
}

describe('metricsFromTraces', () => {
  it('counts answers by outcome and builds cumulative per-stage histograms', () => {
    const text = metricsFromTraces([
      trace({}),
      trace({ verdict: 'REJECT', answer_mode: 'abstained', confidence: 0.05, latencies_ms: { retrieve_ms: 300 }, limits: [{ code: 'other', detail: 'x' }] }),
    ]);
    expect(text).toContain('synapsis_answers_total{answer_mode="abstained",verdict="REJECT"} 1');
    expect(text).toContain('synapsis_answers_total{answer_mode="generative",verdict="APPROVE"} 1');
    expect(text).toContain('synapsis_stage_latency_ms_bucket{stage="retrieve",le="50"} 1');
    expect(text).toContain('synapsis_stage_latency_ms_bucket{stage="retrieve",le="500"} 2');
    expect(text).toContain('synapsis_stage_latency_ms_bucket{stage="retrieve",le="+Inf"} 2');
    expect(text).toContain('synapsis_stage_latency_ms_sum{stage="retrieve"} 320');
    expect(text).toContain('synapsis_stage_latency_ms_count{stage="synthesize"} 1');
    expect(text).toContain('synapsis_answer_tokens_total{direction="out"} 80');
    expect(text).toContain('synapsis_answer_degradations_total 1');
    expect(text).toContain('synapsis_answer_low_confidence_total 1');
    // Every sample line is "name{labels} value" or "name value".
    for (const line of text.trim().split('\n').filter((l) => !l.startsWith('#'))) expect(line).toMatch(/^[a-z_]+(\{[^}]*\})? -?[\d.]+$/);
  });

  it('reports zeros, not an error, before any answer', () => {
    expect(metricsFromTraces([])).toContain('synapsis_answer_degradations_total 0');
  });
});
