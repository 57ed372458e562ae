import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { unusedEmbedderNote } from '../../shared/embed-plan.ts';
import { Store } from '../store/store.ts';
import { ModelRegistry, type ModelInfo } from './registry.ts';
import { defaultEmbedPlan, resolveEmbedModels } from './resolve.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

let clock = 0;
const model = (file: string, languages: string[] | undefined, role: ModelInfo['role'] = 'embed'): ModelInfo => ({
  id: `${file.replace(/\W/g, '').slice(0, 12)}${String(clock).padStart(4, '0')}`,
  file,
  name: file.replace(/\.gguf$/, ''),
  role,
  architecture: 'bert',
  dimension: 384,
  context_length: 512,
  family: 'generic',
  size_bytes: 1,
  added_at: new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)).toISOString(),
  ...(languages ? { languages } : {}),
});

describe('the default embedding plan: one model per language', () => {
  it('uses only the multilingual model when an English one is registered too, whichever came last', () => {
    const e5 = model('multilingual-e5-small.Q4_0.gguf', ['*']);
    const minilm = model('all-MiniLM-L6-v2.Q8_0.gguf', ['en']);
    expect(defaultEmbedPlan([e5, minilm])).toEqual([e5]);
    expect(defaultEmbedPlan([minilm, e5])).toEqual([e5]);
    // A registry written before languages were recorded: taken from the names.
    const { languages: _e, ...oldE5 } = e5;
    const { languages: _m, ...oldMiniLm } = minilm;
    expect(defaultEmbedPlan([oldMiniLm, oldE5]).map((m) => m.file)).toEqual([e5.file]);
  });

  it('adds a model only for languages the ones before it leave out', () => {
    const en = model('english-a.gguf', ['en']);
    const en2 = model('english-b.gguf', ['en']);
    const ru = model('russian.gguf', ['ru']);
    const chat = model('chat.gguf', undefined, 'chat');
    // Latest first: english-b, then russian (covers ru); english-a adds nothing.
    expect(defaultEmbedPlan([en, en2, ru, chat]).map((m) => m.file)).toEqual(['russian.gguf', 'english-b.gguf']);
    expect(defaultEmbedPlan([chat])).toEqual([]);
  });

  it('keeps every model the configuration lists (the opt-in for a second one)', async () => {
    const dir = temp.make('syn-plan-');
    const registry = new ModelRegistry(path.join(dir, 'models'));
    const e5 = model('multilingual-e5-small.Q4_0.gguf', ['*']);
    const minilm = model('all-MiniLM-L6-v2.Q8_0.gguf', ['en']);
    fs.mkdirSync(registry.modelsDir, { recursive: true });
    fs.writeFileSync(path.join(registry.modelsDir, 'registry.json'), JSON.stringify([e5, minilm]));
    const store = new Store(path.join(dir, 'data'));
    try {
      expect(resolveEmbedModels(undefined, undefined, registry, store).map((m) => m.name)).toEqual(['multilingual-e5-small.Q4_0']);
      expect(resolveEmbedModels([minilm.id, e5.id], undefined, registry, store).map((m) => m.name)).toEqual(['all-MiniLM-L6-v2.Q8_0', 'multilingual-e5-small.Q4_0']);
      expect(resolveEmbedModels(undefined, minilm.id, registry, store).map((m) => m.name)).toEqual(['all-MiniLM-L6-v2.Q8_0']);
    } finally {
      store.dispose();
    }
  });

  it('says what a registered model left out would gain and cost, and nothing for one in use', () => {
    const e5 = model('multilingual-e5-small.Q4_0.gguf', ['*']);
    const minilm = model('all-MiniLM-L6-v2.Q8_0.gguf', ['en']);
    const note = unusedEmbedderNote(minilm, [e5]);
    expect(note).toContain('Not used: multilingual-e5-small.Q4_0 already covers en');
    expect(note).toContain(`SYN_EMBED_MODELS=${e5.id},${minilm.id}`);
    expect(note).toMatch(/SciFact 0\.7278 → 0\.7468/);
    expect(note).toMatch(/about \d+% more embedding time/);
    expect(unusedEmbedderNote(e5, [e5])).toBeNull();
    expect(unusedEmbedderNote(e5, [minilm])).toBeNull(); // it covers languages MiniLM does not
    expect(unusedEmbedderNote(model('russian.gguf', ['ru']), [minilm])).toBeNull();
  });
});
