import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_VAULT, TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../engine.ts';
import fc from 'fast-check';
import { analyzeForIndex, stemWord } from './analyzer.ts';
import { ftsTokens } from './bm25.ts';
import { allowedChunksSql } from './lexical.ts';
import { stemBeginning, termCounter } from './term-count.ts';
import { Store } from '../store/store.ts';
import { sqliteOf } from '../store/connection.ts';

const temp = new TempDirs();
let engine: Engine;
let rootA: string;
let rootB: string;

beforeAll(async () => {
  rootA = fs.realpathSync(
    temp.make('syn-lex-a-', {
      'ru/Настройка.md': '---\nlang: ru\ntags: [sync]\n---\n# Настройка синхронизации\n\nНастройка сервера занимает пять минут. Ёлка стоит в зале.\n',
      'en/Indexing.md': '---\ntags: [search, howto]\n---\n# Index notes\n\nThe vault was indexed overnight; the café notes too.\n',
      'en/Cache.md': '# Offline cache\n\nWe keep an offline cache of every note. Migrations are numbered.\n',
      'en/Words.md': '# Scattered\n\nThe cache was offline for a day, then back online.\n',
      'en/Relay.md': '# Local relay\n\nStart it with make relay-dev before the demo app.\n',
      'code/sync.ts': 'export class SyncEngine {\n  retryBackoffMillis = 250;\n}\n',
      'code/util.py': 'def parse_config(path):\n    return open(path).read()\n',
      'hr/Pay.md': '---\nsensitivity: restricted\n---\n# Pay bands\n\nThe salary review codeword is BLUEHERON.\n',
    }),
  );
  rootB = fs.realpathSync(temp.make('syn-lex-b-', { 'other/Cache.md': '# Cache elsewhere\n\nAnother offline cache lives in root B.\n' }));
  engine = createEngine({ dataDir: temp.make('syn-lex-data-'), env: {} });
  await engine.index([rootA, rootB]);
});

afterAll(async () => {
  await engine.dispose();
  temp.cleanup();
});

const paths = async (q: string, ctx = {}, k?: number) => (await engine.retrieve(q, ctx, k)).chunks.map((c) => c.path);

describe('lexical search', () => {
  it('stems Russian and English so other word forms match, and folds ё and diacritics', async () => {
    expect(await paths('настроить')).toContain('ru/Настройка.md');
    expect(await paths('синхронизация')).toContain('ru/Настройка.md');
    expect(await paths('indexing')).toEqual(['en/Indexing.md']);
    expect(await paths('елка')).toEqual(['ru/Настройка.md']);
    expect(await paths('cafe')).toEqual(['en/Indexing.md']);
  });

  it('finds exact terms that are common English words: "make", "before"', async () => {
    expect(await paths('make')).toEqual(['en/Relay.md']);
    expect(await paths('before demo')).toEqual(['en/Relay.md']);
  });

  it('ranks a title match first, honours phrases and prefixes, and highlights matches', async () => {
    const cache = await engine.retrieve('offline cache');
    expect(cache.chunks[0]!.path).toMatch(/Cache\.md$/);
    expect(cache.chunks[0]!.snippet).toMatch(/«offline» «cache»/);
    expect(await paths('"offline cache"', { roots: [rootA] })).toEqual(['en/Cache.md']);
    expect(await paths('migrat*')).toEqual(['en/Cache.md']);
  });

  it('falls back to the trigram index for identifier fragments and substrings', async () => {
    const r = await engine.retrieve('BackoffMil');
    expect(r.chunks.map((c) => c.path)).toEqual(['code/sync.ts']);
    expect(r.meta?.trigram_used).toBe(true);
    expect(await paths('retryBackoffMillis')).toEqual(['code/sync.ts']);
    expect(await paths('backoff')).toEqual(['code/sync.ts']);
  });

  it('filters by type, language, tag, root and path globs before ranking', async () => {
    expect(await paths('cache', { roots: [rootB] })).toEqual(['other/Cache.md']);
    expect(await paths('sync', { types: ['code'] })).toEqual(['code/sync.ts']);
    expect(await paths('parse config', { languages: ['python'] })).toEqual(['code/util.py']);
    expect(await paths('настройка', { languages: ['ru'] })).toEqual(['ru/Настройка.md']);
    expect(await paths('настройка', { languages: ['en'] })).toEqual([]);
    expect(await paths('notes', { tags: ['howto'] })).toEqual(['en/Indexing.md']);
    expect(await paths('cache', { include_globs: ['en/**'], exclude_globs: ['**/Words.md'] })).toEqual(['en/Cache.md']);
    // A filter applied before ranking: k = 1 still finds the one allowed chunk behind better ones.
    expect(await paths('offline cache', { include_globs: ['en/Words.md'] }, 1)).toEqual(['en/Words.md']);
  });

  it('hides restricted notes unless allowed, and answers a request for only restricted sources like one for nothing', async () => {
    expect(await paths('BLUEHERON salary')).toEqual([]);
    expect(await paths('BLUEHERON salary', { allow_sensitivity: ['restricted'] })).toEqual(['hr/Pay.md']);
    const denied: string[] = [];
    const sub = engine.on('syn.retrieve.denied', (e) => denied.push(e.reason));
    const onlyHidden = await engine.retrieve('salary', { include_globs: ['hr/**'] });
    const nothing = await engine.retrieve('salary', { include_globs: ['nowhere/**'] });
    expect(onlyHidden.chunks).toEqual([]);
    expect(onlyHidden.chunks).toEqual(nothing.chunks);
    expect(onlyHidden.meta.limits).toEqual(nothing.meta.limits);
    sub.dispose();
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatch(/hidden by its sensitivity/);
  });

  it('applies a minimum score and explains each match', async () => {
    const all = await engine.retrieve('offline cache', { explain: true });
    expect(all.chunks.length).toBeGreaterThan(1);
    const top = all.chunks[0]!;
    expect(top.explain).toMatchObject({ via: 'bm25', rank: 1 });
    expect(top.explain!.fields.title).toEqual(expect.arrayContaining(['offlin', 'cach']));
    const threshold = top.score - 1e-6;
    const high = await engine.retrieve('offline cache', { min_score: threshold });
    expect(high.chunks.map((c) => c.locator)).toEqual(all.chunks.filter((c) => c.score >= threshold).map((c) => c.locator));
    expect(high.chunks.length).toBeLessThan(all.chunks.length);
  });

  it('never throws on hostile query syntax', async () => {
    for (const q of ['"unbalanced', 'AND OR NOT', '(((', '*', 'title:cache', 'NEAR(a b)', '^', '""', '-cache', '🙂', 'a\u0000b']) {
      await expect(engine.retrieve(q)).resolves.toMatchObject({ query: q });
    }
  });
});

describe('termCounter (rescoring of pruned candidates)', () => {
  it('counts exactly what analyzing the whole text would, for any text (fast-check)', () => {
    const words = ['sync', 'Syncing', 'SYNC', 'synced', 'retrySync', 'sync_engine', '_sync', 'Sync2', '2sync', 'café', 'cafe', 'séance', 'Seance', 'éclair', 'Настройка', 'настроить', 'ёлка', 'running', 'ran', 'dying', 'die', 'Lying', 'tie', 'the', 'skies', 'sky', 'using', 'use', 'Aging', 'crying', 'cry', 'flies', 'ab', 'abc', 'relational', 'Relate', 'creator', 'possibly', 'possible', 'tinbél', 'tinbel', 'TINBELS', 'x2', 'x', 'X', '7', 'AUR-503', "don't", 'über', 'ubers', '日本語', '𝒜bc', '\u{1F642}sync', 'a\uD800b', 'K\u212Aab'];
    const word = fc.oneof(fc.constantFrom(...words), fc.string({ minLength: 1, maxLength: 8 }), fc.string({ minLength: 1, maxLength: 6, unit: 'binary' }));
    fc.assert(
      fc.property(fc.array(word, { maxLength: 40 }), fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }), (textWords, termWords) => {
        const text = textWords.join(' ');
        const wanted = new Set(termWords.flatMap((w) => ftsTokens(analyzeForIndex(w))));
        const expected = new Map<string, number>();
        for (const t of ftsTokens(analyzeForIndex(text))) if (wanted.has(t)) expected.set(t, (expected.get(t) ?? 0) + 1);
        expect(termCounter(wanted)(text)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('reads a decomposed accent as the analyzer does, composed, inside an identifier too', () => {
    for (const text of ['happy_cafe\u0301 ', 'happy_caf\u00e9 cafe\u0301', 'sync_cafe\u0301']) {
      const wanted = new Set(ftsTokens(analyzeForIndex('caf\u00e9')));
      const expected = new Map<string, number>();
      for (const t of ftsTokens(analyzeForIndex(text))) if (wanted.has(t)) expected.set(t, (expected.get(t) ?? 0) + 1);
      expect(termCounter(wanted)(text)).toEqual(expected);
    }
  });

  it('counts the same in texts whose words are all ASCII, read by pattern (fast-check)', () => {
    // Stems that end in a letter their word does not have there (happy → happi, hoping → hope,
    // probably → probabl, skies → sky), stems that keep their word's last letter (tinx), identifiers
    // whose parts begin inside them, and separators above ASCII that leave the words ASCII; marks
    // and accented letters send the text to the scan.
    const words = ['happy', 'happiness', 'hoping', 'hope', 'hopping', 'probably', 'probable', 'relational', 'relate', 'skies', 'sky', 'dying', 'Lying', 'tie', 'tinx', 'tinxes', 'tinbel', 'TINX', 'retrySync', 'sync_engine', 'Sync2', '2sync', 'x2', 'AUR-503', "don't", 'ab', 'a', 'I', 'the', 'running', 'organization', 'organize', 'generously', 'cafe\u0301', 'naïve', '—', '“quoted”', '🙂', 'it’s', '\u00a0', '…'];
    const separators = [' ', '\n', ', ', '. ', '—', '’', ' 🙂 ', '\u2003', '/', '_', '-'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 30 }), fc.array(fc.constantFrom(...separators), { minLength: 1, maxLength: 30 }), fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }), (textWords, seps, termWords) => {
        const text = textWords.map((w, i) => `${w}${seps[i % seps.length]}`).join('');
        const wanted = new Set(termWords.flatMap((w) => ftsTokens(analyzeForIndex(w))));
        const expected = new Map<string, number>();
        for (const t of ftsTokens(analyzeForIndex(text))) if (wanted.has(t)) expected.set(t, (expected.get(t) ?? 0) + 1);
        expect(termCounter(wanted)(text)).toEqual(expected);
      }),
      { numRuns: 600 },
    );
  });
});

describe('termCounter in texts of several scripts', () => {
  it('counts exactly what analyzing the whole text would, Cyrillic and Latin terms in mixed text read by pattern (fast-check)', () => {
    // Russian stems cut only an ending: a word holding a Cyrillic letter gives a term that begins
    // it. Words that mix the scripts and accented words are always analyzed; words of other
    // scripts alone (Greek, Thai, Japanese) hold no ASCII or Cyrillic term and are not.
    const words = ['Настройка', 'настроить', 'НАСТРОЙКИ', 'ёлка', 'Ёлки', 'елка', 'фильтр', 'микрофильтр', 'фильтра_2', 'Фильтр2', 'DirectXфильтр', 'фильтрX', 'sync', 'Syncing', 'retrySync', 'sync_engine', 'café', 'éclair', 'Obsidian', 'Snapを使用したObsidianのインストール', 'ObsidianのSync', 'и', 'в', 'как', 'мой_файл', 'й', 'и\u0306', 'über', 'Straße', 'ǅemal', 'Ⅻ', 'Ελληνικά', 'ภาษาไทย', '日本語のsync', '同期', '—', '«', '»', '\u00a0', '🙂'];
    const separators = [' ', '\n', ', ', '. ', '—', ' «', '» ', '\u00a0', '/', '_', '-', ''];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 30 }), fc.array(fc.constantFrom(...separators), { minLength: 1, maxLength: 30 }), fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }), (textWords, seps, termWords) => {
        const text = textWords.map((w, i) => `${w}${seps[i % seps.length]}`).join('');
        const wanted = new Set(termWords.flatMap((w) => ftsTokens(analyzeForIndex(w))));
        const expected = new Map<string, number>();
        for (const t of ftsTokens(analyzeForIndex(text))) if (wanted.has(t)) expected.set(t, (expected.get(t) ?? 0) + 1);
        expect(termCounter(wanted)(text)).toEqual(expected);
      }),
      { numRuns: 600 },
    );
  });

  it('finds a term inside a run of an unspaced script that begins with other letters', () => {
    // The run is one word to the scanner, cut into words by the analyzer: "obsidian" is one of them.
    expect(termCounter(new Set(['obsidian']))('Snapを使用したObsidianのインストール')).toEqual(new Map([['obsidian', 1]]));
  });
});

describe('what a stem begins with', () => {
  it('every word begins as its stem does, but for a last letter e, i, l or y (the sample vault, docs/, README.md)', () => {
    const root = path.resolve(import.meta.dirname, '..', '..', '..');
    const files = [
      ...fs.readdirSync(SAMPLE_VAULT, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => path.join(SAMPLE_VAULT, f)),
      ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join(root, 'docs', f)),
      path.join(root, 'README.md'),
    ];
    const words = new Set(files.flatMap((f) => fs.readFileSync(f, 'utf8').toLowerCase().match(/[a-z]+/g) ?? []));
    expect(words.size).toBeGreaterThan(3000);
    const replaced: string[] = [];
    for (const w of words) {
      const stem = stemWord(w);
      if (!w.startsWith(stem)) replaced.push(stem);
      if (!['dying', 'lying', 'tying'].includes(w)) expect(w.startsWith(stemBeginning(stem)), `${w} → ${stem}`).toBe(true);
    }
    // The rule is tested where it matters: stems that are not their word's beginning.
    expect(replaced.length).toBeGreaterThan(100);
  });
});

describe('termCounter on real notes', () => {
  it('counts every word of the sample vault as the analyzer does', () => {
    const texts = fs.readdirSync(SAMPLE_VAULT, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => fs.readFileSync(path.join(SAMPLE_VAULT, f), 'utf8'));
    const all = texts.join('\n');
    const wanted = new Set(ftsTokens(analyzeForIndex(all)));
    for (const text of texts) {
      const expected = new Map<string, number>();
      for (const t of ftsTokens(analyzeForIndex(text))) expected.set(t, (expected.get(t) ?? 0) + 1);
      expect(termCounter(wanted)(text)).toEqual(expected);
    }
  });
});

describe('allowedChunkIds', () => {
  it('reads documents first, so a path filter runs once per document, not once per chunk', () => {
    const store = new Store(temp.make('syn-allowed-'));
    try {
      const plan = (sqliteOf(store.db).prepare(`EXPLAIN QUERY PLAN ${allowedChunksSql('d.path IS NOT NULL')}`).all() as { detail: string }[]).map((p) => p.detail);
      expect(plan[0]).toMatch(/^SCAN d\b/);
      expect(plan.at(-1)).toMatch(/^SEARCH c USING (COVERING )?INDEX \S+ \(document_id=\?\)/);
    } finally {
      store.dispose();
    }
  });
});
