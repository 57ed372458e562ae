import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { createError } from '../../shared/errors.ts';

/** manifest.json of docs/design.md §3: identical inputs give an identical file, byte for byte. */
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
  const checked = checkManifest(dataDir, indexVersion);
  return checked.status === 'ok' ? checked.manifest : null;
}

const isDigest = (v: unknown) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

/** The manifest of a version, or why it cannot be trusted: missing, or corrupt (unparsable, torn, another version's). */
export function checkManifest(
  dataDir: string,
  indexVersion: string,
): { status: 'ok'; manifest: IndexManifest } | { status: 'missing' } | { status: 'corrupt'; file: string; reason: string } {
  const file = path.join(indexDir(dataDir, indexVersion), 'manifest.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
    return { status: 'corrupt', file, reason: (error as Error).message };
  }
  let m: Partial<IndexManifest>;
  try {
    m = JSON.parse(text) as Partial<IndexManifest>;
  } catch (error) {
    return { status: 'corrupt', file, reason: `not valid JSON (${(error as Error).message})` };
  }
  if (typeof m !== 'object' || m === null) return { status: 'corrupt', file, reason: 'not an object' };
  if (m.index_version !== indexVersion) return { status: 'corrupt', file, reason: `it names index version ${String(m.index_version)}` };
  const valid =
    typeof m.embed_model_id === 'string' &&
    typeof m.chunking_params === 'object' &&
    m.chunking_params !== null &&
    isCount(m.chunk_count) &&
    isCount(m.document_count) &&
    isDigest(m.hashes?.chunks) &&
    isDigest(m.hashes?.documents);
  if (!valid) return { status: 'corrupt', file, reason: 'fields are missing or malformed' };
  return { status: 'ok', manifest: m as IndexManifest };
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
