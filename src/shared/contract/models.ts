/**
 * The models namespace: the GGUF models imported into the models dir.
 */
import { z } from 'zod';
import { Empty } from './common.ts';

export const MODEL_ROLES = ['embed', 'chat', 'rerank'] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

/** A GGUF model imported into the models dir, named by the hash of its content. */
export const ModelInfoSchema = z.object({
  id: z.string(),
  file: z.string(),
  name: z.string(),
  role: z.enum(MODEL_ROLES),
  architecture: z.string(),
  dimension: z.number().int(),
  context_length: z.number().int(),
  family: z.string(),
  size_bytes: z.number().int(),
  added_at: z.string(),
  /**
   * Languages an embedding model covers: ISO 639 codes, '*' for all. From the GGUF header, the
   * model's name or `models add --languages`; registries written before it lack it (see modelLanguages).
   */
  languages: z.array(z.string()).optional(),
  /** A chat model: tokens a second it wrote on this machine, measured when it was imported (models/measure). */
  tokens_per_s: z.number().optional(),
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;

export const modelsMethods = {
  'models/list': { request: Empty, response: z.array(ModelInfoSchema) },
  /** Imports a GGUF file (copied into the models dir); the role is read from the file unless given. Takes effect on the next engine start. */
  'models/add': { request: z.object({ path: z.string().min(1).max(4096), role: z.enum(MODEL_ROLES).optional(), languages: z.array(z.string().min(1).max(8)).max(200).optional() }).strict(), response: ModelInfoSchema },
  /**
   * Measures how fast the chat model in use writes on this machine (a short answer of at most 32
   * tokens) and records it with the model: what the catalog's speed estimates and recommendation go by.
   */
  'models/measure': { request: Empty, response: z.object({ model: z.string().nullable(), tokens_per_s: z.number().nullable() }) },
  'models/remove': { request: z.object({ ref: z.string().min(1).max(4096) }).strict(), response: z.object({ removed: z.boolean(), model: ModelInfoSchema.nullable() }) },
} as const;
