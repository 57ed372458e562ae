import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHILD_LIMIT_MS, CHILD_TEST_LIMIT_MS } from '../helpers/limits.ts';
import { SAMPLE_VAULT, SHARED_DIR, TempDirs } from '../helpers/tmp.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const MODEL = path.join(SHARED_DIR, 'models', 'stories260K.gguf');
const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe('the engine opens no network connection at run time', () => {
  it('indexes, embeds, searches, answers with a chat model, reads sources, walks and extracts the graph and watches with every network API refusing', () => {
    // A slice of the sample vault keeps the real models quick; the flows are what matter.
    const vault = temp.make('syn-offline-vault-');
    const notes = fs.readdirSync(path.join(SAMPLE_VAULT, 'meetings')).slice(0, 4).map((f) => `meetings/${f}`);
    for (const rel of [...notes, 'hr/Compensation review 2026.md']) {
      fs.mkdirSync(path.dirname(path.join(vault, rel)), { recursive: true });
      fs.copyFileSync(path.join(SAMPLE_VAULT, rel), path.join(vault, rel));
    }
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures', 'offline-flows.ts'), vault, temp.make('syn-offline-data-'), MODEL, MODEL], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: CHILD_LIMIT_MS,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(out.attempts).toEqual([]);
    expect(out.probes).toBe(6); // the patches do see connections
    // Each flow ran for real (with the GGUF models): no flow was skipped by a refused connection.
    expect(out.index).toMatchObject({ indexed: 5, failed: 0 });
    expect((out.index as { embedded: number }).embedded).toBeGreaterThan(0);
    expect(out.search).toMatchObject({ mode: 'hybrid', hybrid_used: true, results: 5 });
    expect(out.answer).toMatchObject({ chat_limits: [] });
    expect(out.source).toBeGreaterThan(0);
    expect((out.graph as { central: number }).central).toBeGreaterThan(0);
    expect(out.graphLlm).toBe(true);
    expect(out.health).toMatchObject({ status: 'ok' });
    expect(out.watched).toBe(true);
  }, CHILD_TEST_LIMIT_MS);
});
