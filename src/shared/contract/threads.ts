/**
 * The threads namespace: conversations kept in the store. A thread is a list of turns, each a
 * question, what it was searched as (a follow-up carries the thread's terms) and its answer with
 * the citations. A turn whose answer used notes the caller may not see comes back without them.
 */
import { z } from 'zod';
import { AnswerEnvelopeSchema } from './answer.ts';
import { ThreadIdSchema } from './common.ts';

export { ThreadIdSchema };

const AllowSchema = z.array(z.string().min(1)).default([]);

export const ThreadTitleSchema = z
  .string()
  .max(200, 'title is longer than 200 characters')
  .transform((t) => t.replace(/\s+/g, ' ').trim())
  .refine((t) => t.length > 0, 'title is empty');

export const ThreadSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Turns in the thread (hidden ones included: only their answers are held back). */
  turns: z.number().int(),
});
export type ThreadSummary = z.infer<typeof ThreadSummarySchema>;

export const ThreadTurnSchema = z.object({
  id: z.number().int(),
  /** 1 for the thread's first question. */
  ordinal: z.number().int(),
  /** The question as it was asked. */
  question: z.string(),
  /** What retrieval searched for when a follow-up carried the thread's terms; null: the question itself. */
  searched_as: z.string().nullable(),
  /** The thread's terms the follow-up carried (in searched_as). */
  carried: z.array(z.string()),
  asked_at: z.string(),
  /** The answer with its snippets and citations; null when hidden, or when the turn was interrupted. */
  answer: AnswerEnvelopeSchema.nullable(),
  /**
   * The question was saved when asked, and its answer never finished (the window was reloaded or
   * closed, the engine stopped, or the person stopped it): the reader's quote, when one was read,
   * with the passages it quotes. Asking the same question again in the thread resumes the turn.
   */
  interrupted: z.object({ quote: z.string().nullable(), sources: z.array(z.object({ locator: z.string(), title: z.string() })) }).nullable().default(null),
  /** The answer used notes with a sensitivity this request does not allow: it is held back. */
  hidden: z.boolean(),
  /** The answer uses notes marked with a sensitivity (restricted), shown because the request allows them. */
  restricted: z.boolean(),
});
export type ThreadTurn = z.infer<typeof ThreadTurnSchema>;

export const ThreadSchema = ThreadSummarySchema.extend({ turns_list: z.array(ThreadTurnSchema) });
export type Thread = z.infer<typeof ThreadSchema>;

export const ThreadsListRequestSchema = z.object({ limit: z.number().int().min(1).max(1000).default(200) }).strict();
export const ThreadsListSchema = z.object({ threads: z.array(ThreadSummarySchema) });

export const ThreadGetRequestSchema = z.object({ id: ThreadIdSchema, allow_sensitivity: AllowSchema }).strict();

export const ThreadCreateRequestSchema = z.object({ title: ThreadTitleSchema }).strict();
export const ThreadRenameRequestSchema = z.object({ id: ThreadIdSchema, title: ThreadTitleSchema }).strict();
export const ThreadDeleteRequestSchema = z.object({ id: ThreadIdSchema }).strict();
export const ThreadDeletedSchema = z.object({ id: z.string(), deleted: z.boolean() });

export const ThreadExportRequestSchema = z
  .object({
    id: ThreadIdSchema,
    /** One turn (its ordinal) instead of the whole thread: what "Copy as markdown" copies. */
    turn: z.number().int().min(1).optional(),
    allow_sensitivity: AllowSchema,
  })
  .strict();
export const ThreadExportSchema = z.object({
  markdown: z.string(),
  /** A file name for the export: the title, made safe, with .md. */
  filename: z.string(),
  /** Turns whose answer was held back (restricted notes not allowed). */
  hidden: z.number().int(),
});
export type ThreadExport = z.infer<typeof ThreadExportSchema>;

export const threadsMethods = {
  'threads/list': { request: ThreadsListRequestSchema, response: ThreadsListSchema },
  'threads/get': { request: ThreadGetRequestSchema, response: ThreadSchema },
  'threads/create': { request: ThreadCreateRequestSchema, response: ThreadSummarySchema },
  'threads/rename': { request: ThreadRenameRequestSchema, response: ThreadSummarySchema },
  'threads/delete': { request: ThreadDeleteRequestSchema, response: ThreadDeletedSchema },
  'threads/export': { request: ThreadExportRequestSchema, response: ThreadExportSchema },
} as const;
