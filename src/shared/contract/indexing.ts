/**
 * The index namespace (`index/*`): registered roots, index runs and their reports, the indexed
 * documents, and pausing and watching. (Named indexing.ts so that it does not read as this folder's index.)
 */
import { z } from 'zod';
import { Empty } from './common.ts';

export const RootSchema = z.object({
  id: z.number().int(),
  path: z.string(),
  include: z.array(z.string()),
  exclude: z.array(z.string()),
  added_at: z.string(),
  /** The Obsidian vault (a folder holding `.obsidian/`) this root is or lies in: notes offer "Open in Obsidian". */
  obsidian_vault: z.string().nullable().optional(),
});
export type Root = z.infer<typeof RootSchema>;

export const IndexRequestSchema = z
  .object({
    /** Folders or files to index; folders become roots. Empty: re-index every registered root. */
    sources: z.array(z.string().min(1)).default([]),
  })
  .strict();

export const FileIssueSchema = z.object({
  path: z.string(),
  /** warning: indexed, but not all of it as written (front matter ignored, text cut, bytes replaced). */
  status: z.enum(['skipped', 'failed', 'warning']),
  reason: z.string(),
  code: z.string().optional(),
});
export type FileIssue = z.infer<typeof FileIssueSchema>;

export const IndexReportSchema = z.object({
  roots: z.array(z.string()),
  files_seen: z.number().int(),
  indexed: z.number().int(),
  unchanged: z.number().int(),
  removed: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  chunks_added: z.number().int(),
  chunks_total: z.number().int(),
  duration_ms: z.number(),
  issues: z.array(FileIssueSchema),
  /** Chunk inputs embedded in this run, failed, and still waiting (0 without an embedding model). */
  embedded: z.number().int().default(0),
  embed_failed: z.number().int().default(0),
  embed_pending: z.number().int().default(0),
});
export type IndexReport = z.infer<typeof IndexReportSchema>;

export const DocumentEntrySchema = z.object({
  doc_id: z.string(),
  root: z.string(),
  path: z.string(),
  uri: z.string(),
  type: z.string(),
  language: z.string().nullable(),
  title: z.string().nullable(),
  size: z.number().int(),
});
export type DocumentEntry = z.infer<typeof DocumentEntrySchema>;

/**
 * The phases of indexing, in the order a folder goes through them: scan (finding what changed),
 * words (the lexical index: searchable by words when done), passages (chunk vectors), sentences
 * (sentence vectors), graph (the chat model reading notes for the graph); done: nothing left.
 */
export const ProgressPhaseSchema = z.enum(['scan', 'words', 'passages', 'sentences', 'graph', 'done']);
export type ProgressPhase = z.infer<typeof ProgressPhaseSchema>;

/** running: worked on now; waiting: queued behind other work; paused: held by the user; done: nothing left. */
const PhaseProgressSchema = z.object({
  phase: ProgressPhaseSchema,
  state: z.enum(['running', 'waiting', 'paused', 'done']),
  /** Units of the phase done and in all (files for scan and words, passages, sentences, notes for graph). */
  done: z.number().int(),
  total: z.number().int(),
  /** Units a second over the last seconds of this phase; null until measured, and while paused or waiting. */
  rate_per_s: z.number().nullable(),
  /** Seconds until the phase ends at that rate; null without a rate. */
  eta_s: z.number().int().nullable(),
  /** Phase words only: the word index of a store an older version wrote is rebuilt from its chunks (units: notes). */
  upgrade: z.boolean().optional(),
});
export const FolderProgressSchema = PhaseProgressSchema.extend({ root: z.string() });
export type FolderProgress = z.infer<typeof FolderProgressSchema>;
/** The one progress model: overall and per folder, read by the app (Library, Settings, sidebar), the CLI and health. */
export const IndexProgressSchema = PhaseProgressSchema.extend({ folders: z.array(FolderProgressSchema) });
export type IndexProgress = z.infer<typeof IndexProgressSchema>;

/** Whether indexing runs, is paused (the queue keeps the rest), and whether the roots are watched. */
export const IndexStatusSchema = z.object({
  /** A run is working or queued. */
  running: z.boolean(),
  paused: z.boolean(),
  watching: z.boolean(),
  /** Files queued and not yet indexed (an interrupted or paused run leaves them). */
  pending_jobs: z.number().int(),
  progress: IndexProgressSchema,
});
export type IndexStatus = z.infer<typeof IndexStatusSchema>;

export const indexMethods = {
  'index/run': { request: IndexRequestSchema, response: IndexReportSchema },
  'index/addRoot': {
    request: z
      .object({
        path: z.string().min(1),
        include: z.array(z.string().min(1)).default([]),
        exclude: z.array(z.string().min(1)).default([]),
      })
      .strict(),
    response: RootSchema,
  },
  'index/removeRoot': {
    request: z.object({ path: z.string().min(1) }).strict(),
    response: z.object({ removed: z.boolean(), documents_removed: z.number().int() }),
  },
  'index/roots': { request: Empty, response: z.array(RootSchema) },
  'index/documents': { request: z.object({ allow_sensitivity: z.array(z.string().min(1)).default([]) }).strict(), response: z.array(DocumentEntrySchema) },
  /** Stops the current run between files (the queue keeps the rest) and holds watcher changes until resume. */
  'index/pause': { request: Empty, response: IndexStatusSchema },
  /** Finishes what a pause held back: queued files and changes made meanwhile. */
  'index/resume': { request: Empty, response: IndexStatusSchema },
  'index/status': { request: Empty, response: IndexStatusSchema },
  /** Watch every root (true) or stop watching (false); returns the status. */
  'index/watch': { request: z.object({ enabled: z.boolean() }).strict(), response: IndexStatusSchema },
} as const;
