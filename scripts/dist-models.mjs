// `npm run dist -- --with-models DIR`: installers that carry models, so an air-gapped laptop needs no
// network. The parts that run without Electron, and are tested so (test/packaging.test.ts): the
// arguments, the staging of DIR's GGUF files (each checked against the catalog's sha256 where it pins
// one) with a manifest, and the electron-builder configuration that ships them as extra resources in
// `models/`. On its first start the app imports them (src/engine/host/bundled-models.ts).
import crypto from 'node:crypto';
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';

/** Where the packaged app finds the carried models, beside its other resources. */
export const BUNDLED_MODELS_DIR = 'models';
export const MANIFEST = 'models.json';

/** Splits dist's own option (--with-models DIR, or --with-models=DIR) from electron-builder's arguments. */
export function parseDistArgs(argv) {
  const builderArgs = [];
  let withModels = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--with-models' || arg.startsWith('--with-models=')) {
      if (withModels !== null) throw new Error('--with-models is given twice');
      const value = arg === '--with-models' ? argv[++i] : arg.slice('--with-models='.length);
      if (!value || value.startsWith('-')) throw new Error('--with-models needs a folder: npm run dist -- --with-models /path/to/models');
      withModels = value;
    } else builderArgs.push(arg);
  }
  return { withModels, builderArgs };
}

function sha256File(file) {
  const hash = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(4 << 20);
    let n;
    while ((n = fs.readSync(fd, buf, 0, buf.length, null)) > 0) hash.update(buf.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/**
 * Copies the GGUF files of `dir` into `staging` with a manifest
 * (models.json: file, sha256, size, and the catalog's id, role and languages for a file it knows).
 * A file the catalog pins (by its file name) must be that exact file: otherwise it throws naming it,
 * and no installer is built with a model that would be refused.
 */
export function stageModels(dir, staging, catalog) {
  const source = path.resolve(dir);
  if (!fs.existsSync(source)) throw new Error(`--with-models: no such folder: ${source}`);
  if (!fs.statSync(source).isDirectory()) throw new Error(`--with-models: not a folder: ${source}`);
  const files = fs.readdirSync(source).filter((f) => f.toLowerCase().endsWith('.gguf') && fs.statSync(path.join(source, f)).isFile()).sort();
  if (files.length === 0) throw new Error(`--with-models: no .gguf files in ${source}`);
  const models = [];
  for (const file of files) {
    const full = path.join(source, file);
    const sha256 = sha256File(full);
    const known = catalog.find((m) => m.file === file);
    if (known?.sha256 && known.sha256 !== sha256) {
      throw new Error(`--with-models: ${file} is not the catalog's ${known.id} (sha256 ${sha256}, expected ${known.sha256}); replace it with the catalog's file or rename it`);
    }
    models.push({ file, sha256, size_bytes: fs.statSync(full).size, ...(known ? { id: known.id, role: known.role, languages: known.languages, verified: known.sha256 !== null } : { verified: false }) });
  }
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  for (const m of models) {
    const from = path.join(source, m.file);
    const to = path.join(staging, m.file);
    // A copy (a reflink where the file system has them), never a link: packaging must not touch DIR's files.
    fs.copyFileSync(from, to, fs.constants.COPYFILE_FICLONE);
  }
  fs.writeFileSync(path.join(staging, MANIFEST), `${JSON.stringify(models, null, 2)}\n`);
  return models;
}

/** The packaging configuration with the staged models as extra resources (in `models/` beside the app). */
export function withModelsConfig(config, staging) {
  return {
    ...config,
    extraResources: [...(config.extraResources ?? []), { from: staging, to: BUNDLED_MODELS_DIR, filter: ['*.gguf', MANIFEST] }],
  };
}
