/**
 * Health and the machine: what the index holds and lacks, and what this machine offers the models.
 */
import { z } from 'zod';
import { Empty } from './common.ts';
import { FileIssueSchema, IndexProgressSchema, RootSchema } from './indexing.ts';

export const HealthReportSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  degradations: z.array(z.string()),
  data_dir: z.string(),
  schema_version: z.number().int(),
  index_version: z.string(),
  roots: z.array(RootSchema),
  documents: z.object({
    total: z.number().int(),
    indexed: z.number().int(),
    skipped: z.number().int(),
    failed: z.number().int(),
    by_type: z.record(z.string(), z.number().int()),
  }),
  chunks: z.number().int(),
  /** Files queued by an interrupted run; the next index or watch finishes them. */
  pending_jobs: z.number().int(),
  issues: z.array(FileIssueSchema),
  /** Indexing progress, the same model index/status carries. */
  progress: IndexProgressSchema.optional(),
  models: z.object({
    embed: z.object({ id: z.string(), name: z.string(), path: z.string() }).nullable(),
    chat: z.object({ id: z.string(), name: z.string(), path: z.string() }).nullable(),
    rerank: z.object({ id: z.string(), name: z.string(), path: z.string() }).nullable(),
    gpu: z.union([z.string(), z.literal(false)]),
    threads: z.number().int(),
    /** Every embedding model in use, primary first, with the languages each answers queries in. */
    embedders: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          languages: z.array(z.string()),
          vectors: z.number().int(),
          pending: z.number().int(),
          unavailable: z.string().nullable(),
          /** Sentence vectors of this model (null when they are off): stored, and sentences still waiting. */
          sentences: z.object({ vectors: z.number().int(), pending: z.number().int() }).nullable().default(null),
        }),
      )
      .default([]),
  }),
  /** The retrieval profile in use (fusion weights and query techniques). */
  profile: z.string().default('default'),
  /** Chunks per detected language (ISO 639-1; und: not detected), most first. */
  languages: z.array(z.object({ lang: z.string(), chunks: z.number().int() })).default([]),
  vectors: z.object({ count: z.number().int(), dimension: z.number().int(), backend: z.string().nullable(), pending: z.number().int() }),
  config: z.record(z.string(), z.unknown()),
});
export type HealthReport = z.infer<typeof HealthReportSchema>;

/** What this machine offers the models: a GPU backend or the CPU, and why. */
export const SystemInfoSchema = z.object({
  platform: z.string(),
  arch: z.string(),
  cpus: z.number().int(),
  cpu_model: z.string(),
  memory_bytes: z.number(),
  /** The GPU backend node-llama-cpp uses (cuda, vulkan, metal), or false for the CPU. */
  gpu: z.union([z.string(), z.literal(false)]),
  /** In words: why the CPU is used (no GPU found, turned off, a backend failed). Null with a GPU. */
  gpu_reason: z.string().nullable(),
  threads: z.number().int(),
  /** The runtime could not be loaded at all (models then cannot run; lexical search still works). */
  runtime_error: z.string().nullable(),
});
export type SystemInfo = z.infer<typeof SystemInfoSchema>;

export const systemMethods = {
  /** Counts and warnings cover the documents the caller may see (restricted ones only with their sensitivity allowed). */
  'health/get': { request: z.object({ allow_sensitivity: z.array(z.string().min(1)).default([]) }).strict(), response: HealthReportSchema },
  'system/info': { request: Empty, response: SystemInfoSchema },
} as const;
