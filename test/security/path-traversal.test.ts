import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.ts';
import { TempDirs } from '../helpers/tmp.ts';

/**
 * source/get (engine.source) serves lines of indexed documents only: a locator is looked up in the
 * store, never joined onto a folder. Every read the engine makes while serving is recorded and must
 * lie under the registered root; a canary beside the root must never come back.
 */
const CANARY = 'OUTSIDE-CANARY-5521';
const temp = new TempDirs();
let base: string;
let root: string;
let engine: Engine;
const reads: string[] = [];
let record = false;

beforeAll(async () => {
  base = temp.make('syn-traversal-', {
    'vault/a.md': '# A\n\nline three\nline four\n',
    'vault/sub/b.md': '# B\n\nInside the root.\n',
    'vault/.gitignore': 'ignored.md\n',
    'vault/ignored.md': `# Ignored\n\n${CANARY} ignored by .gitignore\n`,
    'outside/secret.md': `# Secret\n\n${CANARY}\n`,
    'vault-evil/x.md': `# Sibling\n\n${CANARY} in a folder whose name starts like the root\n`,
  });
  root = fs.realpathSync(path.join(base, 'vault'));
  engine = createEngine({ dataDir: path.join(base, 'data'), env: {} });
  expect((await engine.index([root])).indexed).toBe(2); // a.md, sub/b.md
  for (const method of ['readFileSync', 'openSync', 'createReadStream', 'readdirSync', 'statSync', 'lstatSync', 'realpathSync'] as const) {
    const original = fs[method] as (...args: unknown[]) => unknown;
    vi.spyOn(fs, method).mockImplementation(((...args: unknown[]) => {
      if (record && (typeof args[0] === 'string' || args[0] instanceof URL || Buffer.isBuffer(args[0]))) reads.push(String(args[0]));
      return original.apply(fs, args);
    }) as never);
  }
});
afterAll(async () => {
  vi.restoreAllMocks();
  await engine.dispose();
  temp.cleanup();
});

function serve(locator: string): { text?: string; code?: string; message?: string } {
  record = true;
  try {
    const s = engine.source(locator);
    return { text: s.text };
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  } finally {
    record = false;
  }
}

// The engine's own damage marker beside its store is read before serving (it is no file of the user's).
const ownMarker = (p: string) => path.basename(p) === 'store-damaged.json' && path.dirname(path.resolve(p)) === path.join(base, 'data');
const outsideRoot = () => reads.filter((p) => {
  const rel = path.relative(root, path.resolve(p));
  return (rel.startsWith('..') || path.isAbsolute(rel)) && !ownMarker(p);
});

const TRAVERSALS = [
  '../outside/secret.md',
  '../outside/secret.md#L1-L3',
  'sub/../../outside/secret.md',
  'a.md/../../outside/secret.md',
  '..\\outside\\secret.md',
  'sub\\..\\..\\outside\\secret.md',
  '%2e%2e/outside/secret.md',
  '%2e%2e%2foutside%2fsecret.md',
  '....//outside/secret.md',
  '../vault-evil/x.md',
  '/etc/passwd',
  '/etc/passwd#L1-L5',
  '/etc/passwd:1-5',
  'file:///etc/passwd',
  '~/.bashrc',
  '\\\\server\\share\\secret.md',
  'C:\\Windows\\win.ini',
  'ignored.md',
  'ignored.md#L1-L3',
  '.',
  './',
  'sub',
  'sub/',
  'a.md\u0000../outside/secret.md',
  '.gitignore/../ignored.md',
  'A.MD',
];

describe('source/get cannot leave the registered roots', () => {
  it('serves an indexed file by its locator, and by its absolute path under the root', () => {
    reads.length = 0;
    expect(serve('a.md#L3-L4').text).toBe('line three\nline four');
    expect(reads).toContain(path.join(root, 'a.md')); // the recorder sees the engine's reads
    expect(serve(`${root}/sub/b.md#L3`).text).toBe('Inside the root.');
  });

  it.each(TRAVERSALS)('%s: refused or not found, nothing read outside the root', (locator) => {
    reads.length = 0;
    const r = serve(locator);
    expect(r.text).toBeUndefined();
    expect(['E_SYN_BAD_REQUEST', 'E_SYN_NOT_FOUND']).toContain(r.code);
    expect(r.message).not.toContain(CANARY);
    expect(outsideRoot()).toEqual([]);
  });

  it('absolute paths of files outside the root, or of unindexed files inside it, are not found', () => {
    for (const abs of [path.join(base, 'outside', 'secret.md'), path.join(base, 'vault-evil', 'x.md'), path.join(root, 'ignored.md'), `${root}/../outside/secret.md`]) {
      reads.length = 0;
      expect(serve(abs)).toMatchObject({ code: expect.stringMatching(/E_SYN_(NOT_FOUND|BAD_REQUEST)/) });
      expect(outsideRoot()).toEqual([]);
    }
  });

  it('the same holds through engine.call (the RPC boundary validates, then the store decides)', async () => {
    for (const locator of TRAVERSALS.slice(0, 8)) {
      await expect(engine.call('source/get', { locator })).rejects.toMatchObject({ code: expect.stringMatching(/E_SYN_(NOT_FOUND|BAD_REQUEST)/) });
    }
  });

  it('random locators built from traversal pieces never serve the canary nor read outside the root', () => {
    const piece = fc.constantFrom('..', '.', '', 'outside', 'secret.md', 'vault', 'vault-evil', 'x.md', 'sub', 'a.md', '%2e%2e', '~', root, base, '\\..', '..\\', '/', '//', '\u0000', 'ignored.md');
    const locator = fc.tuple(fc.array(piece, { minLength: 1, maxLength: 8 }), fc.constantFrom('/', '\\', '/./'), fc.constantFrom('', '#L1-L9', '#L3', ':1-3', '#page=1&L1-L2', '#section'));
    fc.assert(
      fc.property(locator, ([parts, sep, fragment]) => {
        reads.length = 0;
        const r = serve(parts.join(sep) + fragment);
        expect(r.text ?? '').not.toContain(CANARY);
        expect(r.message ?? '').not.toContain(CANARY);
        expect(outsideRoot()).toEqual([]);
      }),
      { numRuns: Number(process.env.SYNAPSIS_FUZZ_RUNS ?? 300), seed: 11 },
    );
  });

  it('a file swapped for a symlink to outside after indexing is served from the index, never from the link target', () => {
    const file = path.join(root, 'sub', 'b.md');
    fs.rmSync(file);
    fs.symlinkSync(path.join(base, 'outside', 'secret.md'), file);
    const r = engine.source('sub/b.md');
    expect(r.text).not.toContain(CANARY);
    expect(r).toMatchObject({ stale: true, text: '# B\n\nInside the root.' });
  });
});
