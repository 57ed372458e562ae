/**
 * Answer metrics in Prometheus text format (exposition format 0.0.4), derived from the trace rows:
 * a CLI process lives for one command, so counters kept in memory would always read zero; the
 * traces table is the durable record both the app and the CLI share.
 */
import type { TraceRow } from '../store/store.ts';

/** Latency bucket bounds in milliseconds. */
export const LATENCY_BUCKETS_MS = [10, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000, 120_000];

const label = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export function metricsFromTraces(traces: readonly TraceRow[]): string {
  const lines: string[] = [];
  lines.push('# HELP synapsis_answers_total Answers given, by answer mode and critic verdict.', '# TYPE synapsis_answers_total counter');
  const byOutcome = new Map<string, number>();
  for (const t of traces) {
    const key = `answer_mode="${label(t.answer_mode)}",verdict="${label(t.verdict ?? 'none')}"`;
    byOutcome.set(key, (byOutcome.get(key) ?? 0) + 1);
  }
  for (const [key, n] of [...byOutcome].sort()) lines.push(`synapsis_answers_total{${key}} ${n}`);

  lines.push('# HELP synapsis_answer_degradations_total Stages skipped, timed out or replaced by a fallback.', '# TYPE synapsis_answer_degradations_total counter');
  lines.push(`synapsis_answer_degradations_total ${traces.reduce((n, t) => n + t.limits.length, 0)}`);

  lines.push('# HELP synapsis_answer_tokens_total Tokens read and written by the chat model.', '# TYPE synapsis_answer_tokens_total counter');
  lines.push(`synapsis_answer_tokens_total{direction="in"} ${traces.reduce((n, t) => n + t.tokens_in, 0)}`);
  lines.push(`synapsis_answer_tokens_total{direction="out"} ${traces.reduce((n, t) => n + t.tokens_out, 0)}`);

  lines.push('# HELP synapsis_stage_latency_ms Per-stage answer latency in milliseconds.', '# TYPE synapsis_stage_latency_ms histogram');
  const stages = [...new Set(traces.flatMap((t) => Object.keys(t.latencies_ms)))].sort();
  for (const stageKey of stages) {
    const stage = label(stageKey.replace(/_ms$/, ''));
    const values = traces.map((t) => t.latencies_ms[stageKey]).filter((v): v is number => typeof v === 'number');
    for (const bound of LATENCY_BUCKETS_MS) {
      lines.push(`synapsis_stage_latency_ms_bucket{stage="${stage}",le="${bound}"} ${values.filter((v) => v <= bound).length}`);
    }
    lines.push(`synapsis_stage_latency_ms_bucket{stage="${stage}",le="+Inf"} ${values.length}`);
    lines.push(`synapsis_stage_latency_ms_sum{stage="${stage}"} ${Math.round(values.reduce((a, b) => a + b, 0) * 10) / 10}`);
    lines.push(`synapsis_stage_latency_ms_count{stage="${stage}"} ${values.length}`);
  }
  const confidences = traces.map((t) => t.confidence);
  lines.push('# HELP synapsis_answer_low_confidence_total Answers below confidence 0.3.', '# TYPE synapsis_answer_low_confidence_total counter');
  lines.push(`synapsis_answer_low_confidence_total ${confidences.filter((c) => c < 0.3).length}`);
  return `${lines.join('\n')}\n`;
}
