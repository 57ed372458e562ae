/**
 * The answer sets manifest (test/fixtures/answer-sets.json): question sets by role, each a vault and
 * its question file, or a SQuAD-format file. `synapsis tune --answers` fits on its training, dev and
 * calibration sets; `synapsis eval --answers --sets <manifest> --role <role>` asks every set of one
 * role and reports each and all of them pooled (one summary over every question of the role, so a
 * pooled share or reliability table is the command's, not a sum made by hand).
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { createError } from '../../shared/errors.ts';
import { type AnswerEvalOptions, type AnswerEvalReport, type AnswerRow, runAnswerEval, summarize } from './answers.ts';

const SetSchema = z
  .object({
    name: z.string().min(1),
    /** A folder of notes and its question file (fixture format). */
    vault: z.string().optional(),
    questions: z.string().optional(),
    /** Or a SQuAD-format JSON file. */
    squad: z.string().optional(),
    articles: z.number().int().positive().optional(),
    questions_per_article: z.number().int().positive().optional(),
    /**
     * Also ask this set with the --embed-model models (hybrid retrieval and sentence vectors): its rows
     * join the same role as "<name> +vectors", so one profile serves vaults with and without an embedder.
     */
    vectors: z.boolean().optional(),
  })
  .strict()
  .refine((s) => (s.squad ? !s.vault && !s.questions : Boolean(s.vault && s.questions)), { message: 'a set is either {vault, questions} or {squad}' });
/**
 * train: the weights are fitted on these. dev: the penalties, the abstention threshold and the
 * answerable model's bar are chosen on these, and (without calibration sets) the Answered bars.
 * calibration: sets whose misses nobody reads (unlike dev sets, whose misses shape the reader's rules,
 * so the reader does better on them than on notes it has never seen): when given, the probability is
 * recalibrated and the Answered bars are chosen on them and dev pooled. test: sets kept out of
 * every choice; `synapsis tune` never reads them, `synapsis eval --answers --sets` measures them.
 */
const ManifestSchema = z.object({ train: z.array(SetSchema).min(1), dev: z.array(SetSchema).min(1), calibration: z.array(SetSchema).optional(), test: z.array(SetSchema).optional() }).strict();
export type AnswerManifest = z.infer<typeof ManifestSchema>;
export type SetSpec = z.infer<typeof SetSchema>;
export const MANIFEST_ROLES = ['train', 'dev', 'calibration', 'test'] as const;
export type ManifestRole = (typeof MANIFEST_ROLES)[number];


export function readManifest(file: string): AnswerManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw createError('E_SYN_BAD_REQUEST', `Cannot read the answer sets manifest ${file}: ${(error as Error).message}`);
  }
  const parsed = ManifestSchema.safeParse(raw);
  if (!parsed.success) throw createError('E_SYN_BAD_REQUEST', `Answer sets manifest ${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export interface AnswerSetsOptions extends Omit<AnswerEvalOptions, 'dataset' | 'split' | 'vault' | 'questions' | 'originals'> {
  manifest: string;
  role: ManifestRole;
}

export interface AnswerSetsReport {
  manifest: string;
  role: ManifestRole;
  /** Each set's report, in the manifest's order. */
  sets: AnswerEvalReport[];
  /** Every question of the role's sets summarised as one set. */
  pooled: AnswerEvalReport;
  /** Sets of the role not asked: SQuAD-format files (what `synapsis tune --answers` turns into a vault). */
  skipped: string[];
}

/**
 * Asks every vault set of one role of the manifest (paths relative to it), each in a work dir of its
 * own under `workDir` when given (re-runs re-index incrementally), and pools their rows.
 */
export async function runAnswerSets(options: AnswerSetsOptions): Promise<AnswerSetsReport> {
  const log = options.log ?? (() => {});
  const manifest = readManifest(options.manifest);
  const base = path.dirname(path.resolve(options.manifest));
  const specs = manifest[options.role] ?? [];
  if (specs.length === 0) throw createError('E_SYN_BAD_REQUEST', `Answer sets manifest ${options.manifest} names no ${options.role} sets`);
  const { manifest: _m, role: _r, details, ...common } = options;
  const sets: AnswerEvalReport[] = [];
  const rows: AnswerRow[] = [];
  const skipped: string[] = [];
  for (const spec of specs) {
    if (!spec.vault || !spec.questions) {
      log(`${spec.name}: a SQuAD-format set, asked by synapsis tune --answers only`);
      skipped.push(spec.name);
      continue;
    }
    log(`${options.role} set ${spec.name}: asking`);
    const report = await runAnswerEval({
      ...common,
      vault: path.resolve(base, spec.vault),
      questions: path.resolve(base, spec.questions),
      ...(options.workDir ? { workDir: path.join(path.resolve(options.workDir), spec.name) } : {}),
      details: true,
    });
    rows.push(...(report.rows ?? []));
    const { rows: setRows, ...summary } = report;
    sets.push({ ...summary, set: spec.name, ...(details && setRows ? { rows: setRows } : {}) });
  }
  if (sets.length === 0) throw createError('E_SYN_BAD_REQUEST', `Answer sets manifest ${options.manifest}: no ${options.role} set is a vault with a questions file`);
  const pooled = summarize(`${options.role}: ${sets.length} sets pooled`, rows, { embed_models: sets[0]!.embed_models, chat_model: sets[0]!.chat_model }, false);
  return { manifest: options.manifest, role: options.role, sets, pooled, skipped };
}
