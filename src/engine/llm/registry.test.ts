import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SHARED_DIR, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine } from '../engine.ts';
import { modelDisplayName } from './catalog.ts';
import { inspectGguf, modelLanguages, ModelRegistry } from './registry.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());
const MODELS = path.join(SHARED_DIR, 'models');

describe('models registry', () => {
  it('describes GGUF files from their headers and guesses the role', async () => {
    const minilm = await inspectGguf(path.join(MODELS, 'all-MiniLM-L6-v2.Q8_0.gguf'));
    expect(minilm).toMatchObject({ role: 'embed', architecture: 'bert', dimension: 384, family: 'minilm' });
    const e5 = await inspectGguf(path.join(MODELS, 'multilingual-e5-small.Q4_0.gguf'));
    expect(e5).toMatchObject({ role: 'embed', dimension: 384, family: 'e5' });
    const chat = await inspectGguf(path.join(MODELS, 'SmolLM2-135M-Instruct.Q4_1.gguf'));
    expect(chat).toMatchObject({ role: 'chat', architecture: 'llama', dimension: 576 });
    // Languages: MiniLM's header lists general.languages = [en]; e5's lists none, its name says multilingual.
    expect(minilm.languages).toEqual(['en']);
    expect(e5.languages).toEqual(['*']);
    expect(chat.languages).toBeUndefined();
  });

  it('names an imported model by the catalog or its file, not by the header\'s converter name', async () => {
    const registry = new ModelRegistry(temp.make('syn-models-'));
    // The header says "Smollm2 135M 8k Lc100K Mix1 Ep2".
    expect((await registry.add(path.join(MODELS, 'SmolLM2-135M-Instruct.Q4_1.gguf'))).name).toBe('SmolLM2-135M-Instruct (Q4_1)');
    expect(modelDisplayName('multilingual-e5-small-q4_0.gguf')).toBe('multilingual-e5-small (Q4_0)');
    expect(modelDisplayName('/m/Qwen2.5-1.5B-Instruct-Q4_K_M.gguf', [])).toBe('Qwen2.5-1.5B-Instruct (Q4_K_M)');
    expect(modelDisplayName('bge_reranker.IQ3_XS.gguf', [])).toBe('bge reranker (IQ3_XS)');
    expect(modelDisplayName('stories260K.gguf')).toBe('stories260K');
  });

  it('measures how fast the chat model writes on this machine and records it with the model', async () => {
    const dataDir = temp.make('syn-data-');
    const registry = new ModelRegistry(path.join(dataDir, 'models'));
    const added = await registry.add(path.join(MODELS, 'stories260K.gguf'), { role: 'chat' });
    expect(added.tokens_per_s).toBeUndefined();
    const engine = createEngine({ dataDir, env: {} });
    try {
      const measured = await engine.call('models/measure', {});
      expect(measured.model).toBe('stories260K');
      expect(measured.tokens_per_s).toBeGreaterThan(0);
      expect(registry.list()[0]!.tokens_per_s).toBe(measured.tokens_per_s);
    } finally {
      await engine.dispose();
    }
  }, 60_000);

  it('records the languages given on import, checks them, and replaces them on a second import', async () => {
    const registry = new ModelRegistry(temp.make('syn-models-'));
    const file = path.join(MODELS, 'stories260K.gguf');
    expect((await registry.add(file, { role: 'embed' })).languages).toEqual(['en']);
    const ru = await registry.add(file, { role: 'embed', languages: ['ru', 'en', 'ru'] });
    expect(ru.languages).toEqual(['ru', 'en']);
    expect(registry.list()).toEqual([ru]);
    expect(await registry.add(file, { role: 'embed' })).toEqual(ru);
    await expect(registry.add(file, { role: 'embed', languages: ['en', 'EN'] })).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST', message: expect.stringContaining('"EN"') });
    await expect(registry.add(file, { role: 'embed', languages: ['english'] })).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST', message: expect.stringContaining('"english"') });
    await expect(registry.add(file, { role: 'embed', languages: [] })).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST' });
    expect((await registry.add(file, { role: 'embed', languages: ['*'] })).languages).toEqual(['*']);
  });

  it('loads a registry written before languages were recorded, taking them from the model names', () => {
    const dir = temp.make('syn-models-');
    const base = { architecture: 'bert', dimension: 384, context_length: 512, size_bytes: 1, added_at: '2026-01-01T00:00:00.000Z' };
    const old = [
      { ...base, id: 'a', file: 'all-MiniLM-L6-v2.Q8_0.gguf', name: 'all-MiniLM-L6-v2', role: 'embed', family: 'minilm' },
      { ...base, id: 'b', file: 'multilingual-e5-small.Q4_0.gguf', name: 'multilingual-e5-small', role: 'embed', family: 'e5' },
      { ...base, id: 'c', file: 'SmolLM2-135M-Instruct.Q4_1.gguf', name: 'SmolLM2 135M Instruct', role: 'chat', architecture: 'llama', family: 'generic' },
    ];
    fs.writeFileSync(path.join(dir, 'registry.json'), JSON.stringify(old));
    const models = new ModelRegistry(dir).list();
    expect(models.map((m) => m.languages)).toEqual([['en'], ['*'], undefined]);
    expect(models.map(modelLanguages)).toEqual([['en'], ['*'], ['en']]);
    expect(modelLanguages({ name: 'x', file: 'x.gguf', languages: ['ru'] })).toEqual(['ru']);
  });

  it('imports a model under a content-hash id, lists, picks and removes it', async () => {
    const registry = new ModelRegistry(temp.make('syn-models-'));
    const info = await registry.add(path.join(MODELS, 'stories260K.gguf'), { role: 'embed' });
    expect(info.id).toBe('270cba1bd5109f42'); // the sha256 in ../shared/models/README.md
    expect(fs.existsSync(path.join(registry.modelsDir, 'stories260K.gguf'))).toBe(true);
    expect(registry.list().map((m) => m.id)).toEqual([info.id]);
    expect(await registry.add(path.join(MODELS, 'stories260K.gguf'), { role: 'embed' })).toEqual(info);
    expect(registry.pick('embed')?.id).toBe(info.id);
    expect(registry.pick('chat')).toBeNull();
    expect(registry.find('270cba')?.file).toBe('stories260K.gguf');
    expect(() => registry.pick('embed', 'nope')).toThrow(/No model "nope"/);
    expect(registry.remove(info.id)?.id).toBe(info.id);
    expect(registry.list()).toEqual([]);
  });

  it('rejects missing, non-GGUF and truncated files with a clear error', async () => {
    const registry = new ModelRegistry(temp.make('syn-models-'));
    const dir = temp.make('syn-bad-models-', { 'notes.gguf': 'this is a text file', 'cut.gguf': Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(10)]) });
    await expect(registry.add(path.join(dir, 'missing.gguf'))).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST', message: expect.stringMatching(/No such model file/) });
    await expect(registry.add(path.join(dir, 'notes.gguf'))).rejects.toMatchObject({ message: expect.stringMatching(/Not a GGUF model file/) });
    await expect(registry.add(path.join(dir, 'cut.gguf'))).rejects.toMatchObject({ message: expect.stringMatching(/cut\.gguf is truncated: 14 bytes, not even a whole header/) });
    await expect(registry.add(dir)).rejects.toMatchObject({ message: expect.stringMatching(/Not a file/) });
    expect(registry.list()).toEqual([]);
  });
});
