import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateMarkdownCorpus } from '../../src/cli/bench/corpus.ts';
import { HashedEmbedder } from '../../src/cli/bench/hashed-embedder.ts';
import { createEngine } from '../../src/engine/engine.ts';
import type { IndexManifest } from '../../src/engine/health/manifest.ts';
import { CHILD_LIMIT_MS, CHILD_TEST_LIMIT_MS } from '../helpers/limits.ts';
import { TempDirs } from '../helpers/tmp.ts';
import { FIXTURES, ROOT } from './helpers.ts';

/**
 * A real full disk: the child runs in a user + mount namespace with its data dirs on a 64 MB tmpfs
 * (no privileges needed where unprivileged user namespaces are enabled, as on this machine). Where
 * the kernel refuses them the test is reported as skipped, never as passed.
 */
const temp = new TempDirs();
afterAll(() => temp.cleanup());

function canMountTmpfs(): boolean {
  const dir = temp.make('syn-tmpfs-probe-');
  const r = spawnSync('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', `mount -t tmpfs -o size=1m tmpfs ${dir}`], { encoding: 'utf8' });
  return r.status === 0;
}
const TMPFS = canMountTmpfs();
if (!TMPFS) console.warn('[disk-full] skipped: this kernel does not allow unprivileged mount namespaces (unshare --user --mount)');

const err = (message: RegExp) => ({ error: { code: 'E_SYN_STORE_FAILED', retryable: true, message: expect.stringMatching(message) } });

describe.skipIf(!TMPFS)('a full disk', () => {
  let corpus: string;
  let clean: IndexManifest | null;
  beforeAll(async () => {
    corpus = temp.make('syn-diskfull-corpus-', { 'a/alpha.md': '# Alpha\n\nThe alpha note.\n', 'c/c.md': '# C\n\nAnother folder.\n' });
    generateMarkdownCorpus(path.join(corpus, 'a'), 50, 1);
    generateMarkdownCorpus(path.join(corpus, 'b'), 400, 2);
    const engine = createEngine({ dataDir: temp.make('syn-diskfull-clean-'), env: {}, embedder: new HashedEmbedder(64) });
    await engine.index(['a', 'b', 'c'].map((d) => path.join(corpus, d)));
    clean = engine.manifest();
    await engine.dispose();
  });

  it('stops indexing with a clear error, leaves the store intact and searchable, and the next run finishes like a clean one', () => {
    const mount = temp.make('syn-diskfull-mnt-');
    const script = `mount -t tmpfs -o size=64m tmpfs "$1" && exec "$2" --import tsx "$3" "$1" "$4"`;
    const r = spawnSync('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', script, 'sh', mount, process.execPath, path.join(FIXTURES, 'disk-full.ts'), corpus], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: CHILD_LIMIT_MS,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, Record<string, unknown>>;
    // 145 passages: each generated note's title heading stands straight above its first section and is part of it.
    const before = { documents: 51, chunks: 145, vectors: 145, hits: 5, dense: 5 };
    expect(out.first).toMatchObject({ report: { failed: 0 }, ...before });

    // The lexical stage meets the full disk: a clear error naming the data dir, not 451 failed files.
    expect(out.full).toMatchObject(err(/^The disk holding the data dir .*lexical is full: indexing stopped\. What was indexed before is intact; free some space/));
    expect(out.store).toEqual({ integrity: 'ok', fts: 'ok' });
    expect(out.startWhileFull).toMatchObject(err(/lexical is full: (Synapsis|the store) cannot (start|be opened)\. What was indexed before is intact; free some space and start/));
    // Full with an engine running: what was indexed answers; the queued files wait; adding a folder fails clearly.
    // Batches committed before the disk filled stay; the rest of b waits in the queue, nothing is lost or doubled.
    const committed = (out.whileFull!.documents as number) - 51;
    expect(committed).toBeGreaterThanOrEqual(0);
    expect(committed).toBeLessThan(400);
    expect(out.whileFull).toMatchObject({ vectors: 145, hits: 5, dense: 5, pending_jobs: 400 - committed, addRoot: err(/the folder .*\/c was not added/).error });
    expect(out.afterFull).toMatchObject({ documents: 51 + committed, vectors: 145, hits: 5, dense: 5, pending_jobs: 400 - committed });
    expect(out.resumed).toMatchObject({ failed: 0, pending_jobs: 0, documents: 452, manifest: clean });
    expect(out.resumed!.vectors).toBe(out.resumed!.chunks);

    // The disk fills while vectors are written: the run fails (it used to succeed with dense search off).
    expect(out.embedFull).toMatchObject(err(/embed is full: indexing stopped/));
    expect(out.embedStore).toEqual({ integrity: 'ok', fts: 'ok' });
    expect(out.embedResumed).toMatchObject({ report: { embedded: 145, embed_pending: 0, failed: 0 }, ...before });
    expect(fs.readdirSync(mount)).toEqual([]); // the tmpfs lived in the child's namespace only
  }, CHILD_TEST_LIMIT_MS);
});
