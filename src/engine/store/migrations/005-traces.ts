import type { Migration } from './types.ts';

/**
 * One row per answer: what was retrieved and reranked, per-stage latencies, tokens, the critic's
 * verdict, confidence and limits. `synapsis traces` exports them and `synapsis health --metrics`
 * derives its counters and latency histograms from them, so a one-shot CLI process reports the
 * same metrics a long-running app would. Passages are named by locator, which outlives chunk ids.
 * Migration 001 created a generic placeholder `traces` table that nothing ever wrote; it is replaced.
 */
export const migration005: Migration = {
  version: 5,
  name: 'traces',
  up(db) {
    db.exec(`
      DROP TABLE IF EXISTS traces;
      CREATE TABLE traces (
        trace_id TEXT PRIMARY KEY,
        started_at TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        query TEXT NOT NULL,
        answer_mode TEXT NOT NULL,
        verdict TEXT,
        confidence REAL NOT NULL,
        latencies_json TEXT NOT NULL,
        retrieved_json TEXT NOT NULL,
        reranked_json TEXT NOT NULL,
        tokens_in INTEGER NOT NULL DEFAULT 0,
        tokens_out INTEGER NOT NULL DEFAULT 0,
        first_token_ms REAL,
        tokens_per_s REAL,
        limits_json TEXT NOT NULL
      );
      CREATE INDEX traces_started_at ON traces (started_at);
    `);
  },
};
