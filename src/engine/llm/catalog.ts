/**
 * The models Synapsis knows by name: what each is for, what it needs, where it can be fetched and
 * the exact file (sha256) it must be. Data only: downloading is llm/download.ts, run by the CLI and
 * the app's host as an explicit step, never by the engine.
 */
import fs from 'node:fs';
import { MODEL_ROLES, type ModelRole } from '../../shared/contract.ts';
import { createError } from '../../shared/errors.ts';

export interface CatalogModel {
  id: string;
  role: ModelRole;
  name: string;
  /** The file name in the models dir (and on a mirror, see downloadUri). */
  file: string;
  /** ISO 639 codes, or '*' for the ~100 languages of a multilingual model. */
  languages: string[];
  size_bytes: number;
  /**
   * false: an approximate size. A downloaded file is then held to it (within 10%) only where no
   * sha256 is pinned; where one is, the sha256 alone decides (download.ts).
   */
  size_exact: boolean;
  license: string;
  /** The exact file, checked before it is registered; null: not pinned, the GGUF header is checked instead. */
  sha256: string | null;
  /**
   * Set on an entry whose file is not pinned (sha256 null): why. Such a model is never part of
   * --recommended and is pulled only when named with --allow-unverified (download.ts).
   */
  unverified?: string;
  /** GGUF `general.architecture`, checked when no sha256 is pinned. */
  architecture: string;
  /** node-llama-cpp model URI (https: or hf:); null: no public copy of this exact file, get it from a mirror or a folder. */
  uri: string | null;
  /** The commit of the repository `uri` is pinned to (a URI with a revision in it, not a branch that can move). */
  revision?: string;
  /**
   * The id of the entry this is another file of: the same model, quantized otherwise. One of them is
   * recommended (recommendedModels), and each file has vectors of its own (a registry id is the
   * hash of the file), so a switch between them embeds the notes again.
   */
  variant_of?: string;
  good_for: string;
  /** Memory the machine should have to run it beside the app. */
  ram_bytes: number;
  /** Part of `synapsis models pull --recommended` on a machine with at least ram_bytes. */
  recommended: boolean;
}

const GB = 1024 ** 3;

export const MODEL_CATALOG: readonly CatalogModel[] = [
  {
    id: 'multilingual-e5-small',
    role: 'embed',
    name: 'multilingual-e5-small (Q4_0)',
    file: 'multilingual-e5-small.Q4_0.gguf',
    languages: ['*'],
    size_bytes: 73_578_784,
    size_exact: true,
    license: 'MIT',
    sha256: 'ae11659df3031b19f966ae3c9cca6d9e287a331336ad49d148a782ba46ee1c9a',
    architecture: 'bert',
    // The 4-bit file Synapsis's retrieval numbers are measured with, repacked for llama.cpp: installers
    // built with --with-models and model mirrors carry it; no public host serves this exact file, so
    // where neither is at hand the public 8-bit file below is what --recommended fetches.
    uri: null,
    good_for: 'the default embedder: meaning search in ~100 languages (Russian and English measured), 384 dimensions, 512 tokens',
    ram_bytes: 1 * GB,
    recommended: true,
  },
  {
    id: 'multilingual-e5-small-q8',
    role: 'embed',
    name: 'multilingual-e5-small (Q8_0)',
    file: 'multilingual-e5-small-q8_0.gguf',
    languages: ['*'],
    // About 118M weights at 8.5 bits; the exact length is not pinned, the sha256 is.
    size_bytes: 125_000_000,
    size_exact: false,
    license: 'MIT',
    sha256: 'e011debc1208e31bf7b6aebee2d9fc8bd2ca11694a77ed66ac9d0c9d0a877c93',
    architecture: 'bert',
    // intfloat/multilingual-e5-small converted to GGUF by a third party, fetched at one commit of
    // that repository (not its main branch) and checked against the sha256 above.
    uri: 'https://huggingface.co/TwinSunsLLC/multilingual-e5-small-gguf/resolve/b6cac9615d4ecce28d7f22539b7322d695fc2886/multilingual-e5-small-q8_0.gguf',
    revision: 'b6cac9615d4ecce28d7f22539b7322d695fc2886',
    variant_of: 'multilingual-e5-small',
    good_for: 'the default embedder as a public download: the same model (intfloat/multilingual-e5-small) in 8 bits, ~100 languages, 384 dimensions, 512 tokens',
    ram_bytes: 1 * GB,
    recommended: true,
  },
  {
    id: 'qwen2.5-1.5b-instruct',
    role: 'chat',
    name: 'Qwen2.5 1.5B Instruct (Q4_K_M)',
    file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
    languages: ['*'],
    size_bytes: 1_117_320_736,
    size_exact: true,
    license: 'Apache-2.0',
    sha256: '6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e',
    architecture: 'qwen2',
    uri: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf',
    good_for: 'written answers and the critic on laptops with 4-8 GB: short cited answers on CPU',
    ram_bytes: 4 * GB,
    recommended: true,
  },
  {
    id: 'qwen2.5-7b-instruct',
    role: 'chat',
    name: 'Qwen2.5 7B Instruct (Q4_K_M)',
    file: 'Qwen2.5-7B-Instruct-Q4_K_M.gguf',
    languages: ['*'],
    size_bytes: 4_680_000_000,
    size_exact: false,
    license: 'Apache-2.0',
    sha256: null,
    unverified: 'no sha256 pinned: the file on the main branch of a third-party repository (bartowski/Qwen2.5-7B-Instruct-GGUF), checked only by its GGUF header',
    architecture: 'qwen2',
    uri: 'hf:bartowski/Qwen2.5-7B-Instruct-GGUF/Qwen2.5-7B-Instruct-Q4_K_M.gguf',
    good_for: 'better answers on machines with 16 GB or a GPU: multi-hop questions, longer syntheses',
    ram_bytes: 16 * GB,
    recommended: true,
  },
  {
    id: 'bge-reranker-v2-m3',
    role: 'rerank',
    name: 'bge-reranker-v2-m3 (Q4_K_M)',
    file: 'bge-reranker-v2-m3-Q4_K_M.gguf',
    languages: ['*'],
    size_bytes: 438_000_000,
    size_exact: false,
    license: 'Apache-2.0',
    sha256: null,
    unverified: 'no sha256 pinned: the file on the main branch of a third-party repository (gpustack/bge-reranker-v2-m3-GGUF), checked only by its GGUF header',
    architecture: 'bert',
    uri: 'hf:gpustack/bge-reranker-v2-m3-GGUF/bge-reranker-v2-m3-Q4_K_M.gguf',
    good_for: 'optional: reorders the top passages with a cross-encoder (multilingual); costs latency per question',
    ram_bytes: 8 * GB,
    recommended: false,
  },
];

export function catalogModel(id: string, catalog: readonly CatalogModel[] = MODEL_CATALOG): CatalogModel | undefined {
  return catalog.find((m) => m.id === id);
}

const FIELDS: Record<Exclude<keyof CatalogModel, 'unverified' | 'revision' | 'variant_of'>, string> = {
  id: 'string', role: 'role', name: 'string', file: 'string', languages: 'string[]', size_bytes: 'number', size_exact: 'boolean', license: 'string',
  sha256: 'sha256', architecture: 'string', uri: 'string|null', good_for: 'string', ram_bytes: 'number', recommended: 'boolean',
};

function fieldOk(kind: string, v: unknown): boolean {
  switch (kind) {
    case 'string': return typeof v === 'string' && v.length > 0;
    case 'number': return typeof v === 'number' && Number.isFinite(v) && v >= 0;
    case 'boolean': return typeof v === 'boolean';
    case 'role': return (MODEL_ROLES as readonly unknown[]).includes(v);
    case 'string[]': return Array.isArray(v) && v.every((x) => typeof x === 'string');
    case 'sha256': return v === null || (typeof v === 'string' && /^[0-9a-f]{64}$/.test(v));
    default: return v === null || (typeof v === 'string' && v.length > 0);
  }
}

/**
 * The catalog in use: the built-in one, or an organisation's own (a JSON array of entries shaped like
 * MODEL_CATALOG's) named by SYNAPSIS_MODEL_CATALOG, e.g. the models its mirror serves.
 */
export function activeCatalog(env: NodeJS.ProcessEnv = process.env): readonly CatalogModel[] {
  const file = env.SYNAPSIS_MODEL_CATALOG;
  if (!file) return MODEL_CATALOG;
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw createError('E_SYN_BAD_REQUEST', `SYNAPSIS_MODEL_CATALOG=${file} cannot be read as JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw createError('E_SYN_BAD_REQUEST', `SYNAPSIS_MODEL_CATALOG=${file} must hold a non-empty JSON array of models`);
  const models = parsed.map((entry: unknown, i) => {
    const e = (entry ?? {}) as Record<string, unknown>;
    for (const [key, kind] of Object.entries(FIELDS)) {
      if (!fieldOk(kind, e[key])) throw createError('E_SYN_BAD_REQUEST', `SYNAPSIS_MODEL_CATALOG=${file}: model ${i + 1} has no valid "${key}" (${kind})`);
    }
    if (e.unverified !== undefined && (typeof e.unverified !== 'string' || e.unverified.length === 0)) throw createError('E_SYN_BAD_REQUEST', `SYNAPSIS_MODEL_CATALOG=${file}: model ${i + 1}'s "unverified" must say why (a string)`);
    for (const key of ['revision', 'variant_of'] as const) {
      if (e[key] !== undefined && (typeof e[key] !== 'string' || e[key].length === 0)) throw createError('E_SYN_BAD_REQUEST', `SYNAPSIS_MODEL_CATALOG=${file}: model ${i + 1}'s "${key}" must be a non-empty string`);
    }
    if (/[/\\]|^\.\.?$/.test(e.file as string)) throw createError('E_SYN_BAD_REQUEST', `SYNAPSIS_MODEL_CATALOG=${file}: model ${i + 1}'s file must be a plain file name`);
    return e as unknown as CatalogModel;
  });
  for (const [i, m] of models.entries()) {
    if (m.variant_of !== undefined && !models.some((o) => o.id === m.variant_of && o !== m)) throw createError('E_SYN_BAD_REQUEST', `SYNAPSIS_MODEL_CATALOG=${file}: model ${i + 1}'s "variant_of" names no other model of the catalog (${m.variant_of})`);
  }
  return models;
}

/** Whether the catalog pins no sha256 for this model (its `unverified` says why; a catalog that forgot to is read the same). */
export function isUnverified(model: Pick<CatalogModel, 'sha256'>): boolean {
  return model.sha256 === null;
}

/** What is at hand on this machine when models are recommended: for choosing among files of one model. */
export interface ModelsAtHand {
  /** A catalog file already registered or in the models dir (by its name or its sha256). */
  installed?: (model: CatalogModel) => boolean;
  /** SYNAPSIS_MODEL_MIRROR or --mirror: serves every catalog file. */
  mirror?: string | undefined;
  /** Downloads are off (SYNAPSIS_OFFLINE): nothing is fetched, so the first file listed is the one to import. */
  offline?: boolean;
}

/**
 * What `--recommended` fetches on a machine with `totalRam` bytes: the default embedder, and the
 * largest recommended chat model that fits (one chat model is used at a time). Only pinned files:
 * an unverified model is pulled by name, when asked for. Of the files of one model (variant_of),
 * one: the one this machine has already, else the first that can be fetched here (the public file
 * when no mirror is set), else (offline, or none can be) the first listed, the one to import.
 */
export function recommendedModels(totalRam: number, catalog: readonly CatalogModel[] = MODEL_CATALOG, throughput: number | null = null, atHand: ModelsAtHand = {}): CatalogModel[] {
  const eligible = catalog.filter((m) => m.recommended && !isUnverified(m) && m.ram_bytes <= totalRam);
  const groups = new Map<string, CatalogModel[]>();
  for (const m of eligible) {
    const key = m.variant_of ?? m.id;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const picked = new Set(
    [...groups.values()].map((files) => files.find((m) => atHand.installed?.(m)) ?? (atHand.offline ? undefined : files.find((m) => downloadUri(m, atHand.mirror) !== null)) ?? files[0]!),
  );
  const fits = eligible.filter((m) => picked.has(m));
  // The largest that fits in memory and, where the machine's speed is known, writes fast enough to be used.
  const chat = fits.filter((m) => m.role === 'chat' && (throughput === null || throughput / m.size_bytes >= MIN_WRITE_TOKENS_PER_S)).sort((a, b) => b.ram_bytes - a.ram_bytes)[0];
  return [...fits.filter((m) => m.role !== 'chat'), ...(chat ? [chat] : [])];
}

/** Another file of the same model that has a public address and a pinned sha256, for a model that has none. */
export function publicVariant(model: CatalogModel, catalog: readonly CatalogModel[] = MODEL_CATALOG): CatalogModel | undefined {
  const key = model.variant_of ?? model.id;
  return catalog.find((o) => o !== model && (o.variant_of ?? o.id) === key && o.uri !== null && o.sha256 !== null);
}

/** Whether a registered model (file name, registry id) is this catalog file: by name, or by its sha256 (a registry id is the hash's first 16 digits). */
export function isCatalogFile(model: CatalogModel, registered: { file: string; id: string }): boolean {
  return registered.file === model.file || (model.sha256 !== null && registered.id === model.sha256.slice(0, 16));
}

/**
 * Below this many tokens a second a chat model is not worth recommending: a 300-token answer
 * would take over a minute (the answer pipeline quotes instead below 4 tokens/s, answer.ts).
 */
export const MIN_WRITE_TOKENS_PER_S = 4;

/**
 * How many bytes of model weights this machine reads per second while a model writes: a token
 * costs about one pass over the weights, so tokens/s ≈ throughput / file size. From the chat models
 * measured here (the fastest), else a guess from the hardware: ~2.5 GB/s per CPU core up to 40 GB/s
 * of memory bandwidth, 100 GB/s on a GPU.
 */
export function machineThroughput(machine: { cpus: number; gpu: boolean }, measured: readonly { size_bytes: number; tokens_per_s?: number | undefined }[]): { bytesPerS: number; measured: boolean } {
  const rates = measured.flatMap((m) => (m.tokens_per_s && m.tokens_per_s > 0 ? [m.tokens_per_s * m.size_bytes] : []));
  if (rates.length > 0) return { bytesPerS: Math.max(...rates), measured: true };
  return { bytesPerS: machine.gpu ? 100e9 : Math.min(40e9, Math.max(1, machine.cpus) * 2.5e9), measured: false };
}

/** Where a model is fetched from: `<mirror>/<file>` when a mirror is set (an organisation's or a test's), else its public URI. */
export function downloadUri(model: CatalogModel, mirror?: string): string | null {
  if (mirror) return `${mirror.replace(/\/+$/, '')}/${encodeURIComponent(model.file)}`;
  return model.uri;
}

/** A quantization at the end of a GGUF file's name: "Q4_K_M", "Q8_0", "IQ3_XS", "F16", "BF16". */
const QUANT_SUFFIX = /[.\-_](I?Q\d+(?:_[A-Z0-9]+)*|BF16|F16|F32)$/i;

/**
 * The name a person sees for a model file: the catalog's name for a file it knows, else the file's
 * own name with its quantization apart ("SmolLM2-135M-Instruct (Q4_1)"). A GGUF header's
 * `general.name` is often the converter's folder name ("Smollm2 135M 8k Lc100K Mix1 Ep2"), so the
 * file name, which the person chose or downloaded, is what names it.
 */
export function modelDisplayName(file: string, catalog: readonly CatalogModel[] = MODEL_CATALOG): string {
  const base = file.split(/[\\/]/).pop()!;
  const known = catalog.find((m) => m.file === base);
  if (known) return known.name;
  const stem = base.replace(/\.gguf$/i, '');
  const quant = QUANT_SUFFIX.exec(stem);
  const name = (quant ? stem.slice(0, quant.index) : stem).replace(/_/g, ' ').trim();
  if (!name) return stem;
  return quant ? `${name} (${quant[1]!.toUpperCase()})` : name;
}
