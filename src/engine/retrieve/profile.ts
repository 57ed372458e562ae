/**
 * Retrieval profiles: how the lexical and dense lists are fused and which query techniques run.
 * A profile is fitted on training data (`synapsis tune --split train`), stored by name, and chosen
 * with the `profile` setting; `synapsis eval --profile` reports test numbers with it. The default
 * profile ships with the app (default-profile.json, with the command that produced it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { createError } from '../../shared/errors.ts';
import { describeIssues } from '../../shared/validate.ts';
import shipped from './default-profile.json' with { type: 'json' };

const weight = z.number().min(0).max(100);

export const RetrievalProfileSchema = z
  .object({
    name: z.string().regex(/^[\w.-]{1,64}$/, 'letters, digits, _ . - (at most 64)'),
    description: z.string().max(2000).default(''),
    /** The command that produced it, so anyone can fit it again. */
    produced_by: z.string().max(2000).default(''),
    /** What it scored on the data it was fitted on (never test data). */
    fitted: z.record(z.string(), z.union([z.number(), z.string()])).default({}),
    /** rrf: Σ weight / (rrf_k + rank); weighted: Σ weight · min-max normalised score. */
    fusion: z.enum(['rrf', 'weighted']).default('rrf'),
    rrf_k: z.number().min(0).max(1000).default(60),
    /** How weighted fusion puts each list's scores on one scale. */
    normalize: z.enum(['minmax', 'zscore']).default('minmax'),
    /** Weight of each list: lexical, any dense list, and per embedding model by name (overrides dense). */
    weights: z
      .object({
        lexical: weight.default(1),
        dense: weight.default(1),
        models: z.record(z.string(), weight).default({}),
      })
      .strict()
      .default({ lexical: 1, dense: 1, models: {} }),
    /** Candidates of each list that fusion counts (its best ones; a list is fetched at least this deep). */
    depth: z.object({ lexical: z.number().int().min(1).max(1000).default(100), dense: z.number().int().min(1).max(1000).default(100) }).strict().default({ lexical: 100, dense: 100 }),
    /**
     * The dense score of a chunk split into sentences (ingest/sentences.ts): chunk_share × the cosine of
     * its own vector + (1 − chunk_share) × its best sentence's; null: the better of the two. A chunk
     * with no sentence vectors (code, one sentence) scores by its own vector either way.
     */
    chunk_share: z.number().min(0).max(1).nullable().default(null),
    techniques: z
      .object({
        /** Long queries (at least min_terms words) drop their common words (idf below min_idf) from the lexical list. */
        long_query: z.object({ min_terms: z.number().int().min(2).max(100), min_idf: z.number().min(0).max(20) }).strict().nullable().default(null),
        /** Pseudo-relevance feedback on the lexical side: RM3-like expansion terms from the top documents, as a further list. */
        lexical_prf: z.object({ docs: z.number().int().min(1).max(50), terms: z.number().int().min(1).max(100), weight }).strict().nullable().default(null),
        /** Rocchio on the dense side: the query vector moved towards the mean of the top documents, searched again. */
        dense_prf: z.object({ docs: z.number().int().min(1).max(50), beta: z.number().min(0).max(10) }).strict().nullable().default(null),
        /**
         * A document's score from its chunks: its best chunk (max), the best plus `tail` times the next
         * two (sum), or the lists fused at document level, each list's best chunk of a document standing for it (fuse).
         */
        doc_score: z.object({ kind: z.enum(['max', 'sum', 'fuse']), tail: z.number().min(0).max(1).default(0.5) }).strict().nullable().default(null),
      })
      .strict()
      .default({ long_query: null, lexical_prf: null, dense_prf: null, doc_score: null }),
  })
  .strict();

export type RetrievalProfile = z.output<typeof RetrievalProfileSchema>;
export type RetrievalProfileInput = z.input<typeof RetrievalProfileSchema>;

export function parseProfile(value: unknown, where: string): RetrievalProfile {
  const result = RetrievalProfileSchema.safeParse(value);
  if (!result.success) throw createError('E_SYN_BAD_REQUEST', `Invalid retrieval profile ${where}: ${describeIssues(result.error)}`);
  return result.data;
}

/** The profile that ships with the app. */
export const DEFAULT_PROFILE: RetrievalProfile = parseProfile(shipped, '(shipped default-profile.json)');

/** The weight of a dense list: its model's own weight when the profile names it, else the dense weight. */
export function denseWeight(profile: RetrievalProfile, modelName: string): number {
  const models = profile.weights.models;
  if (modelName in models) return models[modelName]!;
  // The longest matching prefix wins, whatever order the keys were written in.
  const key = Object.keys(models)
    .filter((k) => modelName.toLowerCase().startsWith(k.toLowerCase()))
    .sort((x, y) => y.length - x.length)[0];
  return key ? models[key]! : profile.weights.dense;
}

export function profilesDir(dataDir: string): string {
  return path.join(dataDir, 'profiles');
}

/**
 * A profile by name (the shipped `default`, or one saved in the data dir's profiles/) or by path to
 * a .json file. Unknown names list what exists.
 */
export function loadProfile(ref: string | undefined, dataDir: string): RetrievalProfile {
  if (!ref || ref === 'default') return DEFAULT_PROFILE;
  const file = ref.endsWith('.json') || ref.includes('/') || ref.includes('\\') ? path.resolve(ref) : path.join(profilesDir(dataDir), `${ref}.json`);
  if (!ref.endsWith('.json') && !/^[\w.-]{1,64}$/.test(ref) && !fs.existsSync(file)) {
    throw createError('E_SYN_BAD_REQUEST', `Bad profile name ${JSON.stringify(ref)}: use letters, digits, _ . - or a path to a .json file`);
  }
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    const known = ['default', ...listProfiles(dataDir)];
    throw createError('E_SYN_BAD_REQUEST', `No retrieval profile ${JSON.stringify(ref)} (${file}); known: ${known.join(', ')}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw createError('E_SYN_BAD_REQUEST', `Retrieval profile ${file} is not valid JSON: ${(error as Error).message}`);
  }
  return parseProfile(value, file);
}

export function listProfiles(dataDir: string): string[] {
  try {
    return fs
      .readdirSync(profilesDir(dataDir))
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -5))
      .sort();
  } catch {
    return [];
  }
}

/** Writes a profile under the data dir (atomically: a crash leaves the old one or the new one). */
export function saveProfile(dataDir: string, profile: RetrievalProfile): string {
  const checked = parseProfile(profile, profile.name);
  if (checked.name === 'default') throw createError('E_SYN_BAD_REQUEST', 'The name "default" belongs to the shipped profile: choose another name');
  const dir = profilesDir(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${checked.name}.json`);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(checked, null, 2)}\n`);
  fs.renameSync(tmp, file);
  return file;
}
