import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { createError } from '../shared/errors.ts';

/** manifest.json of DESIGN.md §4: identical inputs give an identical file, byte for byte. */
export interface IndexManifest {
  index_version: string;
  embed_model_id: string;
  chunking_params: Record<string, unknown>;
  chunk_count: number;
  document_count: number;
  hashes: { chunks: string; documents: string };
}

function digest(items: readonly string[]): string {
  const h = createHash('sha256');
  for (const item of items) h.update(item).update('\n');
  return h.digest('hex');
}

export function buildManifest(input: {
  indexVersion: string;
  embedModelId: string;
  chunkingParams: Record<string, unknown>;
  chunkHashes: readonly string[];
  documents: readonly string[];
}): IndexManifest {
  return {
    index_version: input.indexVersion,
    embed_model_id: input.embedModelId,
    chunking_params: input.chunkingParams,
    chunk_count: input.chunkHashes.length,
    document_count: input.documents.length,
    hashes: { chunks: digest(input.chunkHashes), documents: digest(input.documents) },
  };
}

export function indexDir(dataDir: string, indexVersion: string): string {
  return path.join(dataDir, 'index', indexVersion);
}

/** Writes index/<version>/manifest.json atomically (temp file + rename), then prunes old versions. */
export function writeManifest(dataDir: string, manifest: IndexManifest, keep: number): string {
  const dir = indexDir(dataDir, manifest.index_version);
  const file = path.join(dir, 'manifest.json');
  try {
    fs.mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
    fs.renameSync(tmp, file);
    // The directory's mtime orders versions by last use.
    const now = new Date();
    fs.utimesSync(dir, now, now);
  } catch (error) {
    throw createError('E_SYN_INDEX_FAILED', `Cannot write the index manifest ${file}: ${(error as Error).message}`, { file }, error);
  }
  pruneIndexVersions(dataDir, manifest.index_version, keep);
  return file;
}

export function readManifest(dataDir: string, indexVersion: string): IndexManifest | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(indexDir(dataDir, indexVersion), 'manifest.json'), 'utf8')) as IndexManifest;
  } catch {
    return null;
  }
}

/** Keeps the `keep` most recently used index versions (the current one always). */
export function pruneIndexVersions(dataDir: string, current: string, keep: number): string[] {
  const root = path.join(dataDir, 'index');
  let names: string[];
  try {
    names = fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
  const others = names
    .filter((n) => n !== current)
    .map((n) => ({ n, t: fs.statSync(path.join(root, n)).mtimeMs }))
    .sort((a, b) => b.t - a.t || (a.n < b.n ? 1 : -1));
  const removed = others.slice(Math.max(0, keep - 1)).map((o) => o.n);
  for (const n of removed) fs.rmSync(path.join(root, n), { recursive: true, force: true });
  return removed;
}
