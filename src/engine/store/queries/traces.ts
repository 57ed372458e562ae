/** Answer traces: what each answer retrieved, how long each step took, what it cost. */
import { type Limit, storedLimits } from '../../../shared/contract.ts';
import { sqliteOf, type ReadConnection, type WriteConnection } from '../connection.ts';

export interface TraceRow {
  trace_id: string;
  started_at: string;
  finished_at: string;
  query: string;
  answer_mode: string;
  verdict: string | null;
  confidence: number;
  latencies_ms: Record<string, number>;
  /** Locators retrieved, and after reranking, in order. */
  retrieved: string[];
  reranked: string[];
  tokens_in: number;
  tokens_out: number;
  first_token_ms: number | null;
  tokens_per_s: number | null;
  limits: Limit[];
}

export function insertTrace(connection: WriteConnection, trace: TraceRow): void {
  sqliteOf(connection)
    .prepare(
      `INSERT INTO traces (trace_id, started_at, finished_at, query, answer_mode, verdict, confidence, latencies_json, retrieved_json, reranked_json,
         tokens_in, tokens_out, first_token_ms, tokens_per_s, limits_json)
       VALUES (@trace_id, @started_at, @finished_at, @query, @answer_mode, @verdict, @confidence, @latencies_json, @retrieved_json, @reranked_json,
         @tokens_in, @tokens_out, @first_token_ms, @tokens_per_s, @limits_json)`,
    )
    .run({
      ...trace,
      latencies_json: JSON.stringify(trace.latencies_ms),
      retrieved_json: JSON.stringify(trace.retrieved),
      reranked_json: JSON.stringify(trace.reranked),
      limits_json: JSON.stringify(trace.limits),
      latencies_ms: undefined,
      retrieved: undefined,
      reranked: undefined,
      limits: undefined,
    });
}

/** The newest traces first. */
export function listTraces(connection: ReadConnection, limit = 1000): TraceRow[] {
  const rows = sqliteOf(connection).prepare('SELECT * FROM traces ORDER BY started_at DESC, rowid DESC LIMIT ?').all(limit) as Record<string, unknown>[];
  return rows.map((r) => ({
    trace_id: r.trace_id as string,
    started_at: r.started_at as string,
    finished_at: r.finished_at as string,
    query: r.query as string,
    answer_mode: r.answer_mode as string,
    verdict: (r.verdict as string | null) ?? null,
    confidence: r.confidence as number,
    latencies_ms: JSON.parse(r.latencies_json as string) as Record<string, number>,
    retrieved: JSON.parse(r.retrieved_json as string) as string[],
    reranked: JSON.parse(r.reranked_json as string) as string[],
    tokens_in: r.tokens_in as number,
    tokens_out: r.tokens_out as number,
    first_token_ms: (r.first_token_ms as number | null) ?? null,
    tokens_per_s: (r.tokens_per_s as number | null) ?? null,
    // Older versions stored each limit as its text.
    limits: storedLimits(JSON.parse(r.limits_json as string)),
  }));
}
