import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import { ModelRegistry } from '../../src/engine/llm/registry.ts';
import { SHARED_DIR, TempDirs } from '../helpers/tmp.ts';

const MODELS = path.join(SHARED_DIR, 'models');
const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
});
afterAll(() => temp.cleanup());

let bad: string;
let vault: string;
beforeAll(() => {
  const real = fs.readFileSync(path.join(MODELS, 'stories260K.gguf'));
  bad = temp.make('syn-bad-models-', {
    'notes.gguf': '# not a model\n\njust markdown with a .gguf name\n',
    'header-only.gguf': real.subarray(0, 64),
    'cut.gguf': real.subarray(0, Math.floor(real.length / 2)),
    'empty.gguf': '',
    // Magic and version right, then claims of four billion metadata entries: the GGUF reader spun on these for minutes.
    'huge-counts.gguf': Buffer.concat([Buffer.from('GGUF', 'latin1'), Buffer.from([3, 0, 0, 0]), Buffer.alloc(8), Buffer.from([255, 255, 255, 255, 0, 0, 0, 0]), Buffer.alloc(40)]),
    'magic-only.gguf': 'GGUFxxxxxxxxxxxx',
  });
  vault = temp.make('syn-models-vault-', { 'a.md': '# Storage\n\nThe team chose SQLite for the offline cache.\n', 'b.md': '# Travel\n\nMaya flies to Lisbon in May.\n' });
});

function open(config: Record<string, unknown>): Engine {
  const engine = createEngine({ dataDir: temp.make('syn-models-data-'), env: {}, config: { llmThreads: 1, gpu: 'off', ...config } });
  engines.push(engine);
  return engine;
}

const WHY: Record<string, RegExp> = {
  'notes.gguf': /Not a GGUF model file \(bad magic bytes\)/,
  'header-only.gguf': /The GGUF model .*header-only\.gguf is damaged or truncated: its header claims \d+ metadata entries and \d+ tensors, more than 64 bytes can hold/,
  'huge-counts.gguf': /The GGUF model .*huge-counts\.gguf is damaged or truncated: its header claims 4294967295 metadata entries/,
  'magic-only.gguf': /The GGUF model .*magic-only\.gguf is truncated: 16 bytes, not even a whole header/,
  'cut.gguf': /The GGUF model .*cut\.gguf is truncated: it is \d+ bytes but its tensors start up to byte \d+/,
  'empty.gguf': /Not a GGUF model file \(bad magic bytes\)/,
};

describe('a bad model file', () => {
  it.each(Object.keys(WHY))('%s as the embedding model: indexing and search go on lexically, health says why', async (file) => {
    const engine = open({ embedModel: path.join(bad, file) });
    const report = await engine.index([vault]);
    expect(report).toMatchObject({ indexed: 2, failed: 0, embedded: 0, embed_pending: 2 });
    const result = await engine.retrieve('SQLite offline cache', {}, 3);
    expect(result.meta.mode).toBe('bm25');
    expect(result.chunks[0]!.path).toBe('a.md');
    const health = await engine.health();
    expect(health.status).toBe('degraded');
    expect(health.degradations[0]).toMatch(/^embedding model unavailable, lexical retrieval only: Cannot load embedding model /);
    expect(health.degradations[0]).toMatch(WHY[file]!);
  });

  it.each(['notes.gguf', 'cut.gguf'])('%s as the chat model: the answer is extractive, cited, and says why', async (file) => {
    const engine = open({ chatModel: path.join(bad, file) });
    await engine.index([vault]);
    const envelope = await engine.answer('What did the team choose for the offline cache?');
    expect(envelope.answer).toMatch(/SQLite/);
    expect(envelope.citations.length).toBeGreaterThan(0);
    const limit = envelope.limits.find((l) => l.code === 'chat_model_unavailable');
    expect(limit?.detail).toMatch(/^chat model unavailable, extractive answer: Cannot load chat model/);
    expect(limit?.detail).toMatch(WHY[file]!);
  });

  it('an embedding model as the chat model: answers stay extractive and say the model cannot be used', async () => {
    const engine = open({ chatModel: path.join(MODELS, 'all-MiniLM-L6-v2.Q8_0.gguf') });
    await engine.index([vault]);
    const envelope = await engine.answer('What did the team choose for the offline cache?');
    expect(envelope.answer).toMatch(/SQLite/);
    expect(envelope.limits).toContainEqual({ code: 'chat_model_unavailable', detail: expect.stringMatching(/chat model unavailable, extractive answer: Cannot load chat model .*all-MiniLM-L6-v2\.Q8_0\.gguf: .* is an embedding model \(bert\) and cannot generate text/) });
  });

  it('is refused by the registry with the reason: not GGUF, truncated, or the wrong role', async () => {
    const registry = new ModelRegistry(temp.make('syn-models-reg-'));
    for (const [file, why] of Object.entries(WHY)) {
      await expect(registry.add(path.join(bad, file))).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST', message: expect.stringMatching(why) });
    }
    await expect(registry.add(path.join(MODELS, 'all-MiniLM-L6-v2.Q8_0.gguf'), { role: 'chat' })).rejects.toMatchObject({
      code: 'E_SYN_BAD_REQUEST',
      message: expect.stringMatching(/all-MiniLM-L6-v2\.Q8_0\.gguf is an embedding model \(bert\) and cannot generate text: add it with --role embed/),
    });
    expect(registry.list()).toEqual([]);
    // The whole files still import, in their roles.
    expect((await registry.add(path.join(MODELS, 'all-MiniLM-L6-v2.Q8_0.gguf'))).role).toBe('embed');
    expect((await registry.add(path.join(MODELS, 'stories260K.gguf'), { role: 'chat' })).role).toBe('chat');
  });

  it('imported and then damaged in the models dir: the engine starts, indexes lexically and says why', async () => {
    const modelsDir = temp.make('syn-models-dir-');
    const registry = new ModelRegistry(modelsDir);
    const info = await registry.add(path.join(MODELS, 'stories260K.gguf'), { role: 'embed' });
    const file = registry.pathOf(info);
    fs.truncateSync(file, Math.floor(fs.statSync(file).size / 3));
    const engine = createEngine({ dataDir: temp.make('syn-models-data-'), modelsDir, env: {}, config: { llmThreads: 1, gpu: 'off' } });
    engines.push(engine);
    expect((await engine.index([vault])).indexed).toBe(2);
    expect((await engine.retrieve('Lisbon', {}, 3)).chunks[0]!.path).toBe('b.md');
    expect((await engine.health()).degradations[0]).toMatch(/Cannot load embedding model .*stories260K\.gguf: The GGUF model .* is truncated/);
  });
});
