import { describe, expect, it } from 'vitest';
import { chunkingParams, loadConfig, MMAP_MB_DEFAULT } from './config.ts';

describe('loadConfig', () => {
  it('uses the defaults of docs/design.md §9', () => {
    const c = loadConfig({}, {});
    expect(c).toMatchObject({ chunkSize: 1200, chunkOverlap: 200, topK: 8, minScore: 0.2, sensitivityEnable: true, keepIndexVersions: 3, profile: 'default' });
    // RRF's k comes from the retrieval profile unless set here.
    expect(c.rrfK).toBeUndefined();
    expect(c.maxFileBytes).toBe(20 * 1024 * 1024);
  });

  it('reads the specification environment names', () => {
    const c = loadConfig({}, {
      SYN_CHUNK_SIZE: '800', SYN_CHUNK_OVERLAP: '100', SYN_TOP_K: '5', SYN_MIN_SCORE: '0.5',
      SYN_SENSITIVITY_ENABLE: 'false', SYN_SOURCE_ROOTS: '/a,/b', SYN_INDEX_PATH: '/tmp/idx', SYN_LEXICAL_PRUNING: 'off',
    });
    expect(c).toMatchObject({ chunkSize: 800, chunkOverlap: 100, topK: 5, minScore: 0.5, sensitivityEnable: false, sourceRoots: ['/a', '/b'], indexPath: '/tmp/idx', lexicalPruning: false });
    expect(loadConfig({}, {}).lexicalPruning).toBe(true);
    expect(loadConfig({}, { SYN_SOURCE_ROOTS: '["/x y"]' }).sourceRoots).toEqual(['/x y']);
  });

  it('reads the memory map size in MB and refuses what SQLite cannot map', () => {
    expect(loadConfig({}, {}).mmapMb).toBe(MMAP_MB_DEFAULT);
    expect(MMAP_MB_DEFAULT).toBe(128);
    expect(loadConfig({}, { SYN_MMAP_MB: '0' }).mmapMb).toBe(0);
    expect(loadConfig({}, { SYN_MMAP_MB: '256' }).mmapMb).toBe(256);
    expect(() => loadConfig({}, { SYN_MMAP_MB: '-1' })).toThrowError(/mmapMb/);
    expect(() => loadConfig({}, { SYN_MMAP_MB: '4096' })).toThrowError(/mmapMb/);
    expect(() => loadConfig({}, { SYN_MMAP_MB: 'lots' })).toThrowError(/SYN_MMAP_MB/);
  });

  it('lets explicit overrides win over the environment', () => {
    expect(loadConfig({ topK: 3 }, { SYN_TOP_K: '9' }).topK).toBe(3);
  });

  it('rejects malformed values with a message naming the variable', () => {
    expect(() => loadConfig({}, { SYN_CHUNK_SIZE: 'big' })).toThrowError(/SYN_CHUNK_SIZE/);
    expect(() => loadConfig({}, { SYN_SENSITIVITY_ENABLE: 'maybe' })).toThrowError(/SYN_SENSITIVITY_ENABLE/);
    expect(() => loadConfig({ chunkOverlap: 900 }, {})).toThrowError(/chunkOverlap/);
    expect(() => loadConfig({ topK: 0 }, {})).toThrowError(expect.objectContaining({ code: 'E_SYN_BAD_REQUEST' }));
  });

  it('derives chunking params that change with chunk size', () => {
    expect(chunkingParams(loadConfig({}, {}))).not.toEqual(chunkingParams(loadConfig({ chunkSize: 900 }, {})));
  });
});
