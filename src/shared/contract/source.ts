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

/** Why one note is related to another: a link either way, what both name, or a passage alike. */
export const RelatedReasonSchema = z.object({
  kind: z.enum(['links_here', 'linked_from_here', 'shares', 'similar']),
  /** In words: "links here", "shares: QUIC, Dana", "similar passage: …". */
  text: z.string(),
  /** The lines that make the reason (the link, the similar passage); null for shared names. */
  locator: z.string().nullable(),
});
export type RelatedReason = z.infer<typeof RelatedReasonSchema>;

export const RelatedNoteSchema = z.object({
  path: z.string(),
  title: z.string(),
  score: z.number(),
  /** The note is marked with a sensitivity (listed only when the request allows it). */
  restricted: z.boolean(),
  reasons: z.array(RelatedReasonSchema),
});
export type RelatedNote = z.infer<typeof RelatedNoteSchema>;

/** A note's related notes (graph and similarity), and its [[wikilinks]] resolved to the notes they name. */
export const RelatedResultSchema = z.object({
  path: z.string(),
  related: z.array(RelatedNoteSchema),
  /** Each [[name]] the note writes, with the path of the visible note it names (null: none, or not visible). */
  links: z.array(z.object({ name: z.string(), path: z.string().nullable() })),
  /** How passages alike were found: stored vectors, shared words, or not at all. */
  similarity: z.enum(['vectors', 'words', 'none']),
});
export type RelatedResult = z.infer<typeof RelatedResultSchema>;

export const RelatedRequestSchema = z
  .object({
    locator: z.string().min(1, 'locator is empty').max(4096, 'locator is longer than 4096 characters'),
    k: z.number().int().min(1, 'k must be 1 to 50').max(50, 'k must be 1 to 50').default(8),
    allow_sensitivity: z.array(z.string().min(1)).default([]),
  })
  .strict();

/**
 * One thing a note embeds (Obsidian's `![[Note]]`, `![[Note#Heading]]`, `![[Note#^block]]`,
 * `![[picture.png]]`, `![alt](picture.png)`): the embedded note's text, a picture inside the note's
 * folder, or missing (no such note or picture, or one this request may not read: both answer alike).
 */
export const NoteEmbedSchema = z.object({
  /** As the note writes it: `Note#Heading`, `x.png`. */
  target: z.string(),
  kind: z.enum(['note', 'image', 'missing']),
  path: z.string().nullable(),
  title: z.string().nullable(),
  /** The embedded lines (notes). */
  locator: z.string().nullable(),
  /** The embedded markdown: the whole note (no front matter), the heading's section or the block. */
  text: z.string().nullable(),
  start_line: z.number().int().nullable(),
  /** A picture: its type and bytes in base64 (null when it is too large to show). */
  mime: z.string().nullable(),
  data: z.string().nullable(),
});
export type NoteEmbed = z.infer<typeof NoteEmbedSchema>;

export const EmbedsResultSchema = z.object({
  path: z.string(),
  embeds: z.array(NoteEmbedSchema),
  /** Each [[name]] the embedded texts write, resolved as source/related resolves the note's own. */
  links: z.array(z.object({ name: z.string(), path: z.string().nullable() })),
});
export type EmbedsResult = z.infer<typeof EmbedsResultSchema>;

export const sourceMethods = {
  'source/get': { request: SourceRequestSchema, response: SourceLinesSchema },
  'source/related': { request: RelatedRequestSchema, response: RelatedResultSchema },
  /** What a note embeds, resolved a few levels deep (the reading pane shows them inline). */
  'source/embeds': { request: SourceRequestSchema, response: EmbedsResultSchema },
} as const;
