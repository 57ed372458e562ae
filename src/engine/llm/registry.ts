/**
 * The models registry: GGUF files imported into the models dir, each described once (role,
 * architecture, dimension, context) and named by a stable id, the hash of its content, so the same
 * file gives the same id on every machine and embeddings made with it stay valid.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { createError } from '../../shared/errors.ts';
import { modelDisplayName } from './catalog.ts';
import { modelFamily } from './families.ts';
import { checkGgufLengths, GgufHeaderError } from './gguf-header.ts';
import { embedderLanguages, LANGUAGE_CODE } from '../lang/detect.ts';
import { MODEL_ROLES, ModelInfoSchema, type ModelInfo, type ModelRole } from '../../shared/contract.ts';

export { MODEL_ROLES, ModelInfoSchema, type ModelInfo, type ModelRole };

const EMBED_ARCHITECTURES = new Set(['bert', 'nomic-bert', 'jina-bert-v2', 'xlm-roberta', 'modern-bert', 'gte', 't5encoder']);

async function hashFile(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 4 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The file's stats, once its fixed GGUF header is sane; otherwise E_SYN_BAD_REQUEST saying what is wrong. */
export function assertGguf(file: string): fs.Stats {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw createError('E_SYN_BAD_REQUEST', `No such model file: ${file}`);
  }
  if (!stat.isFile()) throw createError('E_SYN_BAD_REQUEST', `Not a file: ${file}`);
  const fd = fs.openSync(file, 'r');
  const head = Buffer.alloc(GGUF_FIXED_HEADER);
  let read = 0;
  try {
    read = fs.readSync(fd, head, 0, GGUF_FIXED_HEADER, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (head.subarray(0, 4).toString('latin1') !== 'GGUF') throw createError('E_SYN_BAD_REQUEST', `Not a GGUF model file (bad magic bytes): ${file}`);
  // The fixed header (version, tensor count, metadata count) is checked before the GGUF reader sees
  // the file: a few bytes claiming billions of entries kept that reader busy for minutes.
  if (read < GGUF_FIXED_HEADER) throw createError('E_SYN_BAD_REQUEST', `The GGUF model ${file} is truncated: ${stat.size} bytes, not even a whole header. Copy it again.`);
  const version = head.readUInt32LE(4);
  const tensors = head.readBigUInt64LE(8);
  const entries = head.readBigUInt64LE(16);
  if (version < 1 || version > 3) throw createError('E_SYN_BAD_REQUEST', `The GGUF model ${file} has an unknown format version ${version} (1 to 3 are read).`);
  // Each metadata entry takes at least 13 bytes (key length, one key byte, type, a 1-byte value) and each tensor description 29.
  if (entries * 13n + tensors * 29n > BigInt(stat.size)) {
    throw createError('E_SYN_BAD_REQUEST', `The GGUF model ${file} is damaged or truncated: its header claims ${entries} metadata entries and ${tensors} tensors, more than ${stat.size} bytes can hold.`);
  }
  // Every length inside the header too (a string, an array of strings): one claiming more than the
  // file holds kept the GGUF reader reading past its end, spinning a core and growing memory.
  try {
    checkGgufLengths(file);
  } catch (error) {
    if (!(error instanceof GgufHeaderError)) throw createError('E_SYN_BAD_REQUEST', `Cannot read the GGUF model ${file}: ${(error as Error).message}`);
    throw createError('E_SYN_BAD_REQUEST', `The GGUF model ${file} is damaged or crafted: ${error.message}.`);
  }
  return stat;
}

/** Magic, version (u32), tensor count (u64) and metadata count (u64). */
const GGUF_FIXED_HEADER = 24;

/** Reads what the registry needs from a GGUF header (no tensors are loaded). */
export async function inspectGguf(file: string, role?: ModelRole): Promise<Omit<ModelInfo, 'id' | 'added_at' | 'file'>> {
  const stat = assertGguf(file);
  const { readGgufFileInfo } = await import('node-llama-cpp');
  let info: Awaited<ReturnType<typeof readGgufFileInfo>>;
  try {
    info = await readGgufFileInfo(file, { readTensorInfo: true, logWarnings: false });
  } catch (error) {
    throw createError('E_SYN_BAD_REQUEST', `Cannot read the GGUF header of ${file}: ${(error as Error).message}`);
  }
  const meta = info.metadata as unknown as Record<string, Record<string, unknown> | undefined>;
  if (typeof meta.general?.architecture !== 'string') {
    throw createError('E_SYN_BAD_REQUEST', `Cannot read the GGUF header of ${file}: it names no architecture (truncated or not a model)`);
  }
  // Tensor data follows the header in offset order: a file that ends before the last tensor starts was cut short.
  const lastTensor = (info.fullTensorInfo ?? info.tensorInfo ?? []).reduce((max, t) => Math.max(max, Number(t.fileOffset)), 0);
  if (lastTensor >= stat.size) {
    throw createError('E_SYN_BAD_REQUEST', `The GGUF model ${file} is truncated: it is ${stat.size} bytes but its tensors start up to byte ${lastTensor}. Copy it again.`);
  }
  const architecture = meta.general.architecture;
  const arch = meta[architecture] ?? {};
  const name = String(meta.general?.name ?? path.basename(file, '.gguf'));
  const tokenizer = (meta.tokenizer as { ggml?: { model?: unknown; tokens?: unknown } } | undefined)?.ggml;
  const guessed: ModelRole = /rerank/i.test(`${name} ${path.basename(file)}`)
    ? 'rerank'
    : arch.pooling_type !== undefined || EMBED_ARCHITECTURES.has(architecture)
      ? 'embed'
      : 'chat';
  // An encoder-only embedding model cannot generate text: as the chat model it would fail at the first answer.
  if (role === 'chat' && guessed === 'embed' && EMBED_ARCHITECTURES.has(architecture)) {
    throw createError('E_SYN_BAD_REQUEST', `${path.basename(file)} is an embedding model (${architecture}) and cannot generate text: add it with --role embed, and a chat model (for example a llama-architecture GGUF) with --role chat.`);
  }
  const finalRole = role ?? guessed;
  return {
    name,
    role: finalRole,
    architecture,
    dimension: Number(arch.embedding_length ?? 0),
    context_length: Number(arch.context_length ?? 0),
    family: modelFamily(name, path.basename(file)).family,
    size_bytes: stat.size,
    // Which queries and notes the model can embed (issue 14): English-only ones rank other languages near random.
    ...(finalRole === 'embed'
      ? {
          languages: embedderLanguages(name, path.basename(file), {
            languages: meta.general.languages,
            ...(typeof tokenizer?.model === 'string' ? { tokenizerModel: tokenizer.model } : {}),
            ...(Array.isArray(tokenizer?.tokens) ? { vocabSize: tokenizer.tokens.length } : {}),
          }),
        }
      : {}),
  };
}

/** The languages a model covers ('*': all): as recorded, else, for registries written before they were, from its name. */
export function modelLanguages(info: Pick<ModelInfo, 'name' | 'file' | 'languages'>): string[] {
  return info.languages ?? embedderLanguages(info.name, info.file);
}

/** Checks a `--languages` override: ISO 639 codes ('en', 'ru') or '*'; names the first bad entry. */
function checkLanguages(languages: readonly string[]): string[] {
  if (languages.length === 0) throw createError('E_SYN_BAD_REQUEST', "No languages given: list ISO 639 codes such as en,ru, or * for all");
  const bad = languages.find((l) => !LANGUAGE_CODE.test(l));
  if (bad !== undefined) throw createError('E_SYN_BAD_REQUEST', `Not a language code: "${bad}"; use lowercase ISO 639 codes such as en,ru, or * for all`);
  return [...new Set(languages)];
}

/** Why a model file cannot be loaded, when a look at its header can tell (not GGUF, truncated); null otherwise. */
export async function modelFileProblem(file: string): Promise<string | null> {
  try {
    await inspectGguf(file);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

export class ModelRegistry {
  private readonly file: string;

  constructor(readonly modelsDir: string) {
    this.file = path.join(modelsDir, 'registry.json');
  }

  /** The imported models; an embedding model recorded without languages (an older registry) gets them from its name. */
  list(): ModelInfo[] {
    if (!fs.existsSync(this.file)) return [];
    try {
      const models = z.array(ModelInfoSchema).parse(JSON.parse(fs.readFileSync(this.file, 'utf8')));
      return models.map((m) => (m.role === 'embed' && !m.languages ? { ...m, languages: modelLanguages(m) } : m));
    } catch (error) {
      throw createError('E_SYN_MODEL_UNAVAILABLE', `The models registry ${this.file} is unreadable: ${(error as Error).message}; remove it and add the models again`);
    }
  }

  private save(models: ModelInfo[]): void {
    fs.mkdirSync(this.modelsDir, { recursive: true });
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(models, null, 2)}\n`);
    fs.renameSync(tmp, this.file);
  }

  /**
   * Imports a GGUF file: copies it into the models dir (unless it is there) and records it.
   * `languages` overrides what the header and name say (a model this app does not know by name).
   */
  async add(source: string, options: { role?: ModelRole; languages?: readonly string[] } = {}): Promise<ModelInfo> {
    const languages = options.languages ? checkLanguages(options.languages) : undefined;
    const abs = path.resolve(source);
    // Named as a person knows the file (the catalog's name, or the file's), not by the header's general.name.
    const described = { ...(await inspectGguf(abs, options.role)), name: modelDisplayName(path.basename(abs)), ...(languages ? { languages } : {}) };
    const id = (await hashFile(abs)).slice(0, 16);
    const existing = this.list();
    const same = existing.find((m) => m.id === id);
    if (same && same.role === described.role) {
      if (!languages || JSON.stringify(languages) === JSON.stringify(same.languages)) return same;
      const updated = { ...same, languages };
      this.save(existing.map((m) => (m.id === id ? updated : m)));
      return updated;
    }
    fs.mkdirSync(this.modelsDir, { recursive: true });
    let target = path.join(this.modelsDir, path.basename(abs));
    if (path.resolve(target) !== abs) {
      if (fs.existsSync(target) && !existing.some((m) => m.file === path.basename(target) && m.id === id)) {
        target = path.join(this.modelsDir, `${id}-${path.basename(abs)}`);
      }
      if (!fs.existsSync(target)) {
        const tmp = `${target}.partial`;
        fs.copyFileSync(abs, tmp);
        fs.renameSync(tmp, target);
      }
    }
    const info: ModelInfo = { id, file: path.basename(target), ...described, added_at: new Date().toISOString() };
    this.save([...existing.filter((m) => m.id !== id), info]);
    return info;
  }

  /** Records how fast a chat model wrote on this machine; false when it is not in the registry. */
  setSpeed(id: string, tokensPerS: number): boolean {
    const models = this.list();
    if (!models.some((m) => m.id === id)) return false;
    this.save(models.map((m) => (m.id === id ? { ...m, tokens_per_s: Math.round(tokensPerS * 10) / 10 } : m)));
    return true;
  }

  remove(ref: string): ModelInfo | null {
    const models = this.list();
    const found = this.find(ref, models);
    if (!found) return null;
    this.save(models.filter((m) => m.id !== found.id));
    return found;
  }

  find(ref: string, models = this.list()): ModelInfo | null {
    return models.find((m) => m.id === ref || m.file === ref || m.name === ref || m.id.startsWith(ref)) ?? null;
  }

  pathOf(model: ModelInfo): string {
    return path.join(this.modelsDir, model.file);
  }

  /** The model to use for a role: the configured reference, else the most recently added of that role. */
  pick(role: ModelRole, ref?: string): ModelInfo | null {
    const models = this.list();
    if (ref) {
      const found = this.find(ref, models);
      if (!found) throw createError('E_SYN_MODEL_UNAVAILABLE', `No model "${ref}" in ${this.modelsDir}; run synapsis models list`);
      return found;
    }
    return models.filter((m) => m.role === role).sort((a, b) => b.added_at.localeCompare(a.added_at))[0] ?? null;
  }
}
