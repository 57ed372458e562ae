import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogModel, MODEL_CATALOG, recommendedModels, type CatalogModel } from '../../src/engine/llm/catalog.ts';
import { mirrorRefusal, pullModel } from '../../src/engine/llm/download.ts';
import { cli } from '../helpers/cli.ts';
import { serveModels } from '../helpers/model-server.ts';
import { SHARED_DIR, TempDirs } from '../helpers/tmp.ts';

/**
 * What `models pull` fetches is the file the catalog names, or the catalog says it is not: every
 * entry pins a sha256 or is marked unverified (with why); an unverified one is never part of
 * --recommended and is fetched only when asked for by name with --allow-unverified; a plain-http
 * mirror (readable and changeable on the way) is refused unless asked for, or on this machine.
 */
const temp = new TempDirs();
afterAll(() => temp.cleanup());
const GB = 1024 ** 3;
const STORIES = fs.readFileSync(path.join(SHARED_DIR, 'models', 'stories260K.gguf'));
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const entry = (over: Partial<CatalogModel> = {}): CatalogModel => ({
  id: 'test-model', role: 'chat', name: 'test model', file: 'stories.gguf', languages: ['en'], size_bytes: STORIES.length, size_exact: true, license: 'MIT',
  sha256: sha(STORIES), architecture: 'llama', uri: null, good_for: 'tests', ram_bytes: 0, recommended: false, ...over,
});

describe('the model catalog', () => {
  it('pins each entry to a sha256 or marks it unverified, saying why', () => {
    for (const m of MODEL_CATALOG) {
      if (m.sha256 !== null) {
        expect(m.sha256, m.id).toMatch(/^[0-9a-f]{64}$/);
        expect(m.unverified, m.id).toBeUndefined();
      } else {
        expect(m.unverified, `${m.id} has no sha256 and is not marked unverified`).toMatch(/no sha256 pinned/);
        expect(m.size_exact, m.id).toBe(false);
      }
      expect(m.uri === null || /^(https:|hf:)/.test(m.uri), m.id).toBe(true);
    }
    expect(MODEL_CATALOG.find((m) => m.id === 'qwen2.5-7b-instruct')?.unverified).toBeDefined();
  });

  it('recommends only pinned files, whatever the memory', () => {
    for (const ram of [2, 8, 16, 64]) {
      for (const m of recommendedModels(ram * GB)) expect(m.sha256, `${m.id} at ${ram} GB`).not.toBeNull();
    }
    expect(recommendedModels(32 * GB).map((m) => m.id)).toEqual(['multilingual-e5-small-q8', 'qwen2.5-1.5b-instruct']);
  });

  it('fetches a third-party repository\'s file at a pinned commit, never its main branch', () => {
    for (const m of MODEL_CATALOG.filter((c) => c.revision !== undefined)) {
      expect(m.sha256, m.id).not.toBeNull();
      expect(m.revision, m.id).toMatch(/^[0-9a-f]{40}$/);
      expect(m.uri, m.id).toContain(`/resolve/${m.revision}/`);
    }
    expect(catalogModel('multilingual-e5-small-q8')?.revision).toBeDefined();
  });
});

describe('pulling', () => {
  it('refuses an unverified model before any request unless asked for, then checks its header', async () => {
    const server = await serveModels({ 'stories.gguf': STORIES });
    try {
      const unpinned = entry({ sha256: null, size_exact: false, unverified: 'no sha256 pinned: test' });
      await expect(pullModel(unpinned, { modelsDir: temp.make('syn-pin-'), mirror: server.url })).rejects.toMatchObject({ code: 'E_SYN_MODEL_UNAVAILABLE', message: expect.stringMatching(/unverified.*--allow-unverified/) });
      expect(server.requests).toEqual([]);
      expect(await pullModel(unpinned, { modelsDir: temp.make('syn-pin-ok-'), mirror: server.url, allowUnverified: true })).toMatchObject({ pinned: false });
    } finally {
      await server.close();
    }
  });

  it('refuses a plain-http mirror on another machine unless asked for; https and this machine pass', async () => {
    expect(mirrorRefusal('http://models.intranet.example/synapsis/a.gguf', false)).toMatch(/plain http.*--allow-http/);
    expect(mirrorRefusal('http://models.intranet.example/synapsis/a.gguf', true)).toBeNull();
    expect(mirrorRefusal('https://models.intranet.example/synapsis/a.gguf', false)).toBeNull();
    expect(mirrorRefusal('hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF/a.gguf', false)).toBeNull();
    for (const local of ['http://127.0.0.1:8080/a.gguf', 'http://localhost/a.gguf', 'http://[::1]:9/a.gguf']) expect(mirrorRefusal(local, false), local).toBeNull();
    expect(mirrorRefusal('ftp://models.example/a.gguf', true)).toMatch(/https/);
    await expect(pullModel(entry(), { modelsDir: temp.make('syn-pin-http-'), mirror: 'http://models.intranet.example/synapsis' })).rejects.toThrow(/plain http/);
  });

  it('on the command line: refused by name without --allow-unverified, and an http mirror without --allow-http', async () => {
    const dataDir = temp.make('syn-pin-cli-');
    const unverified = await cli(['models', 'pull', 'qwen2.5-7b-instruct', '--data-dir', dataDir]);
    expect(unverified.code).not.toBe(0);
    expect(unverified.err).toMatch(/unverified.*--allow-unverified/);
    const http = await cli(['models', 'pull', 'qwen2.5-1.5b-instruct', '--mirror', 'http://models.intranet.example/synapsis', '--data-dir', dataDir]);
    expect(http.code).not.toBe(0);
    expect(http.err).toMatch(/plain http.*--allow-http/);
  });
});
