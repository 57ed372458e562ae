import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SHARED_DIR, TempDirs } from '../../../test/helpers/tmp.ts';
import { inspectGguf, ModelRegistry } from './registry.ts';

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
    await expect(registry.add(path.join(dir, 'cut.gguf'))).rejects.toMatchObject({ message: expect.stringMatching(/Cannot read the GGUF header/) });
    await expect(registry.add(dir)).rejects.toMatchObject({ message: expect.stringMatching(/Not a file/) });
    expect(registry.list()).toEqual([]);
  });
});
