/**
 * The models an installer carries (`npm run dist -- --with-models DIR`): on the app's first start
 * they are imported into the user's workspace, with no network. The installer's `models/` holds the
 * GGUF files and models.json (file, sha256, and the catalog's role and languages, written by
 * scripts/dist-models.mjs). What was imported is remembered in the data dir, so a model the user
 * removes later is not brought back.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ModelInfo, ModelRole } from '../../shared/contract.ts';
import { MODEL_ROLES } from '../../shared/contract.ts';
import type { Engine } from '../engine.ts';
import { sha256File } from '../llm/download.ts';

export const BUNDLED_MANIFEST = 'models.json';
/** In the data dir: the sha256 of every carried model imported already. */
export const BUNDLED_MARKER = 'bundled-models.json';

export interface BundledModel {
  file: string;
  sha256: string;
  role?: ModelRole;
  languages?: string[];
}

export interface BundledImport {
  added: ModelInfo[];
  skipped: { file: string; reason: string }[];
}

function readManifest(dir: string): BundledModel[] {
  const raw = JSON.parse(fs.readFileSync(path.join(dir, BUNDLED_MANIFEST), 'utf8')) as unknown;
  if (!Array.isArray(raw)) throw new Error(`${BUNDLED_MANIFEST} is not a list of models`);
  return raw.filter(
    (m): m is BundledModel =>
      typeof m === 'object' && m !== null && typeof m.file === 'string' && /^[^/\\]+\.gguf$/i.test(m.file) && typeof m.sha256 === 'string' && (m.role === undefined || (MODEL_ROLES as readonly unknown[]).includes(m.role)),
  );
}

function readMarker(file: string): Set<string> {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { imported?: unknown };
    return new Set(Array.isArray(parsed.imported) ? parsed.imported.filter((s): s is string => typeof s === 'string') : []);
  } catch {
    return new Set();
  }
}

/**
 * Imports the carried models the workspace has not imported before: each file must have the sha256
 * its manifest names (a damaged installer's file is skipped with why), and is registered with the
 * catalog's role and languages. No manifest (an installer without models): nothing to do.
 */
export async function importBundledModels(engine: Engine, dir: string | undefined): Promise<BundledImport> {
  const result: BundledImport = { added: [], skipped: [] };
  if (!dir || !fs.existsSync(path.join(dir, BUNDLED_MANIFEST))) return result;
  const markerFile = path.join(engine.dataDir, BUNDLED_MARKER);
  const done = readMarker(markerFile);
  let manifest: BundledModel[];
  try {
    manifest = readManifest(dir);
  } catch (error) {
    result.skipped.push({ file: path.join(dir, BUNDLED_MANIFEST), reason: (error as Error).message });
    return result;
  }
  for (const model of manifest) {
    if (done.has(model.sha256)) continue;
    const file = path.join(dir, model.file);
    try {
      if (!fs.existsSync(file)) throw new Error('the installer does not have this file');
      const sha256 = await sha256File(file);
      if (sha256 !== model.sha256) throw new Error(`damaged: sha256 ${sha256}, expected ${model.sha256}`);
      result.added.push(await engine.call('models/add', { path: file, ...(model.role ? { role: model.role } : {}), ...(model.role === 'embed' && model.languages ? { languages: model.languages } : {}) }));
      done.add(model.sha256);
    } catch (error) {
      result.skipped.push({ file, reason: (error as Error).message });
    }
  }
  if (result.added.length > 0) {
    fs.mkdirSync(engine.dataDir, { recursive: true });
    fs.writeFileSync(`${markerFile}.tmp`, `${JSON.stringify({ imported: [...done] }, null, 2)}\n`);
    fs.renameSync(`${markerFile}.tmp`, markerFile);
  }
  return result;
}
