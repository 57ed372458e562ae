/**
 * Getting models from the app: the host's side of "Download the recommended models" and "Import from
 * a folder". It runs where the host runs (the desktop app's engine process, the web-mode server), as
 * an explicit step the user asks for; the engine itself never downloads. It is the same code as
 * `synapsis models pull` / `models add`: llm/download.ts fetches and checks, models/add registers.
 * Progress goes to every window as `models/download` events; after a model is registered the engine
 * restarts, so the app uses it at once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AnyResponseOf, DownloadProgress, ModelInfo } from '../../shared/contract.ts';
import { createError } from '../../shared/errors.ts';
import type { Engine } from '../engine.ts';
import { activeCatalog, catalogModel, downloadUri, isCatalogFile, machineThroughput, publicVariant, recommendedModels, type CatalogModel } from '../llm/catalog.ts';
import { downloadsDisabled, offlineSetting, pullModel, sha256File } from '../llm/download.ts';
import { ggufFilesIn } from '../llm/model-folder.ts';
import type { EngineHost } from './engine-host.ts';

export interface ModelDownloadsOptions {
  host: EngineHost;
  /** SYNAPSIS_OFFLINE, SYNAPSIS_MODEL_MIRROR, SYNAPSIS_MODEL_CATALOG are read here. */
  env?: NodeJS.ProcessEnv;
  /** Memory the recommended models are chosen for (default: this machine's). */
  totalRam?: number;
  /** Least time between two progress events of one file (default 200 ms). */
  progressEveryMs?: number;
  probeTimeoutMs?: number;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Bytes per second over the last few seconds of samples. */
class Rate {
  private samples: [number, number][] = [];
  add(bytes: number, now = Date.now()): number {
    this.samples.push([now, bytes]);
    while (this.samples.length > 2 && now - this.samples[0]![0] > 3000) this.samples.shift();
    const [t0, b0] = this.samples[0]!;
    return now > t0 ? Math.max(0, ((bytes - b0) * 1000) / (now - t0)) : 0;
  }
}

export class ModelDownloads {
  private running: { controller: AbortController; progress: DownloadProgress } | null = null;
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly options: ModelDownloadsOptions) {
    this.env = options.env ?? process.env;
  }

  private emit(progress: DownloadProgress): void {
    if (this.running) this.running.progress = progress;
    this.options.host.emit('models/download', progress);
  }

  private userEngine(): Promise<Engine> {
    if (this.options.host.demoStatus().active) return Promise.reject(createError('E_SYN_BAD_REQUEST', 'The demo is open: leave the demo first, so the models go to your own workspace'));
    return this.options.host.engine();
  }

  async catalog(): Promise<AnyResponseOf<'models/catalog'>> {
    const offline = downloadsDisabled(this.env);
    const catalog = activeCatalog(this.env);
    const mirror = this.env.SYNAPSIS_MODEL_MIRROR || undefined;
    const engine = await this.options.host.engine();
    const registered = await engine.call('models/list', {});
    // Imported under its own name or another: a registry id is the first digits of the file's sha256.
    const isInstalled = (m: CatalogModel) => registered.some((r) => isCatalogFile(m, r));
    // How fast a chat model would write here: from one measured here, else from the cores (a GPU,
    // which only loading the runtime tells, shows once a chat model is measured).
    const speed = machineThroughput({ cpus: os.availableParallelism?.() ?? os.cpus().length, gpu: false }, registered.filter((m) => m.role === 'chat'));
    // Of the files of one model, the one here already, else one that can be fetched here (models/download fetches from the mirror when one is set).
    const recommended = new Set(recommendedModels(this.options.totalRam ?? os.totalmem(), catalog, speed.bytesPerS, { installed: isInstalled, mirror, offline }));
    const models = catalog.map((m) => ({
      id: m.id,
      role: m.role,
      name: m.name,
      file: m.file,
      languages: [...m.languages],
      size_bytes: m.size_bytes,
      size_exact: m.size_exact,
      license: m.license,
      good_for: m.good_for,
      ram_bytes: m.ram_bytes,
      recommended: recommended.has(m),
      downloadable: !offline && downloadUri(m, mirror) !== null,
      installed: isInstalled(m),
      revision: m.revision ?? null,
      verified: m.sha256 !== null,
      tokens_per_s: m.role === 'chat' ? Math.round((speed.bytesPerS / m.size_bytes) * 10) / 10 : null,
      speed_measured: m.role === 'chat' && speed.measured,
    }));
    const toFetch = models.filter((m) => m.recommended && m.downloadable && !m.installed);
    return { offline, models, recommended: toFetch.map((m) => m.id), recommended_bytes: toFetch.reduce((s, m) => s + m.size_bytes, 0), download: this.running?.progress ?? null };
  }

  /** Downloads, checks and registers catalog models one after another, then restarts the engine with them. */
  async download(ids: string[]): Promise<AnyResponseOf<'models/download'>> {
    if (downloadsDisabled(this.env)) {
      throw createError('E_SYN_BAD_REQUEST', `Downloads are turned off on this installation (${offlineSetting(this.env)}): import the models from a folder instead`);
    }
    if (this.running) throw createError('E_SYN_BAD_REQUEST', `A download is already running (${this.running.progress.file}): wait for it or cancel it`);
    const catalog = activeCatalog(this.env);
    const mirror = this.env.SYNAPSIS_MODEL_MIRROR || undefined;
    const models = [...new Set(ids)].map((id) => {
      const model = catalogModel(id, catalog);
      if (!model) throw createError('E_SYN_BAD_REQUEST', `No model "${id}" in the catalog; known: ${catalog.map((m) => m.id).join(', ')}`);
      if (!downloadUri(model, mirror)) {
        const variant = publicVariant(model, catalog);
        throw createError('E_SYN_MODEL_UNAVAILABLE', `${model.name} has no public download of this exact file: import it from a folder, or set SYNAPSIS_MODEL_MIRROR to a server that has ${model.file}${variant ? `, or download ${variant.name}, the same model with a public download` : ''}`);
      }
      return model;
    });
    const engine = await this.userEngine();
    const modelsDir = engine.modelsDir;
    const controller = new AbortController();
    const registered: ModelInfo[] = [];
    const every = this.options.progressEveryMs ?? 200;
    this.running = { controller, progress: this.progressOf(models[0]!, 1, models.length) };
    try {
      for (const [i, model] of models.entries()) {
        const base = this.progressOf(model, i + 1, models.length);
        this.emit(base);
        const rate = new Rate();
        let last = 0;
        let verifying = false;
        const pulled = await pullModel(model, {
          modelsDir,
          ...(mirror ? { mirror } : {}),
          signal: controller.signal,
          env: this.env,
          ...(this.options.probeTimeoutMs ? { probeTimeoutMs: this.options.probeTimeoutMs } : {}),
          onProgress: (p) => {
            const now = Date.now();
            const rate_bytes_per_s = rate.add(p.downloaded_bytes, now);
            const finished = p.total_bytes > 0 && p.downloaded_bytes >= p.total_bytes;
            // The downloader repeats its last progress while it closes the file: "verifying" is sent once.
            if (finished ? verifying : now - last < every) return;
            verifying ||= finished;
            last = now;
            this.emit({ ...base, state: finished ? 'verifying' : 'downloading', downloaded_bytes: p.downloaded_bytes, total_bytes: p.total_bytes || model.size_bytes, rate_bytes_per_s });
          },
        });
        const size = fs.statSync(pulled.path).size;
        this.emit({ ...base, state: 'registering', downloaded_bytes: size, total_bytes: size });
        const current = await this.options.host.engine();
        registered.push(await current.call('models/add', { path: pulled.path, role: model.role, ...(model.role === 'embed' ? { languages: [...model.languages] } : {}) }));
        this.emit({ ...base, state: 'done', downloaded_bytes: size, total_bytes: size });
      }
    } catch (error) {
      const cancelled = controller.signal.aborted;
      const at = this.running.progress;
      const message = cancelled ? `The download of ${at.file} was cancelled: what arrived is kept, and downloading again resumes it` : messageOf(error);
      this.emit({ ...at, state: cancelled ? 'cancelled' : 'failed', error: message });
      this.running = null;
      // Models registered before the failure are used at once all the same.
      if (registered.length > 0) await this.options.host.restart();
      throw createError('E_SYN_MODEL_UNAVAILABLE', message, { registered: registered.map((m) => m.id) });
    }
    this.running = null;
    await this.options.host.restart();
    return { models: registered, restarted: true };
  }

  private progressOf(model: CatalogModel, index: number, count: number): DownloadProgress {
    return { id: model.id, file: model.file, state: 'downloading', downloaded_bytes: 0, total_bytes: model.size_bytes, rate_bytes_per_s: 0, index, count };
  }

  cancel(): { cancelled: boolean } {
    if (!this.running || this.running.controller.signal.aborted) return { cancelled: false };
    this.running.controller.abort();
    return { cancelled: true };
  }

  /** Imports every GGUF file of a folder (one that cannot be read is skipped with why), then restarts the engine with them. */
  async importFolder(dir: string): Promise<AnyResponseOf<'models/importFolder'>> {
    const abs = path.resolve(dir);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch {
      throw createError('E_SYN_BAD_REQUEST', `No such folder: ${abs}`);
    }
    if (!stat.isDirectory()) throw createError('E_SYN_BAD_REQUEST', `Not a folder: ${abs} (choose the folder that holds the .gguf files)`);
    let files: string[];
    try {
      files = ggufFilesIn(abs);
    } catch (error) {
      throw createError('E_SYN_BAD_REQUEST', `Cannot read the folder ${abs}: ${messageOf(error)}`);
    }
    if (files.length === 0) throw createError('E_SYN_BAD_REQUEST', `No .gguf model files in ${abs} (or the folders inside it)`);
    const engine = await this.userEngine();
    const { added, skipped } = await importModelFiles(engine, files, activeCatalog(this.env));
    if (added.length > 0) await this.options.host.restart();
    return { added, skipped, restarted: added.length > 0 };
  }
}

/**
 * Registers GGUF files with an engine: a file named like a catalog model gets that model's role and
 * languages, and where the catalog pins its sha256, only that exact file is accepted. One file that
 * cannot be read does not stop the others.
 */
export async function importModelFiles(engine: Engine, files: string[], catalog: readonly CatalogModel[]): Promise<{ added: ModelInfo[]; skipped: { file: string; reason: string }[] }> {
  const added: ModelInfo[] = [];
  const skipped: { file: string; reason: string }[] = [];
  for (const file of files) {
    const known = catalog.find((m) => m.file === path.basename(file));
    try {
      if (known?.sha256) {
        const sha256 = await sha256File(file);
        if (sha256 !== known.sha256) throw new Error(`it is not the catalog's ${known.name}: sha256 ${sha256}, expected ${known.sha256}`);
      }
      added.push(await engine.call('models/add', { path: file, ...(known ? { role: known.role, ...(known.role === 'embed' ? { languages: [...known.languages] } : {}) } : {}) }));
    } catch (error) {
      skipped.push({ file, reason: messageOf(error) });
    }
  }
  return { added, skipped };
}

const perHost = new WeakMap<EngineHost, ModelDownloads>();

/** One download manager per host: a download outlives the window (or connection) that started it. */
export function modelDownloadsOf(host: EngineHost, env?: NodeJS.ProcessEnv): ModelDownloads {
  let downloads = perHost.get(host);
  if (!downloads) perHost.set(host, (downloads = new ModelDownloads({ host, ...(env ? { env } : {}) })));
  return downloads;
}
