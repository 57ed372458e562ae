import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.ts';
import { importModelFiles } from '../../src/engine/host/model-downloads.ts';
import type { CatalogModel } from '../../src/engine/llm/catalog.ts';
import { pullModel } from '../../src/engine/llm/download.ts';
import { ModelRegistry } from '../../src/engine/llm/registry.ts';
import { serveModels } from '../helpers/model-server.ts';
import { SHARED_DIR, TempDirs } from '../helpers/tmp.ts';

/**
 * Crafted GGUF files whose header claims more bytes than the file holds, inside a metadata value:
 * the GGUF reader trusted those lengths and read past the end for ever (a 68-byte file spun a core
 * and grew memory by 1.3 GB in 15 s). Every way a model file comes in (models add, a folder import,
 * a pull from a mirror) must refuse each in well under a second and register nothing.
 */
const temp = new TempDirs();
afterAll(() => temp.cleanup());

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const u64 = (n: bigint | number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};
const str = (s: string) => Buffer.concat([u64(Buffer.byteLength(s)), Buffer.from(s)]);
const header = (tensors: number, entries: number) => Buffer.concat([Buffer.from('GGUF', 'latin1'), u32(3), u64(tensors), u64(entries)]);
const ARCH = 'general.architecture';

const CRAFTED: Record<string, Buffer> = {
  // The file: general.architecture = an array (9) of 2^40 strings (8), and nothing after it.
  'array-of-strings.gguf': Buffer.concat([header(0, 1), str(ARCH), u32(9), u32(8), u64(2n ** 40n)]),
  'array-of-u64.gguf': Buffer.concat([header(0, 1), str(ARCH), u32(9), u32(10), u64(2n ** 40n), Buffer.alloc(64)]),
  'nested-arrays.gguf': Buffer.concat([header(0, 1), str(ARCH), u32(9), u32(9), u64(3), u32(9), u64(2n ** 50n), Buffer.alloc(64)]),
  'string-value.gguf': Buffer.concat([header(0, 1), str(ARCH), u32(8), u64(2n ** 62n), Buffer.from('llama'), Buffer.alloc(64)]),
  'key-length.gguf': Buffer.concat([header(0, 1), u64(2n ** 63n), Buffer.from(ARCH), u32(8), str('llama'), Buffer.alloc(64)]),
  'unknown-type.gguf': Buffer.concat([header(0, 1), str(ARCH), u32(77), Buffer.alloc(64)]),
  'tensor-name.gguf': Buffer.concat([header(1, 1), str(ARCH), u32(8), str('llama'), u64(2n ** 40n), Buffer.alloc(64)]),
  'tensor-dims.gguf': Buffer.concat([header(1, 1), str(ARCH), u32(8), str('llama'), str('t'), u32(0xffffffff), Buffer.alloc(64)]),
};
const WHY = /damaged or crafted: .*(claims \d+ (items|bytes)|needs \d+ bytes|unknown value type|dimensions)/;

const timed = async <T>(work: () => Promise<T>) => {
  const t0 = performance.now();
  const result = await work().then(
    (value) => ({ value, error: null }),
    (error: unknown) => ({ value: null, error: error as Error & { code?: string } }),
  );
  return { ...result, ms: performance.now() - t0 };
};

describe('a GGUF header with a length past the end of the file', () => {
  it('is 68 bytes in the reported case', () => {
    expect(CRAFTED['array-of-strings.gguf']!.length).toBe(68);
  });

  it.each(Object.keys(CRAFTED))('%s is refused by models add at once, and nothing is registered', async (name) => {
    const dir = temp.make('syn-gguf-', { [name]: CRAFTED[name]! });
    const registry = new ModelRegistry(temp.make('syn-gguf-models-'));
    const { error, ms } = await timed(() => registry.add(path.join(dir, name)));
    expect(error).toMatchObject({ code: 'E_SYN_BAD_REQUEST', message: expect.stringMatching(WHY) });
    // Generous for a busy machine: the walk reads a few bytes; the unbounded read ran for ever.
    expect(ms).toBeLessThan(2000);
    expect(registry.list()).toEqual([]);
  });

  it('is skipped by a folder import with the reason, and the whole models beside it are imported', async () => {
    const dir = temp.make('syn-gguf-folder-', CRAFTED);
    fs.copyFileSync(path.join(SHARED_DIR, 'models', 'stories260K.gguf'), path.join(dir, 'stories260K.gguf'));
    const engine = createEngine({ dataDir: temp.make('syn-gguf-data-'), env: {}, config: { graphLlm: false } });
    try {
      const files = [...Object.keys(CRAFTED), 'stories260K.gguf'].map((f) => path.join(dir, f));
      const { value, ms } = await timed(() => importModelFiles(engine, files, []));
      expect(ms).toBeLessThan(5000);
      expect(value!.added.map((m) => m.file)).toEqual(['stories260K.gguf']);
      expect(value!.skipped.map((s) => path.basename(s.file))).toEqual(Object.keys(CRAFTED));
      for (const s of value!.skipped) expect(s.reason).toMatch(WHY);
    } finally {
      await engine.dispose();
    }
  });

  it('is refused after a pull from a mirror before it is registered, and deleted', async () => {
    const crafted = CRAFTED['array-of-strings.gguf']!;
    const server = await serveModels({ 'a.gguf': crafted });
    try {
      const modelsDir = temp.make('syn-gguf-pull-');
      const model: CatalogModel = {
        id: 'crafted', role: 'chat', name: 'crafted', file: 'a.gguf', languages: ['en'], size_bytes: crafted.length, size_exact: false, license: 'MIT',
        sha256: null, architecture: 'llama', uri: null, good_for: 'tests', ram_bytes: 0, recommended: false,
      };
      // No sha256 pinned: an unverified catalog entry, pulled only when asked to.
      const { error, ms } = await timed(() => pullModel(model, { modelsDir, mirror: server.url, allowUnverified: true }));
      expect(error).toMatchObject({ code: 'E_SYN_MODEL_UNAVAILABLE', message: expect.stringMatching(/a\.gguf is not a readable GGUF model \(.*damaged or crafted: .*claims 1099511627776 items.*it was deleted and nothing was registered/) });
      expect(ms).toBeLessThan(10_000);
      expect(fs.existsSync(path.join(modelsDir, 'a.gguf'))).toBe(false);
      expect(fs.readdirSync(path.join(modelsDir, '.downloads'))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('a pulled file of another size than the catalog names is refused and deleted', async () => {
    const stories = fs.readFileSync(path.join(SHARED_DIR, 'models', 'stories260K.gguf'));
    const server = await serveModels({ 's.gguf': stories });
    try {
      const base: CatalogModel = {
        id: 'sized', role: 'chat', name: 'sized', file: 's.gguf', languages: ['en'], size_bytes: stories.length * 10, size_exact: false, license: 'MIT',
        sha256: null, architecture: 'llama', uri: null, good_for: 'tests', ram_bytes: 0, recommended: false,
      };
      const modelsDir = temp.make('syn-gguf-size-');
      await expect(pullModel(base, { modelsDir, mirror: server.url, allowUnverified: true })).rejects.toMatchObject({
        code: 'E_SYN_MODEL_UNAVAILABLE',
        message: expect.stringMatching(new RegExp(`s\\.gguf is ${stories.length} bytes, not the about ${stories.length * 10} the catalog names`)),
      });
      expect(fs.existsSync(path.join(modelsDir, 's.gguf'))).toBe(false);
      // Within 10% of an approximate size, it is the file.
      const near = await pullModel({ ...base, size_bytes: Math.round(stories.length * 1.05) }, { modelsDir: temp.make('syn-gguf-size-'), mirror: server.url, allowUnverified: true });
      expect(near.pinned).toBe(false);
    } finally {
      await server.close();
    }
  });
});
