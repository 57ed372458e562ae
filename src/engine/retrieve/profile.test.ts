import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDirs } from '../../../test/helpers/tmp.ts';
import { SynapsisError } from '../../shared/errors.ts';
import shipped from './default-profile.json' with { type: 'json' };
import { DEFAULT_PROFILE, denseWeight, listProfiles, loadProfile, parseProfile, profilesDir, saveProfile, type RetrievalProfile } from './profile.ts';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

/** The error `fn` throws (the test fails when it throws nothing). */
function thrown(fn: () => unknown): SynapsisError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SynapsisError);
    return error as SynapsisError;
  }
  throw new Error('expected an error, none was thrown');
}

const profile = (over: Record<string, unknown> = {}): RetrievalProfile => parseProfile({ name: 'fitted', ...over }, 'test');

describe('parseProfile', () => {
  it('fills in every default from a name alone', () => {
    expect(parseProfile({ name: 'bare' }, 'test')).toEqual({
      name: 'bare',
      description: '',
      produced_by: '',
      fitted: {},
      fusion: 'rrf',
      rrf_k: 60,
      normalize: 'minmax',
      weights: { lexical: 1, dense: 1, models: {} },
      depth: { lexical: 100, dense: 100 },
      chunk_share: null,
      techniques: { long_query: null, lexical_prf: null, dense_prf: null, doc_score: null },
    });
  });

  it('takes a chunk_share from 0 to 1, or null (the better of chunk and sentence), and names a share out of range', () => {
    expect(parseProfile({ name: 'blend', chunk_share: 0.2 }, 'test').chunk_share).toBe(0.2);
    expect(parseProfile({ name: 'edge', chunk_share: 0 }, 'test').chunk_share).toBe(0);
    expect(parseProfile({ name: 'max', chunk_share: null }, 'test').chunk_share).toBeNull();
    for (const bad of [1.5, -0.1, '0.2']) {
      expect(() => parseProfile({ name: 'bad', chunk_share: bad }, 'test.json')).toThrow(/chunk_share/);
    }
  });

  it('fills in defaults inside partly given objects (weights, depth, doc_score tail)', () => {
    const p = parseProfile({ name: 'partial', weights: { dense: 0.5 }, depth: { dense: 20 }, techniques: { doc_score: { kind: 'sum' } } }, 'test');
    expect(p.weights).toEqual({ lexical: 1, dense: 0.5, models: {} });
    expect(p.depth).toEqual({ lexical: 100, dense: 20 });
    expect(p.techniques.doc_score).toEqual({ kind: 'sum', tail: 0.5 });
    expect(p.techniques.lexical_prf).toBeNull();
  });

  it('rejects a bad name with E_SYN_BAD_REQUEST naming the field and where the profile came from', () => {
    for (const name of ['has space', 'a/b', '', 'x'.repeat(65)]) {
      const error = thrown(() => parseProfile({ name }, 'my-file.json'));
      expect(error.code).toBe('E_SYN_BAD_REQUEST');
      expect(error.message).toContain('my-file.json');
      expect(error.message).toContain('name');
    }
    expect(parseProfile({ name: 'ok_name-1.2' }, 'test').name).toBe('ok_name-1.2');
  });

  it('is strict: an unknown key, at the top or nested, is rejected and named', () => {
    const top = thrown(() => parseProfile({ name: 'p', fusoin: 'rrf' }, 'test'));
    expect(top.code).toBe('E_SYN_BAD_REQUEST');
    expect(top.message).toContain('fusoin');
    const nested = thrown(() => parseProfile({ name: 'p', weights: { lexical: 1, sparse: 2 } }, 'test'));
    expect(nested.code).toBe('E_SYN_BAD_REQUEST');
    expect(nested.message).toContain('sparse');
    const technique = thrown(() => parseProfile({ name: 'p', techniques: { lexical_prf: { docs: 3, terms: 5, weight: 1, extra: 1 } } }, 'test'));
    expect(technique.message).toContain('extra');
  });

  it('rejects a negative weight, naming its path', () => {
    const lexical = thrown(() => parseProfile({ name: 'p', weights: { lexical: -0.1 } }, 'test'));
    expect(lexical.code).toBe('E_SYN_BAD_REQUEST');
    expect(lexical.message).toContain('weights.lexical');
    const model = thrown(() => parseProfile({ name: 'p', weights: { models: { 'bge-m3': -1 } } }, 'test'));
    expect(model.message).toContain('weights.models.bge-m3');
    const prf = thrown(() => parseProfile({ name: 'p', techniques: { lexical_prf: { docs: 3, terms: 5, weight: -2 } } }, 'test'));
    expect(prf.message).toContain('techniques.lexical_prf.weight');
    // Zero is a weight (the list is left out), not an error.
    expect(parseProfile({ name: 'p', weights: { lexical: 0 } }, 'test').weights.lexical).toBe(0);
  });

  it('rejects an unknown fusion kind and a zero depth', () => {
    expect(thrown(() => parseProfile({ name: 'p', fusion: 'borda' }, 'test')).message).toContain('fusion');
    expect(thrown(() => parseProfile({ name: 'p', depth: { lexical: 0 } }, 'test')).message).toContain('depth.lexical');
  });
});

describe('DEFAULT_PROFILE', () => {
  it('is the shipped file, parsed, and is named default', () => {
    expect(DEFAULT_PROFILE.name).toBe('default');
    expect(DEFAULT_PROFILE).toEqual(parseProfile(shipped, 'shipped'));
    // It says how it was made, and that it was fitted on training (or dev) queries only, never test.
    expect(DEFAULT_PROFILE.produced_by).toMatch(/^synapsis tune( --dataset \S+ --split (train|dev))+ /);
    expect(String(DEFAULT_PROFILE.fitted.split).split('+').every((split) => split === 'train' || split === 'dev')).toBe(true);
    expect(DEFAULT_PROFILE.weights.lexical).toBeGreaterThan(0);
  });
});

describe('denseWeight', () => {
  const p = profile({ weights: { dense: 0.4, models: { 'bge-m3': 2, 'E5-small': 3, 'e5-small-v2-exact': 5 } } });

  it("uses the model's own weight when the profile names it exactly", () => {
    expect(denseWeight(p, 'bge-m3')).toBe(2);
    // The exact name wins over a shorter prefix that also matches.
    expect(denseWeight(p, 'e5-small-v2-exact')).toBe(5);
  });

  it('matches a model name that starts with a named prefix, ignoring case', () => {
    expect(denseWeight(p, 'BGE-M3-Q8_0.gguf')).toBe(2);
    expect(denseWeight(p, 'e5-small-v2.Q4_K_M')).toBe(3);
  });

  it('falls back to weights.dense for a model the profile does not name (a prefix must match from the start)', () => {
    expect(denseWeight(p, 'nomic-embed-text')).toBe(0.4);
    expect(denseWeight(p, 'multilingual-e5-small')).toBe(0.4);
    expect(denseWeight(DEFAULT_PROFILE, 'anything')).toBe(1);
  });
});

describe('loadProfile, saveProfile and listProfiles', () => {
  it('returns the shipped profile for no reference or "default"', () => {
    const dataDir = temp.make('syn-profile-');
    expect(loadProfile(undefined, dataDir)).toBe(DEFAULT_PROFILE);
    expect(loadProfile('', dataDir)).toBe(DEFAULT_PROFILE);
    expect(loadProfile('default', dataDir)).toBe(DEFAULT_PROFILE);
  });

  it('round-trips a saved profile by name, writing it under <dataDir>/profiles without a leftover temporary file', () => {
    const dataDir = temp.make('syn-profile-');
    const saved = profile({ name: 'tuned-1', fusion: 'weighted', normalize: 'zscore', weights: { lexical: 0.3, dense: 0.7, models: { 'bge-m3': 1.5 } }, techniques: { doc_score: { kind: 'sum', tail: 0.2 } } });
    const file = saveProfile(dataDir, saved);
    expect(file).toBe(path.join(profilesDir(dataDir), 'tuned-1.json'));
    expect(fs.readdirSync(profilesDir(dataDir))).toEqual(['tuned-1.json']);
    expect(loadProfile('tuned-1', dataDir)).toEqual(saved);

    // Saving again replaces the file whole, still without a temporary file left behind.
    saveProfile(dataDir, { ...saved, rrf_k: 10 });
    expect(fs.readdirSync(profilesDir(dataDir))).toEqual(['tuned-1.json']);
    expect(loadProfile('tuned-1', dataDir).rrf_k).toBe(10);
  });

  it('refuses to save a profile named default (and an invalid one) and writes nothing', () => {
    const dataDir = temp.make('syn-profile-');
    const error = thrown(() => saveProfile(dataDir, DEFAULT_PROFILE));
    expect(error.code).toBe('E_SYN_BAD_REQUEST');
    expect(error.message).toContain('default');
    expect(thrown(() => saveProfile(dataDir, { ...profile(), rrf_k: -1 })).code).toBe('E_SYN_BAD_REQUEST');
    expect(listProfiles(dataDir)).toEqual([]);
    expect(fs.existsSync(path.join(profilesDir(dataDir), 'default.json'))).toBe(false);
  });

  it('lists saved profiles sorted, by name without .json, ignoring other files; none for a fresh data dir', () => {
    const dataDir = temp.make('syn-profile-');
    expect(listProfiles(dataDir)).toEqual([]);
    saveProfile(dataDir, profile({ name: 'zeta' }));
    saveProfile(dataDir, profile({ name: 'alpha' }));
    fs.writeFileSync(path.join(profilesDir(dataDir), 'notes.txt'), 'not a profile');
    expect(listProfiles(dataDir)).toEqual(['alpha', 'zeta']);
  });

  it('names the known profiles when asked for an unknown one', () => {
    const dataDir = temp.make('syn-profile-');
    saveProfile(dataDir, profile({ name: 'mine' }));
    const error = thrown(() => loadProfile('missing', dataDir));
    expect(error.code).toBe('E_SYN_BAD_REQUEST');
    expect(error.message).toContain('"missing"');
    expect(error.message).toMatch(/known: default, mine$/);
  });

  it('loads a profile from a path to a .json file', () => {
    const dir = temp.make('syn-profile-file-', { 'elsewhere/custom.json': JSON.stringify({ name: 'custom', rrf_k: 5 }) });
    const loaded = loadProfile(path.join(dir, 'elsewhere', 'custom.json'), temp.make('syn-profile-'));
    expect(loaded.name).toBe('custom');
    expect(loaded.rrf_k).toBe(5);
    expect(loaded.weights).toEqual({ lexical: 1, dense: 1, models: {} });
  });

  it('names the file when it is not valid JSON, and when its content is not a valid profile', () => {
    const dataDir = temp.make('syn-profile-');
    fs.mkdirSync(profilesDir(dataDir), { recursive: true });
    const broken = path.join(profilesDir(dataDir), 'broken.json');
    fs.writeFileSync(broken, '{ "name": "broken", ');
    const error = thrown(() => loadProfile('broken', dataDir));
    expect(error.code).toBe('E_SYN_BAD_REQUEST');
    expect(error.message).toContain(broken);
    expect(error.message).toContain('not valid JSON');

    const invalid = path.join(profilesDir(dataDir), 'invalid.json');
    fs.writeFileSync(invalid, JSON.stringify({ name: 'invalid', rrf_k: 'sixty' }));
    const bad = thrown(() => loadProfile('invalid', dataDir));
    expect(bad.message).toContain(invalid);
    expect(bad.message).toContain('rrf_k');
  });

  it('does not read a name with ../ from outside the profiles dir', () => {
    // A valid profile one level above profiles/: "../outside" must not reach it.
    const dataDir = temp.make('syn-profile-', { 'outside.json': JSON.stringify({ name: 'outside' }) });
    fs.mkdirSync(profilesDir(dataDir), { recursive: true });
    for (const ref of ['../outside', '..\\outside']) {
      const error = thrown(() => loadProfile(ref, dataDir));
      expect(error.code).toBe('E_SYN_BAD_REQUEST');
    }
  });
});

describe('denseWeight with overlapping model keys', () => {
  it('uses the longest matching prefix, whatever order the keys were written in', () => {
    const p = parseProfile({ name: 'p', weights: { models: { 'e5-small': 3, 'e5-small-v2': 5 } } }, 'test');
    expect(denseWeight(p, 'e5-small-v2.Q8_0')).toBe(5);
    expect(denseWeight(p, 'e5-small.Q4_0')).toBe(3);
  });
});
