import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TempDirs, writeFiles } from '../../test/helpers/tmp.ts';
import { createEngine, type Engine } from './engine.ts';

const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  temp.cleanup();
});

function vault() {
  return temp.make('syn-vault-', {
    'people/Maya Chen.md': '---\ntitle: Maya Chen\ntags: [people]\n---\n# Maya Chen\n\nMaya leads the sync team of [[Project Aurora]].\n',
    'decisions/Storage.md': '# Storage decision\n\nOn 2026-03-14 the team chose SQLite over Postgres for the offline cache.\n\n## Consequences\n\nMigrations are numbered files.\n',
    'hr/Pay.md': '---\nsensitivity: restricted\n---\n# Pay bands\n\nThe codeword for the salary review is BLUEHERON.\n',
    'code/sync.ts': 'export function retrySync(times = 5) {\n  return times;\n}\n\nexport class SyncEngine {\n  port = 7421;\n}\n',
    'notes/empty.md': '',
    'notes/latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x6f, 0x74, 0x65, 0x73, 0x0a]),
    'bin/image.dat': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01, 0x02]),
    'big/huge.txt': 'x'.repeat(5000),
    'node_modules/dep/readme.md': '# should never be indexed BLUEHERON',
  });
}

function engineFor(dataDir: string, config = {}) {
  const engine = createEngine({ dataDir, config: { maxFileBytes: 4096, ...config }, env: {} });
  engines.push(engine);
  return engine;
}

describe('engine', () => {
  it('indexes a folder and reports documents, skips and reasons in health', async () => {
    const root = vault();
    const engine = engineFor(temp.make('syn-data-'));
    const report = await engine.index([root]);
    expect(report).toMatchObject({ files_seen: 8, indexed: 6, skipped: 2, failed: 0 });
    // One of the six is restricted: health counts it only for a caller allowed to see it.
    expect((await engine.health()).documents).toMatchObject({ total: 7, indexed: 5, skipped: 2 });
    const health = await engine.health({ allow_sensitivity: ['restricted'] });
    expect(health.documents).toMatchObject({ total: 8, indexed: 6, skipped: 2 });
    expect(health.documents.by_type).toMatchObject({ markdown: 4, code: 1, text: 1 });
    expect(health.status).toBe('degraded');
    expect(health.degradations.join()).toMatch(/no embedding model/);
    const reasons = Object.fromEntries(health.issues.map((i) => [path.relative(fs.realpathSync(root), i.path), i.reason]));
    expect(reasons['bin/image.dat']).toBe('binary content');
    expect(reasons['big/huge.txt']).toMatch(/over the 4 KB size cap/);
  });

  it('finds text with exact line locators and never returns restricted notes unless allowed', async () => {
    const root = vault();
    const engine = engineFor(temp.make('syn-data-'));
    await engine.index([root]);
    const result = await engine.retrieve('SQLite Postgres');
    expect(result.chunks[0]!.locator).toBe('decisions/Storage.md#L1-L3');
    const lines = fs.readFileSync(path.join(root, 'decisions/Storage.md'), 'utf8').split('\n');
    expect(lines.slice(0, 3).join('\n')).toContain(result.chunks[0]!.text);

    expect((await engine.retrieve('BLUEHERON codeword')).chunks).toEqual([]);
    const allowed = await engine.retrieve('BLUEHERON codeword', { allow_sensitivity: ['restricted'] });
    expect(allowed.chunks.map((c) => c.path)).toEqual(['hr/Pay.md']);
    expect(allowed.chunks[0]!.tags.sensitivity).toBe('restricted');
  });

  it('applies include and exclude globs before ranking', async () => {
    const engine = engineFor(temp.make('syn-data-'));
    await engine.index([vault()]);
    const onlyCode = await engine.retrieve('sync', { include_globs: ['code/**'] });
    expect(onlyCode.chunks.length).toBeGreaterThan(0);
    expect(onlyCode.chunks.every((c) => c.path.startsWith('code/'))).toBe(true);
    const noCode = await engine.retrieve('sync', { exclude_globs: ['code/**'] });
    expect(noCode.chunks.every((c) => !c.path.startsWith('code/'))).toBe(true);
  });

  it('re-indexes incrementally: unchanged files cost nothing, edits and deletions are reflected', async () => {
    const root = vault();
    const engine = engineFor(temp.make('syn-data-'));
    await engine.index([root]);
    const again = await engine.index([root]);
    expect(again).toMatchObject({ indexed: 0, unchanged: 8, removed: 0, chunks_added: 0 });

    writeFiles(root, { 'decisions/Storage.md': '# Storage decision\n\nWe moved to DuckDB after all.\n' });
    fs.utimesSync(path.join(root, 'decisions/Storage.md'), new Date(), new Date(Date.now() + 5000));
    fs.rmSync(path.join(root, 'people/Maya Chen.md'));
    const third = await engine.index([]);
    expect(third).toMatchObject({ indexed: 1, removed: 1 });
    expect((await engine.retrieve('DuckDB')).chunks).toHaveLength(1);
    expect((await engine.retrieve('Postgres')).chunks).toHaveLength(0);
    expect((await engine.retrieve('sync team')).chunks.find((c) => c.path.startsWith('people/'))).toBeUndefined();
  });

  it('ranks a folder re-indexed after edits and a removed copy as a fresh index of it does', async () => {
    const copy = vault();
    const root = vault();
    const drifted = engineFor(temp.make('syn-data-'));
    await drifted.index([copy]);
    drifted.removeRoot(copy);
    await drifted.index([root]);
    for (let i = 0; i < 3; i++) {
      writeFiles(root, { 'decisions/Storage.md': `# Storage decision\n\nOn 2026-03-14 the team chose SQLite over Postgres for the offline cache (draft ${i}).\n` });
      fs.utimesSync(path.join(root, 'decisions/Storage.md'), new Date(), new Date(Date.now() + 5000 * (i + 1)));
      await drifted.index([]);
    }
    const fresh = engineFor(temp.make('syn-data-'));
    await fresh.index([root]);
    // BM25's row count and mean length are those of the chunks there are, not of every chunk ever written.
    const scores = async (e: Engine) => (await e.retrieve('the team chose SQLite', { mode: 'bm25' })).chunks.map((c) => [c.path, c.score.toFixed(6)]);
    expect(await scores(drifted)).toEqual(await scores(fresh));
  });

  it('keeps data across restarts and removes a root with everything from it', async () => {
    const root = vault();
    const dataDir = temp.make('syn-data-');
    const first = engineFor(dataDir);
    await first.index([root]);
    await first.dispose();
    const second = engineFor(dataDir);
    expect((await second.retrieve('retrySync')).chunks[0]!.path).toBe('code/sync.ts');
    expect(second.removeRoot(root)).toEqual({ removed: true, documents_removed: 8 });
    expect((await second.health()).documents.total).toBe(0);
    expect((await second.retrieve('retrySync')).chunks).toEqual([]);
  });

  it('rejects a missing folder without touching what is indexed', async () => {
    const root = vault();
    const engine = engineFor(temp.make('syn-data-'));
    await engine.index([root]);
    await expect(engine.index([root, path.join(root, 'does-not-exist')])).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST' });
    expect((await engine.health({ allow_sensitivity: ['restricted'] })).documents.total).toBe(8);
    await expect(engine.index([path.join(root, 'code/sync.ts')])).rejects.toThrow(/Not a folder/);
  });

  it('validates contract calls at the boundary and emits events', async () => {
    const engine = engineFor(temp.make('syn-data-'));
    const seen: string[] = [];
    engine.on('syn.index.completed', () => seen.push('index'));
    engine.on('syn.retrieve.completed', () => seen.push('retrieve'));
    await engine.call('index/run', { sources: [vault()] });
    const res = await engine.call('search/query', { query: 'SQLite', k: 1 });
    expect(res.chunks).toHaveLength(1);
    expect(res.index_version).toMatch(/^[0-9a-f]{16}$/);
    await expect(engine.call('search/query', { query: 'x', k: -1 } as never)).rejects.toMatchObject({ code: 'E_SYN_BAD_REQUEST' });
    expect(seen).toEqual(['index', 'retrieve']);
  });
});
