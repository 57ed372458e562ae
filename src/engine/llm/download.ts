/**
 * Fetching a catalog model over the network: the one module of Synapsis that opens a connection, and
 * only when a person asks for it (`synapsis models pull`). The engine never imports it (a test walks
 * the engine's imports); the CLI does, and SYNAPSIS_OFFLINE (any value but empty or 0) refuses it here as well as removing the
 * command.
 *
 * node-llama-cpp's downloader (ipull) fetches into <models-dir>/.downloads: a cut connection is
 * retried, and an interrupted download resumes from the 5 MB pieces it already has. The file is
 * checked (its size against the catalog where the size is exact or no sha256 is pinned, every length
 * in its GGUF header, then the sha256, or the architecture where no sha256 is pinned) before it is
 * moved into the models dir; a file that fails the check is deleted and nothing is registered.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createError } from '../../shared/errors.ts';
import { downloadUri, isUnverified, type CatalogModel } from './catalog.ts';
import { assertGguf } from './registry.ts';

export interface PullProgress {
  id: string;
  downloaded_bytes: number;
  total_bytes: number;
}

export interface PullOptions {
  modelsDir: string;
  /** `<mirror>/<file>` instead of the catalog's URI (SYNAPSIS_MODEL_MIRROR). */
  mirror?: string;
  onProgress?: (progress: PullProgress) => void;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** How long the first contact with the server may take before "no network" (default 15 s). */
  probeTimeoutMs?: number;
  /** Pull a model the catalog marks unverified (no sha256 pinned); refused otherwise. */
  allowUnverified?: boolean;
  /** Fetch over plain http from another machine (--allow-http, SYNAPSIS_MODEL_MIRROR_ALLOW_HTTP=1); refused otherwise. */
  allowHttp?: boolean;
}

/** Whether SYNAPSIS_MODEL_MIRROR_ALLOW_HTTP asks for plain-http mirrors (any value but empty or 0). */
export function httpMirrorsAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.SYNAPSIS_MODEL_MIRROR_ALLOW_HTTP;
  return v !== undefined && v !== '' && v !== '0';
}

/**
 * Why a model is not fetched from `uri`, or null: https and hf: pass; plain http only from this
 * machine (a loopback address) unless asked for, since anyone on the way can read and change it
 * (an unpinned file would be taken as it arrives); any other scheme never.
 */
export function mirrorRefusal(uri: string, allowHttp: boolean): string | null {
  if (uri.startsWith('hf:') || uri.startsWith('https:')) return null;
  if (!uri.startsWith('http:')) return `Not fetching from ${uri}: models come over https (or hf:)`;
  if (allowHttp) return null;
  let host = '';
  try {
    host = new URL(uri).hostname;
  } catch {
    // refused below
  }
  if (host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)) return null;
  return `Not fetching from ${uri} over plain http, which anyone on the way can read and change: use an https mirror, or pass --allow-http (SYNAPSIS_MODEL_MIRROR_ALLOW_HTTP=1) to ask for it`;
}

export interface PulledModel {
  /** Where the checked file now is, inside the models dir; register it with models/add. */
  path: string;
  sha256: string;
  /** false: the catalog pins no sha256; the header was checked and this is the file's hash. */
  pinned: boolean;
  /** It was in the models dir already, checked, and not fetched again. */
  reused: boolean;
}

/**
 * SYNAPSIS_OFFLINE set: this installation never downloads (air-gapped sites); models come from
 * folders. Any value but empty or `0` counts (`1`, `true`, `yes`, `on`, even `false`): a switch that
 * guards an air gap fails closed.
 */
export function downloadsDisabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.SYNAPSIS_OFFLINE;
  return value !== undefined && value !== '' && value !== '0';
}

/** How the setting that turned downloads off reads, for messages: `SYNAPSIS_OFFLINE=yes`. */
export const offlineSetting = (env: NodeJS.ProcessEnv = process.env): string => `SYNAPSIS_OFFLINE=${env.SYNAPSIS_OFFLINE ?? ''}`;

export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 4 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A catalog size marked approximate may be off by this share. */
const APPROXIMATE_SIZE = 0.1;

/**
 * Throws unless `file` is the catalog's file: its size (exact, or within 10% of an approximate one
 * where no sha256 is pinned: with one, the sha256 alone decides), a GGUF header whose every length
 * fits in the file, and its sha256, or where none is pinned, the expected architecture.
 */
async function checkFile(model: CatalogModel, file: string): Promise<{ sha256: string; pinned: boolean }> {
  const size = fs.statSync(file).size;
  const wrongSize = model.size_exact ? size !== model.size_bytes : !model.sha256 && Math.abs(size - model.size_bytes) > model.size_bytes * APPROXIMATE_SIZE;
  if (wrongSize) {
    throw createError(
      'E_SYN_MODEL_UNAVAILABLE',
      `${model.file} is ${size} bytes, not the ${model.size_exact ? '' : 'about '}${model.size_bytes} the catalog names: it was deleted and nothing was registered`,
    );
  }
  // The same header check as models add, before any GGUF reader sees the file.
  try {
    assertGguf(file);
  } catch (error) {
    throw createError('E_SYN_MODEL_UNAVAILABLE', `${model.file} is not a readable GGUF model (${(error as Error).message}): it was deleted and nothing was registered`);
  }
  const sha256 = await sha256File(file);
  if (model.sha256) {
    if (sha256 !== model.sha256) {
      throw createError('E_SYN_MODEL_UNAVAILABLE', `${model.file} failed its checksum (sha256 ${sha256}, expected ${model.sha256}): it was deleted and nothing was registered`);
    }
    return { sha256, pinned: true };
  }
  const { readGgufFileInfo } = await import('node-llama-cpp');
  let architecture: unknown;
  try {
    const info = await readGgufFileInfo(file, { logWarnings: false });
    architecture = (info.metadata as unknown as { general?: { architecture?: unknown } }).general?.architecture;
  } catch (error) {
    throw createError('E_SYN_MODEL_UNAVAILABLE', `${model.file} is not a readable GGUF model (${(error as Error).message}): it was deleted and nothing was registered`);
  }
  if (architecture !== model.architecture) {
    throw createError('E_SYN_MODEL_UNAVAILABLE', `${model.file} is a ${String(architecture)} model, not the ${model.architecture} model the catalog names: it was deleted and nothing was registered`);
  }
  return { sha256, pinned: false };
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET', 'CERT_HAS_EXPIRED', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE']);

function errorCodes(error: unknown): { codes: string[]; text: string; innermost: string } {
  const codes: string[] = [];
  const texts: string[] = [];
  let e = error as { code?: unknown; message?: unknown; cause?: unknown; name?: unknown } | undefined;
  for (let i = 0; e && typeof e === 'object' && i < 6; i++) {
    if (typeof e.code === 'string') codes.push(e.code);
    if (typeof e.message === 'string') texts.push(e.message);
    e = e.cause as typeof e;
  }
  return { codes, text: texts.join(': '), innermost: texts.at(-1) ?? '' };
}

/** The address a person would recognise: the server's host name. */
function hostOf(uri: string): string {
  if (uri.startsWith('hf:')) return 'huggingface.co';
  try {
    return new URL(uri).host;
  } catch {
    return uri;
  }
}

/**
 * A download failure in words a person can act on: no network, a full disk, a file the server does
 * not have; otherwise the downloader's own message.
 */
export function describeDownloadError(error: unknown, uri: string): string {
  const { codes, text, innermost } = errorCodes(error);
  if (codes.includes('ENOSPC') || /ENOSPC|no space left/i.test(text)) return 'The disk is full: free some space (or choose a data folder on another disk) and download again; what arrived is kept';
  const network = codes.find((c) => NETWORK_CODES.has(c)) ?? /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|ENETUNREACH|EHOSTUNREACH)\b/.exec(text)?.[1];
  if (network || /fetch failed|timed? ?out|aborted due to timeout/i.test(text)) {
    const why = network ?? (innermost && !/^fetch failed$/i.test(innermost) ? innermost : '');
    return `No network connection to ${hostOf(uri)}${why ? ` (${why})` : ''}: check the connection, or import the model from a folder`;
  }
  const status = /\b(40[0-9]|41[0-9]|5[0-9][0-9])\b/.exec(text)?.[1];
  if (status === '404') return `${hostOf(uri)} does not have this file (HTTP 404 for ${uri})`;
  if (status) return `${hostOf(uri)} refused the download (HTTP ${status} for ${uri})`;
  return `Cannot download from ${uri}: ${text || String(error)}`;
}

/** The address a catalog URI is fetched from over HTTP (hf:<owner>/<repo>/<file> is a Hugging Face file). */
export function httpUrlOf(uri: string): string {
  const hf = /^hf:([^/]+)\/([^/]+)\/(.+)$/.exec(uri);
  return hf ? `https://huggingface.co/${hf[1]}/${hf[2]}/resolve/main/${hf[3]}` : uri;
}

/**
 * Asks the server for the file once, briefly, before the downloader starts: the downloader retries a
 * missing network for minutes, while a person wants to hear at once that there is none.
 */
async function probe(uri: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const url = httpUrlOf(uri);
  if (!/^https?:/.test(url)) return;
  let response: Response;
  try {
    response = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw createError('E_SYN_MODEL_UNAVAILABLE', describeDownloadError(error, uri));
  }
  if (response.status === 404 || response.status === 410) throw createError('E_SYN_MODEL_UNAVAILABLE', describeDownloadError(new Error(`HTTP ${response.status}`), uri));
}

/** Throws unless the disk holding `dir` has `needed` bytes free (a full disk found before the download, not in the middle). */
export function checkDiskSpace(dir: string, needed: number, free: (dir: string) => number = freeBytes): void {
  const available = free(dir);
  if (available < needed) {
    throw createError('E_SYN_MODEL_UNAVAILABLE', `The disk is full: ${Math.ceil(needed / 1e6)} MB needed, ${Math.floor(available / 1e6)} MB free in ${dir}`);
  }
}

function freeBytes(dir: string): number {
  try {
    const st = fs.statfsSync(dir);
    return st.bavail * st.bsize;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** Downloads and checks one catalog model into the models dir; the caller registers it (models/add). */
export async function pullModel(model: CatalogModel, options: PullOptions): Promise<PulledModel> {
  if (downloadsDisabled(options.env)) {
    throw createError('E_SYN_BAD_REQUEST', `Downloads are turned off on this installation (${offlineSetting(options.env)}): copy the GGUF files over and run synapsis models add <folder>`);
  }
  if (isUnverified(model) && !options.allowUnverified) {
    throw createError(
      'E_SYN_MODEL_UNAVAILABLE',
      `${model.name} is unverified in the catalog (${model.unverified ?? 'no sha256 pinned'}): pull it with --allow-unverified to take that file, or import a copy you trust (synapsis models add <file>)`,
    );
  }
  const target = path.join(options.modelsDir, model.file);
  if (fs.existsSync(target)) {
    try {
      return { path: target, ...(await checkFile(model, target)), reused: true };
    } catch {
      // Not the catalog's file (a different build under the same name): fetch the right one beside it.
    }
  }
  const uri = downloadUri(model, options.mirror);
  if (!uri) {
    throw createError(
      'E_SYN_MODEL_UNAVAILABLE',
      `${model.name} has no public download of this exact file: import it from a folder or USB stick (synapsis models add <folder>), or set SYNAPSIS_MODEL_MIRROR to a server that has ${model.file}`,
    );
  }
  const refused = mirrorRefusal(uri, options.allowHttp ?? httpMirrorsAllowed(options.env));
  if (refused) throw createError('E_SYN_MODEL_UNAVAILABLE', refused);
  const staging = path.join(options.modelsDir, '.downloads');
  fs.mkdirSync(staging, { recursive: true });
  const staged = path.join(staging, model.file);
  // Whole: the downloader renames <file>.ipull to <file> at the end (a stop just after that leaves it here).
  const finished = () => fs.existsSync(staged) && !fs.existsSync(`${staged}.ipull`);
  if (!finished()) await download(model, uri, staged, options);
  // A download stopped just after ipull renamed it may still carry the late progress record (trimProgressTail).
  else if (model.size_exact) trimProgressTail(staged, model.size_bytes);
  let checked: { sha256: string; pinned: boolean };
  try {
    checked = await checkFile(model, staged);
  } catch (error) {
    fs.rmSync(staged, { force: true });
    throw error;
  }
  fs.renameSync(staged, target);
  return { path: target, ...checked, reused: false };
}

/** Fetches `uri` to `staged` with node-llama-cpp's downloader, resuming from <staged>.ipull; throws unless the file is whole. */
async function download(model: CatalogModel, uri: string, staged: string, options: PullOptions): Promise<void> {
  const staging = path.dirname(staged);
  const partial = fs.existsSync(`${staged}.ipull`) ? fs.statSync(`${staged}.ipull`).size : 0;
  checkDiskSpace(staging, model.size_bytes - Math.min(partial, model.size_bytes));
  await probe(uri, options.probeTimeoutMs ?? 15_000, options.signal).catch((error: unknown) => {
    if (options.signal?.aborted) throw createError('E_SYN_MODEL_UNAVAILABLE', `Download of ${model.file} stopped; run the pull again to resume it`);
    throw error;
  });
  const { createModelDownloader } = await import('node-llama-cpp');
  let downloader: Awaited<ReturnType<typeof createModelDownloader>>;
  try {
    downloader = await createModelDownloader({
      modelUri: uri,
      dirPath: staging,
      fileName: model.file,
      // An interrupted download keeps its pieces (<file>.ipull) and the next pull resumes from them.
      deleteTempFileOnCancel: false,
      // A staged file is checked below whatever its size says.
      skipExisting: false,
      // A server that names no length reports 0: the catalog's size is the total then.
      ...(options.onProgress
        ? { onProgress: (s: { downloadedSize: number; totalSize: number }) => options.onProgress!({ id: model.id, downloaded_bytes: s.downloadedSize, total_bytes: s.totalSize || model.size_bytes }) }
        : {}),
    });
    const run = downloader.download(options.signal ? { signal: options.signal } : {});
    const signal = options.signal;
    if (signal) {
      // After a stop the downloader gets a moment to save its pieces, but is never waited on for ever.
      const stopped = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      const settled = run.then(
        () => undefined,
        () => undefined,
      );
      await Promise.race([run, stopped.then(() => Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]))]);
    } else {
      await run;
    }
  } catch (error) {
    if (options.signal?.aborted) throw createError('E_SYN_MODEL_UNAVAILABLE', `Download of ${model.file} stopped; run the pull again to resume it`);
    throw createError('E_SYN_MODEL_UNAVAILABLE', `Cannot download ${model.file}: ${describeDownloadError(error, uri)}`);
  }
  // ipull resolves a cancelled download too: only a whole file goes on (one that ended just as it was stopped too).
  if (!fs.existsSync(staged) || fs.existsSync(`${staged}.ipull`)) {
    throw createError('E_SYN_MODEL_UNAVAILABLE', `Download of ${model.file} stopped before the end; run the pull again to resume it`);
  }
  trimProgressTail(staged, downloader.totalSize);
}

/**
 * ipull keeps its progress as JSON after the file's bytes while it downloads and trims it off at the
 * end, but a save still in flight then can land after the trim (a loaded two-core machine: 91 bytes of
 * JSON past a whole model, which then failed its size check). A file longer than the size the server
 * named, whose extra bytes are such text, is trimmed back to that size; the checks that follow
 * still decide whether it is the catalog's file. Anything else past the end is left for them to refuse.
 */
export function trimProgressTail(file: string, size: number): boolean {
  const actual = fs.statSync(file).size;
  if (!(size > 0) || actual <= size || actual - size > 1024 * 1024) return false;
  const fd = fs.openSync(file, 'r+');
  try {
    const tail = Buffer.alloc(actual - size);
    fs.readSync(fd, tail, 0, tail.length, size);
    // A record, or two saves over each other (a shorter one over a longer one leaves its end): text from "{".
    if (tail[0] !== 0x7b || tail.includes(0)) return false;
    fs.ftruncateSync(fd, size);
    return true;
  } finally {
    fs.closeSync(fd);
  }
}
