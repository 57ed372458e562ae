import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createError } from '../../shared/errors.ts';
import type { Store } from '../store/store.ts';
import { ModelRegistry, type ModelRole } from './registry.ts';

export interface ResolvedModel {
  id: string;
  name: string;
  path: string;
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
    return { id, name: path.basename(abs, '.gguf'), path: abs };
  }
  const model = registry.pick(role, ref);
  return model ? { id: model.id, name: model.name, path: registry.pathOf(model) } : null;
}
