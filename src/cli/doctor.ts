/**
 * `synapsis doctor`: checks the installation the way support would, and says how to fix each
 * problem: Node version, the native modules (better-sqlite3 with FTS5 and trigram, usearch,
 * faiss-node, node-llama-cpp and its GPU detection), the imported models, the data dir's store and
 * the free disk space. Read-only: it never creates or migrates a workspace.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DB_FILE } from '../engine/store/database.ts';
import { assertStoreNotLost } from '../engine/store/integrity.ts';
import { inspectGguf, ModelRegistry } from '../engine/llm/registry.ts';
import { LlamaRuntime } from '../engine/llm/runtime.ts';
import { faissUnavailableReason } from '../engine/vector/faiss.ts';

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface DoctorCheck {
  name: string;
  status: CheckStatus;
  detail: string;
  /** What to do about a warning or failure. */
  fix?: string;
}

export interface DoctorOptions {
  dataDir: string;
  modelsDir: string;
  /** Skip starting node-llama-cpp (a few seconds; loads the native backend). */
  skipLlm?: boolean;
  /** Model files named in the configuration (SYN_EMBED_MODEL and friends). */
  configuredModels?: { role: string; ref: string }[];
}

const require = createRequire(import.meta.url);
const SETUP_FIX = 'run the setup command from the README (bash scripts/setup.sh), which rebuilds the native modules for this Node';

function errorLine(error: unknown): string {
  return ((error as Error)?.message ?? String(error)).split('\n')[0]!;
}

function checkNode(): DoctorCheck {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  const ok = major > 20 || (major === 20 && minor >= 19);
  return ok
    ? { name: 'node', status: 'ok', detail: `Node.js ${process.version}` }
    : { name: 'node', status: 'fail', detail: `Node.js ${process.version} is too old`, fix: 'install Node.js 20.19 or newer, then run the setup command again' };
}

function checkSqlite(): DoctorCheck {
  try {
    const Database = require('better-sqlite3') as typeof import('better-sqlite3');
    const db = new Database(':memory:');
    try {
      db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'unicode61 remove_diacritics 2'); CREATE VIRTUAL TABLE g USING fts5(body, tokenize = 'trigram');");
      const version = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
      return { name: 'sqlite', status: 'ok', detail: `better-sqlite3 with SQLite ${version}, FTS5 and trigram tokenizer` };
    } finally {
      db.close();
    }
  } catch (error) {
    return { name: 'sqlite', status: 'fail', detail: `better-sqlite3 does not load: ${errorLine(error)}`, fix: SETUP_FIX };
  }
}

function checkUsearch(): DoctorCheck {
  try {
    const { Index, MetricKind, ScalarKind } = require('usearch') as typeof import('usearch');
    const index = new Index({ dimensions: 4, metric: MetricKind.IP, quantization: ScalarKind.F32, multi: false, connectivity: 16, expansion_add: 64, expansion_search: 64 });
    index.add(1n, new Float32Array([1, 0, 0, 0]));
    const found = index.search(new Float32Array([1, 0, 0, 0]), 1, 0);
    if (Number(found.keys[0]) !== 1) throw new Error('a stored vector was not found again');
    return { name: 'usearch', status: 'ok', detail: 'usearch loads and finds a stored vector' };
  } catch (error) {
    return { name: 'usearch', status: 'fail', detail: `usearch does not work: ${errorLine(error)}`, fix: SETUP_FIX };
  }
}

function checkFaiss(): DoctorCheck {
  const problem = faissUnavailableReason();
  return problem
    ? { name: 'faiss', status: 'warn', detail: `faiss-node is not available (usearch serves every corpus size): ${problem}`, fix: 'install libfaiss-dev and run node scripts/build-faiss.mjs (the setup command does both)' }
    : { name: 'faiss', status: 'ok', detail: 'faiss-node loads (exact flat index)' };
}

async function checkLlm(): Promise<DoctorCheck> {
  // The engine's own runtime: GPU first, CPU on any GPU failure, with the reason kept.
  const runtime = new LlamaRuntime({ gpu: 'auto' });
  try {
    const llama = await runtime.get();
    const { gpu, gpuFallbackReason } = runtime.status();
    const names = gpu ? await llama.getGpuDeviceNames().catch(() => [] as string[]) : [];
    if (gpu) return { name: 'llm runtime', status: 'ok', detail: `node-llama-cpp uses the GPU (${gpu}${names.length ? `: ${names.join(', ')}` : ''})` };
    return gpuFallbackReason
      ? { name: 'llm runtime', status: 'warn', detail: gpuFallbackReason, fix: 'install the GPU driver (CUDA or Vulkan) if this machine has a GPU; the CPU works meanwhile' }
      : { name: 'llm runtime', status: 'ok', detail: 'node-llama-cpp runs on the CPU (no supported GPU found)' };
  } catch (error) {
    return { name: 'llm runtime', status: 'fail', detail: `node-llama-cpp cannot start: ${errorLine(error)}`, fix: `${SETUP_FIX}; search and extractive answers still work without it` };
  } finally {
    await runtime.dispose();
  }
}

async function checkModels(opts: DoctorOptions): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  let models: ReturnType<ModelRegistry['list']> = [];
  try {
    models = new ModelRegistry(opts.modelsDir).list();
  } catch (error) {
    return [{ name: 'models', status: 'fail', detail: errorLine(error), fix: `remove ${path.join(opts.modelsDir, 'registry.json')} and add the models again (synapsis models add <file.gguf>)` }];
  }
  for (const m of models) {
    const file = path.join(opts.modelsDir, m.file);
    try {
      const size = fs.statSync(file).size;
      if (size !== m.size_bytes) throw new Error(`its size changed from ${m.size_bytes} to ${size} bytes since it was added`);
      await inspectGguf(file, m.role);
      checks.push({ name: `model ${m.role}`, status: 'ok', detail: `${m.file} (${m.architecture}, dim ${m.dimension})` });
    } catch (error) {
      checks.push({ name: `model ${m.role}`, status: 'fail', detail: `${m.file}: ${errorLine(error)}`, fix: `import the file again: synapsis models add <path to ${m.file}> --role ${m.role}` });
    }
  }
  for (const c of opts.configuredModels ?? []) {
    if (!/\.gguf$/i.test(c.ref)) continue;
    if (!fs.existsSync(c.ref)) checks.push({ name: `model ${c.role}`, status: 'fail', detail: `the configured ${c.role} model ${c.ref} does not exist`, fix: `fix the path in the configuration or import the model with synapsis models add` });
  }
  if (checks.length === 0) {
    checks.push({ name: 'models', status: 'warn', detail: `no models in ${opts.modelsDir}: lexical search and extractive answers only`, fix: 'synapsis models add <embedding.gguf> (and a chat model for written answers)' });
  }
  return checks;
}

function checkStore(dataDir: string): DoctorCheck {
  const file = path.join(dataDir, DB_FILE);
  const repair = `synapsis repair --data-dir ${dataDir} (rebuilds the store from your folders, re-using the embeddings it can read; the old file is kept aside)`;
  try {
    assertStoreNotLost(dataDir);
  } catch (error) {
    return { name: 'store', status: 'fail', detail: errorLine(error), fix: repair };
  }
  if (!fs.existsSync(file)) return { name: 'store', status: 'ok', detail: `no workspace yet in ${dataDir} (synapsis index <folder> creates one)` };
  try {
    const Database = require('better-sqlite3') as typeof import('better-sqlite3');
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const result = (db.pragma('quick_check(10)') as { quick_check: string }[])
        .flatMap((r) => String(r.quick_check).split('\n'))
        .filter((line) => line.trim() && !line.startsWith('***'))
        .join('; ');
      if (result !== 'ok') throw new Error(result);
      const chunks = (db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;
      return { name: 'store', status: 'ok', detail: `${file} passes quick_check (${chunks} chunks)` };
    } finally {
      db.close();
    }
  } catch (error) {
    return { name: 'store', status: 'fail', detail: `${file} is damaged: ${errorLine(error)}`, fix: repair };
  }
}

function checkDisk(dataDir: string): DoctorCheck {
  let dir = path.resolve(dataDir);
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  try {
    const st = fs.statfsSync(dir);
    const free = st.bavail * st.bsize;
    const gib = (free / 1024 ** 3).toFixed(1);
    if (free < 200 * 1024 ** 2) return { name: 'disk', status: 'fail', detail: `${gib} GiB free at ${dir}`, fix: 'free some space: indexing writes the store and vector index there' };
    if (free < 2 * 1024 ** 3) return { name: 'disk', status: 'warn', detail: `${gib} GiB free at ${dir}`, fix: 'large folders need about 2 KB per chunk plus the vectors; free some space or choose another --data-dir' };
    fs.accessSync(dir, fs.constants.W_OK);
    return { name: 'disk', status: 'ok', detail: `${gib} GiB free at ${dir}, writable` };
  } catch (error) {
    return { name: 'disk', status: 'fail', detail: `${dir} is not usable: ${errorLine(error)}`, fix: 'choose a writable --data-dir' };
  }
}

export async function runDoctor(opts: DoctorOptions): Promise<DoctorCheck[]> {
  const checks = [checkNode(), checkSqlite(), checkUsearch(), checkFaiss()];
  if (!opts.skipLlm) checks.push(await checkLlm());
  checks.push(...(await checkModels(opts)), checkStore(opts.dataDir), checkDisk(opts.dataDir));
  return checks;
}

export function formatDoctor(checks: readonly DoctorCheck[]): string {
  const mark: Record<CheckStatus, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };
  const lines = checks.map((c) => `${mark[c.status]}  ${c.name.padEnd(12)} ${c.detail}${c.fix ? `\n      fix: ${c.fix}` : ''}`);
  const failed = checks.filter((c) => c.status === 'fail').length;
  const warned = checks.filter((c) => c.status === 'warn').length;
  lines.push('', failed ? `${failed} problem(s) to fix, ${warned} warning(s).` : warned ? `Ready, with ${warned} warning(s).` : 'Everything is ready.');
  return lines.join('\n');
}
