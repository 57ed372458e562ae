/**
 * Language-aware retrieval with the real shared embedders: each embedding model answers only the
 * queries in a language it covers, so an English-only model never drags a Russian query's hybrid
 * below its lexical list, and a multilingual one keeps the dense side for it.
 */
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SHARED_DIR, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../engine.ts';

const MINILM = path.join(SHARED_DIR, 'models', 'all-MiniLM-L6-v2.Q8_0.gguf');
const E5 = path.join(SHARED_DIR, 'models', 'multilingual-e5-small.Q4_0.gguf');
const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
});
afterAll(() => temp.cleanup());

const VAULT = {
  'cache.md': '# Offline cache\n\nThe desktop client keeps an offline cache in SQLite so that notes open without a network.\n',
  'relay.md': '# Relay\n\nThe relay forwards sync traffic between laptops over QUIC on port 7443.\n',
  'ru/backup.md': '# Резервные копии\n\nРезервные копии базы данных делаются каждую ночь и хранятся тридцать дней.\n',
  'ru/hiring.md': '# Найм\n\nВ следующем квартале команда наймёт двух инженеров для мобильного клиента.\n',
  'ru/release.md': '# Релиз\n\nРелиз версии два перенесён на март из-за проблем с синхронизацией.\n',
};

function open(dataDir: string, embedModels: string[]) {
  const engine = createEngine({ dataDir, env: {}, config: { embedModels, llmThreads: 1, gpu: 'off' } });
  engines.push(engine);
  return engine;
}

const paths = (r: { chunks: { path: string }[] }) => r.chunks.map((c) => c.path);

describe('language routing across embedding models', () => {
  it('sends English queries to both models and Russian ones to the multilingual model only', async () => {
    const engine = open(temp.make('syn-route-'), [MINILM, E5]);
    const report = await engine.index([temp.make('syn-route-vault-', VAULT)]);
    // Each model embeds every chunk once, into a vector index of its own.
    expect(report.embedded).toBe(10);
    const health = await engine.health();
    expect(health.models.embedders.map((e) => [e.name, e.languages, e.vectors])).toEqual([
      ['all-MiniLM-L6-v2.Q8_0', ['en'], 5],
      ['multilingual-e5-small.Q4_0', ['*'], 5],
    ]);
    expect(health.languages).toEqual([
      { lang: 'ru', chunks: 3 },
      { lang: 'en', chunks: 2 },
    ]);
    // Russian chunks are covered by e5: no language goes without a dense list.
    expect(health.degradations.join('\n')).not.toMatch(/no embedding model covers/);

    const en = await engine.retrieve('where are notes cached offline', { mode: 'hybrid' }, 3);
    expect(en.meta.query_language).toBe('en');
    expect(en.meta.dense_models).toEqual(['all-MiniLM-L6-v2.Q8_0', 'multilingual-e5-small.Q4_0']);
    expect(en.meta.hybrid_used).toBe(true);
    expect(paths(en)[0]).toBe('cache.md');

    const ru = await engine.retrieve('как долго хранятся резервные копии базы', { mode: 'hybrid' }, 3);
    expect(ru.meta.query_language).toBe('ru');
    expect(ru.meta.dense_models).toEqual(['multilingual-e5-small.Q4_0']);
    expect(ru.meta.limits).toContainEqual({ code: 'language_model_left_out', detail: expect.stringMatching(/all-MiniLM-L6-v2\.Q8_0 left out: not trained on the query's language \(ru\)/) });
    expect(paths(ru)[0]).toBe('ru/backup.md');

    // Reopened, health counts each model's stored vectors before any index is loaded.
    const dataDir = engine.dataDir;
    await engines.pop()!.dispose();
    const again = open(dataDir, [MINILM, E5]);
    expect((await again.health()).models.embedders.map((e) => e.vectors)).toEqual([5, 5]);
  });

  it('with an English-only model, a Russian query falls back to the lexical list and says so', async () => {
    const engine = open(temp.make('syn-route-en-'), [MINILM]);
    await engine.index([temp.make('syn-route-vault-', VAULT)]);
    const health = await engine.health();
    expect(health.degradations.join('\n')).toMatch(/3 chunks are in ru, which no embedding model covers .*multilingual/);

    const query = 'когда релиз второй версии';
    const hybrid = await engine.retrieve(query, { mode: 'hybrid' }, 5);
    const lexical = await engine.retrieve(query, { mode: 'bm25' }, 5);
    expect(hybrid.meta.hybrid_used).toBe(false);
    expect(hybrid.meta.dense_models).toEqual([]);
    expect(hybrid.meta.limits).toContainEqual({ code: 'language_uncovered', detail: expect.stringMatching(/no embedding model covers the query's language \(ru\).*lexical results only/) });
    // Never worse than lexical: it is the lexical ranking.
    expect(paths(hybrid)).toEqual(paths(lexical));
    expect(paths(hybrid)[0]).toBe('ru/release.md');

    // English queries keep the dense list.
    const en = await engine.retrieve('relay port for sync traffic', { mode: 'hybrid' }, 3);
    expect(en.meta.dense_models).toEqual(['all-MiniLM-L6-v2.Q8_0']);
    expect(en.meta.hybrid_used).toBe(true);
  });
});

describe('the languages of an imported model over RPC', () => {
  it('models/add records the languages the caller names, and refuses a bad code', async () => {
    const engine = createEngine({ dataDir: temp.make('syn-route-add-'), env: {} });
    engines.push(engine);
    const added = await engine.call('models/add', { path: MINILM, role: 'embed', languages: ['en', 'de'] });
    expect(added.languages).toEqual(['en', 'de']);
    expect((await engine.call('models/list', {})).map((m) => m.languages)).toEqual([['en', 'de']]);
    await expect(engine.call('models/add', { path: MINILM, role: 'embed', languages: ['English'] })).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST' });
  });
});
