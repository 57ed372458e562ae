/**
 * What both vector backends share: normalising input, checking dimensions, filtering hits with an
 * allow list, and the on-disk envelope (a JSON meta file beside one data file) that lets a load
 * tell a complete save from a torn or foreign one before handing bytes to a native library.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createError } from '../../shared/errors.ts';
import type { VectorAllow, VectorBackend, VectorHit, VectorSearchKind } from './types.ts';

export const META_FILE = 'vectors.json';
export const DATA_FILE = 'vectors.bin';
const FORMAT = 1;

export function allowPredicate(allow: VectorAllow | undefined): ((id: number) => boolean) | null {
  if (!allow) return null;
  if (typeof allow === 'function') return allow;
  return (id) => allow.has(id);
}

/** A normalised copy: cosine similarity then is the inner product, which both libraries compute fastest. */
export function normalized(vector: Float32Array, dimension: number): Float32Array {
  if (vector.length !== dimension) {
    throw createError(
      'E_SYN_INDEX_VERSION_MISMATCH',
      `A vector of dimension ${vector.length} cannot go into a vector index of dimension ${dimension}: ` +
        'the embedding model changed; rebuild the index (synapsis index) so every vector comes from one model.',
    );
  }
  let norm = 0;
  for (let i = 0; i < dimension; i++) norm += vector[i]! * vector[i]!;
  norm = Math.sqrt(norm);
  const out = new Float32Array(dimension);
  if (norm === 0 || !Number.isFinite(norm)) return out;
  for (let i = 0; i < dimension; i++) out[i] = vector[i]! / norm;
  return out;
}

export function checkAddInput(ids: number[], vectors: Float32Array[], dimension: number): Float32Array[] {
  if (ids.length !== vectors.length) {
    throw createError('E_SYN_BAD_REQUEST', `add() got ${ids.length} ids but ${vectors.length} vectors.`);
  }
  const seen = new Set<number>();
  for (const id of ids) {
    if (!Number.isSafeInteger(id) || id < 0) throw createError('E_SYN_BAD_REQUEST', `Vector ids are non-negative integers, got ${id}.`);
    if (seen.has(id)) throw createError('E_SYN_BAD_REQUEST', `add() got id ${id} twice in one call.`);
    seen.add(id);
  }
  // Check every dimension before changing anything, so a bad batch adds nothing.
  for (const v of vectors) {
    if (v.length !== dimension) normalized(v, dimension);
  }
  return vectors.map((v) => normalized(v, dimension));
}

export function checkQuery(query: Float32Array, k: number, dimension: number): Float32Array {
  if (!Number.isInteger(k) || k < 0) throw createError('E_SYN_BAD_REQUEST', `k must be a non-negative integer, got ${k}.`);
  return normalized(query, dimension);
}

/**
 * Runs `search` with a growing candidate count until `k` allowed hits are found or every vector has
 * been considered: filters are applied after the nearest neighbours, so a strict filter needs more.
 */
export function searchWithAllow(
  count: number,
  k: number,
  allow: ((id: number) => boolean) | null,
  search: (candidates: number) => VectorHit[],
): VectorHit[] {
  if (k === 0 || count === 0) return [];
  if (!allow) return search(Math.min(k, count));
  let candidates = Math.min(count, Math.max(k * 4, 64));
  for (;;) {
    const hits = search(candidates).filter((h) => allow(h.id));
    if (hits.length >= k || candidates >= count) return hits.slice(0, k);
    candidates = Math.min(count, candidates * 4);
  }
}

export interface VectorMeta {
  format: number;
  backend: VectorBackend;
  kind: VectorSearchKind;
  dimension: number;
  count: number;
  /** Chunk ids; for position-addressed data (exact matrix, FAISS flat) in position order. */
  ids: number[];
  dataBytes: number;
  /** sha256 of the data file's size, head and tail: catches torn and swapped files without reading gigabytes. */
  dataDigest: string;
  /**
   * CRC-32 of the whole data file: catches damage between the head and tail the digest reads (a
   * sentence index passes 2 MB at about 8,000 384-d vectors). Absent in saves before it existed.
   */
  dataCrc32?: number;
}

/** CRC-32 of a file, read 16 MB at a time (about 0.5 s per GB here). */
function crc32Of(file: string): number {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(16 << 20);
    let crc = 0;
    for (let pos = 0; ; ) {
      const n = fs.readSync(fd, buffer, 0, buffer.length, pos);
      if (n === 0) return crc;
      crc = zlib.crc32(buffer.subarray(0, n), crc);
      pos += n;
    }
  } finally {
    fs.closeSync(fd);
  }
}

function digestOf(file: string): { bytes: number; digest: string } {
  const bytes = fs.statSync(file).size;
  const fd = fs.openSync(file, 'r');
  try {
    const hash = createHash('sha256').update(String(bytes));
    const span = Math.min(bytes, 1 << 20);
    const head = Buffer.alloc(span);
    fs.readSync(fd, head, 0, span, 0);
    const tail = Buffer.alloc(span);
    fs.readSync(fd, tail, 0, span, Math.max(0, bytes - span));
    hash.update(head).update(tail);
    return { bytes, digest: hash.digest('hex') };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Saves atomically enough for a cache: the data goes to a temporary file that `writeData` fills,
 * is renamed into place, and only then the meta naming its digest is renamed over the old one.
 * A crash in between leaves a meta whose digest does not match, which a load reports as corrupt.
 */
export function saveEnvelope(dir: string, meta: Omit<VectorMeta, 'format' | 'dataBytes' | 'dataDigest'>, writeData: (file: string) => void): void {
  fs.mkdirSync(dir, { recursive: true });
  const tmpData = path.join(dir, `${DATA_FILE}.tmp`);
  fs.rmSync(tmpData, { force: true });
  writeData(tmpData);
  const { bytes, digest } = digestOf(tmpData);
  const crc = crc32Of(tmpData);
  fs.renameSync(tmpData, path.join(dir, DATA_FILE));
  const tmpMeta = path.join(dir, `${META_FILE}.tmp`);
  fs.writeFileSync(tmpMeta, JSON.stringify({ format: FORMAT, ...meta, dataBytes: bytes, dataDigest: digest, dataCrc32: crc } satisfies VectorMeta));
  fs.renameSync(tmpMeta, path.join(dir, META_FILE));
}

function unavailable(dir: string, why: string): Error {
  return createError('E_SYN_VECTORSTORE_UNAVAILABLE', `The vector index in ${dir} cannot be used: ${why}.`, { dir });
}

/** Reads and checks the meta file and the data file it names; throws E_SYN_VECTORSTORE_UNAVAILABLE otherwise. */
export function readEnvelope(dir: string, backend?: VectorBackend): { meta: VectorMeta; dataFile: string } {
  const metaFile = path.join(dir, META_FILE);
  const dataFile = path.join(dir, DATA_FILE);
  if (!fs.existsSync(metaFile)) throw unavailable(dir, `${META_FILE} is missing`);
  let meta: VectorMeta;
  try {
    meta = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as VectorMeta;
  } catch (error) {
    throw unavailable(dir, `${META_FILE} is not valid JSON (${(error as Error).message})`);
  }
  if (meta.format !== FORMAT) throw unavailable(dir, `format ${String(meta.format)} is not ${FORMAT}`);
  if (backend && meta.backend !== backend) throw unavailable(dir, `it was written by the ${meta.backend} backend, not ${backend}`);
  if (!Number.isInteger(meta.dimension) || meta.dimension < 1) throw unavailable(dir, `dimension ${String(meta.dimension)} is invalid`);
  if (!Array.isArray(meta.ids) || meta.ids.length !== meta.count) throw unavailable(dir, `its id list does not hold ${meta.count} ids`);
  if (!fs.existsSync(dataFile)) throw unavailable(dir, `${DATA_FILE} is missing`);
  const { bytes, digest } = digestOf(dataFile);
  if (bytes !== meta.dataBytes || digest !== meta.dataDigest) {
    throw unavailable(dir, `${DATA_FILE} does not match ${META_FILE} (an interrupted save or a damaged file)`);
  }
  if (meta.dataCrc32 !== undefined && crc32Of(dataFile) !== meta.dataCrc32) {
    throw unavailable(dir, `${DATA_FILE} fails its checksum (a damaged file)`);
  }
  return { meta, dataFile };
}

/** Best k of scored ids, highest first, ties by id for determinism. */
export function topK(scores: Float32Array | number[], ids: ArrayLike<number>, k: number, allow: ((id: number) => boolean) | null): VectorHit[] {
  const hits: VectorHit[] = [];
  for (let i = 0; i < scores.length; i++) {
    const id = ids[i]!;
    if (allow && !allow(id)) continue;
    hits.push({ id, score: scores[i]! });
  }
  hits.sort((a, b) => b.score - a.score || a.id - b.id);
  return hits.slice(0, k);
}
