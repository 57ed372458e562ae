import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { createEngine, type Engine } from '../engine.ts';
import { LOCK_FILE } from '../store/data-dir-lock.ts';
import { DB_FILE, schemaVersion } from '../store/database.ts';
import { MIGRATIONS } from '../store/migrations/index.ts';

const temp = new TempDirs();
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
});
afterAll(() => temp.cleanup());

function open(dataDir: string, readOnly = false): Engine {
  const engine = createEngine({ dataDir, env: {}, ...(readOnly ? { readOnly } : {}) });
  engines.push(engine);
  return engine;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return null;
}

async function indexed(files: Record<string, string>): Promise<{ vault: string; dataDir: string }> {
  const vault = temp.make('syn-reader-vault-', files);
  const dataDir = temp.make('syn-reader-data-');
  const writer = createEngine({ dataDir, env: {} });
  await writer.index([vault]);
  await writer.dispose();
  return { vault, dataDir };
}

describe('an engine opened read-only (a follower)', () => {
  it('takes no lock, refuses every writer method with a coded error, and serves reads', async () => {
    const { vault, dataDir } = await indexed({ 'a.md': '# Alpha\n\nThe relay listens on port 7000.\n' });
    const reader = open(dataDir, true);
    expect(reader.readOnly).toBe(true);
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    const readOnly = { code: 'E_SYN_BAD_REQUEST', details: { data_dir: dataDir, read_only: true } };
    await expect(reader.index([vault])).rejects.toMatchObject({ ...readOnly, message: expect.stringMatching(/^Cannot index folders: this Synapsis reads .* \(read-only\)/) });
    await expect(reader.call('index/run', { sources: [] })).rejects.toMatchObject(readOnly);
    await expect(reader.watch()).rejects.toMatchObject(readOnly);
    await expect(reader.resume()).rejects.toMatchObject(readOnly);
    await expect(reader.addModel('/nowhere.gguf')).rejects.toMatchObject(readOnly);
    await expect(reader.extractGraphWithModel()).rejects.toMatchObject(readOnly);
    expect(thrown(() => reader.addRoot(vault))).toMatchObject(readOnly);
    expect(thrown(() => reader.removeRoot(vault))).toMatchObject(readOnly);
    expect(thrown(() => reader.removeModel('x'))).toMatchObject(readOnly);
    expect(thrown(() => reader.pause())).toMatchObject(readOnly);
    expect((await reader.retrieve('relay', {}, 1)).chunks[0]!.path).toBe('a.md');
    expect(reader.listRoots()).toHaveLength(1);
    // A writer opens beside it (the reader holds nothing), and is the one that may index.
    const writer = open(dataDir);
    expect((await writer.index([vault])).failed).toBe(0);
  });

  it('on a data dir without a store says it has no index and which command creates it, and creates nothing', () => {
    const dataDir = temp.make('syn-reader-empty-');
    expect(() => open(dataDir, true)).toThrow(
      expect.objectContaining({ code: 'E_SYN_NOT_FOUND', message: `The data dir ${dataDir} has no index yet: \`synapsis index <folder>\` creates it (so do \`synapsis watch <folder>\` and adding a folder in the app).` }),
    );
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('never migrates: a store with an older schema is left as it is, with the command that upgrades it', async () => {
    const { dataDir } = await indexed({ 'a.md': '# A\n\nalpha\n' });
    const db = new BetterSqlite3(path.join(dataDir, DB_FILE));
    const latest = schemaVersion(db);
    db.prepare('DELETE FROM migrations WHERE version = ?').run(latest);
    db.close();
    expect(() => open(dataDir, true)).toThrow(
      expect.objectContaining({ code: 'E_SYN_STORE_FAILED', details: { data_dir: dataDir, reason: 'needs_upgrade' }, message: expect.stringContaining(`run \`synapsis index --data-dir ${dataDir}\` once to upgrade it`) }),
    );
    const after = new BetterSqlite3(path.join(dataDir, DB_FILE), { readonly: true });
    // Versions may skip a number (a change renumbered when merged): the one below the newest.
    expect(schemaVersion(after)).toBe(Math.max(...MIGRATIONS.map((m) => m.version).filter((v) => v < latest)));
    after.close();
  });

  it('records an answer\'s trace when it can, and answers anyway while the writer holds the store', async () => {
    const { dataDir } = await indexed({ 'a.md': '# Launch\n\nThe launch date is 2026-05-01.\n' });
    const reader = open(dataDir, true);
    const first = await reader.answer('What is the launch date?');
    expect(first.answer).toContain('2026-05-01');
    expect(reader.traces().map((t) => t.trace_id)).toEqual([first.trace_id]);
    // Another connection in the middle of a write transaction (as the writer during a batch).
    const holder = new BetterSqlite3(path.join(dataDir, DB_FILE));
    holder.exec('BEGIN IMMEDIATE');
    try {
      const started = performance.now();
      const second = await reader.answer('What is the launch date?');
      expect(second.answer).toContain('2026-05-01');
      expect(performance.now() - started).toBeLessThan(3000); // waited 250 ms for the trace, not the 5 s busy timeout
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(reader.traces()).toHaveLength(1); // the second trace was skipped
  });

  it('follows the writer: link graph and documents change with each commit', async () => {
    const vault = temp.make('syn-reader-vault-', { 'a.md': '# Alpha\n\nSee [[Bravo]].\n', 'Bravo.md': '# Bravo\n\nbravo\n' });
    const dataDir = temp.make('syn-reader-data-');
    const writer = open(dataDir);
    await writer.index([vault]);
    const reader = open(dataDir, true);
    const linked = () => reader.graphNeighbors('Bravo').nodes.map((n) => n.label).sort();
    expect(linked()).toContain('Alpha');
    expect(linked()).not.toContain('Charlie');
    fs.writeFileSync(path.join(vault, 'c.md'), '# Charlie\n\nAlso [[Bravo]].\n');
    await writer.index([vault]);
    expect(linked()).toContain('Charlie');
    expect(reader.documents().map((d) => d.path).sort()).toEqual(['Bravo.md', 'a.md', 'c.md']);
  });
});
