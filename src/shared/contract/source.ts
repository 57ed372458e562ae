/**
 * The source namespace: the exact lines behind a locator.
 */
import { z } from 'zod';

export const SourceRequestSchema = z
  .object({
    /** A locator as results print it: `notes/a.md#L3-L9` (also `path:3-9`, or a bare path for the whole file). */
    locator: z.string().min(1, 'locator is empty').max(4096, 'locator is longer than 4096 characters'),
    allow_sensitivity: z.array(z.string().min(1)).default([]),
  })
  .strict();

/** The exact lines behind a locator: the file's own lines, or the indexed text when the file changed or is a PDF/DOCX/HTML. */
export const SourceLinesSchema = z.object({
  locator: z.string(),
  doc_id: z.string(),
  path: z.string(),
  root: z.string(),
  uri: z.string(),
  type: z.string(),
  language: z.string().nullable(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  text: z.string(),
  /** The file changed or vanished since it was indexed: these are the lines as indexed. */
  stale: z.boolean(),
  /** The range was longer than the 500 lines served at once. */
  truncated: z.boolean(),
});
export type SourceLines = z.infer<typeof SourceLinesSchema>;

export const sourceMethods = {
  'source/get': { request: SourceRequestSchema, response: SourceLinesSchema },
} as const;
