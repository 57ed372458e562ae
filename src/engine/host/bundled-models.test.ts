import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stageModels } from '../../../scripts/dist-models.mjs';
import { SHARED_DIR, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../engine.ts';
import type { CatalogModel } from '../llm/catalog.ts';
import { BUNDLED_MARKER, importBundledModels } from './bundled-models.ts';

const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  temp.cleanup();
});

const open = (dataDir: string) => {
  const engine = createEngine({ dataDir, env: {} });
  engines.push(engine);
  return engine;
};

/** An installer's models/ as `npm run dist -- --with-models` stages it, from a folder with the small chat model. */
function installerModels(catalog: CatalogModel[] = []): string {
  const dir = temp.make('bundle-src-');
  fs.copyFileSync(path.join(SHARED_DIR, 'models', 'stories260K.gguf'), path.join(dir, 'stories260K.gguf'));
  fs.copyFileSync(path.join(SHARED_DIR, 'models', 'all-MiniLM-L6-v2.Q8_0.gguf'), path.join(dir, 'all-MiniLM-L6-v2.Q8_0.gguf'));
  const staging = path.join(temp.make('bundle-res-'), 'models');
  stageModels(dir, staging, catalog);
  return staging;
}

describe('importBundledModels (first start of an installer built --with-models)', () => {
  it('imports the carried models once, with the catalog\'s role and languages, and not again after the user removes one', async () => {
    const catalog = [{ id: 'minilm', file: 'all-MiniLM-L6-v2.Q8_0.gguf', sha256: null, role: 'embed', languages: ['en', 'de'] }] as unknown as CatalogModel[];
    const resources = installerModels(catalog);
    const dataDir = temp.make('bundle-data-');
    const first = await importBundledModels(open(dataDir), resources);
    expect(first.skipped).toEqual([]);
    expect(first.added.map((m) => [m.file, m.role, m.languages ?? null]).sort()).toEqual([
      ['all-MiniLM-L6-v2.Q8_0.gguf', 'embed', ['en', 'de']],
      ['stories260K.gguf', 'chat', null],
    ]);
    // Copied into the workspace: the app keeps working if the installer's folder goes away.
    expect(fs.existsSync(path.join(dataDir, 'models', 'stories260K.gguf'))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, BUNDLED_MARKER), 'utf8')).imported).toHaveLength(2);

    const engine = open(dataDir);
    await engine.call('models/remove', { ref: 'stories260K.gguf' });
    expect(await importBundledModels(engine, resources)).toEqual({ added: [], skipped: [] });
    expect((await engine.call('models/list', {})).map((m) => m.file)).toEqual(['all-MiniLM-L6-v2.Q8_0.gguf']);
  });

  it('skips a damaged file with why, and does nothing for an installer without models', async () => {
    const resources = installerModels();
    fs.appendFileSync(path.join(resources, 'stories260K.gguf'), 'x');
    const dataDir = temp.make('bundle-data-bad-');
    const result = await importBundledModels(open(dataDir), resources);
    expect(result.added.map((m) => m.file)).toEqual(['all-MiniLM-L6-v2.Q8_0.gguf']);
    expect(result.skipped).toEqual([{ file: path.join(resources, 'stories260K.gguf'), reason: expect.stringMatching(/^damaged: sha256 [0-9a-f]{64}, expected [0-9a-f]{64}$/) }]);
    expect(await importBundledModels(open(temp.make('bundle-none-')), undefined)).toEqual({ added: [], skipped: [] });
    expect(await importBundledModels(open(temp.make('bundle-none-')), temp.make('bundle-empty-'))).toEqual({ added: [], skipped: [] });
  });
});
