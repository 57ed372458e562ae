import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { serveModels } from '../../../test/helpers/model-server.ts';
import { SHARED_DIR, TempDirs } from '../../../test/helpers/tmp.ts';
import { activeCatalog, catalogModel, downloadUri, isCatalogFile, machineThroughput, MODEL_CATALOG, recommendedModels, type CatalogModel } from './catalog.ts';
import { checkDiskSpace, describeDownloadError, httpUrlOf, pullModel, trimProgressTail, type PullProgress } from './download.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());
const STORIES = fs.readFileSync(path.join(SHARED_DIR, 'models', 'stories260K.gguf'));
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const GB = 1024 ** 3;

/** A catalog entry for a test file served at `<mirror>/<file>`. */
const entry = (file: string, data: Buffer, over: Partial<CatalogModel> = {}): CatalogModel => ({
  id: 'test-model', role: 'chat', name: 'test model', file, languages: ['en'], size_bytes: data.length, size_exact: true, license: 'MIT',
  sha256: sha(data), architecture: 'llama', uri: null, good_for: 'tests', ram_bytes: 0, recommended: false, ...over,
});

describe('model catalog', () => {
  it('pins the default embedder to the file Synapsis is measured with', () => {
    const e5 = catalogModel('multilingual-e5-small')!;
    const file = fs.readFileSync(path.join(SHARED_DIR, 'models', e5.file));
    expect({ size: file.length, sha256: sha(file) }).toEqual({ size: e5.size_bytes, sha256: e5.sha256 });
    expect(e5).toMatchObject({ role: 'embed', languages: ['*'], recommended: true });
  });

  it('offers the same embedder as a public download, pinned to a revision and a sha256', () => {
    const q8 = catalogModel('multilingual-e5-small-q8')!;
    expect(q8).toMatchObject({ role: 'embed', languages: ['*'], license: 'MIT', variant_of: 'multilingual-e5-small', size_exact: false, recommended: true });
    expect(q8.sha256).toBe('e011debc1208e31bf7b6aebee2d9fc8bd2ca11694a77ed66ac9d0c9d0a877c93');
    // The address names the commit, not a branch that can move.
    expect(q8.revision).toMatch(/^[0-9a-f]{40}$/);
    expect(downloadUri(q8)).toBe(`https://huggingface.co/TwinSunsLLC/multilingual-e5-small-gguf/resolve/${q8.revision}/multilingual-e5-small-q8_0.gguf`);
  });

  it('recommends the embedder and the largest chat model the memory allows', () => {
    // No mirror and nothing here: the public file of the default embedder.
    expect(recommendedModels(2 * GB).map((m) => m.id)).toEqual(['multilingual-e5-small-q8']);
    expect(recommendedModels(8 * GB).map((m) => m.id)).toEqual(['multilingual-e5-small-q8', 'qwen2.5-1.5b-instruct']);
    // The 7B file is not pinned (unverified): never recommended (test/security/model-pinning.test.ts).
    expect(recommendedModels(32 * GB).map((m) => m.id)).toEqual(['multilingual-e5-small-q8', 'qwen2.5-1.5b-instruct']);
  });

  it('recommends one file of a model: the one here already, else the one a mirror or the public address serves', () => {
    const ids = (atHand: Parameters<typeof recommendedModels>[3]) => recommendedModels(2 * GB, MODEL_CATALOG, null, atHand).map((m) => m.id);
    expect(ids({})).toEqual(['multilingual-e5-small-q8']);
    // A mirror carries the file the retrieval numbers are measured with.
    expect(ids({ mirror: 'https://models.intranet/synapsis' })).toEqual(['multilingual-e5-small']);
    // Imported from a folder or an installer: nothing to fetch, and no second file of the same model.
    expect(ids({ installed: (m) => m.id === 'multilingual-e5-small' })).toEqual(['multilingual-e5-small']);
    expect(ids({ installed: (m) => m.id === 'multilingual-e5-small-q8', mirror: 'https://models.intranet/synapsis' })).toEqual(['multilingual-e5-small-q8']);
    // Downloads off: the file to import from a folder or an installer, the measured one.
    expect(ids({ offline: true })).toEqual(['multilingual-e5-small']);
    expect(ids({ offline: true, installed: (m) => m.id === 'multilingual-e5-small-q8' })).toEqual(['multilingual-e5-small-q8']);
    // A registered file is known by its name or by its sha256 (the registry id is its first 16 digits).
    const e5 = catalogModel('multilingual-e5-small')!;
    expect(isCatalogFile(e5, { file: 'renamed.gguf', id: e5.sha256!.slice(0, 16) })).toBe(true);
    expect(isCatalogFile(e5, { file: e5.file, id: '0'.repeat(16) })).toBe(true);
    expect(isCatalogFile(e5, { file: 'other.gguf', id: '0'.repeat(16) })).toBe(false);
  });

  it('recommends by speed too: no 7B model for a 2-core CPU, and what a measured model says of this machine', () => {
    const twoCores = machineThroughput({ cpus: 2, gpu: false }, []);
    expect(twoCores.measured).toBe(false);
    // 32 GB of memory but two cores: the 7B model would write about 1 token/s, the 1.5B about 4.5.
    expect(recommendedModels(32 * GB, MODEL_CATALOG, twoCores.bytesPerS).map((m) => m.id)).toEqual(['multilingual-e5-small-q8', 'qwen2.5-1.5b-instruct']);
    // A GPU makes the 7B fast enough, but it is not pinned to a sha256 (unverified): the 1.5B stays the recommendation.
    expect(recommendedModels(32 * GB, MODEL_CATALOG, machineThroughput({ cpus: 8, gpu: true }, []).bytesPerS).map((m) => m.id)).toEqual(['multilingual-e5-small-q8', 'qwen2.5-1.5b-instruct']);
    // SmolLM2-135M (98 MB) measured at 0.8 tokens/s on a loaded 2-core machine: no chat model is worth fetching.
    const slow = machineThroughput({ cpus: 2, gpu: false }, [{ size_bytes: 98_362_432, tokens_per_s: 0.8 }]);
    expect(slow.measured).toBe(true);
    expect(recommendedModels(32 * GB, MODEL_CATALOG, slow.bytesPerS).map((m) => m.id)).toEqual(['multilingual-e5-small-q8']);
    // A model measured fast here lifts the estimate above the guess from the cores.
    const fast = machineThroughput({ cpus: 2, gpu: false }, [{ size_bytes: 98_362_432, tokens_per_s: 200 }, { size_bytes: 1e9, tokens_per_s: undefined }]);
    expect(fast.bytesPerS).toBeCloseTo(98_362_432 * 200);
  });

  it('gives every model a role, licence, size and memory, and a source: a public URI or, for the pinned embedder, a mirror', () => {
    // Every recommended model has a public download (one file of it at least).
    for (const m of MODEL_CATALOG.filter((c) => c.recommended && c.sha256)) {
      expect(MODEL_CATALOG.some((o) => (o === m || (o.variant_of ?? o.id) === (m.variant_of ?? m.id)) && o.uri !== null && o.sha256 !== null), m.id).toBe(true);
    }
    for (const m of MODEL_CATALOG) {
      expect(m.size_bytes, m.id).toBeGreaterThan(0);
      expect(m.license, m.id).not.toBe('');
      expect(m.sha256 === null || /^[0-9a-f]{64}$/.test(m.sha256), m.id).toBe(true);
      expect(m.sha256 !== null || !m.size_exact, `${m.id}: an exact size comes with a pinned sha256`).toBe(true);
    }
    expect(downloadUri(catalogModel('qwen2.5-1.5b-instruct')!)).toMatch(/^https:\/\/huggingface\.co\/Qwen\//);
    expect(downloadUri(catalogModel('multilingual-e5-small')!, 'http://m.local/models/')).toBe('http://m.local/models/multilingual-e5-small.Q4_0.gguf');
  });
});

describe('pullModel', () => {
  it('downloads, reports progress, checks the sha256 and moves the file into the models dir', async () => {
    const server = await serveModels({ 'stories.gguf': STORIES });
    try {
      const modelsDir = temp.make('syn-pull-');
      const progress: PullProgress[] = [];
      const pulled = await pullModel(entry('stories.gguf', STORIES), { modelsDir, mirror: server.url, onProgress: (p) => progress.push(p) });
      expect(pulled).toEqual({ path: path.join(modelsDir, 'stories.gguf'), sha256: sha(STORIES), pinned: true, reused: false });
      expect(sha(fs.readFileSync(pulled.path))).toBe(sha(STORIES));
      expect(fs.readdirSync(path.join(modelsDir, '.downloads'))).toEqual([]);
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.at(-1)).toEqual({ id: 'test-model', downloaded_bytes: STORIES.length, total_bytes: STORIES.length });
      for (let i = 1; i < progress.length; i++) expect(progress[i]!.downloaded_bytes).toBeGreaterThanOrEqual(progress[i - 1]!.downloaded_bytes);
      // Asked again: the file there is checked and kept, nothing is fetched.
      const before = server.requests.length;
      expect(await pullModel(entry('stories.gguf', STORIES), { modelsDir, mirror: server.url })).toMatchObject({ reused: true, pinned: true });
      expect(server.requests.length).toBe(before);
    } finally {
      await server.close();
    }
  });

  it('resumes after the connection is cut: what arrived in whole pieces is not fetched again', async () => {
    // Larger than the downloader's 5 MB pieces (a GGUF with zero padding after its tensors).
    const big = Buffer.concat([STORIES, Buffer.alloc(12 * 1024 * 1024 - STORIES.length)]);
    const cutAfter = 7_000_000;
    const server = await serveModels({ 'big.gguf': big }, { cutFirstRangedAfter: cutAfter });
    try {
      const modelsDir = temp.make('syn-pull-cut-');
      const pulled = await pullModel(entry('big.gguf', big), { modelsDir, mirror: server.url });
      expect(sha(fs.readFileSync(pulled.path))).toBe(sha(big));
      const ranged = server.requests.filter((r) => r.range);
      expect(ranged.length).toBeGreaterThan(1);
      // Starting over would send the cut bytes again (size + 7 MB); resuming sends the size plus the unfinished piece.
      expect(server.rangedBytesSent).toBeLessThan(big.length + cutAfter / 2);
    } finally {
      await server.close();
    }
  });

  it('checks a download that ended just as it was stopped instead of fetching it again', async () => {
    const server = await serveModels({ 'stories.gguf': STORIES });
    try {
      const modelsDir = temp.make('syn-pull-whole-');
      fs.mkdirSync(path.join(modelsDir, '.downloads'));
      fs.writeFileSync(path.join(modelsDir, '.downloads', 'stories.gguf'), STORIES);
      const pulled = await pullModel(entry('stories.gguf', STORIES), { modelsDir, mirror: server.url });
      expect(pulled).toMatchObject({ path: path.join(modelsDir, 'stories.gguf'), pinned: true, reused: false });
      expect(server.requests).toEqual([]);
      // One that still carries the progress record a late save wrote after ipull's trim is trimmed, then checked.
      fs.writeFileSync(path.join(modelsDir, '.downloads', 'stories.gguf'), Buffer.concat([STORIES, Buffer.from('{"part":0,"chunks":[2,2],"chunkSize":5242880,"parallelStreams":3}')]));
      fs.rmSync(pulled.path);
      expect(await pullModel(entry('stories.gguf', STORIES), { modelsDir, mirror: server.url })).toMatchObject({ sha256: sha(STORIES), reused: false });
      expect(fs.statSync(pulled.path).size).toBe(STORIES.length);
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('refuses a file whose sha256 differs: deleted, nothing in the models dir', async () => {
    const server = await serveModels({ 'stories.gguf': STORIES });
    try {
      const modelsDir = temp.make('syn-pull-bad-');
      await expect(pullModel(entry('stories.gguf', STORIES, { sha256: '0'.repeat(64) }), { modelsDir, mirror: server.url })).rejects.toMatchObject({
        code: 'E_SYN_MODEL_UNAVAILABLE',
        message: expect.stringContaining('failed its checksum'),
      });
      expect(fs.existsSync(path.join(modelsDir, 'stories.gguf'))).toBe(false);
      expect(fs.readdirSync(path.join(modelsDir, '.downloads'))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('takes a file of any size where the size is approximate and the sha256 pinned; without a sha256, within 10%', async () => {
    const server = await serveModels({ 'stories.gguf': STORIES });
    try {
      // The catalog guesses twice the size: the sha256 decides.
      const pinned = await pullModel(entry('stories.gguf', STORIES, { size_bytes: STORIES.length * 2, size_exact: false }), { modelsDir: temp.make('syn-pull-approx-'), mirror: server.url });
      expect(pinned).toMatchObject({ pinned: true, sha256: sha(STORIES) });
      const modelsDir = temp.make('syn-pull-approx-bad-');
      await expect(
        pullModel(entry('stories.gguf', STORIES, { sha256: null, size_bytes: STORIES.length * 2, size_exact: false }), { modelsDir, mirror: server.url, allowUnverified: true }),
      ).rejects.toThrow(/is \d+ bytes, not the about \d+ the catalog names/);
      // An exact size is held to with a sha256 too.
      await expect(pullModel(entry('stories.gguf', STORIES, { size_bytes: STORIES.length + 1 }), { modelsDir, mirror: server.url })).rejects.toThrow(/not the \d+ the catalog names/);
      expect(fs.existsSync(path.join(modelsDir, 'stories.gguf'))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('without a pinned sha256, checks the GGUF architecture instead', async () => {
    const server = await serveModels({ 'stories.gguf': STORIES });
    try {
      const ok = await pullModel(entry('stories.gguf', STORIES, { sha256: null, size_exact: false }), { modelsDir: temp.make('syn-pull-arch-'), mirror: server.url, allowUnverified: true });
      expect(ok).toMatchObject({ pinned: false, sha256: sha(STORIES) });
      const modelsDir = temp.make('syn-pull-arch-bad-');
      await expect(pullModel(entry('stories.gguf', STORIES, { sha256: null, architecture: 'qwen2' }), { modelsDir, mirror: server.url, allowUnverified: true })).rejects.toThrow(/is a llama model, not the qwen2 model/);
      expect(fs.existsSync(path.join(modelsDir, 'stories.gguf'))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('asks nothing of the network with SYNAPSIS_OFFLINE=1, or for a model without a source', async () => {
    const server = await serveModels({ 'stories.gguf': STORIES });
    try {
      const modelsDir = temp.make('syn-pull-off-');
      await expect(pullModel(entry('stories.gguf', STORIES), { modelsDir, mirror: server.url, env: { SYNAPSIS_OFFLINE: '1' } })).rejects.toThrow(/SYNAPSIS_OFFLINE=1/);
      await expect(pullModel(entry('stories.gguf', STORIES), { modelsDir })).rejects.toThrow(/no public download of this exact file/);
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('the engine and downloads', () => {
  it('never reaches the downloader through its imports', async () => {
    const result = await esbuild.build({ entryPoints: [path.join(import.meta.dirname, '..', 'engine.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, metafile: true, logLevel: 'silent' });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((p) => p.endsWith('src/engine/store/store.ts'))).toBe(true);
    expect(inputs.filter((p) => p.endsWith('llm/download.ts'))).toEqual([]);
  });
});

describe('download errors a person can act on', () => {
  it('names a full disk, a missing network and a missing file', () => {
    const enospc = Object.assign(new Error('write failed'), { code: 'ENOSPC' });
    expect(describeDownloadError(enospc, 'https://huggingface.co/x/y.gguf')).toMatch(/^The disk is full/);
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    expect(describeDownloadError(refused, 'https://huggingface.co/x/y.gguf')).toBe('No network connection to huggingface.co (ECONNREFUSED): check the connection, or import the model from a folder');
    expect(describeDownloadError(new Error('getaddrinfo ENOTFOUND hf.co'), 'hf:a/b/c.gguf')).toMatch(/^No network connection to huggingface\.co \(ENOTFOUND\)/);
    expect(describeDownloadError(new Error('HTTP 404'), 'http://m.local/a.gguf')).toBe('m.local does not have this file (HTTP 404 for http://m.local/a.gguf)');
  });

  it('checks the free space before a download starts', () => {
    expect(() => checkDiskSpace('/models', 2_000_000_000, () => 500_000_000)).toThrow('The disk is full: 2000 MB needed, 500 MB free in /models');
    expect(() => checkDiskSpace('/models', 100, () => 1000)).not.toThrow();
  });

  it('turns hf: URIs into the address the file is served from', () => {
    expect(httpUrlOf('hf:bartowski/Qwen2.5-7B-Instruct-GGUF/Qwen2.5-7B-Instruct-Q4_K_M.gguf')).toBe('https://huggingface.co/bartowski/Qwen2.5-7B-Instruct-GGUF/resolve/main/Qwen2.5-7B-Instruct-Q4_K_M.gguf');
  });
});

describe('activeCatalog', () => {
  it('is the built-in catalog unless SYNAPSIS_MODEL_CATALOG names a file, whose entries are checked', () => {
    expect(activeCatalog({})).toBe(MODEL_CATALOG);
    const dir = temp.make('syn-catalog-');
    const file = path.join(dir, 'catalog.json');
    const ok = entry('stories.gguf', STORIES);
    fs.writeFileSync(file, JSON.stringify([ok]));
    expect(activeCatalog({ SYNAPSIS_MODEL_CATALOG: file })).toEqual([ok]);
    fs.writeFileSync(file, JSON.stringify([{ ...ok, sha256: 'xyz' }]));
    expect(() => activeCatalog({ SYNAPSIS_MODEL_CATALOG: file })).toThrow(/model 1 has no valid "sha256"/);
    fs.writeFileSync(file, JSON.stringify([{ ...ok, file: '../../etc/passwd' }]));
    expect(() => activeCatalog({ SYNAPSIS_MODEL_CATALOG: file })).toThrow(/file must be a plain file name/);
    fs.writeFileSync(file, JSON.stringify([{ ...ok, variant_of: 'nothing-here' }]));
    expect(() => activeCatalog({ SYNAPSIS_MODEL_CATALOG: file })).toThrow(/"variant_of" names no other model/);
    fs.writeFileSync(file, JSON.stringify([ok, { ...ok, id: 'test-model-q8', file: 'stories-q8.gguf', variant_of: 'test-model', revision: 'abc' }]));
    expect(activeCatalog({ SYNAPSIS_MODEL_CATALOG: file }).map((m) => m.variant_of)).toEqual([undefined, 'test-model']);
    fs.writeFileSync(file, '{not json');
    expect(() => activeCatalog({ SYNAPSIS_MODEL_CATALOG: file })).toThrow(/cannot be read as JSON/);
  });
});

describe('trimProgressTail', () => {
  const model = Buffer.concat([Buffer.from('GGUF'), crypto.randomBytes(4096)]);
  const withTail = (tail: Buffer | string) => {
    const file = path.join(temp.make('syn-tail-'), 'model.gguf');
    fs.writeFileSync(file, Buffer.concat([model, Buffer.from(tail)]));
    return file;
  };

  it('trims the progress record a late save wrote past a whole download, back to the size the server named', () => {
    const file = withTail('{"part":0,"chunks":[1,1,1],"chunkSize":5242880,"size":4100,"url":"x"}');
    expect(trimProgressTail(file, model.length)).toBe(true);
    expect(fs.readFileSync(file).equals(model)).toBe(true);
    // Two saves over each other leave the end of the longer one after the shorter: still text from "{".
    const overlapped = withTail('{"part":0,"chunks":[1]}1,1],"size":4100}');
    expect(trimProgressTail(overlapped, model.length)).toBe(true);
    expect(fs.statSync(overlapped).size).toBe(model.length);
  });

  it('leaves any other file as it is: the right size, no size named, or bytes that are no progress record', () => {
    const whole = withTail('');
    expect(trimProgressTail(whole, model.length)).toBe(false);
    const unnamed = withTail('{"part":0}');
    expect(trimProgressTail(unnamed, 0)).toBe(false);
    expect(fs.statSync(unnamed).size).toBe(model.length + 10);
    const binary = withTail(Buffer.from([0x7b, 0x00, 0x01, 0x02]));
    expect(trimProgressTail(binary, model.length)).toBe(false);
    const other = withTail('more model bytes');
    expect(trimProgressTail(other, model.length)).toBe(false);
    expect(fs.statSync(other).size).toBe(model.length + 16);
  });
});
