import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createError } from '../../shared/errors.ts';
import type { Store } from '../store/store.ts';
import { embedderLanguages } from '../lang/detect.ts';
import { ModelRegistry, type ModelInfo, type ModelRole } from './registry.ts';

export interface ResolvedModel {
  id: string;
  name: string;
  path: string;
  /** Languages an embedding model covers ('*': all); from the registry, else from its name. */
  languages?: string[];
}

/**
 * Finds the model for a role: a configured path to a .gguf file (hashed once, the hash cached by
 * size and mtime), a configured registry reference, or the registry's latest model of that role.
 */
export function resolveModel(ref: string | undefined, role: ModelRole, registry: ModelRegistry, store: Store): ResolvedModel | null {
  if (ref && (ref.endsWith('.gguf') || ref.includes(path.sep))) {
    const abs = path.resolve(ref);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch {
      throw createError('E_SYN_MODEL_UNAVAILABLE', `The ${role} model file ${abs} does not exist`);
    }
    const key = `model_hash:${abs}`;
    const cached = store.getSetting<{ size: number; mtimeMs: number; id: string }>(key);
    let id = cached && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs ? cached.id : null;
    if (!id) {
      id = crypto.createHash('sha256').update(fs.readFileSync(abs)).digest('hex').slice(0, 16);
      store.setSetting(key, { size: stat.size, mtimeMs: stat.mtimeMs, id });
    }
    const name = path.basename(abs, '.gguf');
    return { id, name, path: abs, ...(role === 'embed' ? { languages: embedderLanguages(name, abs) } : {}) };
  }
  const model = registry.pick(role, ref);
  return model ? fromRegistry(model, role, registry) : null;
}

function fromRegistry(model: ModelInfo, role: ModelRole, registry: ModelRegistry): ResolvedModel {
  const languages = role === 'embed' ? ((model as { languages?: string[] }).languages ?? embedderLanguages(model.name, model.file)) : undefined;
  return { id: model.id, name: model.name, path: registry.pathOf(model), ...(languages ? { languages } : {}) };
}

/** Most embedding models used at once (each one embeds every chunk). */
export const MAX_EMBED_MODELS = 3;

/**
 * The embedding plan of a workspace, primary first: the configured list (SYN_EMBED_MODELS: several
 * models on purpose), else the configured one, else one model per language from the registry: the
 * latest added model that covers every language when there is one, otherwise the latest added model
 * and then each model that covers a language none before it does (at most MAX_EMBED_MODELS). A
 * second model for a language its first already covers doubles the embedding work for a few points
 * of nDCG (docs/indexing.md), so it is used only when listed.
 */
export function resolveEmbedModels(refs: readonly string[] | undefined, ref: string | undefined, registry: ModelRegistry, store: Store): ResolvedModel[] {
  const out: ResolvedModel[] = [];
  const push = (m: ResolvedModel | null) => {
    if (m && !out.some((o) => o.id === m.id)) out.push(m);
  };
  if (refs && refs.length > 0) for (const r of refs) push(resolveModel(r, 'embed', registry, store));
  else if (ref) push(resolveModel(ref, 'embed', registry, store));
  else for (const m of defaultEmbedPlan(registry.list())) push(fromRegistry(m, 'embed', registry));
  return out;
}

/** The registered embedding models used when none is configured: one per language (see resolveEmbedModels). */
export function defaultEmbedPlan(models: readonly ModelInfo[]): ModelInfo[] {
  const embedders = models.filter((m) => m.role === 'embed').sort((a, b) => b.added_at.localeCompare(a.added_at));
  const languagesOf = (m: ModelInfo) => m.languages ?? embedderLanguages(m.name, m.file);
  const universal = embedders.find((m) => languagesOf(m).includes('*'));
  if (universal) return [universal];
  const plan: ModelInfo[] = [];
  const covered = new Set<string>();
  for (const m of embedders) {
    const langs = languagesOf(m);
    if (plan.length > 0 && langs.every((l) => covered.has(l))) continue;
    plan.push(m);
    for (const l of langs) covered.add(l);
    if (plan.length === MAX_EMBED_MODELS) break;
  }
  return plan;
}
